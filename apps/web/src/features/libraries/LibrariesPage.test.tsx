import { useQuery } from '@tanstack/react-query';
import { fireEvent, screen, within } from '@testing-library/react';
import { LibraryClientMessages as Texts, LibraryMessages, type Library } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, makeLibrary, makeScan, makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { artistQueries } from '../artists/queries.js';
import { LibrariesPage } from './LibrariesPage.js';
import { formatWhen } from './library-format.js';
import { LIBRARY_SCAN_POLL_MS } from './queries.js';

const admin = makeUser({ id: 1, username: 'root', role: 'ADMIN' });
const route = '/dashboard/libraries';

const music = makeLibrary(1, {
  name: 'Music',
  path: '/srv/music',
  songCount: 412,
  missingCount: 0,
  lastScannedAt: '2025-06-14T09:02:00.000Z',
  scan: makeScan({
    seen: 415,
    done: 415,
    added: 12,
    updated: 3,
    moved: 2,
    missing: 0,
    errors: 1,
    filesPerSecond: 207.5,
    playlists: 3,
    unmatchedEntries: 1_204,
  }),
});

/**
 * Moves on to the list's next poll and lets its answer render: TanStack Query renders through a 0 ms timer, which a
 * fake timer set inside another timer's callback (the poll's) runs 1 ms later.
 */
async function nextPoll(): Promise<void> {
  await advance(LIBRARY_SCAN_POLL_MS);
  await advance(1);
}

/** Something else on screen that shows the catalogue (the artists). */
function ArtistsShown() {
  useQuery(artistQueries.list());
  return null;
}

/** The card of the library called `name`. */
function card(name: string): HTMLElement {
  return screen.getByRole('listitem', { name });
}

/** The value shown beside the label `label` (a dt) inside `scope`. */
function stat(scope: HTMLElement, label: string): string | null | undefined {
  const term = [...scope.querySelectorAll('dt')].find((dt) => dt.textContent === label);
  if (!term) throw new Error(`no “${label}” here`);
  return term.nextElementSibling?.textContent;
}

/** The error text an input points to through aria-describedby. */
function fieldError(input: HTMLElement): string[] {
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids
    .map((id) => document.getElementById(id))
    .filter((element) => element?.classList.contains('field__error'))
    .map((element) => element?.textContent ?? '');
}

