import { expect, test, type Locator, type Page } from '@playwright/test';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { audioSnapshot, bufferedEnd, setGapless, songLength } from './support/pages/audio-probe.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import { chooseSongMenuItem, dismissAlerts, pressShortcut, screenshotBoth } from './support/web-app.js';

const server = useTonearmServer();
/** The demo artist with exactly two songs, in this order on their page. */
const DUO_ARTIST = 'Slow Tide Ensemble';

let listener: Account;

test.beforeAll(async () => {
  listener = newAccount('player');
  await registerAccount(server.baseURL, listener);
});

function names(list: Locator): Promise<string[]> {
  return list.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
}

function nowPlaying(dashboard: Dashboard): Locator {
  return dashboard.player.locator('.now-playing__name');
}

async function openQueue(page: Page, dashboard: Dashboard): Promise<Locator> {
  const toggle = dashboard.player.getByRole('button', { name: 'Queue', exact: true });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const queue = page.getByRole('region', { name: 'Queue' });
  await expect(queue).toBeVisible();
  return queue;
}

/** Clicks one of a queued row's actions, which show while the pointer is over the row. */
async function rowAction(nextUp: Locator, song: string, action: string): Promise<void> {
  const row = nextUp.getByRole('listitem', { name: song, exact: true });
  await row.hover();
  await row.getByRole('button', { name: action, exact: true }).click();
}

/** Seeks the playing song to `secondsBeforeEnd` before its end through the seek slider. */
async function seekNearEnd(dashboard: Dashboard, secondsBeforeEnd: number): Promise<void> {
  const duration = await songLength(dashboard.player);
  await dashboard.player.getByRole('slider', { name: 'Seek' }).fill(String(Math.floor(duration - secondsBeforeEnd)));
}

/** The paths of the gapless streams asked for from now on. */
function gaplessStreams(page: Page): Set<string> {
  const paths = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/media/audio/') && url.searchParams.get('format') === 'gapless') {
      paths.add(url.pathname);
    }
  });
  return paths;
}

/**
 * Gapless (the default), the first song paused near its end: the second one's stream is already asked for and its
 * data appended after the first one's in the same element; it then plays on in that element, with no wait and no
 * new source.
 */
async function expectAppendedAndPlayedOn(
  page: Page,
  dashboard: Dashboard,
  streams: Set<string>,
  second: string,
): Promise<void> {
  const firstLength = await songLength(dashboard.player);
  await expect.poll(() => streams.size).toBeGreaterThanOrEqual(2);
  await expect.poll(() => bufferedEnd(dashboard.audio)).toBeGreaterThan(firstLength + 1);
  const source = (await audioSnapshot(dashboard.audio)).src;
  await dashboard.audio.evaluate((audio: HTMLAudioElement) => {
    audio.dataset.e2eRole = 'chain';
    audio.dataset.e2eStalls = '';
    for (const event of ['waiting', 'emptied', 'ended', 'abort']) {
      audio.addEventListener(event, () => (audio.dataset.e2eStalls = `${audio.dataset.e2eStalls ?? ''}${event} `));
    }
  });
  await dashboard.player.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(nowPlaying(dashboard)).toHaveText(second, { timeout: 15_000 });
  await expect(dashboard.audio).toHaveAttribute('data-e2e-role', 'chain');
  // The element's time runs on past the first song: the second one plays from the data appended ahead.
  await expect.poll(async () => (await audioSnapshot(dashboard.audio)).currentTime).toBeGreaterThan(firstLength + 0.5);
  const after = await audioSnapshot(dashboard.audio);
  expect(after.src).toBe(source);
  expect(after.paused).toBe(false);
  await expect(dashboard.audio).toHaveAttribute('data-e2e-stalls', '');
}

