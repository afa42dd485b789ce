import type { AlbumRelease, SongCredit } from '../songs/songs.repository.js';
import type { FileTags } from './read-tags.js';

/*
 * What a file's tags say of its people and its release, as the catalogue keeps it (migration 019): the song's credits
 * beyond its main artist, its own MusicBrainz ids, and its album's release facts.
 */

/** The other artists, the album artists beyond the first, and the contributors, each role numbered from its first. */
export function creditsOf(tags: FileTags): SongCredit[] {
  const others = tags.artists
    .slice(1)
    .map((name, index) => ({ name, role: 'artist', sub_role: '', position: index + 1 }));
  const albumArtists = tags.albumArtists
    .slice(1)
    .map((name, index) => ({ name, role: 'albumartist', sub_role: '', position: index + 1 }));
  const positions = new Map<string, number>();
  const contributors = tags.contributors.map(({ role, subRole, name }) => {
    const position = positions.get(role) ?? 0;
    positions.set(role, position + 1);
    return { name, role, sub_role: subRole ?? '', position };
  });
  return [...others, ...albumArtists, ...contributors];
}

/** MusicBrainz artist ids by the name they were tagged beside (artist and album artist lists, in order). */
export function artistMbIdsOf(tags: FileTags): { name: string; mb_artist_id: string }[] {
  const pairs = (names: readonly string[], ids: readonly string[]) =>
    names.length === ids.length ? names.map((name, index) => ({ name, mb_artist_id: ids[index] ?? '' })) : [];
  return [
    ...pairs(tags.artists, tags.musicBrainz.artistIds),
    ...pairs(tags.albumArtists, tags.musicBrainz.albumArtistIds),
  ].filter((pair) => pair.mb_artist_id !== '');
}

/** The song's own columns from its tags. */
export function songTagColumns(tags: FileTags) {
  return {
    display_artist: tags.displayArtist,
    mb_recording_id: tags.musicBrainz.recordingId,
    mb_track_id: tags.musicBrainz.trackId,
    original_date: tags.originalDate,
  };
}

/** The album's release facts from its tags. */
export function albumReleaseOf(tags: FileTags): AlbumRelease {
  return {
    mb_release_id: tags.musicBrainz.releaseId,
    mb_release_group_id: tags.musicBrainz.releaseGroupId,
    release_types: tags.releaseTypes.length === 0 ? null : JSON.stringify(tags.releaseTypes),
    original_date: tags.originalDate,
    is_compilation: tags.compilation ? 1 : 0,
  };
}
