import { fireEvent, screen } from '@testing-library/react';
import { ClientMessages, PLAYLIST_POPUP_CLOSE_MS } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, makePlaylist, makeSong, makeUser, textResponse } from '../../test/fixtures.js';
import { mockApi, networkFailure } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { SelectPlaylistDialog } from './SelectPlaylistDialog.js';

const song = makeSong(1, { name: 'So What' });
const user = makeUser({ id: 7 });
const admin = makeUser({ id: 1, role: 'ADMIN' });

function renderDialog(who = user) {
  const onClose = vi.fn();
  const view = renderInApp(<SelectPlaylistDialog song={song} onClose={onClose} />, { user: who });
  return { ...view, onClose };
}

/** One click on a playlist (a pointer's: detail 1) adds to it at once (issue 26). */
async function choose(name: string) {
  await flush();
  fireEvent.click(screen.getByRole('radio', { name: new RegExp(name) }), { detail: 1 });
  await flush();
}

describe('"Select a Playlist" popup', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a dialog named "Select a Playlist" listing the user’s own playlists', async () => {
    const api = mockApi({ 'playlists.ofUser': () => [makePlaylist(3, { name: 'Road trip' })] });
    renderDialog();
    await flush();
    expect(screen.getByRole('dialog', { name: 'Select a Playlist' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Road trip/ })).toBeInTheDocument();
    expect(api.calls()).toEqual(['GET /api/playlists/user/7']);
  });

  it('lists every playlist for administrators via the admin call', async () => {
    const api = mockApi({ 'playlists.listAll': () => [makePlaylist(9, { userId: 2 })] });
    renderDialog(admin);
    await flush();
    expect(screen.getByRole('radio', { name: /Playlist 9/ })).toBeInTheDocument();
    expect(api.calls()).toEqual(['GET /api/playlists/admin']);
  });

  it('shows "Playlist Not Found" when there are no playlists', async () => {
    mockApi({ 'playlists.ofUser': () => [] });
    renderDialog();
    await flush();
    expect(screen.getByText(ClientMessages.playlistNotFound)).toBeInTheDocument();
    expect(screen.getByText('Playlist Not Found')).toBeInTheDocument();
  });

  it('asks to choose a playlist first: "Please select a playlist."', async () => {
    const api = mockApi({ 'playlists.ofUser': () => [makePlaylist(3)] });
    const { alertMessages, onClose } = renderDialog();
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Add to playlist' }));
    expect(alertMessages()).toEqual(['Please select a playlist.']);
    await advance(5000);
    expect(onClose).not.toHaveBeenCalled();
    expect(api.calls()).toEqual(['GET /api/playlists/user/7']);
  });

  it('adds the song, shows the server text, and closes 1 second after the result', async () => {
    const api = mockApi({
      'playlists.ofUser': () => [makePlaylist(3, { name: 'Road trip' })],
      'playlists.addSong': () => textResponse('Song added to playlist'),
    });
    const { alerts, onClose } = renderDialog();
    await choose('Road trip');

    expect(api.calls()).toContain('PUT /api/playlists/3/songs/1');
    expect(alerts.getSnapshot()).toMatchObject([{ kind: 'success', message: 'Song added to playlist' }]);
    expect(PLAYLIST_POPUP_CLOSE_MS).toBe(1000);
    await advance(999);
    expect(onClose).not.toHaveBeenCalled();
    await advance(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('reports "Failed to add song to playlist." and still closes 1 second later', async () => {
    mockApi({
      'playlists.ofUser': () => [makePlaylist(3, { name: 'Road trip' })],
      'playlists.addSong': () => errorResponse(409, 'conflict', 'Song already in playlist'),
    });
    const { alerts, onClose } = renderDialog();
    await choose('Road trip');

    expect(alerts.getSnapshot()).toMatchObject([
      { kind: 'error', message: 'Failed to add song to playlist.', detail: 'Song already in playlist' },
    ]);
    await advance(999);
    expect(onClose).not.toHaveBeenCalled();
    await advance(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('adds with one click, at once, without "Add to playlist", and only once however often clicked', async () => {
    const api = mockApi({
      'playlists.ofUser': () => [makePlaylist(3, { name: 'Road trip' }), makePlaylist(4, { name: 'Gym' })],
      'playlists.addSong': () => textResponse('Song added to playlist'),
    });
    const { alertMessages, onClose } = renderDialog();
    await flush();
    const gym = screen.getByRole('radio', { name: /Gym/ });
    fireEvent.click(gym, { detail: 1 });
    fireEvent.click(gym, { detail: 1 });
    fireEvent.click(screen.getByRole('radio', { name: /Road trip/ }), { detail: 1 });
    await flush();
    expect(api.calls().filter((call) => call.startsWith('PUT'))).toEqual(['PUT /api/playlists/4/songs/1']);
    expect(alertMessages()).toEqual(['Song added to playlist']);
    expect(screen.getByRole('radio', { name: /Gym/ })).toBeChecked();
    await advance(PLAYLIST_POPUP_CLOSE_MS);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('adds with Enter on a playlist; the arrow keys only move the choice, which the button confirms', async () => {
    const api = mockApi({
      'playlists.ofUser': () => [makePlaylist(3, { name: 'Road trip' }), makePlaylist(4, { name: 'Gym' })],
      'playlists.addSong': () => textResponse('Song added to playlist'),
    });
    renderDialog();
    await flush();
    // What an arrow key does to a radio group: a click with detail 0, choosing the next radio.
    fireEvent.click(screen.getByRole('radio', { name: /Gym/ }));
    await flush();
    expect(screen.getByRole('radio', { name: /Gym/ })).toBeChecked();
    expect(api.calls().filter((call) => call.startsWith('PUT'))).toEqual([]);
    fireEvent.keyDown(screen.getByRole('radio', { name: /Road trip/ }), { key: 'Enter' });
    await flush();
    expect(api.calls().filter((call) => call.startsWith('PUT'))).toEqual(['PUT /api/playlists/3/songs/1']);
  });

  it('adds the playlist chosen with the keyboard with "Add to playlist"', async () => {
    const api = mockApi({
      'playlists.ofUser': () => [makePlaylist(3, { name: 'Road trip' }), makePlaylist(4, { name: 'Gym' })],
      'playlists.addSong': () => textResponse('Song added to playlist'),
    });
    renderDialog();
    await flush();
    fireEvent.click(screen.getByRole('radio', { name: /Gym/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Add to playlist' }));
    await flush();
    expect(api.calls().filter((call) => call.startsWith('PUT'))).toEqual(['PUT /api/playlists/4/songs/1']);
  });

  it('says "Failed to fetch playlists" when the server answers not ok', async () => {
    mockApi({ 'playlists.ofUser': () => errorResponse(403, 'forbidden', 'nope') });
    const { alertMessages } = renderDialog();
    await advance(100);
    expect(alertMessages()).toEqual(['Failed to fetch playlists']);
  });

  it('says "Failed to load playlists." when the server cannot be reached', async () => {
    mockApi({ 'playlists.ofUser': networkFailure });
    const { alertMessages } = renderDialog();
    await advance(2500);
    expect(alertMessages()).toEqual(['Failed to load playlists.']);
  });
});
