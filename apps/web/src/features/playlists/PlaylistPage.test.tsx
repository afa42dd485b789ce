import { fireEvent, screen, within } from '@testing-library/react';
import { PlaylistClientMessages } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  errorResponse,
  makePlaylist,
  makeSong,
  makeSongPage,
  makeUser,
  pagedSongs,
  textResponse,
} from '../../test/fixtures.js';
import { mockApi, type MockRoutes } from '../../test/mock-api.js';
import { radioAnswering, sentRadioSeeds, startRadioButton } from '../../test/radio.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { RadioWaitReasons } from '../radio/StartRadioButton.js';
import { PlaylistPage } from './PlaylistPage.js';

const owner = makeUser({ id: 7 });
const songs = [
  makeSong(1, { name: 'So What' }),
  makeSong(2, { name: 'Naima' }),
  makeSong(3, { name: 'Blue in Green' }),
];
const playlist = makePlaylist(4, { name: 'Road trip', userId: 7, songIds: [1, 2, 3] });
const smartPlaylist = makePlaylist(4, {
  name: 'Road trip',
  userId: 7,
  smart: { rules: { match: 'all', rules: [] }, sort: { field: 'random', direction: 'asc' }, limit: null },
});

function playlistApi(overrides: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'playlists.get': () => playlist,
    // Two songs a page: the owner's list loads both pages before it can be reordered.
    'songs.playlistPage': pagedSongs(songs, 2),
    'playlists.reorder': async (request) => {
      const { songIds } = (await request.clone().json()) as { songIds: number[] };
      return { ...playlist, songIds };
    },
    ...overrides,
  });
}

const order = () =>
  within(screen.getByRole('list', { name: 'Songs in Road trip' }))
    .getAllByRole('listitem')
    .map((row) => row.getAttribute('aria-label'));

