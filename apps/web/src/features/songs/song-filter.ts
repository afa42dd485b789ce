import type { Artist, Song } from '@tonearm/contract';

/** Case- and accent-insensitive match on song name, artist name and genre. */
export function filterSongs(songs: readonly Song[], query: string, likedOnly: boolean): readonly Song[] {
  const needle = normalise(query.trim());
  if (needle === '' && !likedOnly) return songs;
  return songs.filter(
    (song) =>
      (!likedOnly || song.likeSong) &&
      (needle === '' || [song.name, song.artistName, song.genre].some((text) => normalise(text).includes(needle))),
  );
}

function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** Artist details passed along with navigation (React Router location state `{ artist }`), checked. */
export function artistFromState(state: unknown): Artist | null {
  if (typeof state !== 'object' || state === null || !('artist' in state)) return null;
  const artist: unknown = state.artist;
  if (typeof artist !== 'object' || artist === null) return null;
  const record = artist as Record<string, unknown>;
  if (typeof record.id !== 'number' || typeof record.name !== 'string') return null;
  return {
    id: record.id,
    name: record.name,
    image: typeof record.image === 'string' ? record.image : null,
    songs: Array.isArray(record.songs) ? record.songs.filter((id): id is number => typeof id === 'number') : [],
  };
}
