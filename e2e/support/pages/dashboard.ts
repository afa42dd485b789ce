import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The dashboard shell, driven through the accessible names of apps/web/TESTING.md. Song lists are virtualised:
 * use `revealSong` to reach a row, it scrolls the main view (the lists' scroll container) until the row exists.
 */
export class Dashboard {
  constructor(readonly page: Page) {}

  get nav(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' });
  }

  get main(): Locator {
    return this.page.getByRole('main');
  }

  get player(): Locator {
    return this.page.getByRole('region', { name: 'Player' });
  }

  /** The one <audio> element of the app. */
  get audio(): Locator {
    return this.page.locator('audio[data-testid="player-audio"]');
  }

  get notifications(): Locator {
    return this.page.getByRole('region', { name: 'Notifications' });
  }

  /** A red alert whose first line is exactly `message`. */
  errorAlert(message: string): Locator {
    return this.notifications.getByRole('alert').filter({ has: this.page.getByText(message, { exact: true }) });
  }

  /** Asserts that an alert is shown as an error: role alert, and a red banner (red clearly above green and blue). */
  async expectRedAlert(alert: Locator): Promise<void> {
    await expect(alert).toHaveClass(/alert--error/);
    const background = await alert.evaluate((element) => getComputedStyle(element).backgroundColor);
    const [red = 0, green = 0, blue = 0] = (background.match(/\d+(\.\d+)?/g) ?? []).map(Number);
    expect(red - Math.max(green, blue), `"${background}" reads as red`).toBeGreaterThan(80);
  }

  /** A success alert whose first line is exactly `message`. */
  successAlert(message: string): Locator {
    return this.notifications.getByRole('status').filter({ has: this.page.getByText(message, { exact: true }) });
  }

  songList(name: string): Locator {
    return this.page.getByRole('list', { name, exact: true });
  }

  dialog(name: string): Locator {
    return this.page.getByRole('dialog', { name, exact: true });
  }

  get confirmDialog(): Locator {
    return this.page.getByRole('alertdialog', { name: 'Are you sure?' });
  }

  get addSongTile(): Locator {
    return this.page.getByRole('button', { name: 'Add song', exact: true });
  }

  /** Opens the general song list (a fresh page load, like following a bookmark). */
  async openSongs(): Promise<Locator> {
    await this.page.goto('/dashboard/songs');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Songs', exact: true })).toBeVisible();
    const list = this.songList('Songs');
    await expect(list).toBeVisible({ timeout: 20_000 });
    return list;
  }

  /** Opens /dashboard/artist and follows the link of `artistName` to their songs. */
  async openArtist(artistName: string): Promise<Locator> {
    await this.page.goto('/dashboard/artist');
    await this.page.getByRole('list', { name: 'Artists' }).getByRole('link', { name: artistName, exact: true }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: artistName, exact: true })).toBeVisible();
    const list = this.songList(`Songs by ${artistName}`);
    await expect(list).toBeVisible();
    return list;
  }

  /** Scrolls the main view until the row of `songName` exists in `list`, and brings it into view. */
  async revealSong(list: Locator, songName: string): Promise<Locator> {
    const row = list.getByRole('listitem', { name: songName, exact: true });
    await expect(list).toBeVisible();
    if ((await row.count()) === 0) {
      await this.main.evaluate((main) => {
        main.scrollTop = 0;
      });
    }
    await expect
      .poll(
        async () => {
          if ((await row.count()) > 0) return true;
          // Step down by most of a screen; from the bottom start over (the list may still be growing).
          await this.main.evaluate((main) => {
            const atEnd = main.scrollTop + main.clientHeight >= main.scrollHeight - 1;
            main.scrollTop = atEnd ? 0 : main.scrollTop + main.clientHeight * 0.8;
          });
          return false;
        },
        { message: `song row "${songName}"`, timeout: 15_000, intervals: [100, 200, 250] },
      )
      .toBe(true);
    await row.scrollIntoViewIfNeeded();
    return row;
  }

  /** The names of the rows currently rendered in `list`, top to bottom. */
  async renderedSongNames(list: Locator): Promise<string[]> {
    return list.getByRole('listitem').evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label') ?? ''));
  }

  /** Opens the three-dots menu of a song row and returns the menu. */
  async openSongMenu(row: Locator, songName: string): Promise<Locator> {
    await row.getByRole('button', { name: `More options for ${songName}`, exact: true }).click();
    const menu = this.page.getByRole('menu', { name: `More options for ${songName}`, exact: true });
    await expect(menu).toBeVisible();
    return menu;
  }

  async logOut(): Promise<void> {
    await this.page.getByRole('button', { name: 'Log out' }).click();
  }
}
