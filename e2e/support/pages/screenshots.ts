import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';

/** e2e/screenshots (gitignored): pictures for people to look at, not compared by the suite. */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../screenshots');

const MAX_HEIGHT = 6000;

/**
 * Saves a full-page PNG. The dashboard scrolls inside <main>, not the document, so a plain fullPage shot would
 * stop at the viewport: the viewport grows by the main view's hidden overflow for the shot, then is restored.
 * Pass `expandMain: false` for popups, which are laid out against the viewport the user has.
 */
export async function saveFullPage(page: Page, name: string, { expandMain = true } = {}): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  const viewport = page.viewportSize();
  const overflow = expandMain
    ? await page.evaluate(() => {
        const main = document.querySelector('main');
        return main ? Math.max(0, main.scrollHeight - main.clientHeight) : 0;
      })
    : 0;
  if (viewport && overflow > 0) {
    await page.setViewportSize({ width: viewport.width, height: Math.min(MAX_HEIGHT, viewport.height + overflow) });
  }
  try {
    await page.screenshot({ path, fullPage: true, animations: 'disabled', caret: 'hide' });
  } finally {
    if (viewport && overflow > 0) await page.setViewportSize(viewport);
  }
  return path;
}
