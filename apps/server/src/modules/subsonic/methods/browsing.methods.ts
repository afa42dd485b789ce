import { MUSIC_FOLDER_ID, idOfKind } from '../subsonic-ids.js';
import { songChildren } from '../subsonic.mappers.js';
import { notFoundError, requiredParam, type MethodTable } from '../subsonic-method.js';
import type { SubsonicDeps } from '../subsonic-deps.js';

/** Browsing by folders and by tags (ID3): what an app shows before anyone searches. */
export function browsingMethods(deps: SubsonicDeps): MethodTable {
  return {
    getMusicFolders: {
      run: () => ({ musicFolders: { musicFolder: [{ id: MUSIC_FOLDER_ID, name: 'Music' }] } }),
    },
    getSong: {
      run: async ({ params, caller }) => {
        const id = idOfKind(requiredParam(params, 'id'), 'song');
        if (id === null) throw notFoundError('Song');
        const { row, marks } = await deps.songs.get(caller.user, id);
        const [song] = songChildren([row], marks);
        return { song };
      },
    },
  };
}
