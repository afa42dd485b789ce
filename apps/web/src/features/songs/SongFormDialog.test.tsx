import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, makeArtist, makeSong, makeUser, textResponse } from '../../test/fixtures.js';
import { mockApi, networkFailure, type MockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { flush } from '../../test/timers.js';
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

async function sentForm(api: MockApi, key: string): Promise<FormData> {
  const request = api.requests(key)[0];
  if (!request) throw new Error(`no ${key}`);
  return request.formData();
}

describe('Add/Edit Song popup', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('marks name, genre, artist and both files as required when adding, with the right file types', async () => {
    mockApi({ 'GET /artists': () => jsonResponse([makeArtist(3, { name: 'Nina Simone' })]) });
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
    const api = mockApi({ 'GET /artists': () => jsonResponse([makeArtist(3)]) });
    render();
    await flush();
    await submit();
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Choose a genre from the list')).toBeInTheDocument();
    expect(screen.getByText('Choose an artist', { selector: 'p' })).toBeInTheDocument();
    expect(api.calls()).toEqual(['GET /artists']);
  });

  it('adding without both files shows "Please upload both song and image files." and sends nothing', async () => {
    const api = mockApi({ 'GET /artists': () => jsonResponse([makeArtist(3)]) });
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
      'GET /artists': () => jsonResponse([makeArtist(3)]),
      'POST /api/songs': () => textResponse('Song added successfully', 201),
    });
    const { alerts, onSaved } = render();
    await flush();
    fillText();
    attach('Song file', audio);
    attach('Image file', image);
    await submit();

    const form = await sentForm(api, 'POST /api/songs');
    expect([...form.keys()].sort()).toEqual(['artistId', 'genre', 'imageFile', 'name', 'songFile']);
    expect(form.get('name')).toBe('Blue in Green');
    expect(form.get('artistId')).toBe('3');
    expect(api.requests('POST /api/songs')[0]?.credentials).toBe('include');
    expect(alerts.getSnapshot()).toMatchObject([{ kind: 'success', message: 'Song added successfully' }]);
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('reports "Failed to add song" when the server says no', async () => {
    mockApi({
      'GET /artists': () => jsonResponse([makeArtist(3)]),
      'POST /api/songs': () => errorResponse(409, 'conflict', 'This audio file is already in the catalogue'),
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
    mockApi({ 'GET /artists': () => jsonResponse([makeArtist(3)]), 'POST /api/songs': networkFailure });
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
      'GET /artists': () => jsonResponse([makeArtist(1)]),
      'PUT /api/songs/5': () => textResponse('Song updated successfully'),
    });
    const { alertMessages, onSaved } = render(makeSong(5, { name: 'Old name', genre: 'Rock' }));
    await flush();
    expect(screen.getByRole('dialog', { name: 'Edit Song' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Song file/).hasAttribute('required')).toBe(false);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'New name' } });
    await submit();
    const form = await sentForm(api, 'PUT /api/songs/5');
    expect(form.get('name')).toBe('New name');
    expect(form.get('genre')).toBe('Rock');
    expect(form.has('songFile')).toBe(false);
    expect(alertMessages()).toEqual(['Song updated successfully']);
    expect(onSaved).toHaveBeenCalledTimes(1);
  });
});