/** Gapless off: the second song loads in the standby element near the first one's end and is swapped in at once. */
async function expectPreloadedAndSwapped(page: Page, dashboard: Dashboard, second: string): Promise<void> {
  const standby = page.locator('audio[data-testid="player-audio-next"]');
  await expect.poll(() => standby.evaluate((audio: HTMLAudioElement) => audio.src)).toMatch(/\/media\/audio\//);
  await expect.poll(() => standby.evaluate((audio: HTMLAudioElement) => audio.readyState)).toBeGreaterThanOrEqual(2);
  // Mark both elements, then time the hand-over from one song's end to the next one's first frame.
  await page.evaluate(() => {
    const active = document.querySelector<HTMLAudioElement>('audio[data-testid="player-audio"]');
    const next = document.querySelector<HTMLAudioElement>('audio[data-testid="player-audio-next"]');
    if (!active || !next) throw new Error('audio deck missing');
    next.dataset.e2eRole = 'preloaded';
    active.addEventListener('ended', () => (active.dataset.e2eEndedAt = String(performance.now())), { once: true });
    next.addEventListener('playing', () => (next.dataset.e2ePlayingAt = String(performance.now())), { once: true });
  });
  await dashboard.player.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(nowPlaying(dashboard)).toHaveText(second, { timeout: 15_000 });
  await expect(dashboard.audio).toHaveAttribute('data-e2e-role', 'preloaded');
  const gap = await page.evaluate(() => {
    const ended = Number(document.querySelector<HTMLElement>('[data-e2e-ended-at]')?.dataset.e2eEndedAt);
    const started = Number(document.querySelector<HTMLElement>('[data-e2e-playing-at]')?.dataset.e2ePlayingAt);
    return started - ended;
  });
  expect(gap).toBeGreaterThanOrEqual(0);
  expect(gap).toBeLessThan(500);
}

/** Plays the duo artist's two songs from their page; returns their names in play order. */
async function playDuo(page: Page, dashboard: Dashboard): Promise<[string, string]> {
  const list = await dashboard.openArtist(DUO_ARTIST);
  const [first, second] = await names(list);
  if (first === undefined || second === undefined) throw new Error(`${DUO_ARTIST} should have two songs`);
  await page.getByRole('button', { name: `Play ${DUO_ARTIST}` }).click();
  await expect(nowPlaying(dashboard)).toHaveText(first);
  return [first, second];
}

test('shuffle, the queue view (play next, add, remove, reorder, jump) and the screenshots of it', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await logIn(page, listener);
  const list = await dashboard.openSongs();
  const order = await names(list);
  expect(order).toHaveLength(12);
  await page.getByRole('button', { name: 'Play songs' }).click();
  await expect(nowPlaying(dashboard)).toHaveText(order[0] ?? '');

  const queue = await openQueue(page, dashboard);
  const nextUp = queue.getByRole('list', { name: 'Next up' });
  expect(await names(nextUp)).toEqual(order.slice(1));

  // Shuffle keeps the song that plays and mixes the rest; turning it off restores the list order.
  const shuffle = dashboard.player.getByRole('button', { name: 'Shuffle' });
  await shuffle.click();
  await expect(shuffle).toHaveAttribute('aria-pressed', 'true');
  await expect(nowPlaying(dashboard)).toHaveText(order[0] ?? '');
  await expect.poll(() => names(nextUp)).not.toEqual(order.slice(1));
  expect([...(await names(nextUp))].sort()).toEqual([...order.slice(1)].sort());
  await shuffle.click();
  await expect(shuffle).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => names(nextUp)).toEqual(order.slice(1));

  // Play next and Add to queue, from a song row's menu.
  const [, second = '', third = '', , , sixth = ''] = order;
  await chooseSongMenuItem(page, await dashboard.revealSong(list, sixth), sixth, 'Play next');
  await expect.poll(async () => (await names(nextUp))[0]).toBe(sixth);
  await chooseSongMenuItem(page, await dashboard.revealSong(list, second), second, 'Add to queue');
  await expect.poll(async () => (await names(nextUp)).at(-1)).toBe(second);

  // A row's actions show on hover (its title has the width otherwise). Remove, move with a button, move with the
  // keyboard on the handle.
  const thirdRow = nextUp.getByRole('listitem', { name: third, exact: true });
  const actionsWidth = async (): Promise<number> =>
    (await thirdRow.locator('.queue-item__actions').boundingBox())?.width ?? 0;
  await page.mouse.move(0, 0);
  expect(await actionsWidth()).toBeLessThanOrEqual(1);
  await thirdRow.hover();
  expect(await actionsWidth()).toBeGreaterThanOrEqual(4 * 32);
  await rowAction(nextUp, third, `Remove ${third} from queue`);
  await expect.poll(() => names(nextUp)).not.toContain(third);
  await rowAction(nextUp, sixth, `Move ${sixth} down`);
  await expect.poll(async () => (await names(nextUp)).indexOf(sixth)).toBe(1);
  await queue.getByRole('button', { name: `Reorder ${sixth}` }).focus();
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await names(nextUp)).indexOf(sixth)).toBe(0);
  await expect(queue.getByRole('button', { name: `Reorder ${sixth}` })).toBeFocused();

  // Jump to a queued song.
  await rowAction(nextUp, sixth, `Play ${sixth}`);
  await expect(nowPlaying(dashboard)).toHaveText(sixth);
  await expect(queue.getByRole('group', { name: `Now playing: ${sixth}` })).toBeVisible();
  await dashboard.player.getByRole('button', { name: 'Pause', exact: true }).click();
  await dismissAlerts(page);
  await screenshotBoth(page, 'queue', {
    prepare: async () => {
      await openQueue(page, dashboard);
    },
  });
});

