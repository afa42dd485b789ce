import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { FolderClientMessages, type Folder } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { songKeys } from '../../lib/query-keys.js';

export const folderKeys = {
  libraries: () => ['folders', 'libraries'] as const,
};

export const folderQueries = {
  /** The libraries the user sees (the navigation shows Folders while there is one; quiet when it fails). */
  libraries: ({ alertOnError = false }: { alertOnError?: boolean } = {}) =>
    queryOptions({
      queryKey: folderKeys.libraries(),
      queryFn: ({ signal }) => api.folders.libraries({}, { signal }),
      staleTime: 60_000,
      meta: alertOnError ? { errorMessage: FolderClientMessages.failedToLoad } : {},
    }),
  /** One folder of a library, page by page (subfolders first, then songs). */
  folder: (libraryId: number, path: string) =>
    infiniteQueryOptions({
      queryKey: songKeys.folder(libraryId, path),
      queryFn: ({ signal, pageParam }): Promise<Folder> =>
        api.folders.get({ libraryId, query: { path, cursor: pageParam } }, { signal }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last: Folder) => last.nextCursor ?? undefined,
    }),
};
