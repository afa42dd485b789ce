import { endpoints, ServerMessages, SongEditFields, SongFormFields, type SongListQuery } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { notFound } from '../../http/errors.js';
import { requireViewer } from '../../http/session.js';
import { declaredUpload, parseUploadFields, readUploadForm } from '../../http/upload-form.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { AudioEndCheck } from '../../media/audio-check.js';
import type { ImageWork } from '../../media/image-work.js';
import { discardAll, uploadStagers } from '../../media/staging.js';
import type { SongPagesService } from './song-pages.service.js';
import { toSongJson, toSongPageJson, toSongsJson } from './songs.presenter.js';
import type { SongsService } from './songs.service.js';
import type { SongsStream } from './songs.stream.js';

/** Absent text fields read as blank, so the contract's own messages ("Name is required") answer them. */
const BLANK_SONG = { name: '', genre: '' };

/** A non-numeric artistId reads as 0, so the contract's own "Choose an artist" answers it, not a type error. */
function numericArtistId(fields: Record<string, string>): Record<string, string> {
  const artistId = fields.artistId?.trim();
  return artistId === undefined || artistId === '' || /^\d+$/.test(artistId) ? fields : { ...fields, artistId: '0' };
}

/** The song list without limit, offset or q: the whole catalogue (of a genre or an artist), which is streamed. */
function isWholeCatalogue({ limit, offset, q }: SongListQuery): boolean {
  return limit === undefined && offset === undefined && (q === undefined || q === '');
}

/**
 * Reads of the catalogue: any signed-in user (401 otherwise). The whole-catalogue answers of existing clients are
 * streamed in slices (songs.stream.ts); a page (limit, offset) and a search (q) are read in one go.
 */
export function songsReadRoutes(
  app: App,
  songs: SongsService,
  { pages, stream }: { pages: SongPagesService; stream: SongsStream },
): void {
  route(app, endpoints.songs.list, async (request) => {
    const viewer = await requireViewer(request);
    const { query } = request;
    if (isWholeCatalogue(query)) return stream.list(viewer, { genre: query.genre, artistId: query.artistId });
    return toSongsJson(await songs.list(viewer, query));
  });

  route(app, endpoints.songs.data, async (request) => stream.data(await requireViewer(request)));

  route(app, endpoints.songs.get, async (request) => {
    const { row, marks } = await songs.get(await requireViewer(request), request.params.id);
    return toSongJson(row, marks);
  });

  route(app, endpoints.songs.inPlaylist, async (request) =>
    toSongsJson(await songs.listInPlaylist(await requireViewer(request), request.params.id)),
  );

  route(app, endpoints.songs.page, async (request) =>
    toSongPageJson(await pages.page(await requireViewer(request), request.query)),
  );

  route(app, endpoints.songs.playlistPage, async (request) =>
    toSongPageJson(await pages.inPlaylist(await requireViewer(request), request.params.id, request.query)),
  );
}

/**
 * Admin writes through the upload pipeline; registered in the module's upload scope (registerUploadScope). The audio
 * passes `audioCheck`, the import's decode and end-of-audio check.
 */
export function songsWriteRoutes(
  scope: App,
  songs: SongsService,
  store: BlobStore,
  { images, audioCheck }: { images: ImageWork; audioCheck: AudioEndCheck },
): void {
  const stagers = uploadStagers(store, images, undefined, audioCheck);

  const create = declaredUpload(endpoints.songs.create, stagers, discardAll);
  route(scope, endpoints.songs.create, async (request) => {
    const form = await readUploadForm(request, create);
    const audio = form.files.songFile ?? null;
    const image = form.files.imageFile ?? null;
    const discard = () => discardAll([audio, image]);
    const fields = await parseUploadFields(SongFormFields, numericArtistId(form.fields), discard, {
      ...BLANK_SONG,
      artistId: '',
    });
    await songs.add({ ...fields, audio, image });
  });

  const update = declaredUpload(endpoints.songs.update, stagers, discardAll);
  route(scope, endpoints.songs.update, async (request) => {
    const { id } = request.params;
    // Before the body is read: a missing song costs no upload.
    if (!(await songs.exists(id))) throw notFound(ServerMessages.notFound);
    const form = await readUploadForm(request, update);
    const audio = form.files.songFile ?? null;
    const image = form.files.imageFile ?? null;
    // An empty artistId (the select left alone) keeps the artist.
    const { artistId, ...rest } = form.fields;
    const edited = artistId?.trim() ? numericArtistId(form.fields) : rest;
    const fields = await parseUploadFields(SongEditFields, edited, () => discardAll([audio, image]), BLANK_SONG);
    const { album, trackNumber, discNumber, year } = fields;
    await songs.update(id, {
      name: fields.name,
      genre: fields.genre,
      artistId: fields.artistId,
      audio,
      image,
      album,
      trackNumber,
      discNumber,
      year,
    });
  });

  route(scope, endpoints.songs.remove, async (request) => {
    await songs.remove(request.params.id);
  });
}
