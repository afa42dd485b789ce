import { UNKNOWN_ARTIST } from '@tonearm/contract';
import type { AlbumListRow } from '../albums/albums.repository.js';
import { AUDIO_FORMATS } from '../../media/media.formats.js';
import type { SongListRow } from '../songs/songs.repository.js';
import type { ViewerMarks } from '../songs/songs.service.js';
import { subsonicId } from './subsonic-ids.js';
import type { SubsonicNode } from './subsonic.response.js';

/**
 * Tonearm's rows as the OpenSubsonic types name them (Child, AlbumID3, ArtistID3): one mapping, used by every method
 * that lists songs, albums or artists, so that `getAlbum`, `search3`, `getStarred2` and `getPlaylist` describe a song
 * the same way. Optional fields are left out (undefined), never sent as empty strings.
 */

const seconds = (ms: number | null): number => (ms === null ? 0 : Math.round(ms / 1000));

/** The file's suffix and Content-Type, from the stored key's extension (`ab12….flac`). */
function audioType(audioKey: string): { suffix: string; contentType: string } {
  const dot = audioKey.lastIndexOf('.');
  const suffix = dot === -1 ? '' : audioKey.slice(dot + 1).toLowerCase();
  return { suffix, contentType: AUDIO_FORMATS[suffix]?.mime ?? 'application/octet-stream' };
}

/** The cover a song shows: its own picture, else its album's, else none (Subsonic apps ask getCoverArt for it). */
const songCover = (row: SongListRow): string | undefined =>
  row.image_key !== null
    ? subsonicId('song', row.id)
    : row.album_id !== null
      ? subsonicId('album', row.album_id)
      : undefined;

/** What a caller adds to a song: when they starred it (ISO date) and how often it was played, when known. */
export interface ChildExtras {
  starred?: string | undefined;
  /** The caller's stars (issue 28), absent when unrated. */
  userRating?: number | undefined;
  /** Absent: the song's plays by anyone (songs.play_count, the web app's "Plays" column). */
  playCount?: number | undefined;
  played?: string | undefined;
}

/** A song as a Subsonic `Child` (with the OpenSubsonic additions Tonearm knows). */
export function songChild(row: SongListRow, extras: ChildExtras = {}): SubsonicNode {
  const { suffix, contentType } = audioType(row.audio_key);
  const artist = row.artist_name ?? UNKNOWN_ARTIST;
  return {
    id: subsonicId('song', row.id),
    parent: row.album_id !== null ? subsonicId('album', row.album_id) : undefined,
    isDir: false,
    title: row.name,
    album: row.album_name ?? undefined,
    artist,
    track: row.track_number ?? undefined,
    year: row.year ?? undefined,
    genre: row.genre,
    coverArt: songCover(row),
    contentType,
    suffix,
    duration: seconds(row.duration_ms),
    path: `${artist}/${row.album_name ?? ''}/${row.name}.${suffix}`.replace(/\/+/g, '/'),
    playCount: extras.playCount ?? row.play_count,
    played: extras.played,
    discNumber: row.disc_number ?? undefined,
    starred: extras.starred,
    userRating: extras.userRating,
    albumId: row.album_id !== null ? subsonicId('album', row.album_id) : undefined,
    artistId: row.artist_id !== null ? subsonicId('artist', row.artist_id) : undefined,
    type: 'music',
    isVideo: false,
    mediaType: 'song',
    genres: [{ name: row.genre }],
    // OpenSubsonic: a field the server supports is always sent, empty when the song has no value.
    replayGain: {
      trackGain: row.replay_gain_track_db ?? undefined,
      trackPeak: row.replay_gain_track_peak ?? undefined,
    },
    ...songPeople(row, artist),
  };
}

/** An artist as OpenSubsonic's ArtistID3 in a song's lists (id and name). */
function artistRef(id: number, name: string): SubsonicNode {
  return { id: subsonicId('artist', id), name };
}

/** OpenSubsonic's people of a song: its artists, album artists, display names, contributors and MusicBrainz id. */
function songPeople(row: SongListRow, artist: string): SubsonicNode {
  const credits = row.credits ?? [];
  const byRole = (role: string) => credits.filter((credit) => credit.role === role);
  const artists = [
    ...(row.artist_id === null ? [] : [artistRef(row.artist_id, artist)]),
    ...byRole('artist').map((credit) => artistRef(credit.artist_id, credit.artist_name)),
  ];
  const albumArtistNames: [number, string][] = [
    ...(row.album_artist_id === null
      ? []
      : [[row.album_artist_id, row.album_artist_name ?? UNKNOWN_ARTIST] as [number, string]]),
    ...byRole('albumartist').map((credit): [number, string] => [credit.artist_id, credit.artist_name]),
  ];
  const albumArtists = albumArtistNames.map(([id, name]) => artistRef(id, name));
  const contributors = credits
    .filter((credit) => credit.role !== 'artist' && credit.role !== 'albumartist')
    .map((credit) => ({
      role: credit.role,
      subRole: credit.sub_role === '' ? undefined : credit.sub_role,
      artist: artistRef(credit.artist_id, credit.artist_name),
    }));
  return {
    artists,
    displayArtist: row.display_artist ?? artist,
    albumArtists,
    displayAlbumArtist: albumArtistNames.map(([, name]) => name).join(', '),
    contributors,
    musicBrainzId: row.mb_recording_id ?? '',
  };
}

