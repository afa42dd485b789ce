import type { Playlist } from '@tonearm/contract';
import type { PlaylistRow } from '../../db/schema.js';
import { imageUrl } from '../../http/media-urls.js';

/** The Playlist JSON of DESIGN §4: songIds in playlist order, imgLink the cover's URL on this server or null. */
export function toPlaylistJson(row: PlaylistRow, songIds: readonly number[]): Playlist {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    isPublic: row.is_public === 1,
    imgLink: row.image_key === null ? null : imageUrl(row.image_key),
    userId: row.owner_id,
    songIds: [...songIds],
  };
}
