import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makePlaylist } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { SmartPlaylistPage } from './SmartPlaylistPage.js';

const libraries = { libraries: [{ id: 3, name: 'Vinyl rips', songCount: 40 }] };

describe('/dashboard/smart-playlist', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('builds rules with a nested group, shows the live count, and creates the playlist', async () => {
    const api = mockApi({
      'folders.libraries': () => libraries,
      'playlists.previewSmart': async (request) => {
        const { definition } = (await request.json()) as { definition: { rules: { rules: unknown[] } } };
        return { count: definition.rules.rules.length * 7, durationMs: 3_600_000, firstSongIds: [] };
      },
      'playlists.createSmart': () => jsonResponse(makePlaylist(21, { name: 'Loved seventies' }), 201),
    });
    renderInApp(<SmartPlaylistPage />, {
      route: '/dashboard/smart-playlist',
      routes: { '/dashboard/playlist': <p>Playlist page</p> },
    });
    await advance(400);
    await flush();
    expect(screen.getByRole('status', { name: 'Preview' }).textContent).toBe('7 songs · 1 h 0 min');

    const form = screen.getByRole('form', { name: 'New smart playlist' });
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Loved seventies' } });
    fireEvent.change(screen.getByLabelText('Rules, rule 1 operator'), { target: { value: 'contains' } });
    fireEvent.change(screen.getByLabelText('Rules, rule 1 value'), { target: { value: 'rock' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add group' }));
    fireEvent.change(screen.getByLabelText('Rules, group 2, rule 1 field'), { target: { value: 'year' } });
    fireEvent.change(screen.getByLabelText('Rules, group 2, rule 1 operator'), { target: { value: 'between' } });
    fireEvent.change(screen.getByLabelText('Rules, group 2, rule 1 from'), { target: { value: '1970' } });
    fireEvent.change(screen.getByLabelText('Rules, group 2, rule 1 to'), { target: { value: '1979' } });
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'year' } });
    await advance(400);
    await flush();
    expect(screen.getByRole('status', { name: 'Preview' }).textContent).toBe('14 songs · 1 h 0 min');

    fireEvent.click(within(form).getByRole('button', { name: 'Create smart playlist' }));
    await flush();
    const body: unknown = await api.requests('playlists.createSmart')[0]?.json();
    expect(body).toEqual({
      name: 'Loved seventies',
      type: '',
      isPublic: false,
      definition: {
        rules: {
          match: 'all',
          rules: [
            { field: 'genre', op: 'contains', value: 'rock' },
            { match: 'any', rules: [{ field: 'year', op: 'between', value: [1970, 1979] }] },
          ],
        },
        sort: { field: 'year', direction: 'asc' },
        limit: { kind: 'songs', value: 100 },
      },
    });
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/playlist');
  });

  it("shows the server's message naming a bad rule in place of the count", async () => {
    mockApi({
      'folders.libraries': () => libraries,
      'playlists.previewSmart': () =>
        jsonResponse({ error: { code: 'VALIDATION', message: 'rules[0]: genre needs some text' } }, 400),
    });
    renderInApp(<SmartPlaylistPage />, { route: '/dashboard/smart-playlist' });
    await advance(400);
    await flush();
    expect(screen.getByRole('status', { name: 'Preview' }).textContent).toBe('rules[0]: genre needs some text');
  });

  it("edits a smart playlist's rules (library rules choose from the user's libraries)", async () => {
    const smart = {
      rules: { match: 'all' as const, rules: [{ field: 'library' as const, op: 'eq' as const, value: 3 }] },
      sort: { field: 'random' as const, direction: 'asc' as const },
      limit: null,
    };
    const api = mockApi({
      'playlists.get': () => makePlaylist(5, { name: 'From vinyl', smart }),
      'folders.libraries': () => libraries,
      'playlists.previewSmart': () => ({ count: 40, durationMs: 60_000, firstSongIds: [] }),
      'playlists.updateSmart': () => makePlaylist(5, { name: 'From vinyl', smart, isPublic: true }),
    });
    renderInApp(<SmartPlaylistPage />, {
      route: '/dashboard/smart-playlist?edit=5',
      routes: { '/dashboard/playlist': <p>Playlist page</p> },
    });
    await advance(400);
    await flush();
    const library = screen.getByLabelText<HTMLSelectElement>('Rules, rule 1 library');
    expect(library.value).toBe('3');
    expect(within(library).getByRole('option', { name: 'Vinyl rips' })).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: /^Public/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await flush();
    const body: unknown = await api.requests('playlists.updateSmart')[0]?.json();
    expect(body).toMatchObject({ name: 'From vinyl', isPublic: true, definition: smart });
    expect(api.calls()).toContain('PUT /api/playlists/5/smart');
  });
});
