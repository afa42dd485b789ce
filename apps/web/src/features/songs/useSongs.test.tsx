import { PREMIUM_PRELOAD_DELAY_MS, type User } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, makeArtist, makeSong, makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance } from '../../test/timers.js';
import { useAllSongs, useSongDataPreload } from './useSongs.js';

function Catalogue({ user }: { user: User }) {
  useSongDataPreload(user);
  const songs = useAllSongs();
  return <p data-testid="songs">{songs.data?.map((song) => song.name).join(',') ?? 'none'}</p>;
}

const premium = makeUser({ premium: true });
const admin = makeUser({ role: 'ADMIN' });
const regular = makeUser();
const dataAnswer = () => ({ songs: [makeSong(1, { name: 'A' })], artists: [makeArtist(1)] });

function renderCatalogue(user: User) {
  return renderInApp(<Catalogue user={user} />, { user });
}

describe('song data loading', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['premium users', premium],
    ['administrators', admin],
  ])('%s load GET /api/songs/data 2 s after the user check', async (_who, user) => {
    const api = mockApi({ 'songs.data': dataAnswer });
    const view = renderCatalogue(user);
    expect(PREMIUM_PRELOAD_DELAY_MS).toBe(2000);
    await advance(1999);
    expect(api.calls()).toEqual([]);
    await advance(1);
    await advance(0);
    expect(api.calls()).toEqual(['GET /api/songs/data']);
    expect(view.getByTestId('songs').textContent).toBe('A');
  });

  it('regular users do not preload; their song list loads GET /api/songs when opened', async () => {
    const api = mockApi({ 'songs.list': () => [makeSong(2, { name: 'B' })] });
    const view = renderCatalogue(regular);
    await advance(10_000);
    expect(api.calls()).toEqual(['GET /api/songs']);
    expect(view.getByTestId('songs').textContent).toBe('B');
  });

  it('retries every 5 s and gives up after 5 failures with the red alert', async () => {
    const api = mockApi({ 'songs.data': () => errorResponse(500, 'internal-error', 'down') });
    const view = renderCatalogue(premium);
    await advance(2000);
    expect(api.calls()).toHaveLength(1);
    for (let attempt = 2; attempt <= 5; attempt += 1) {
      await advance(4999);
      expect(api.calls()).toHaveLength(attempt - 1);
      await advance(1);
      expect(api.calls()).toHaveLength(attempt);
    }
    expect(view.alertMessages()).toEqual(['Error fetching songs. Please try again later.']);
    expect(view.alerts.getSnapshot()[0]?.kind).toBe('error');
    await advance(60_000);
    expect(api.calls()).toHaveLength(5);
  });

  it('stops retrying once songs arrive, without an alert', async () => {
    let calls = 0;
    const api = mockApi({
      'songs.data': () => {
        calls += 1;
        return calls < 3 ? errorResponse(503, 'internal-error', 'busy') : dataAnswer();
      },
    });
    const view = renderCatalogue(premium);
    await advance(2000);
    await advance(5000);
    await advance(5000);
    await advance(50);
    expect(api.calls()).toHaveLength(3);
    expect(view.getByTestId('songs').textContent).toBe('A');
    await advance(60_000);
    expect(api.calls()).toHaveLength(3);
    expect(view.alertMessages()).toEqual([]);
  });

  it('retries a regular user’s GET /api/songs the same way', async () => {
    const api = mockApi({ 'songs.list': () => errorResponse(500, 'internal-error', 'down') });
    const view = renderCatalogue(regular);
    await advance(4 * 5000 + 1);
    expect(api.calls()).toHaveLength(5);
    expect(view.alertMessages()).toEqual(['Error fetching songs. Please try again later.']);
  });
});
