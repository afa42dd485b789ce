import { imageUrl } from '@tonearm/contract';
import type { Playlist, SmartDefinition } from '@tonearm/contract';
import type { PlaylistView } from './playlists.service.js';

/**
 * The Playlist JSON of DESIGN §4: songIds in playlist order, imgLink the cover's URL on this server or null; a playlist
 * that follows a library's playlist file is `readOnly`, with that file as its `source`; a smart one has its rules in
 * `smart`.
 */
export function toPlaylistJson({ row, songIds }: PlaylistView): Playlist {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    isPublic: row.is_public === 1,
    imgLink: row.image_key === null ? null : imageUrl(row.image_key),
    userId: row.owner_id,
    songIds: [...songIds],
    readOnly: row.library_id !== null,
    source:
      row.library_id === null || row.source_path === null ? null : { libraryId: row.library_id, path: row.source_path },
    smart: row.smart_rules === null ? null : (JSON.parse(row.smart_rules) as SmartDefinition),
  };
}
