import { fireEvent, screen, within } from '@testing-library/react';
import { ClientMessages, ServerMessages, UNKNOWN_ALBUM, type Album } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArtistAddressPage } from '../../app/ArtistAddressPage.js';
import { UiMessages } from '../../lib/ui-messages.js';
import {
  errorResponse,
  makeArtist,
  makePlaylist,
  makeSong,
  makeSongPage,
  makeUser,
  textResponse,
} from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { radioAnswering, sentRadioSeeds, startRadioButton } from '../../test/radio.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { RadioWaitReasons } from '../radio/StartRadioButton.js';
import { albumLength, AlbumPage, discsOf } from './AlbumPage.js';

const onAlbum = { albumId: 5, albumName: 'Kind of Blue' };
const track = (id: number, disc: number | null, number: number | null, name: string) =>
  makeSong(id, { ...onAlbum, name, discNumber: disc, trackNumber: number, durationMs: 120_000 });

function makeAlbum(overrides: Partial<Album> = {}): Album {
  return {
    id: 5,
    name: 'Kind of Blue',
    artistId: 3,
    artistName: 'Miles Davis',
    year: 1959,
    imgLink: '/media/images/cover.webp?w=640',
    durationMs: 360_000,
    placeholder: false,
    songs: [track(11, 1, 1, 'So What'), track(12, 1, 2, 'Freddie Freeloader'), track(13, 1, 3, 'Blue in Green')],
    rating: null,
    ...overrides,
  };
}

function renderAlbum(id = '5') {
  return renderInApp(<AlbumPage />, {
    route: `/dashboard/album?id=${id}`,
    routes: { '/dashboard/artist/:id': <ArtistAddressPage /> },
  });
}

