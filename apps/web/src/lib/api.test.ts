import type { Playlist, SearchResponse, Song, User } from '@tonearm/contract';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { makePlaylist, makeSong, textResponse } from '../test/fixtures.js';
import { mockApi } from '../test/mock-api.js';
import { api, urlOf, type FormValues } from './api.js';
import { endpoints } from '@tonearm/contract';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('typed api client', () => {
  it('fills path parameters and reads JSON answers', async () => {
    const mock = mockApi({ 'playlists.get': () => makePlaylist(4) });
    const playlist = await api.playlists.get({ id: 4 });
    expect(playlist.id).toBe(4);
    expect(mock.calls()).toEqual(['GET /api/playlists/4']);
  });

  it('sends the query, skipping what is undefined', async () => {
    const mock = mockApi({ 'songs.list': () => [makeSong(1)] });
    await api.songs.list({ query: { q: 'amber', limit: 20, artistId: undefined } });
    expect(mock.calls()).toEqual(['GET /api/songs?q=amber&limit=20']);
  });

  it('sends JSON bodies', async () => {
    const mock = mockApi({ 'playlists.reorder': () => makePlaylist(4, { songIds: [2, 1] }) });
    await api.playlists.reorder({ id: 4, body: { songIds: [2, 1] } });
    const request = mock.requests('playlists.reorder')[0];
    expect(request?.method).toBe('PUT');
    expect(request?.headers.get('content-type')).toBe('application/json');
    await expect(request?.json()).resolves.toEqual({ songIds: [2, 1] });
  });

  it('sends multipart forms by the contract field names', async () => {
    const mock = mockApi({ 'users.updatePhoto': () => textResponse('{}') });
    const image = new File(['png'], 'me.png', { type: 'image/png' });
    await api.users.updatePhoto({ id: 7, form: { image } }).catch(() => undefined);
    const form = await mock.requests('users.updatePhoto')[0]?.formData();
    const part = form?.get('image') as Blob | null;
    expect(part?.size).toBe(3);
    expect(part?.type).toBe('image/png');
  });

  it('reads text answers as text, empty answers as nothing and bytes as the Response', async () => {
    mockApi({
      'songs.remove': () => textResponse('Song deleted successfully'),
      'likes.like': () => new Response(null, { status: 204 }),
      'downloads.song': () => new Response('bytes', { status: 200 }),
    });
    await expect(api.songs.remove({ id: 3 })).resolves.toBe('Song deleted successfully');
    await expect(api.likes.like({ id: 3 })).resolves.toBeUndefined();
    const response = await api.downloads.song({ id: 3 });
    await expect(response.text()).resolves.toBe('bytes');
  });

  it('routes literal paths before parameterised ones in the mocks', async () => {
    const mock = mockApi({ 'likes.list': () => [], 'songs.get': () => makeSong(1) });
    await api.likes.list({ query: { limit: 5 } });
    expect(mock.requests('likes.list')).toHaveLength(1);
    expect(mock.requests('songs.get')).toHaveLength(0);
  });

  it('is typed from the contract', () => {
    expectTypeOf(api.playlists.get).returns.resolves.toEqualTypeOf<Playlist>();
    expectTypeOf(api.songs.inPlaylist).returns.resolves.toEqualTypeOf<Song[]>();
    expectTypeOf(api.search.query).returns.resolves.toEqualTypeOf<SearchResponse>();
    expectTypeOf(api.auth.me).returns.resolves.toEqualTypeOf<User>();
    expectTypeOf(api.playlists.addSong).returns.resolves.toEqualTypeOf<string>();
    expectTypeOf(api.auth.logout).returns.resolves.toEqualTypeOf<undefined>();
    expectTypeOf(api.songs.create).returns.resolves.toEqualTypeOf<string>();
    expectTypeOf(api.downloads.song).returns.resolves.toEqualTypeOf<Response>();
    expect(urlOf(endpoints.downloads.song, { id: 5 })).toBe('/api/songs/5/download');
  });

  it('names form fields and files as the contract declares them', () => {
    expectTypeOf<keyof FormValues<typeof endpoints.songs.create>>().toEqualTypeOf<
      'name' | 'genre' | 'artistId' | 'album' | 'trackNumber' | 'discNumber' | 'year' | 'songFile' | 'imageFile'
    >();
    expectTypeOf<keyof FormValues<typeof endpoints.playlists.update>>().toEqualTypeOf<
      'name' | 'type' | 'isPublic' | 'songs' | 'removeImage' | 'image'
    >();
    expectTypeOf<keyof FormValues<typeof endpoints.users.updatePhoto>>().toEqualTypeOf<'image'>();
  });

  it('types the test mocks from the contract too', () => {
    const mocks = () => {
      // @ts-expect-error a JSON mock answers the declared shape (a Playlist has a numeric id)
      mockApi({ 'playlists.get': () => ({ ...makePlaylist(4), id: 'x' }) });
      // @ts-expect-error mocks are keyed by endpoint id, not by 'METHOD /path'
      mockApi({ 'GET /api/playlists/4': () => makePlaylist(4) });
      // @ts-expect-error requests() takes an endpoint id
      mockApi({}).requests('GET /api/playlists/4');
    };
    expect(mocks).toBeTypeOf('function');
  });

  it('refuses wrong arguments at compile time', () => {
    const calls = () => {
      // @ts-expect-error the path parameter is required
      void api.playlists.get({});
      // @ts-expect-error the id is a number
      void api.playlists.get({ id: 'x' });
      // @ts-expect-error the plan must be one of the plans
      void api.payments.checkout({ body: { plan: 'weekly' } });
      // @ts-expect-error no such form field
      void api.artists.create({ form: { title: 'x' } });
      // @ts-expect-error a file part takes a Blob
      void api.users.updatePhoto({ id: 7, form: { image: 'me.png' } });
    };
    expect(calls).toBeTypeOf('function');
  });
});
