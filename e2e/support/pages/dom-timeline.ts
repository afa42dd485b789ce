import type { Page } from '@playwright/test';

/** Something to watch in the page: an element matching `selector`, optionally containing `text`. */
export interface Probe {
  selector: string;
  text?: string;
}

/** When a probe's element first appeared and when it then went away (performance.now() ms in the page). */
export interface Presence {
  seenAt: number | null;
  goneAt: number | null;
}

const KEY = '__e2eTimeline';

/**
 * Records, inside the page, when elements appear and disappear. Timing is taken where it happens, by a
 * MutationObserver, so a busy test runner polling from outside cannot blur a 1 s or 3 s measurement.
 */
export async function startTimeline<Name extends string>(page: Page, probes: Record<Name, Probe>): Promise<void> {
  await page.evaluate(
    ({ probes: watched, key }) => {
      const timeline: Record<string, { seenAt: number | null; goneAt: number | null }> = {};
      for (const name of Object.keys(watched)) timeline[name] = { seenAt: null, goneAt: null };
      (window as unknown as Record<string, unknown>)[key] = timeline;
      const present = ({ selector, text }: { selector: string; text?: string }): boolean =>
        Array.from(document.querySelectorAll(selector)).some(
          (element) => text === undefined || element.textContent.includes(text),
        );
      const check = (): void => {
        const now = performance.now();
        for (const [name, probe] of Object.entries(watched)) {
          const entry = timeline[name];
          if (!entry) continue;
          const isPresent = present(probe);
          if (isPresent && entry.seenAt === null) entry.seenAt = now;
          if (!isPresent && entry.seenAt !== null && entry.goneAt === null) entry.goneAt = now;
        }
      };
      check();
      new MutationObserver(check).observe(document.body, { childList: true, subtree: true, characterData: true });
    },
    { probes: probes as Record<string, Probe>, key: KEY },
  );
}

export async function readTimeline<Name extends string>(page: Page): Promise<Record<Name, Presence>> {
  return page.evaluate((key) => (window as unknown as Record<string, unknown>)[key], KEY) as Promise<
    Record<Name, Presence>
  >;
}