for (const gapless of [true, false]) {
  const handOver = gapless
    ? 'gapless: the next song is appended ahead and plays on in the same element'
    : 'gapless off: the next song is preloaded and swapped in';
  test(`repeat off, all and one decide what follows the last song; ${handOver}`, async ({ page }) => {
    if (!gapless) await setGapless(page, false);
    const streams = gaplessStreams(page);
    const dashboard = new Dashboard(page);
    await logIn(page, listener);
    const [first, second] = await playDuo(page, dashboard);
    const repeat = dashboard.player.getByRole('button', { name: /^Repeat: / });
    await expect(repeat).toHaveAccessibleName('Repeat: off');

    // Off, first song near its end: the second one is already loading.
    await dashboard.player.getByRole('button', { name: 'Pause', exact: true }).click();
    await seekNearEnd(dashboard, 2);
    if (gapless) await expectAppendedAndPlayedOn(page, dashboard, streams, second);
    else await expectPreloadedAndSwapped(page, dashboard, second);

    // Off, last song ends: playback stops.
    await seekNearEnd(dashboard, 1.5);
    await expect(dashboard.player.getByRole('button', { name: 'Play', exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(nowPlaying(dashboard)).toHaveText(second);

    // All: after the last song comes the first.
    await repeat.click();
    await expect(repeat).toHaveAccessibleName('Repeat: all');
    await dashboard.player.getByRole('button', { name: 'Play', exact: true }).click();
    await seekNearEnd(dashboard, 1.5);
    await expect(nowPlaying(dashboard)).toHaveText(first, { timeout: 15_000 });
    await expect(dashboard.player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();

    // One: the same song starts over.
    await repeat.click();
    await expect(repeat).toHaveAccessibleName('Repeat: one');
    await page.evaluate(() => {
      const active = document.querySelector<HTMLAudioElement>('audio[data-testid="player-audio"]');
      active?.addEventListener('ended', () => (active.dataset.e2eEnded = 'yes'), { once: true });
    });
    await seekNearEnd(dashboard, 1.5);
    await expect(dashboard.audio).toHaveAttribute('data-e2e-ended', 'yes', { timeout: 15_000 });
    await expect.poll(async () => (await audioSnapshot(dashboard.audio)).currentTime).toBeLessThan(5);
    await expect(nowPlaying(dashboard)).toHaveText(first);
    expect((await audioSnapshot(dashboard.audio)).paused).toBe(false);

    await repeat.click();
    await expect(repeat).toHaveAccessibleName('Repeat: off');
  });
}

for (const gapless of [true, false]) {
  test(`queue, song, position, volume, shuffle and repeat are restored after a reload (gapless ${gapless ? 'on' : 'off'})`, async ({
    page,
  }) => {
    if (!gapless) await setGapless(page, false);
    const dashboard = new Dashboard(page);
    await logIn(page, listener);
    const list = await dashboard.openSongs();
    const song = (await names(list))[3] ?? '';
    await (await dashboard.revealSong(list, song)).getByRole('button', { name: `Play ${song}`, exact: true }).click();
    await expect(nowPlaying(dashboard)).toHaveText(song);
    await dashboard.player.getByRole('button', { name: 'Shuffle' }).click();
    await dashboard.player.getByRole('button', { name: /^Repeat: / }).click();
    await dashboard.player.getByRole('slider', { name: 'Volume' }).fill('40');
    await dashboard.player.getByRole('button', { name: 'Pause', exact: true }).click();
    await dashboard.player.getByRole('slider', { name: 'Seek' }).fill('12');
    const queue = await openQueue(page, dashboard);
    const before = await names(queue.getByRole('list', { name: 'Next up' }));
    expect(before).toHaveLength(11);

    await page.reload();
    await expect(nowPlaying(dashboard)).toHaveText(song);
    await expect(dashboard.player.getByRole('slider', { name: 'Volume' })).toHaveValue('40');
    await expect(dashboard.player.getByRole('button', { name: 'Shuffle' })).toHaveAttribute('aria-pressed', 'true');
    await expect(dashboard.player.getByRole('button', { name: /^Repeat: / })).toHaveAccessibleName('Repeat: all');
    await expect(dashboard.player.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
    await expect
      .poll(async () => Number(await dashboard.player.getByRole('slider', { name: 'Seek' }).inputValue()))
      .toBeGreaterThanOrEqual(11);
    const restored = await openQueue(page, dashboard);
    expect(await names(restored.getByRole('list', { name: 'Next up' }))).toEqual(before);

    await dashboard.player.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(async () => (await audioSnapshot(dashboard.audio)).paused).toBe(false);
    const resumed = await audioSnapshot(dashboard.audio);
    // The element's own time is the song's position on either path (a gapless stream from an offset is placed there).
    expect(resumed.currentTime).toBeGreaterThanOrEqual(11);
    expect(resumed.src).toMatch(gapless ? /^blob:/ : /\/media\/audio\//);
    expect(await dashboard.audio.evaluate((audio: HTMLAudioElement) => audio.volume)).toBeCloseTo(0.4, 2);
  });
}

test('keyboard shortcuts drive the player, with a help overlay on "?"', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await logIn(page, listener);
  const [first, second] = await playDuo(page, dashboard);
  const pause = dashboard.player.getByRole('button', { name: 'Pause', exact: true });
  const play = dashboard.player.getByRole('button', { name: 'Play', exact: true });
  await expect(pause).toBeVisible();

  await pressShortcut(page, 'Space');
  await expect(play).toBeVisible();
  await pressShortcut(page, 'k');
  await expect(pause).toBeVisible();
  await pressShortcut(page, 'Space');
  await expect(play).toBeVisible();

  const time = async (): Promise<number> => (await audioSnapshot(dashboard.audio)).currentTime;
  // The button shows the new state before the audio element has stopped: wait for it, so the time stands still.
  await expect.poll(async () => (await audioSnapshot(dashboard.audio)).paused).toBe(true);
  const start = await time();
  await pressShortcut(page, 'ArrowRight');
  await expect.poll(time).toBeCloseTo(start + 5, 0);
  await pressShortcut(page, 'ArrowLeft');
  await expect.poll(time).toBeCloseTo(start, 0);

  const volume = dashboard.player.getByRole('slider', { name: 'Volume' });
  await expect(volume).toHaveValue('100');
  await pressShortcut(page, 'ArrowDown');
  await expect(volume).toHaveValue('90');
  await pressShortcut(page, 'ArrowUp');
  await expect(volume).toHaveValue('100');
  await pressShortcut(page, 'm');
  await expect(dashboard.player.getByRole('button', { name: 'Unmute' })).toBeVisible();
  await pressShortcut(page, 'm');
  await expect(dashboard.player.getByRole('button', { name: 'Mute' })).toBeVisible();

  await pressShortcut(page, 'n');
  await expect(nowPlaying(dashboard)).toHaveText(second);
  // Previous goes back a song only near the start of this one (later it restarts it): stop the clock at 0 first,
  // so a slow machine cannot turn this into a restart.
  await pressShortcut(page, 'Space');
  await expect(play).toBeVisible();
  await expect.poll(async () => (await audioSnapshot(dashboard.audio)).paused).toBe(true);
  await pressShortcut(page, 'ArrowLeft');
  await expect.poll(time).toBeLessThan(0.5);
  await pressShortcut(page, 'p');
  await expect(nowPlaying(dashboard)).toHaveText(first);
  await pressShortcut(page, 's');
  await expect(dashboard.player.getByRole('button', { name: 'Shuffle' })).toHaveAttribute('aria-pressed', 'true');
  await pressShortcut(page, 'r');
  await expect(dashboard.player.getByRole('button', { name: /^Repeat: / })).toHaveAccessibleName('Repeat: all');
  await pressShortcut(page, 'q');
  await expect(page.getByRole('region', { name: 'Queue' })).toBeVisible();
  await pressShortcut(page, 'q');
  await expect(page.getByRole('region', { name: 'Queue' })).toBeHidden();

  // Typing in a field is typing, not a shortcut.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
  await page.getByLabel('Search songs, artists and playlists').pressSequentially('n m');
  await expect(page.getByLabel('Search songs, artists and playlists')).toHaveValue('n m');
  await expect(nowPlaying(dashboard)).toHaveText(first);
  await expect(dashboard.player.getByRole('button', { name: 'Mute' })).toBeVisible();

  await pressShortcut(page, '?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByText('Play or pause')).toBeVisible();
  await expect(help.getByText('Show or hide the queue')).toBeVisible();
  await screenshotBoth(page, 'shortcuts-help', {
    expandMain: false,
    prepare: async () => {
      if (!(await help.isVisible())) await pressShortcut(page, '?');
    },
  });
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});

test('a song that plays sets the Media Session metadata and is recorded server-side', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await logIn(page, listener);
  const [first] = await playDuo(page, dashboard);
  const session = () =>
    page.evaluate(() => ({
      title: navigator.mediaSession.metadata?.title,
      artist: navigator.mediaSession.metadata?.artist,
      artwork: navigator.mediaSession.metadata?.artwork.map((image) => image.src) ?? [],
      state: navigator.mediaSession.playbackState,
    }));
  await expect.poll(async () => (await session()).title).toBe(first);
  const playing = await session();
  expect(playing.artist).toBe(DUO_ARTIST);
  expect(playing.state).toBe('playing');
  expect(playing.artwork.length).toBeGreaterThan(0);
  expect(playing.artwork[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/images\/.+\?w=300$/);
  await dashboard.player.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect.poll(async () => (await session()).state).toBe('paused');

  const songs = (await (await page.request.get('/api/songs')).json()) as { id: number; name: string }[];
  const id = songs.find((song) => song.name === first)?.id;
  await expect
    .poll(async () => ((await (await page.request.get('/api/plays/recent')).json()) as { songId: number }[])[0]?.songId)
    .toBe(id);
});