/** OpenSubsonic's release facts of an album: compilation, release types, original date, MusicBrainz id. */
function albumRelease(row: AlbumListRow): SubsonicNode {
  const date = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(row.original_date ?? '');
  const types = row.release_types === null ? [] : (JSON.parse(row.release_types) as string[]);
  return {
    isCompilation: row.is_compilation === 1,
    releaseTypes: types,
    musicBrainzId: row.mb_release_id ?? '',
    ...(date?.[1] === undefined
      ? {}
      : {
          originalReleaseDate: {
            year: Number(date[1]),
            month: date[2] === undefined ? undefined : Number(date[2]),
            day: date[3] === undefined ? undefined : Number(date[3]),
          },
        }),
  };
}

/**
 * Songs as one viewer sees them: `starred` set on those they like (`likedAt` gives the date, else `fallbackDate`),
 * `userRating` on those they rated.
 */
export function songChildren(
  rows: readonly SongListRow[],
  marks: ViewerMarks,
  likedAt: ReadonlyMap<number, string> = new Map(),
  fallbackDate = new Date(0).toISOString(),
): SubsonicNode[] {
  return rows.map((row) =>
    songChild(row, {
      starred: marks.liked.has(row.id) ? (likedAt.get(row.id) ?? fallbackDate) : undefined,
      userRating: marks.ratings.get(row.id),
    }),
  );
}

/**
 * The cover an album shows: its own. A placeholder album (issue 25) without one shows none rather than one of its
 * unrelated tracks' pictures (getCoverArt borrows the first track's for other albums).
 */
const albumCover = (row: AlbumListRow): string | undefined =>
  row.is_placeholder === 1 && row.image_key === null ? undefined : subsonicId('album', row.id);

/** What a caller adds to an album or an artist: when they starred it, and their stars on it (issue 28). */
export interface ItemExtras {
  starred?: string | undefined;
  userRating?: number | undefined;
}

/** An album as a Subsonic `AlbumID3`. */
export function albumID3(row: AlbumListRow, extras: ItemExtras = {}): SubsonicNode {
  return {
    id: subsonicId('album', row.id),
    name: row.name,
    artist: row.artist_name ?? UNKNOWN_ARTIST,
    artistId: row.artist_id !== null ? subsonicId('artist', row.artist_id) : undefined,
    coverArt: albumCover(row),
    songCount: row.song_count,
    duration: seconds(row.duration_ms),
    year: row.year ?? undefined,
    created: row.created_at,
    starred: extras.starred,
    userRating: extras.userRating,
    ...albumRelease(row),
  };
}

/**
 * An album as a folder-model `Child` (getAlbumList, getMusicDirectory of an artist, search2, getStarred): a directory
 * (`isDir`) under its artist's, whose own directory holds its songs.
 */
export function albumChild(row: AlbumListRow, extras: ItemExtras = {}): SubsonicNode {
  return {
    id: subsonicId('album', row.id),
    parent: row.artist_id !== null ? subsonicId('artist', row.artist_id) : undefined,
    isDir: true,
    title: row.name,
    album: row.name,
    artist: row.artist_name ?? UNKNOWN_ARTIST,
    year: row.year ?? undefined,
    coverArt: albumCover(row),
    duration: seconds(row.duration_ms),
    created: row.created_at,
    starred: extras.starred,
    userRating: extras.userRating,
    albumId: subsonicId('album', row.id),
    artistId: row.artist_id !== null ? subsonicId('artist', row.artist_id) : undefined,
    mediaType: 'album',
  };
}

/** An artist as a Subsonic `ArtistID3`. */
export function artistID3(
  artist: { id: number; name: string; image_key: string | null },
  albumCount: number,
  extras: ItemExtras = {},
): SubsonicNode {
  return {
    id: subsonicId('artist', artist.id),
    name: artist.name,
    coverArt: artist.image_key !== null ? subsonicId('artist', artist.id) : undefined,
    albumCount,
    starred: extras.starred,
    userRating: extras.userRating,
  };
}

/** An artist as a Subsonic `Artist` (the folder-based lists: search2, getStarred). */
export function artistEntry(artist: { id: number; name: string }, extras: ItemExtras = {}): SubsonicNode {
  return {
    id: subsonicId('artist', artist.id),
    name: artist.name,
    starred: extras.starred,
    userRating: extras.userRating,
  };
}
