import type { Artist, Song } from '@tonearm/contract';
import { createContext, useContext } from 'react';

/** Where a song action started; saving from an artist's list returns to /dashboard/artist (SPEC §2). */
export interface SongActionOrigin {
  artist?: Artist | undefined;
}

export interface SongActions {
  add: (origin?: SongActionOrigin) => void;
  edit: (song: Song, origin?: SongActionOrigin) => void;
  /** Asks for confirmation, then deletes. */
  remove: (song: Song) => void;
  addToPlaylist: (song: Song) => void;
  download: (song: Song) => void;
  /** Issue 25: the song's details and credits. */
  details: (song: Song) => void;
}

export const SongActionsContext = createContext<SongActions | null>(null);

export function useSongActions(): SongActions {
  const actions = useContext(SongActionsContext);
  if (!actions) throw new Error('useSongActions must be used inside <SongActionsProvider>');
  return actions;
}
