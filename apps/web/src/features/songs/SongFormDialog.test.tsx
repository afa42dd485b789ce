import { fireEvent, screen } from '@testing-library/react';
import {
  endpoints,
  LyricsMessages,
  SongAlbumMessages,
  UNKNOWN_ALBUM,
  type EndpointId,
  type SongLyrics,
} from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, makeArtist, makeSong, makeUser, textResponse } from '../../test/fixtures.js';
import { mockApi, networkFailure, type MockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { flush } from '../../test/timers.js';
import { LYRICS_UNAVAILABLE } from './LyricsField.js';
import { SongFormDialog } from './SongFormDialog.js';

const admin = makeUser({ role: 'ADMIN' });
const audio = new File(['ID3'], 'track.mp3', { type: 'audio/mpeg' });
const image = new File(['png'], 'cover.png', { type: 'image/png' });

function render(song?: ReturnType<typeof makeSong>) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  const view = renderInApp(<SongFormDialog song={song} onSaved={onSaved} onClose={onClose} />, { user: admin });
  return { ...view, onSaved, onClose };
}

function fillText() {
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Blue in Green' } });
  fireEvent.change(screen.getByLabelText('Genre'), { target: { value: 'Pop' } });
  fireEvent.change(screen.getByLabelText('Artist'), { target: { value: '3' } });
}

function attach(label: string, file: File) {
  fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } });
}

async function submit() {
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await flush();
  await flush();
}

/** The song form's file fields, as the contract declares them. */
const songFiles = Object.keys(endpoints.songs.create.form.files);

async function sent(api: MockApi, id: EndpointId): Promise<{ url: string; form: FormData }> {
  const request = api.requests(id)[0];
  if (!request) throw new Error(`no ${id}`);
  return { url: request.url, form: await request.formData() };
}

