import { ClientMessages, endpoints, GENRES, SongAlbumMessages } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { UploadMessages } from '../../lib/upload-files.js';
import { isValidSongForm, toSongForm, validateSongForm, type SongFormValues } from './song-form.js';

const audio = (): File => new File(['ID3'], 'song.mp3', { type: 'audio/mpeg' });
const image = (): File => new File(['png'], 'cover.png', { type: 'image/png' });

const complete = (): SongFormValues => ({
  name: 'Blue in Green',
  genre: 'Pop',
  artistId: '3',
  songFile: audio(),
  imageFile: image(),
  album: '',
  trackNumber: '',
  discNumber: '',
  year: '',
});

describe('validateSongForm when adding', () => {
  it('accepts a complete form', () => {
    const result = validateSongForm(complete(), 'add');
    expect(result).toEqual({ fieldErrors: {}, alert: null });
    expect(isValidSongForm(result)).toBe(true);
  });

  it('requires a name and a genre from the list', () => {
    const result = validateSongForm({ ...complete(), name: '   ', genre: '' }, 'add');
    expect(result.fieldErrors.name).toBe('Name is required');
    expect(result.fieldErrors.genre).toBe('Choose a genre from the list');
    expect(validateSongForm({ ...complete(), genre: 'Polka' }, 'add').fieldErrors.genre).toBe(
      'Choose a genre from the list',
    );
  });

  it('accepts every genre option', () => {
    for (const genre of GENRES)
      expect(validateSongForm({ ...complete(), genre }, 'add').fieldErrors.genre).toBeUndefined();
  });

  it('requires an artist', () => {
    expect(validateSongForm({ ...complete(), artistId: '' }, 'add').fieldErrors.artistId).toBe('Choose an artist');
  });

  it.each([
    ['no audio', { songFile: null }],
    ['no image', { imageFile: null }],
    ['neither file', { songFile: null, imageFile: null }],
  ])('with %s shows "Please upload both song and image files."', (_case, change) => {
    const result = validateSongForm({ ...complete(), ...change }, 'add');
    expect(result.alert).toBe(ClientMessages.uploadBothFiles);
    expect(result.alert).toBe('Please upload both song and image files.');
    expect(isValidSongForm(result)).toBe(false);
  });

  it('rejects files of the wrong kind', () => {
    const result = validateSongForm(
      { ...complete(), songFile: image(), imageFile: new File(['x'], 'x.gif', { type: 'image/gif' }) },
      'add',
    );
    expect(result.fieldErrors.songFile).toBe(UploadMessages.notAudio);
    expect(result.fieldErrors.imageFile).toBe(UploadMessages.notImage);
  });
});

describe('validateSongForm when editing', () => {
  it('needs neither artist nor files', () => {
    const result = validateSongForm({ ...complete(), artistId: '', songFile: null, imageFile: null }, 'edit');
    expect(result).toEqual({ fieldErrors: {}, alert: null });
  });

  it('still requires name and genre', () => {
    const result = validateSongForm({ ...complete(), name: '', genre: '' }, 'edit');
    expect(Object.keys(result.fieldErrors).sort()).toEqual(['genre', 'name']);
  });
});

describe('toSongForm', () => {
  it('sends the spec fields name, genre, artistId and the declared files, in that order', () => {
    const form = toSongForm({ ...complete(), name: '  Blue in Green ' });
    const files = Object.keys(endpoints.songs.create.form.files);
    expect(files).toEqual(['songFile', 'imageFile']);
    expect(Object.keys(form)).toEqual(['name', 'genre', 'artistId', ...files]);
    expect(form.name).toBe('Blue in Green');
    expect(form.artistId).toBe('3');
    expect(form.songFile).toBeInstanceOf(File);
    expect((form.songFile as File).name).toBe('song.mp3');
  });

  it('leaves out what an edit does not change', () => {
    const form = toSongForm({ ...complete(), artistId: '', songFile: null, imageFile: null });
    // Undefined fields are not sent (toEqual treats them as absent).
    expect(form).toEqual({ name: 'Blue in Green', genre: 'Pop' });
  });
});

describe('the album fields (issue 12)', () => {
  it('are optional, and checked by field with the contract’s messages', () => {
    expect(validateSongForm({ ...complete(), album: 'Kind of Blue', trackNumber: '3', year: '1959' }, 'add')).toEqual({
      fieldErrors: {},
      alert: null,
    });
    const wrong = validateSongForm(
      { ...complete(), album: 'A', trackNumber: '0', discNumber: 'two', year: '59' },
      'add',
    );
    expect(wrong.fieldErrors).toEqual({
      trackNumber: SongAlbumMessages.trackNumber,
      discNumber: SongAlbumMessages.discNumber,
      year: SongAlbumMessages.year,
    });
    expect(validateSongForm({ ...complete(), trackNumber: '3' }, 'add').fieldErrors).toEqual({
      trackNumber: SongAlbumMessages.albumForTrack,
    });
  });

  it('are sent when filled in, before the files', () => {
    const form = toSongForm({ ...complete(), album: ' Kind of Blue ', trackNumber: '3' });
    expect(Object.keys(form)).toEqual(['name', 'genre', 'artistId', 'album', 'trackNumber', 'songFile', 'imageFile']);
    expect(form.album).toBe('Kind of Blue');
  });

  it('are sent in an edit only when changed; emptied ones go empty, which clears them', () => {
    const initial = { ...complete(), album: 'Kind of Blue', trackNumber: '3', year: '1959' };
    expect(toSongForm({ ...initial, songFile: null, imageFile: null }, initial)).toEqual({
      name: 'Blue in Green',
      genre: 'Pop',
      artistId: '3',
    });
    expect(toSongForm({ ...initial, trackNumber: '4', year: '' }, initial)).toMatchObject({
      trackNumber: '4',
      year: '',
    });
  });
});