describe('/dashboard/album', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the cover, the artist, the year and the tracks in order with their durations', async () => {
    const api = mockApi({
      'albums.get': () => makeAlbum(),
      'artists.get': () => makeArtist(3, { name: 'Miles Davis' }),
    });
    renderAlbum();
    await flush();
    expect(new URL(api.requests('albums.get')[0]?.url ?? '').pathname).toBe('/api/albums/5');
    expect(screen.getByRole('heading', { level: 1, name: 'Kind of Blue' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Miles Davis' })).toBeInTheDocument();
    expect(screen.getByText(/1959/)).toBeInTheDocument();
    expect(screen.getByText(/6 min/)).toBeInTheDocument();
    const rows = within(screen.getByRole('list', { name: 'Tracks' })).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual([
      'So What',
      'Freddie Freeloader',
      'Blue in Green',
    ]);
    expect(rows[1]?.textContent).toContain('2:00');
    expect(rows[2]?.querySelector('.song-row__position')?.textContent).toBe('3');
    // The album's own page leaves out the album column of song rows.
    expect(rows[0]?.querySelector('.song-row__album')).toBeNull();
    expect(screen.queryByRole('heading', { name: /Disc/ })).toBeNull();
  });

  it('rates the album at once (PUT), a click on the same star clears it (DELETE), before the server answers', async () => {
    const api = mockApi({
      'albums.get': () => makeAlbum({ rating: 2 }),
      'artists.get': () => makeArtist(3),
      'ratings.rateAlbum': () =>
        new Promise((resolve) => setTimeout(() => resolve(new Response(null, { status: 204 })), 500)),
      'ratings.unrateAlbum': () => new Response(null, { status: 204 }),
    });
    renderAlbum();
    await flush();
    const group = screen.getByRole('group', { name: 'Rating of Kind of Blue' });
    expect(within(group).getByText('Rated 2 stars of 5')).toBeInTheDocument();
    fireEvent.click(within(group).getByRole('button', { name: 'Rate 4 stars' }));
    await advance(1);
    expect(within(group).getByText('Rated 4 stars of 5')).toBeInTheDocument();
    expect(within(group).getByRole('button', { name: 'Clear the rating (4 stars)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const sent = api.requests('ratings.rateAlbum')[0];
    expect(new URL(sent?.url ?? '').pathname).toBe('/api/albums/5/rating');
    expect(await sent?.json()).toEqual({ rating: 4 });
    await advance(500);
    fireEvent.click(within(group).getByRole('button', { name: 'Clear the rating (4 stars)' }));
    await flush();
    expect(api.requests('ratings.unrateAlbum')).toHaveLength(1);
    expect(within(group).getByText('Not rated')).toBeInTheDocument();
  });

  it('puts the stars back and says so when the server refuses the rating', async () => {
    mockApi({
      'albums.get': () => makeAlbum({ rating: 3 }),
      'artists.get': () => makeArtist(3),
      'ratings.rateAlbum': () =>
        new Promise((resolve) => setTimeout(() => resolve(errorResponse(500, 'internal-error', 'down')), 300)),
    });
    const view = renderAlbum();
    await flush();
    const group = screen.getByRole('group', { name: 'Rating of Kind of Blue' });
    fireEvent.click(within(group).getByRole('button', { name: 'Rate 5 stars' }));
    await advance(1);
    expect(within(group).getByText('Rated 5 stars of 5')).toBeInTheDocument();
    await advance(300);
    await flush();
    expect(within(group).getByText('Rated 3 stars of 5')).toBeInTheDocument();
    expect(view.alertMessages()).toEqual([UiMessages.ratingFailed]);
  });

  it('says what an artist’s placeholder album holds: their songs without an album', async () => {
    const loose = { albumId: 9, albumName: UNKNOWN_ALBUM };
    mockApi({
      'albums.get': () =>
        makeAlbum({
          id: 9,
          name: UNKNOWN_ALBUM,
          year: null,
          imgLink: '',
          placeholder: true,
          songs: [makeSong(21, { ...loose, name: 'Demo Take' }), makeSong(22, { ...loose, name: 'Voice Memo' })],
        }),
      'artists.get': () => makeArtist(3, { name: 'Miles Davis' }),
    });
    renderAlbum('9');
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: UNKNOWN_ALBUM })).toBeInTheDocument();
    expect(screen.getByText('Songs without an album')).toBeInTheDocument();
    const rows = within(screen.getByRole('list', { name: 'Tracks' })).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['Demo Take', 'Voice Memo']);
    expect(screen.getByRole('button', { name: 'Play album' })).toBeEnabled();
  });

  it('heads each disc when the album has more than one', async () => {
    mockApi({
      'albums.get': () =>
        makeAlbum({ songs: [track(11, 1, 1, 'One'), track(12, 1, 2, 'Two'), track(13, 2, 1, 'Three')] }),
      'artists.get': () => makeArtist(3),
    });
    renderAlbum();
    await flush();
    expect(screen.getByRole('heading', { level: 2, name: 'Disc 1' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Disc 2' })).toBeInTheDocument();
    const second = within(screen.getByRole('list', { name: 'Disc 2' })).getAllByRole('listitem');
    expect(second.map((row) => row.getAttribute('aria-label'))).toEqual(['Three']);
    expect(second[0]?.getAttribute('aria-posinset')).toBe('3');
    expect(second[0]?.querySelector('.song-row__position')?.textContent).toBe('1');
  });

  it('"Play album" queues the album in order and plays its first song', async () => {
    mockApi({ 'albums.get': () => makeAlbum(), 'artists.get': () => makeArtist(3) });
    const view = renderAlbum();
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Play album' }));
    const state = view.player.store.getState();
    expect(state.current.name).toBe('So What');
    expect(state.playing).toBe(true);
    expect(state.queue).toEqual([11, 12, 13]);
  });

  it('"Start radio" plays a radio seeded with the album’s tracks; disabled, saying why, for an empty album', async () => {
    const like = makeSong(30, { name: 'Like So What' });
    const api = mockApi({
      'albums.get': () => makeAlbum(),
      'artists.get': () => makeArtist(3),
      'radio.next': radioAnswering([like]),
    });
    const view = renderAlbum();
    await flush();
    fireEvent.click(startRadioButton());
    await flush();
    expect(await sentRadioSeeds(api)).toEqual([11, 12, 13]);
    expect(view.player.store.getState().current).toEqual(like);
    view.unmount();

    mockApi({ 'albums.get': () => makeAlbum({ songs: [] }), 'artists.get': () => makeArtist(3) });
    renderAlbum();
    await flush();
    expect(startRadioButton()).toBeDisabled();
    expect(startRadioButton()).toHaveAttribute('title', RadioWaitReasons.empty);
  });

  it('"Add album to playlist" adds every track in order, skipping those already there', async () => {
    const api = mockApi({
      'albums.get': () => makeAlbum(),
      'artists.get': () => makeArtist(3),
      'playlists.ofUser': () => [makePlaylist(8, { name: 'Late night' })],
      'playlists.addSong': (request) =>
        request.url.endsWith('/songs/12')
          ? errorResponse(409, 'conflict', ServerMessages.songAlreadyInPlaylist)
          : textResponse('Song added to playlist'),
      'playlists.get': () => makePlaylist(8),
    });
    const view = renderAlbum();
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Add album to playlist' }));
    await flush();
    const dialog = screen.getByRole('dialog', { name: ClientMessages.selectPlaylistTitle });
    expect(dialog.textContent).toContain('Add the 3 songs of Kind of Blue');
    fireEvent.click(within(dialog).getByRole('radio', { name: /Late night/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add to playlist' }));
    await flush();
    expect(api.requests('playlists.addSong').map((request) => new URL(request.url).pathname)).toEqual([
      '/api/playlists/8/songs/11',
      '/api/playlists/8/songs/12',
      '/api/playlists/8/songs/13',
    ]);
    expect(view.alertMessages()).toEqual([UiMessages.albumAddedToPlaylist(2, 1)]);
    expect(view.alertMessages()).toEqual(['Added 2 songs to the playlist (1 already there)']);
    await advance(1000);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stops at a refusal and says "Failed to add song to playlist."', async () => {
    const api = mockApi({
      'albums.get': () => makeAlbum(),
      'artists.get': () => makeArtist(3),
      'playlists.ofUser': () => [makePlaylist(8, { name: 'Late night' })],
      'playlists.addSong': () => errorResponse(403, 'forbidden', 'Not yours'),
    });
    const view = renderAlbum();
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Add album to playlist' }));
    await flush();
    fireEvent.click(screen.getByRole('radio', { name: /Late night/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Add to playlist' }));
    await flush();
    expect(api.requests('playlists.addSong')).toHaveLength(1);
    expect(view.alertMessages()[0]).toBe(ClientMessages.failedToAddSongToPlaylist);
  });

  it('links the artist to their page, passing the artist along', async () => {
    const api = mockApi({
      'albums.get': () => makeAlbum(),
      'artists.get': () => makeArtist(3, { name: 'Miles Davis', songs: [11] }),
      'songs.page': () => makeSongPage([makeSong(11, { name: 'So What' })]),
      'albums.list': () => ({ items: [], nextCursor: null, total: 0 }),
    });
    renderAlbum();
    await flush();
    fireEvent.click(screen.getByRole('link', { name: 'Miles Davis' }));
    await flush();
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/artist/3');
    expect(screen.getByRole('heading', { level: 1, name: 'Miles Davis' })).toBeInTheDocument();
    expect(new URL(api.requests('songs.page')[0]?.url ?? '').searchParams.get('artistId')).toBe('3');
  });

  it('says so for an album that is not there', async () => {
    mockApi({ 'albums.get': () => errorResponse(404, 'not-found', 'Album not found') });
    renderAlbum('999');
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Album not found' })).toBeInTheDocument();
    expect(screen.getByText(UiMessages.albumNotFound, { exact: false })).toBeInTheDocument();
    // Ways back (issue 26): the artists, and home.
    expect(screen.getByRole('link', { name: 'Browse artists' }).getAttribute('href')).toBe('/dashboard/artist');
    expect(screen.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/dashboard');
  });

  it('does not ask the server for an id that is not one', async () => {
    const api = mockApi({});
    renderAlbum('abc');
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Album not found' })).toBeInTheDocument();
    expect(screen.getByText(UiMessages.albumNotFound, { exact: false })).toBeInTheDocument();
    expect(api.calls()).toEqual([]);
  });
});

describe('album helpers', () => {
  it('groups songs by disc in the order given', () => {
    const songs = [track(1, 1, 1, 'a'), track(2, 2, 1, 'b'), track(3, null, null, 'c')];
    const songsTwo = [...songs.slice(0, 1), track(4, 1, 2, 'd'), ...songs.slice(1)];
    expect(
      discsOf(songsTwo).map(({ disc, songs: group, start }) => [disc, group.map((song) => song.id), start]),
    ).toEqual([
      [1, [1, 4], 0],
      [2, [2], 2],
      [null, [3], 3],
    ]);
  });

  it('says an album’s length in minutes and hours', () => {
    expect(albumLength(2_580_000)).toBe('43 min');
    expect(albumLength(4_320_000)).toBe('1 hr 12 min');
  });
});

describe('/dashboard/album for administrators', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uploads a new cover and shows it', async () => {
    let cover = '/media/images/old.webp?w=640';
    const api = mockApi({
      'albums.get': () => makeAlbum({ imgLink: cover }),
      'artists.get': () => makeArtist(3),
      'albums.setCover': () => {
        cover = '/media/images/new.webp?w=640';
        return { ...makeAlbum(), songCount: 3, imgLink: '/media/images/new.webp?w=300' };
      },
    });
    const view = renderInApp(<AlbumPage />, {
      route: '/dashboard/album?id=5',
      user: makeUser({ role: 'ADMIN' }),
    });
    await flush();
    const image = new File(['png'], 'cover.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Change cover'), { target: { files: [image] } });
    await flush();
    await flush();
    const sent = await api.requests('albums.setCover')[0]?.formData();
    expect(await (sent?.get('image') as Blob).text()).toBe('png');
    expect(view.alertMessages()).toEqual([UiMessages.albumCoverUpdated]);
    expect(document.querySelector('img[src="/media/images/new.webp?w=640"]')).not.toBeNull();
  });

  it('edits the name and year, refusing a year out of range before asking the server', async () => {
    let album = makeAlbum();
    const api = mockApi({
      'albums.get': () => album,
      'artists.get': () => makeArtist(3),
      'albums.update': () => {
        album = makeAlbum({ name: 'Kind of Blue (Legacy)', year: null });
        return { ...album, songCount: 3 };
      },
    });
    const view = renderInApp(<AlbumPage />, { route: '/dashboard/album?id=5', user: makeUser({ role: 'ADMIN' }) });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Edit album' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit album' });
    fireEvent.change(within(dialog).getByLabelText('Year (optional)'), { target: { value: '99' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await flush();
    expect(within(dialog).getByText('Enter a year from 1000 to 9999')).toBeTruthy();
    expect(api.requests('albums.update')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Kind of Blue (Legacy)' } });
    fireEvent.change(within(dialog).getByLabelText('Year (optional)'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await flush();
    await flush();
    expect(await api.requests('albums.update')[0]?.json()).toEqual({ name: 'Kind of Blue (Legacy)', year: null });
    expect(view.alertMessages()).toEqual([UiMessages.albumUpdated]);
    expect(screen.queryByRole('dialog', { name: 'Edit album' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Kind of Blue (Legacy)' })).toBeTruthy();
  });

  it('is not offered to listeners', async () => {
    mockApi({ 'albums.get': () => makeAlbum(), 'artists.get': () => makeArtist(3) });
    renderAlbum();
    await flush();
    expect(screen.queryByLabelText('Change cover')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit album' })).toBeNull();
  });
});
