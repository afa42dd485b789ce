// The web app's first song row at a real library's size, for bench:catalogue: Chromium (Debian's, as in the e2e
// tests) opens the home page and the songs page signed in as a listener, and times each navigation until the first
// row of the Songs list is visible, cold (a fresh browser context: nothing cached) and warm. Also the page's JS heap.
import { chromium } from '@playwright/test';
import { StorageKeys } from '@tonearm/contract';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const RUNS = 3;
const PAGES = [
  ['home page', '/dashboard'],
  ['songs page', '/dashboard/songs'],
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A browser context signed in with the session cookie, the app's stored user in place as after a login. */
async function signedInContext(browser, base, cookie, user) {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url: base }]);
  await context.addInitScript(
    ([key, json]) => {
      if (localStorage.getItem(key) === null) localStorage.setItem(key, json);
    },
    [StorageKeys.user, JSON.stringify(user)],
  );
  return context;
}

/** Milliseconds from the navigation's start until the first row of the Songs list is visible. */
async function firstRowMs(page, path) {
  const started = performance.now();
  await page.goto(path, { waitUntil: 'commit' });
  await page.locator('[role="list"][aria-label="Songs"] [role="listitem"]').first().waitFor({ timeout: 30_000 });
  return performance.now() - started;
}

/**
 * For each page: the cold figure (a new context, first visit) and the median of RUNS warm visits, and the JS heap
 * after the last one. Answers table rows.
 */
export async function measureFirstRows(base, cookie, user) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const rows = [];
    for (const [name, path] of PAGES) {
      const context = await signedInContext(browser, base, cookie, user);
      const page = await context.newPage();
      const cold = await firstRowMs(page, path);
      const warm = [];
      for (let i = 0; i < RUNS; i += 1) warm.push(await firstRowMs(page, path));
      const cdp = await context.newCDPSession(page);
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      rows.push({ name, cold, warm: median(warm), heapMiB: usedSize / 1048576 });
      await context.close();
    }
    return rows;
  } finally {
    await browser.close();
  }
}
