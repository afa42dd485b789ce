// The web app's first song row at a real library's size, for bench:catalogue: Chromium (Debian's, as in the e2e
// tests) opens the home page and the songs page signed in, and times each navigation until the first row of the Songs
// list is on screen, cold (a fresh browser context: nothing cached; the median of three) and warm (the median of
// three). Also the page's JS heap.
//
// The figure is taken in the page: from the navigation's start (the page's time origin) to the first frame after the
// row entered the document. Playwright's own wait for the row (its wall clock from page.goto, also reported) adds
// 80–440 ms of its own on this machine (its polling and the DevTools protocol's round trips, measured against the
// in-page time, issue 26), which no user waits for.
/* global window, document, MutationObserver, requestAnimationFrame -- the page's, in functions run there */
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
const COLD_RUNS = 3;
const ROW = '[role="list"][aria-label="Songs"] [role="listitem"]';
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
  // Notes when the first row enters the document, then the first frame after that (a task after the next animation
  // frame: the row has been painted).
  await context.addInitScript((row) => {
    const observer = new MutationObserver(() => {
      if (document.querySelector(row) === null) return;
      observer.disconnect();
      requestAnimationFrame(() => {
        setTimeout(() => {
          window.__tonearmFirstRow = performance.now();
        });
      });
    });
    observer.observe(document, { subtree: true, childList: true });
  }, ROW);
  return context;
}

/**
 * Milliseconds from the navigation's start until the first row of the Songs list is painted, in the page (`inPage`)
 * and as Playwright's wait for it saw it (`harness`).
 */
async function firstRowMs(page, path) {
  const started = performance.now();
  await page.goto(path, { waitUntil: 'commit' });
  await page.locator(ROW).first().waitFor({ timeout: 30_000 });
  const harness = performance.now() - started;
  await page.waitForFunction(() => window.__tonearmFirstRow !== undefined, null, { timeout: 30_000 });
  const inPage = await page.evaluate(() => window.__tonearmFirstRow);
  return { inPage, harness };
}

/** The median of each figure over the runs. */
function medians(runs) {
  return { inPage: median(runs.map((run) => run.inPage)), harness: median(runs.map((run) => run.harness)) };
}

/**
 * For each page: the median of COLD_RUNS cold visits (each in a new context) and of RUNS warm visits, each as
 * { inPage, harness }, and the JS heap after the last one. Answers table rows.
 */
export async function measureFirstRows(base, cookie, user) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const rows = [];
    for (const [name, path] of PAGES) {
      const cold = [];
      for (let i = 0; i < COLD_RUNS; i += 1) {
        const context = await signedInContext(browser, base, cookie, user);
        cold.push(await firstRowMs(await context.newPage(), path));
        await context.close();
      }
      const context = await signedInContext(browser, base, cookie, user);
      const page = await context.newPage();
      await firstRowMs(page, path);
      const warm = [];
      for (let i = 0; i < RUNS; i += 1) warm.push(await firstRowMs(page, path));
      const cdp = await context.newCDPSession(page);
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      rows.push({ name, cold: medians(cold), warm: medians(warm), heapMiB: usedSize / 1048576 });
      await context.close();
    }
    return rows;
  } finally {
    await browser.close();
  }
}
