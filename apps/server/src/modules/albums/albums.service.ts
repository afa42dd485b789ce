import { DbId, ServerMessages, type AlbumPageQuery } from '@tonearm/contract';
import { z } from 'zod';
import { cursorCodec, keysetPage, pageLimit } from '../../http/page-cursor.js';
import { notFound } from '../../http/errors.js';
import type { SongListing, SongsService, Viewer } from '../songs/songs.service.js';
import type { AlbumListRow, AlbumsRepository } from './albums.repository.js';

/** [name, id]: where the next page of albums starts. */
const albumCursors = cursorCodec('albums.byName', z.tuple([z.string().max(1000), DbId]));

export interface AlbumPageResult {
  rows: AlbumListRow[];
  nextCursor: string | null;
  total: number;
}

export interface AlbumWithSongs {
  album: AlbumListRow;
  listing: SongListing;
}

/** Albums (issue 12): pages by name, and one album with its songs as the viewer sees them. */
export class AlbumsService {
  constructor(
    private readonly albums: AlbumsRepository,
    private readonly songs: Pick<SongsService, 'withMarks'>,
  ) {}

  async page(query: AlbumPageQuery): Promise<AlbumPageResult> {
    const filter = { artistId: query.artistId, q: query.q === '' ? undefined : query.q };
    const scope = [filter.artistId, filter.q];
    const after = albumCursors.decode(scope, query.cursor);
    const limit = pageLimit(query.limit);
    const [rows, total] = await Promise.all([
      this.albums.page(filter, after && { name: after[0], id: after[1] }, limit + 1),
      this.albums.count(filter),
    ]);
    const page = keysetPage(rows, limit, (row) => albumCursors.encode(scope, [row.name, row.id]));
    return { rows: page.rows, nextCursor: page.nextCursor, total };
  }

  async get(viewer: Viewer, id: number): Promise<AlbumWithSongs> {
    const album = await this.albums.find(id);
    if (album === undefined) throw notFound(ServerMessages.notFound);
    return { album, listing: await this.songs.withMarks(viewer, await this.albums.tracks(id)) };
  }
}