describe('Add/Edit Song popup', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('marks name, genre, artist and both files as required when adding, with the right file types', async () => {
    mockApi({ 'artists.list': () => [makeArtist(3, { name: 'Nina Simone' })] });
    render();
    await flush();
    expect(screen.getByRole('dialog', { name: 'Add Song' })).toBeInTheDocument();
    for (const label of ['Name', 'Genre', 'Artist', 'Song file', 'Image file']) {
      expect(screen.getByLabelText(label).hasAttribute('required')).toBe(true);
    }
    expect(screen.getByLabelText('Song file').getAttribute('accept')).toBe('audio/*');
    expect(screen.getByLabelText('Image file').getAttribute('accept')).toBe('image/*');
    const genres = Array.from(screen.getByLabelText<HTMLSelectElement>('Genre').options).map((o) => o.text);
    expect(genres).toHaveLength(28);
    expect(genres[1]).toBe('Pop');
    expect(genres[27]).toBe('Experimental');
  });

  it('shows the field messages for a missing name and genre', async () => {
    const api = mockApi({ 'artists.list': () => [makeArtist(3)] });
    render();
    await flush();
    await submit();
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Choose a genre from the list')).toBeInTheDocument();
    expect(screen.getByText('Choose an artist', { selector: 'p' })).toBeInTheDocument();
    expect(api.calls()).toEqual(['GET /artists']);
  });

  it('adding without both files shows "Please upload both song and image files." and sends nothing', async () => {
    const api = mockApi({ 'artists.list': () => [makeArtist(3)] });
    const { alertMessages } = render();
    await flush();
    fillText();
    attach('Song file', audio);
    await submit();
    expect(alertMessages()).toEqual(['Please upload both song and image files.']);
    expect(api.calls()).toEqual(['GET /artists']);
  });

  it('posts the multipart form and shows the server’s answer', async () => {
    const api = mockApi({
      'artists.list': () => [makeArtist(3)],
      'songs.create': () => textResponse('Song added successfully', 201),
    });
    const { alerts, onSaved } = render();
    await flush();
    fillText();
    attach('Song file', audio);
    attach('Image file', image);
    await submit();

    const { url, form } = await sent(api, 'songs.create');
    expect(url).toBe('http://localhost/api/songs');
    expect([...form.keys()]).toEqual(['name', 'genre', 'artistId', ...songFiles]);
    expect(form.get('name')).toBe('Blue in Green');
    expect(form.get('artistId')).toBe('3');
    expect(api.requests('songs.create')[0]?.credentials).toBe('include');
    expect(alerts.getSnapshot()).toMatchObject([{ kind: 'success', message: 'Song added successfully' }]);
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('reports "Failed to add song" when the server says no', async () => {
    mockApi({
      'artists.list': () => [makeArtist(3)],
      'songs.create': () => errorResponse(409, 'conflict', 'This audio file is already in the catalogue'),
    });
    const { alerts, onSaved } = render();
    await flush();
    fillText();
    attach('Song file', audio);
    attach('Image file', image);
    await submit();
    expect(alerts.getSnapshot()).toMatchObject([
      { kind: 'error', message: 'Failed to add song', detail: 'This audio file is already in the catalogue' },
    ]);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('reports "Error adding song" when the server cannot be reached', async () => {
    mockApi({ 'artists.list': () => [makeArtist(3)], 'songs.create': networkFailure });
    const { alertMessages } = render();
    await flush();
    fillText();
    attach('Song file', audio);
    attach('Image file', image);
    await submit();
    expect(alertMessages()).toEqual(['Error adding song']);
  });

  it('edits with PUT and needs no files', async () => {
    const api = mockApi({
      'artists.list': () => [makeArtist(1)],
      'songs.update': () => textResponse('Song updated successfully'),
    });
    const { alertMessages, onSaved } = render(makeSong(5, { name: 'Old name', genre: 'Rock' }));
    await flush();
    expect(screen.getByRole('dialog', { name: 'Edit Song' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Song file/).hasAttribute('required')).toBe(false);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'New name' } });
    await submit();
    const { url, form } = await sent(api, 'songs.update');
    expect(url).toBe('http://localhost/api/songs/5');
    expect(form.get('name')).toBe('New name');
    expect(form.get('genre')).toBe('Rock');
    // No file chosen: none is sent, and the server keeps the song's own.
    expect([...form.keys()]).toEqual(['name', 'genre', 'artistId']);
    expect(alertMessages()).toEqual(['Song updated successfully']);
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('offers optional Album, Track, Disc and Year fields after SPEC’s, and sends only those changed in an edit', async () => {
    const api = mockApi({
      'artists.list': () => [makeArtist(1)],
      'songs.update': () => textResponse('Song updated successfully'),
    });
    render(makeSong(5, { albumId: 2, albumName: 'Kind of Blue', trackNumber: 3, discNumber: null, year: 1959 }));
    await flush();
    const fields = [...document.querySelectorAll('form [name]')].map((field) => field.getAttribute('name'));
    expect(fields).toEqual([
      'name',
      'genre',
      'artistId',
      'songFile',
      'imageFile',
      'album',
      'trackNumber',
      'discNumber',
      'year',
      // Issue 27: editing, the song's lyrics last.
      'lyrics',
      'lyricsFile',
    ]);
    expect(screen.getByLabelText(/^Album/)).toHaveValue('Kind of Blue');
    expect(screen.getByLabelText(/^Track/)).toHaveValue('3');
    expect(screen.getByLabelText(/^Year/)).toHaveValue('1959');
    fireEvent.change(screen.getByLabelText(/^Track/), { target: { value: '4' } });
    fireEvent.change(screen.getByLabelText(/^Year/), { target: { value: '' } });
    await submit();
    const { form } = await sent(api, 'songs.update');
    expect([...form.entries()]).toEqual([
      ['name', 'Song 5'],
      ['genre', 'Pop'],
      ['artistId', '1'],
      ['trackNumber', '4'],
      ['year', ''],
    ]);
  });

  it('shows a song on its artist’s “Unknown album” as on none, and leaves it there unless an album is typed', async () => {
    const api = mockApi({
      'artists.list': () => [makeArtist(1), makeArtist(2)],
      'songs.update': () => textResponse('Song updated successfully'),
    });
    render(makeSong(5, { albumId: 9, albumName: UNKNOWN_ALBUM }));
    await flush();
    expect(screen.getByLabelText(/^Album/)).toHaveValue('');
    expect(
      screen.getByText(`One of the artist's albums; a new name adds it, none is "${UNKNOWN_ALBUM}"`),
    ).toBeVisible();
    // Another artist only: the server moves the song to that artist's own "Unknown album".
    fireEvent.change(screen.getByLabelText(/^Artist/), { target: { value: '2' } });
    await submit();
    const { form } = await sent(api, 'songs.update');
    expect([...form.entries()]).toEqual([
      ['name', 'Song 5'],
      ['genre', 'Pop'],
      ['artistId', '2'],
    ]);
  });

  it('shows the album fields’ messages by field and sends nothing', async () => {
    const api = mockApi({ 'artists.list': () => [makeArtist(3)] });
    render();
    await flush();
    fillText();
    attach('Song file', audio);
    attach('Image file', image);
    fireEvent.change(screen.getByLabelText(/^Year/), { target: { value: '59' } });
    fireEvent.change(screen.getByLabelText(/^Track/), { target: { value: '2' } });
    await submit();
    expect(screen.getByText(SongAlbumMessages.year)).toBeInTheDocument();
    expect(screen.getByText(SongAlbumMessages.albumForTrack)).toBeInTheDocument();
    expect(api.requests('songs.create')).toHaveLength(0);
  });
});

describe('the song form’s lyrics (issue 27)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const fromTags: SongLyrics = {
    synced: true,
    lang: 'en',
    offsetMs: 0,
    source: 'embedded',
    lines: [
      { startMs: 1000, text: 'One' },
      { startMs: 2500, text: 'Two' },
    ],
  };

  function editing(lyrics: SongLyrics | null, routes: Parameters<typeof mockApi>[0] = {}) {
    const api = mockApi({
      'artists.list': () => [makeArtist(1)],
      'songs.update': () => textResponse('Song updated successfully'),
      'lyrics.get': () => ({ lyrics }),
      'lyrics.put': () => ({ lyrics: { ...fromTags, source: 'uploaded' } }),
      'lyrics.remove': () => new Response(null, { status: 204 }),
      ...routes,
    });
    const view = render(makeSong(5, { name: 'Worded' }));
    return { ...view, api };
  }

  /** The requests that change something, in order (the reads a save invalidates come and go). */
  const writes = (api: MockApi) => api.calls().filter((call) => !call.startsWith('GET '));
  const lyricsBox = () => screen.getByLabelText<HTMLTextAreaElement>(/^Lyrics \(optional\)/);

  it('is not offered when adding (a new song’s lyrics come from its file’s tags)', async () => {
    mockApi({ 'artists.list': () => [makeArtist(3)] });
    render();
    await flush();
    expect(screen.queryByLabelText(/^Lyrics/)).toBeNull();
  });

  it('shows the song’s lyrics as LRC, and sends nothing for lyrics left as they were', async () => {
    const { api } = editing(fromTags);
    await flush();
    expect(lyricsBox()).toHaveValue('[la:en]\n[00:01.00]One\n[00:02.50]Two');
    expect(screen.getByText(/Now from the audio file’s tags/)).toBeInTheDocument();
    await submit();
    expect(writes(api)).toEqual(['PUT /api/songs/5']);
  });

  it('saves pasted lyrics with PUT before the song’s form', async () => {
    const { api, onSaved } = editing(null);
    await flush();
    expect(lyricsBox()).toHaveValue('');
    fireEvent.change(lyricsBox(), { target: { value: '[00:03.00]Pasted' } });
    await submit();
    await flush();
    expect(writes(api)).toEqual(['PUT /api/songs/5/lyrics', 'PUT /api/songs/5']);
    const put = api.requests('lyrics.put')[0];
    expect((await put?.formData())?.get('text')).toBe('[00:03.00]Pasted');
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('names the wrong line of pasted LRC and sends nothing', async () => {
    const { api, onSaved } = editing(null);
    await flush();
    fireEvent.change(lyricsBox(), { target: { value: '[00:01.00]Fine\n[00:61.00]Wrong' } });
    await submit();
    const message = LyricsMessages.badLine(2, '[00:61.00]Wrong', LyricsMessages.secondsTooHigh('00:61.00'));
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(lyricsBox()).toHaveFocus();
    expect(api.calls()).toEqual(['GET /artists', 'GET /api/songs/5/lyrics']);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('removes the lyrics with DELETE when the box is emptied', async () => {
    const { api } = editing(fromTags);
    await flush();
    fireEvent.change(lyricsBox(), { target: { value: '  ' } });
    await submit();
    await flush();
    expect(writes(api)).toEqual(['DELETE /api/songs/5/lyrics', 'PUT /api/songs/5']);
  });

  it('sends a chosen lyrics file, and shows the server’s refusal on it without saving the song', async () => {
    const refusal = 'Line 2 ("No time"): this line has no time, but other lines do';
    const { api, onSaved } = editing(fromTags, {
      'lyrics.put': () => errorResponse(400, 'validation-error', refusal, 'lyricsFile'),
    });
    await flush();
    const file = new File(['[00:01.00]One\nNo time'], 'song.lrc', { type: 'text/plain' });
    attach('Lyrics file (optional)', file);
    expect(lyricsBox()).toBeDisabled();
    await submit();
    await flush();
    const sentForm = await api.requests('lyrics.put')[0]?.formData();
    const part = sentForm?.get('lyricsFile');
    expect(typeof part === 'string' ? part : await part?.text()).toBe('[00:01.00]One\nNo time');
    expect(sentForm?.has('text')).toBe(false);
    expect(screen.getByText(refusal)).toBeInTheDocument();
    expect(writes(api)).toEqual(['PUT /api/songs/5/lyrics']);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('says so when the lyrics cannot be loaded, and still saves the song', async () => {
    const { api, onSaved } = editing(null, {
      'lyrics.get': () => errorResponse(500, 'internal-error', 'Something went wrong'),
    });
    await flush();
    await vi.advanceTimersByTimeAsync(2000);
    expect(screen.getByText(LYRICS_UNAVAILABLE)).toBeInTheDocument();
    expect(lyricsBox()).toBeDisabled();
    await submit();
    expect(api.calls()).toContain('PUT /api/songs/5');
    expect(onSaved).toHaveBeenCalledTimes(1);
  });
});