describe('/dashboard/libraries', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends everyone but administrators home, without asking the server', async () => {
    const api = mockApi({});
    renderInApp(<LibrariesPage />, { route, routes: { '/dashboard': <p>Home</p> } });
    await flush();
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
    expect(api.calls()).toEqual([]);
  });

  it('lists each library with its folder, song and missing counts, last scan and its report', async () => {
    const api = mockApi({
      'libraries.list': () => ({
        libraries: [music, makeLibrary(2, { name: 'Vinyl rips', path: '/mnt/nas/vinyl', missingCount: 5 })],
      }),
    });
    renderInApp(<LibrariesPage />, { user: admin, route });
    await flush();
    expect(api.calls()).toEqual(['GET /api/libraries', 'GET /api/analysis']);
    expect(screen.getByRole('heading', { level: 1, name: Texts.pageTitle })).toBeInTheDocument();

    const first = card('Music');
    expect(within(first).getByText('/srv/music')).toBeInTheDocument();
    expect(stat(first, Texts.songs)).toBe('412');
    expect(stat(first, Texts.missing)).toBe('0');
    expect(stat(first, Texts.lastScanned)).toBe(formatWhen('2025-06-14T09:02:00.000Z'));
    // The last scan's report: its state, when, and its counts.
    const report = within(first).getByRole('region', { name: Texts.scanDone });
    expect(report.textContent).toContain(formatWhen('2025-06-14T09:02:00.000Z'));
    expect(stat(report, Texts.filesSeen)).toBe('415');
    expect(stat(report, Texts.added)).toBe('12');
    expect(stat(report, Texts.updated)).toBe('3');
    expect(stat(report, Texts.moved)).toBe('2');
    expect(stat(report, Texts.errors)).toBe('1');
    expect(stat(report, Texts.filesPerSecond)).toBe('207.5');
    // The playlist files the scan read, and their entries that matched no song.
    expect(stat(report, Texts.playlists)).toBe('3');
    expect(stat(report, Texts.unmatchedEntries)).toBe((1_204).toLocaleString());
    expect(within(first).queryByRole('progressbar')).toBeNull();

    const second = card('Vinyl rips');
    expect(within(second).getByText('/mnt/nas/vinyl')).toBeInTheDocument();
    expect(stat(second, Texts.missing)).toBe('5');
    expect(stat(second, Texts.lastScanned)).toBe(Texts.neverScanned);
    expect(within(second).queryByRole('region')).toBeNull();
  });

  it('says so when there is no library yet, and when the list cannot be read', async () => {
    let fail = false;
    mockApi({
      'libraries.list': () => (fail ? errorResponse(403, 'forbidden', 'No') : { libraries: [] }),
    });
    renderInApp(<LibrariesPage />, { user: admin, route });
    await flush();
    expect(screen.getByText(Texts.noLibraries)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: Texts.pageTitle })).toBeNull();

    fail = true;
    const view = renderInApp(<LibrariesPage />, { user: admin, route });
    await flush();
    expect(view.alertMessages()).toEqual([Texts.failedToLoad]);
  });

  it('shows a running scan as a progress bar with its counts, polls every second until it is done, then stops', async () => {
    const running = (done: number, added: number) =>
      makeScan({
        state: 'running',
        finishedAt: null,
        seen: 40,
        done,
        added,
        updated: 1,
        moved: 1,
        missing: 2,
        errors: 0,
        filesPerSecond: 12.25,
      });
    const answers: Library[] = [
      { ...music, scan: running(10, 8) },
      { ...music, scan: running(30, 25) },
      { ...music, songCount: 437, scan: makeScan({ seen: 40, done: 40, added: 33, missing: 2 }) },
    ];
    const api = mockApi({
      'libraries.list': () => ({ libraries: [answers.shift() ?? music] }),
      'artists.list': () => [],
    });
    renderInApp(
      <>
        <LibrariesPage />
        <ArtistsShown />
      </>,
      { user: admin, route },
    );
    await flush();
    const artistLoads = () => api.requests('artists.list').length;
    const listLoads = () => api.requests('libraries.list').length;
    expect(artistLoads()).toBe(1);

    const bar = within(card('Music')).getByRole('progressbar', { name: Texts.progressLabel('Music') });
    expect(bar.getAttribute('aria-valuenow')).toBe('10');
    expect(bar.getAttribute('aria-valuemin')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('40');
    expect(bar.getAttribute('aria-valuetext')).toBe(Texts.progressText(10, 40));
    expect(within(card('Music')).getByText(Texts.progressText(10, 40))).toBeInTheDocument();
    const live = within(card('Music')).getByRole('region', { name: Texts.scanning });
    expect(stat(live, Texts.filesSeen)).toBe('40');
    expect(stat(live, Texts.added)).toBe('8');
    expect(stat(live, Texts.updated)).toBe('1');
    expect(stat(live, Texts.moved)).toBe('1');
    expect(stat(live, Texts.missing)).toBe('2');
    expect(stat(live, Texts.errors)).toBe('0');
    expect(stat(live, Texts.filesPerSecond)).toBe('12.3');
    // Playlist files are read at the scan's end: none counted while it runs.
    expect(() => stat(live, Texts.playlists)).toThrow();
    // The library is being scanned: no second scan is offered meanwhile.
    expect(within(card('Music')).getByRole<HTMLButtonElement>('button', { name: 'Rescan Music' }).disabled).toBe(true);

    await nextPoll();
    expect(listLoads()).toBe(2);
    expect(within(card('Music')).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('30');
    expect(stat(card('Music'), Texts.added)).toBe('25');

    await nextPoll();
    expect(listLoads()).toBe(3);
    expect(within(card('Music')).queryByRole('progressbar')).toBeNull();
    const report = within(card('Music')).getByRole('region', { name: Texts.scanDone });
    expect(stat(report, Texts.added)).toBe('33');
    expect(stat(card('Music'), Texts.songs)).toBe('437');
    // The scan changed the catalogue: what other screens show of it is read again.
    expect(artistLoads()).toBe(2);

    // Nothing runs any more: no more polling.
    await advance(LIBRARY_SCAN_POLL_MS * 10);
    expect(listLoads()).toBe(3);
  });

  it('lists a failed scan’s problems by path and reason, folding away all but the first few', async () => {
    const problems = [
      { path: '', reason: 'The folder is not there (is its drive mounted?)' },
      ...Array.from({ length: 6 }, (_, i) => ({ path: `Album/track-${i}.mp3`, reason: 'Unreadable tags' })),
    ];
    mockApi({
      'libraries.list': () => ({ libraries: [{ ...music, scan: makeScan({ state: 'failed', problems }) }] }),
    });
    renderInApp(<LibrariesPage />, { user: admin, route });
    await flush();
    const report = within(card('Music')).getByRole('region', { name: Texts.scanFailed });
    expect(within(report).getByRole('heading', { name: Texts.problems(7) })).toBeInTheDocument();
    // A failed scan read no playlist file: no playlist counts.
    expect(() => stat(report, Texts.playlists)).toThrow();
    expect(() => stat(report, Texts.unmatchedEntries)).toThrow();
    const shown = () =>
      within(report)
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(shown()).toEqual([
      `${Texts.wholeFolder}The folder is not there (is its drive mounted?)`,
      'Album/track-0.mp3Unreadable tags',
      'Album/track-1.mp3Unreadable tags',
      'Album/track-2.mp3Unreadable tags',
      'Album/track-3.mp3Unreadable tags',
    ]);
    const toggle = within(report).getByRole('button', { name: Texts.showAllProblems(7) });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(shown()).toHaveLength(7);
    expect(shown().at(-1)).toBe('Album/track-5.mp3Unreadable tags');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(within(report).getByRole('button', { name: Texts.showFewerProblems }));
    expect(shown()).toHaveLength(5);
  });

  it('adds a library: the contract’s rules first, then the server’s answer under its field, then a success alert', async () => {
    const jazz = makeLibrary(3, {
      name: 'Jazz',
      path: '/srv/jazz',
      scan: makeScan({ state: 'running', finishedAt: null }),
    });
    let libraries: Library[] = [music];
    let answer: () => Response = () => errorResponse(400, 'bad-request', LibraryMessages.pathMissing, 'path');
    const api = mockApi({
      'libraries.list': () => ({ libraries }),
      'libraries.create': () => answer(),
    });
    const view = renderInApp(<LibrariesPage />, { user: admin, route });
    await flush();
    const form = screen.getByRole('form', { name: Texts.addTitle });
    const path = within(form).getByLabelText(Texts.pathLabel);
    const submit = within(form).getByRole('button', { name: Texts.add });

    fireEvent.click(submit);
    await flush();
    expect(fieldError(path)).toEqual([LibraryMessages.pathRequired]);
    fireEvent.change(path, { target: { value: 'music' } });
    fireEvent.click(submit);
    await flush();
    expect(fieldError(path)).toEqual([LibraryMessages.pathNotAbsolute]);
    expect(api.requests('libraries.create')).toHaveLength(0);

    // Only the server knows what is on its disk.
    fireEvent.change(path, { target: { value: '/srv/nowhere' } });
    fireEvent.click(submit);
    await flush();
    expect(await api.requests('libraries.create')[0]?.json()).toEqual({ path: '/srv/nowhere' });
    expect(fieldError(path)).toEqual([LibraryMessages.pathMissing]);
    expect(path.getAttribute('aria-invalid')).toBe('true');
    expect(view.alertMessages()).toEqual([]);

    // An answer about no field is a red alert with the server's reason.
    answer = () => errorResponse(500, 'internal', 'Something broke');
    fireEvent.click(submit);
    await flush();
    expect(view.alerts.getSnapshot().map(({ message, detail }) => [message, detail])).toEqual([
      [Texts.failedToAdd, 'Something broke'],
    ]);
    for (const alert of view.alerts.getSnapshot()) view.alerts.dismiss(alert.id);

    answer = () => {
      libraries = [music, jazz];
      return jsonResponse(jazz, 201);
    };
    fireEvent.change(path, { target: { value: '/srv/jazz' } });
    fireEvent.change(within(form).getByLabelText(new RegExp(`^${Texts.nameLabel}`)), { target: { value: ' Jazz ' } });
    fireEvent.click(submit);
    await flush();
    expect(await api.requests('libraries.create')[2]?.json()).toEqual({ path: '/srv/jazz', name: 'Jazz' });
    expect(view.alertMessages()).toEqual([Texts.libraryAdded('Jazz')]);
    expect(fieldError(path)).toEqual([]);
    expect((path as HTMLInputElement).value).toBe('');
    // The new library shows with its scan under way.
    expect(within(card('Jazz')).getByRole('progressbar')).toBeInTheDocument();
  });

  it('renames a library inline with PATCH, showing a taken name under the field', async () => {
    let taken = true;
    const api = mockApi({
      'libraries.list': () => ({ libraries: [taken ? music : { ...music, name: 'Jazz' }] }),
      'libraries.rename': () =>
        taken
          ? errorResponse(409, 'conflict', LibraryMessages.nameTaken, 'name')
          : jsonResponse({ ...music, name: 'Jazz' }),
    });
    const view = renderInApp(<LibrariesPage />, { user: admin, route });
    await flush();
    fireEvent.click(within(card('Music')).getByRole('button', { name: 'Rename Music' }));
    const form = screen.getByRole('form', { name: 'Rename Music' });
    const name = within(form).getByLabelText(Texts.newName);
    expect((name as HTMLInputElement).value).toBe('Music');

    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.click(within(form).getByRole('button', { name: Texts.save }));
    await flush();
    expect(fieldError(name)).toEqual([LibraryMessages.nameRequired]);
    expect(api.requests('libraries.rename')).toHaveLength(0);

    fireEvent.change(name, { target: { value: 'Jazz' } });
    fireEvent.click(within(form).getByRole('button', { name: Texts.save }));
    await flush();
    expect(fieldError(name)).toEqual([LibraryMessages.nameTaken]);

    taken = false;
    fireEvent.click(within(form).getByRole('button', { name: Texts.save }));
    await flush();
    const patches = api.requests('libraries.rename');
    expect(patches.map((request) => `${request.method} ${request.url}`)).toEqual([
      'PATCH http://localhost/api/libraries/1',
      'PATCH http://localhost/api/libraries/1',
    ]);
    expect(await patches[1]?.json()).toEqual({ name: 'Jazz' });
    expect(view.alertMessages()).toEqual([Texts.renamed('Jazz')]);
    expect(screen.queryByRole('form', { name: /^Rename/ })).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Jazz' })).toBeInTheDocument();

    // Cancel closes the form without a request.
    fireEvent.click(within(card('Jazz')).getByRole('button', { name: 'Rename Jazz' }));
    fireEvent.click(
      within(screen.getByRole('form', { name: 'Rename Jazz' })).getByRole('button', { name: Texts.cancel }),
    );
    expect(screen.queryByRole('form', { name: 'Rename Jazz' })).toBeNull();
    expect(api.requests('libraries.rename')).toHaveLength(2);
  });

  it('chooses who sees a library: every listener, or administrators and the listeners picked by name', async () => {
    let saved: Library = music;
    const ada = makeUser({ id: 7, username: 'ada' });
    const bob = makeUser({ id: 8, username: 'bob' });
    const api = mockApi({
      'libraries.list': () => ({ libraries: [saved] }),
      'users.list': () => ({ users: [ada, bob, admin], total: 3, nextCursor: null }),
      'libraries.setAccess': async (request) => {
        const body = (await request.clone().json()) as { everyone: boolean; memberIds: number[] };
        saved = {
          ...music,
          everyone: body.everyone,
          members: [ada, bob].filter((user) => body.memberIds.includes(user.id)),
        };
        return jsonResponse(saved);
      },
    });
    const view = renderInApp(<LibrariesPage />, { user: admin, route });
    await flush();
    expect(within(card('Music')).getByText(Texts.seenByEveryone)).toBeInTheDocument();
    fireEvent.click(within(card('Music')).getByRole('button', { name: `${Texts.whoSees}: Music` }));
    const form = screen.getByRole('form', { name: `${Texts.whoSees}: Music` });
    fireEvent.click(within(form).getByRole('radio', { name: Texts.chosenSee }));
    expect(within(form).getByText(Texts.noMembers)).toBeInTheDocument();

    fireEvent.change(within(form).getByLabelText(Texts.memberSearch), { target: { value: 'a' } });
    await flush();
    // Administrators see every library: they are not offered.
    expect(within(form).queryByRole('button', { name: Texts.addMember('root') })).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: Texts.addMember('bob') }));
    fireEvent.change(within(form).getByLabelText(Texts.memberSearch), { target: { value: 'ad' } });
    await flush();
    expect(within(form).queryByRole('button', { name: Texts.addMember('bob') }), 'bob is chosen already').toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: Texts.addMember('ada') }));
    fireEvent.click(within(form).getByRole('button', { name: Texts.removeMember('bob') }));
    fireEvent.click(within(form).getByRole('button', { name: Texts.saveAccess }));
    await flush();

    const puts = api.requests('libraries.setAccess');
    expect(puts.map((request) => `${request.method} ${request.url}`)).toEqual([
      'PUT http://localhost/api/libraries/1/access',
    ]);
    expect(await puts[0]?.json()).toEqual({ everyone: false, memberIds: [7] });
    expect(view.alertMessages()).toEqual([Texts.accessSaved('Music')]);
    expect(screen.queryByRole('form', { name: `${Texts.whoSees}: Music` })).toBeNull();
    expect(within(card('Music')).getByText(Texts.seenByChosen(1))).toBeInTheDocument();
  });

  it('removes a library only after a confirmation that says its songs leave and no file is touched', async () => {
    let libraries: Library[] = [music];
    const api = mockApi({
      'libraries.list': () => ({ libraries }),
      'libraries.remove': () => {
        libraries = [];
        return new Response(null, { status: 204 });
      },
    });
    const view = renderInApp(<LibrariesPage />, { user: admin, route });
    await flush();
    fireEvent.click(within(card('Music')).getByRole('button', { name: 'Remove Music' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain(Texts.confirmRemove('Music', 412));
    expect(Texts.confirmRemove('Music', 412)).toContain('412 songs leave the catalogue');
    expect(Texts.confirmRemove('Music', 412)).toContain('No file on disk is touched.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.requests('libraries.remove')).toHaveLength(0);

    fireEvent.click(within(card('Music')).getByRole('button', { name: 'Remove Music' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(api.requests('libraries.remove').map((request) => `${request.method} ${request.url}`)).toEqual([
      'DELETE http://localhost/api/libraries/1',
    ]);
    expect(view.alertMessages()).toEqual([Texts.removed('Music')]);
    expect(screen.queryByRole('listitem', { name: 'Music' })).toBeNull();
    expect(screen.getByText(Texts.noLibraries)).toBeInTheDocument();
  });

  it('offers to purge missing songs only where some are missing, after a confirmation', async () => {
    let vinyl = makeLibrary(2, { name: 'Vinyl', missingCount: 3, songCount: 40 });
    const api = mockApi({
      'libraries.list': () => ({ libraries: [music, vinyl] }),
      'libraries.purgeMissing': () => (vinyl = { ...vinyl, missingCount: 0, songCount: 37 }),
    });
    const view = renderInApp(<LibrariesPage />, { user: admin, route });
    await flush();
    expect(within(card('Music')).queryByRole('button', { name: /^Purge missing songs/ })).toBeNull();
    const purge = within(card('Vinyl')).getByRole('button', { name: 'Purge missing songs of Vinyl' });
    expect(purge.textContent).toBe(Texts.purgeMissing);

    fireEvent.click(purge);
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain(Texts.confirmPurge('Vinyl', 3));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.requests('libraries.purgeMissing')).toHaveLength(0);

    fireEvent.click(purge);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(api.requests('libraries.purgeMissing').map((request) => `${request.method} ${request.url}`)).toEqual([
      'DELETE http://localhost/api/libraries/2/missing',
    ]);
    expect(view.alertMessages()).toEqual([Texts.purged('Vinyl')]);
    expect(stat(card('Vinyl'), Texts.songs)).toBe('37');
    expect(within(card('Vinyl')).queryByRole('button', { name: /^Purge missing songs/ })).toBeNull();
  });

  it('rescans with POST, and follows the scan it started', async () => {
    const started = { ...music, scan: makeScan({ state: 'running', finishedAt: null, seen: 0, done: 0 }) };
    let scanning = false;
    const api = mockApi({
      'libraries.list': () => ({ libraries: [scanning ? started : music] }),
      'libraries.scan': () => {
        scanning = true;
        return started;
      },
    });
    const view = renderInApp(<LibrariesPage />, { user: admin, route });
    await flush();
    fireEvent.click(within(card('Music')).getByRole('button', { name: 'Rescan Music' }));
    await flush();
    expect(api.requests('libraries.scan').map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST http://localhost/api/libraries/1/scan',
    ]);
    expect(view.alertMessages()).toEqual([Texts.scanStarted('Music')]);
    // Nothing seen yet: the bar has no value until the walk finds files.
    const bar = within(card('Music')).getByRole('progressbar');
    expect(bar.hasAttribute('aria-valuenow')).toBe(false);
    const lists = api.calls().filter((call) => call === 'GET /api/libraries').length;
    await nextPoll();
    expect(api.calls().filter((call) => call === 'GET /api/libraries').length).toBe(lists + 1);
  });
});
