import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

const server = useTonearmServer();
// Not UTC: a greeting computed from UTC hours instead of local ones would show here.
test.use({ timezoneId: 'America/Los_Angeles' });

let listener: Account;

test.beforeAll(async () => {
  listener = newAccount('greeted');
  await registerAccount(server.baseURL, listener);
});

function greetingHeading(page: Page) {
  return page.getByRole('heading', { level: 1, name: /^Good (Morning|Afternoon|Evening)$/ });
}

function expectedGreeting(hour: number): string {
  if (hour < 12) return 'Good Morning';
  return hour < 18 ? 'Good Afternoon' : 'Good Evening';
}

test('the greeting follows the hour of the browser clock', async ({ page }) => {
  await logIn(page, listener);
  const hourNow = await page.evaluate(() => new Date().getHours());
  await expect(greetingHeading(page)).toHaveText(expectedGreeting(hourNow));

  // The boundaries of SPEC §1, in the browser's own time zone.
  const cases: [hour: number, minute: number, greeting: string][] = [
    [0, 0, 'Good Morning'],
    [11, 59, 'Good Morning'],
    [12, 0, 'Good Afternoon'],
    [17, 59, 'Good Afternoon'],
    [18, 0, 'Good Evening'],
  ];
  for (const [hour, minute, greeting] of cases) {
    const at = await page.evaluate(([h, m]) => new Date(2026, 5, 15, h, m).getTime(), [hour, minute] as const);
    await page.clock.setFixedTime(at);
    await page.reload();
    await expect(greetingHeading(page), `${hour}:${String(minute).padStart(2, '0')}`).toHaveText(greeting);
    expect(await page.evaluate(() => new Date().getHours())).toBe(hour);
  }
});

async function expectNoCriticalViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.impact ?? 'unknown'} ${v.id} (${v.nodes.length})`).join('; ');
  test.info().annotations.push({ type: `axe ${what}`, description: summary || 'no violations' });
  const critical = results.violations
    .filter((violation) => violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, help: violation.help, nodes: violation.nodes.map((n) => n.target) }));
  expect(critical, `critical axe violations on ${what}`).toEqual([]);
}

test('home, song list and artist view have no critical accessibility violations', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await logIn(page, server.admin);
  await expect(dashboard.songList('Songs').getByRole('listitem').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('list', { name: 'Artists' }).getByRole('link').first()).toBeVisible();
  await expectNoCriticalViolations(page, 'home');

  const songs = await dashboard.openSongs();
  await expect(songs.getByRole('listitem').first()).toBeVisible();
  await expectNoCriticalViolations(page, 'songs');

  const artistSongs = await dashboard.openArtist('Velvet Meridian');
  await expect(artistSongs.getByRole('listitem')).toHaveCount(2);
  await expectNoCriticalViolations(page, 'artist');
});
