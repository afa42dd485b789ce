import { endpoints, imageUrl, type Folder, type FolderLibrary } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import { SONG_COVER_WIDTH, toSongsJson } from '../songs/songs.presenter.js';
import type { FolderLibraryRow } from './library-folders.repository.js';
import type { FolderPage, LibraryFoldersService } from './library-folders.service.js';

function toFolderLibraryJson(row: FolderLibraryRow): FolderLibrary {
  return { id: row.id, name: row.name, songCount: row.song_count };
}

function toFolderJson(page: FolderPage): Folder {
  return {
    libraryId: page.libraryId,
    libraryName: page.libraryName,
    path: page.path,
    name: page.name,
    parent: page.parent,
    folders: page.folders.map((folder) => ({
      name: folder.name,
      path: folder.path,
      songCount: folder.song_count,
      imgLink: folder.image_key === null ? '' : imageUrl(folder.image_key, SONG_COVER_WIDTH),
    })),
    songs: toSongsJson(page.songs),
    folderCount: page.folderCount,
    songCount: page.songCount,
    nextCursor: page.nextCursor,
  };
}

/** The Folders view: any signed-in user, within the libraries they see (a hidden one is 404). */
export function libraryFoldersRoutes(app: App, folders: LibraryFoldersService): void {
  route(app, endpoints.folders.libraries, async (request) => {
    const viewer = await requireViewer(request);
    return { libraries: (await folders.libraries(viewer)).map(toFolderLibraryJson) };
  });

  route(app, endpoints.folders.get, async (request) => {
    const viewer = await requireViewer(request);
    return toFolderJson(await folders.page(viewer, request.params.libraryId, request.query));
  });
}
