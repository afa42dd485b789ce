import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { PREMIUM_PRELOAD_DELAY_MS, type Song, type SongsDataResponse, type User } from '@tonearm/contract';
import { useEffect, useState } from 'react';
import { hasSongDataAccess, useCurrentUser } from '../../shell/auth/useAuth.js';
import { songQueries } from './queries.js';

/**
 * SPEC §6: premium users and administrators trigger `songs.data` 2 s after the user check. Mounted once
 * in the dashboard shell, which renders only after the check, so the delay starts there.
 */
export function useSongDataPreload(user: User): void {
  const eligible = hasSongDataAccess(user);
  const [startedFor, setStartedFor] = useState<number | null>(null);

  useEffect(() => {
    if (!eligible) return;
    const timer = setTimeout(() => {
      setStartedFor(user.id);
    }, PREMIUM_PRELOAD_DELAY_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [eligible, user.id]);

  useQuery({ ...songQueries.data(), enabled: eligible && startedFor === user.id });
}

const selectSongs = (data: SongsDataResponse): Song[] => data.songs;

/**
 * The general song list. Premium users and admins read the preloaded song data (this observer never fetches by
 * itself, it waits for the preload); regular users load `songs.list` when a song list opens.
 */
export function useAllSongs(): UseQueryResult<Song[]> {
  const viaSongData = hasSongDataAccess(useCurrentUser());
  const preloaded = useQuery({ ...songQueries.data(), enabled: false, select: selectSongs });
  const listed = useQuery({ ...songQueries.list(), enabled: !viaSongData });
  return viaSongData ? preloaded : listed;
}

export function useArtistSongs(artistId: number): UseQueryResult<Song[]> {
  return useQuery(songQueries.list({ artistId }));
}