describe('/dashboard/playlist', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists the user’s own playlists apart from public ones of others', async () => {
    mockApi({
      'playlists.list': () => [
        makePlaylist(1, { name: 'Mine', userId: 7 }),
        makePlaylist(2, { name: 'Shared', userId: 9 }),
      ],
    });
    renderInApp(<PlaylistPage />, { user: owner, route: '/dashboard/playlist' });
    await flush();
    expect(
      within(screen.getByRole('list', { name: 'Playlists' })).getByRole('link', { name: 'Mine' }),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Public playlists' })).getByRole('link', { name: 'Shared' }),
    ).toBeInTheDocument();
  });

  it('says a playlist that is not there is not found, with a way back, and asks nothing again nor raises an alert', async () => {
    const api = mockApi({
      'playlists.get': () => errorResponse(404, 'not-found', 'Playlist not found'),
      'songs.playlistPage': () => errorResponse(404, 'not-found', 'Playlist not found'),
    });
    const view = renderInApp(<PlaylistPage />, { user: owner, route: '/dashboard/playlist?id=404' });
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Playlist not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All playlists' }).getAttribute('href')).toBe('/dashboard/playlist');
    await advance(30_000);
    expect(api.requests('songs.playlistPage')).toHaveLength(1);
    expect(view.alertMessages()).toEqual([]);
  });

  it('lets the owner reorder with the keyboard: the list moves at once and PUT /order gets the new order', async () => {
    const api = playlistApi();
    renderInApp(<PlaylistPage />, { user: owner, route: '/dashboard/playlist?id=4' });
    await advance(1);
    expect(order()).toEqual(['So What', 'Naima', 'Blue in Green']);
    expect(
      api.requests('songs.playlistPage').map((request) => new URL(request.url).searchParams.get('cursor')),
    ).toEqual([null, 'at2']);
    const handle = screen.getByRole('button', { name: 'Reorder So What' });
    handle.focus();
    fireEvent.keyDown(handle, { key: 'ArrowDown' });
    await flush();
    expect(order()).toEqual(['Naima', 'So What', 'Blue in Green']);
    expect(api.requests('playlists.reorder')[0]?.url).toBe('http://localhost/api/playlists/4/order');
    expect(await api.requests('playlists.reorder')[0]?.json()).toEqual({ songIds: [2, 1, 3] });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reorder So What' }));
    expect(screen.getByText('So What moved to position 2 of 3')).toBeInTheDocument();
  });

  it('sorts the whole playlist from its headers without reordering it, handles off with a note, until Playlist order', async () => {
    localStorage.clear();
    const api = playlistApi();
    const view = renderInApp(<PlaylistPage />, { user: owner, route: '/dashboard/playlist?id=4' });
    await advance(1);
    const select = screen.getByRole('combobox', { name: 'Sort by' });
    expect(within(select).getByRole('option', { name: 'Playlist order' })).toBeTruthy();
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'Title' })).getByRole('button'));
    await flush();
    expect(order()).toEqual(['Blue in Green', 'Naima', 'So What']);
    expect(screen.getByRole('columnheader', { name: 'Title' }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.queryByRole('button', { name: /^Reorder/ })).toBeNull();
    expect(screen.getByRole('note').textContent).toContain('Choose “Playlist order” to move songs');
    expect(api.requests('playlists.reorder')).toHaveLength(0);
    view.unmount();

    // Remembered for playlists; Playlist order brings the handles back.
    renderInApp(<PlaylistPage />, { user: owner, route: '/dashboard/playlist?id=4' });
    await advance(1);
    expect(order()).toEqual(['Blue in Green', 'Naima', 'So What']);
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'list' } });
    await flush();
    expect(order()).toEqual(['So What', 'Naima', 'Blue in Green']);
    expect(screen.getByRole('button', { name: 'Reorder So What' })).toBeInTheDocument();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('puts the order back and says so when the server refuses it', async () => {
    playlistApi({ 'playlists.reorder': () => errorResponse(409, 'conflict', 'The playlist changed') });
    const view = renderInApp(<PlaylistPage />, { user: owner, route: '/dashboard/playlist?id=4' });
    await advance(1);
    fireEvent.click(screen.getByRole('button', { name: 'More options for Blue in Green' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Move up' }));
    await flush();
    expect(order()).toEqual(['So What', 'Naima', 'Blue in Green']);
    expect(view.alertMessages()).toEqual(['Failed to reorder playlist']);
  });

  it('plays all, removes a song, and deletes the playlist only after confirming', async () => {
    const api = playlistApi({
      'playlists.removeSong': () => textResponse('Song removed from playlist'),
      'playlists.remove': () => textResponse('Playlist deleted'),
    });
    const view = renderInApp(<PlaylistPage />, {
      user: owner,
      route: '/dashboard/playlist?id=4',
    });
    await advance(1);
    const playFrom = vi.spyOn(view.player.controls, 'playFrom');
    fireEvent.click(screen.getByRole('button', { name: 'Play Road trip' }));
    expect(playFrom).toHaveBeenCalledWith({
      source: { kind: 'playlist', playlistId: 4 },
      songs,
      nextCursor: null,
      index: 0,
    });
    expect(view.player.store.getState().current.name).toBe('So What');
    expect(screen.getByRole('link', { name: 'Edit playlist Road trip' }).getAttribute('href')).toBe(
      '/dashboard/create-playlist?edit=4',
    );

    fireEvent.click(screen.getByRole('button', { name: 'More options for Naima' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Remove from playlist' }));
    await flush();
    expect(api.requests('playlists.removeSong').map((request) => request.url)).toEqual([
      'http://localhost/api/playlists/4/songs/2',
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete playlist Road trip' }));
    expect(api.requests('playlists.remove')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(api.requests('playlists.remove').map((request) => request.url)).toEqual([
      'http://localhost/api/playlists/4',
    ]);
    expect(view.alertMessages()).toContain('Playlist “Road trip” deleted');
  });

  it.each([
    ['a playlist', playlist],
    ['a smart playlist', smartPlaylist],
  ])('starts the radio of %s from its header, seeded with its loaded songs (issue 28)', async (_, shown) => {
    const like = makeSong(30, { name: 'Like So What' });
    const api = playlistApi({ 'playlists.get': () => shown, 'radio.next': radioAnswering([like]) });
    const view = renderInApp(<PlaylistPage />, { user: owner, route: '/dashboard/playlist?id=4' });
    await advance(1);
    fireEvent.click(startRadioButton());
    await flush();
    expect(await sentRadioSeeds(api)).toEqual([1, 2, 3]);
    expect(view.player.store.getState().current).toEqual(like);
  });

  const pending: MockRoutes['songs.playlistPage'] = () => new Promise<Response>(() => undefined);
  const none: MockRoutes['songs.playlistPage'] = () => makeSongPage([], { total: 0 });
  it.each([
    ['while its songs load', pending, RadioWaitReasons.loading],
    ['when it is empty', none, RadioWaitReasons.empty],
  ])('disables Start radio, saying why, %s', async (_, songsPage, reason) => {
    playlistApi({ 'songs.playlistPage': songsPage });
    renderInApp(<PlaylistPage />, { user: owner, route: '/dashboard/playlist?id=4' });
    await advance(1);
    expect(startRadioButton()).toBeDisabled();
    expect(startRadioButton()).toHaveAttribute('title', reason);
  });

  it('shows someone else’s public playlist without reorder handles, edit or delete', async () => {
    playlistApi();
    renderInApp(<PlaylistPage />, { user: makeUser({ id: 8 }), route: '/dashboard/playlist?id=4' });
    await advance(1);
    expect(order()).toEqual(['So What', 'Naima', 'Blue in Green']);
    expect(screen.queryByRole('button', { name: /^Reorder/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /^Edit playlist/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete playlist/ })).toBeNull();
  });

  it('offers the M3U8 export as a download of the playlist’s export URL, to anyone who sees it', async () => {
    playlistApi();
    renderInApp(<PlaylistPage />, { user: makeUser({ id: 8 }), route: '/dashboard/playlist?id=4' });
    await advance(1);
    const exportLink = screen.getByRole('link', { name: PlaylistClientMessages.exportM3u8Label('Road trip') });
    expect(exportLink).toHaveTextContent(PlaylistClientMessages.exportM3u8);
    expect(exportLink.getAttribute('href')).toBe('/api/playlists/4/m3u8');
    expect(exportLink).toHaveAttribute('download');
  });

  it('shows a playlist from a file read-only, to its owner too, and says which file it follows', async () => {
    const fromFile = { ...playlist, readOnly: true, source: { libraryId: 2, path: 'Mixes/Road trip.m3u8' } };
    playlistApi({ 'playlists.get': () => fromFile });
    renderInApp(<PlaylistPage />, { user: owner, route: '/dashboard/playlist?id=4' });
    await advance(1);
    expect(order()).toEqual(['So What', 'Naima', 'Blue in Green']);
    expect(screen.getByText(PlaylistClientMessages.fromFileEyebrow)).toBeInTheDocument();
    expect(screen.getByText(PlaylistClientMessages.fromFile('Mixes/Road trip.m3u8'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Reorder/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /^Edit playlist/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete playlist/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'More options for Naima' }));
    expect(screen.queryByRole('menuitem', { name: 'Remove from playlist' })).toBeNull();
    expect(screen.getByRole('link', { name: PlaylistClientMessages.exportM3u8Label('Road trip') })).toBeInTheDocument();
  });

  it('pages a long playlist for a visitor, counting the songs on the server', async () => {
    const long = Array.from({ length: 120 }, (_, index) => makeSong(index + 1));
    const api = playlistApi({
      'playlists.get': () => ({ ...playlist, isPublic: true, songIds: long.map((song) => song.id) }),
      'songs.playlistPage': pagedSongs(long, 50),
    });
    renderInApp(<PlaylistPage />, { user: makeUser({ id: 8 }), route: '/dashboard/playlist?id=4' });
    await advance(1);
    await advance(60_000);
    expect(api.requests('songs.playlistPage')).toHaveLength(1);
    expect(screen.getByText('Mix · 120 songs')).toBeInTheDocument();
    expect(screen.getByTestId('song-loading-row')).toBeInTheDocument();
  });
});
