import { expect, type Locator } from '@playwright/test';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** `cover` (an alert, say) shares no pixel with any of `needed` that is visible. */
export async function expectCoversNone(cover: Locator, needed: Record<string, Locator>): Promise<void> {
  const box = await cover.boundingBox();
  if (box === null) throw new Error('the covering element is not on screen');
  for (const [name, locator] of Object.entries(needed)) {
    await expect(locator, name).toBeVisible();
    const other = await locator.boundingBox();
    if (other === null) throw new Error(`${name} is not on screen`);
    expect(overlaps(box, other), `${name} (${JSON.stringify(other)}) is under ${JSON.stringify(box)}`).toBe(false);
  }
}
