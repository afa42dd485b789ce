import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CreateLibraryRequest, Library, LibraryAccessRequest, LibraryList } from '@tonearm/contract';
import { useCallback } from 'react';
import { api } from '../../lib/api.js';
import { artistKeys, songKeys } from '../../lib/query-keys.js';
import { albumKeys } from '../albums/queries.js';
import { libraryKeys } from './queries.js';

/** Puts the server's answer for one library in the cached list at once (a new scan starts the polling). */
function replaceLibrary(queryClient: QueryClient, library: Library): void {
  queryClient.setQueryData<LibraryList>(libraryKeys.list(), (list) =>
    list === undefined
      ? list
      : { libraries: list.libraries.map((cached) => (cached.id === library.id ? library : cached)) },
  );
  void queryClient.invalidateQueries({ queryKey: libraryKeys.all });
}

/** A library's songs came or went: every song list, the artists and the albums are read again. */
export function useCatalogueChanged(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    for (const queryKey of [songKeys.all, artistKeys.all, albumKeys.all]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [queryClient]);
}

/** `libraries.create`: a folder on the server; its scan starts at once. */
export function useCreateLibrary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateLibraryRequest) => api.libraries.create({ body: request }),
    onSuccess: (library) => {
      queryClient.setQueryData<LibraryList>(libraryKeys.list(), (list) =>
        list === undefined ? { libraries: [library] } : { libraries: [...list.libraries, library] },
      );
      void queryClient.invalidateQueries({ queryKey: libraryKeys.all });
    },
  });
}

export function useRenameLibrary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ libraryId, name }: { libraryId: number; name: string }) =>
      api.libraries.rename({ libraryId, body: { name } }),
    onSuccess: (library) => {
      replaceLibrary(queryClient, library);
    },
  });
}

/** `libraries.setAccess`: who sees the library; every list may change for its listeners. */
export function useSetLibraryAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ libraryId, body }: { libraryId: number; body: LibraryAccessRequest }) =>
      api.libraries.setAccess({ libraryId, body }),
    onSuccess: (library) => {
      replaceLibrary(queryClient, library);
    },
  });
}

/** `libraries.scan`: starts a scan (or answers the one running). */
export function useScanLibrary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (libraryId: number) => api.libraries.scan({ libraryId }),
    onSuccess: (library) => {
      replaceLibrary(queryClient, library);
    },
  });
}

/** `libraries.purgeMissing`: the songs whose file is gone leave the catalogue. */
export function usePurgeMissing() {
  const queryClient = useQueryClient();
  const catalogueChanged = useCatalogueChanged();
  return useMutation({
    mutationFn: (libraryId: number) => api.libraries.purgeMissing({ libraryId }),
    onSuccess: (library) => {
      replaceLibrary(queryClient, library);
      catalogueChanged();
    },
  });
}

/** `libraries.remove`: the library and its songs leave the catalogue; no file on disk is touched. */
export function useRemoveLibrary() {
  const queryClient = useQueryClient();
  const catalogueChanged = useCatalogueChanged();
  return useMutation({
    mutationFn: (libraryId: number) => api.libraries.remove({ libraryId }),
    onSuccess: (_answer, libraryId) => {
      queryClient.setQueryData<LibraryList>(libraryKeys.list(), (list) =>
        list === undefined ? list : { libraries: list.libraries.filter((library) => library.id !== libraryId) },
      );
      void queryClient.invalidateQueries({ queryKey: libraryKeys.all });
      catalogueChanged();
    },
  });
}
