import type { AlbumSummary, Artist, Library, LibraryScan, Playlist, Song, SongPage, User } from '@tonearm/contract';

export function makeSong(id: number, overrides: Partial<Song> = {}): Song {
  return {
    id,
    name: `Song ${id}`,
    genre: 'Pop',
    link: `/media/audio/${id}.mp3`,
    imgLink: `/media/images/${id}.webp`,
    artistId: 1,
    artistName: 'Artist 1',
    likeSong: false,
    durationMs: 180_000,
    playlistIds: [],
    albumId: null,
    albumName: null,
    trackNumber: null,
    discNumber: null,
    year: null,
    genreTag: null,
    audioFormat: null,
    replayGainDb: null,
    replayGainPeak: null,
    available: true,
    artists: [{ id: 1, name: 'Artist 1' }],
    displayArtist: 'Artist 1',
    contributors: [],
    plays: 0,
    rating: null,
    ...overrides,
  };
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    username: 'ada',
    email: 'ada@example.com',
    gender: null,
    role: 'USER',
    address: null,
    image: null,
    premium: false,
    premiumUntil: null,
    ...overrides,
  };
}

export function makeArtist(id: number, overrides: Partial<Artist> = {}): Artist {
  return { id, name: `Artist ${id}`, image: null, songs: [], ...overrides };
}

/** An album as lists answer it (AlbumSummary), by Nina Simone (artist 3) unless overridden. */
export function makeAlbumSummary(id: number, overrides: Partial<AlbumSummary> = {}): AlbumSummary {
  return {
    id,
    name: `Album ${id}`,
    artistId: 3,
    artistName: 'Nina Simone',
    year: 1965,
    imgLink: '',
    songCount: 1,
    durationMs: 1000,
    placeholder: false,
    ...overrides,
  };
}

export function makePlaylist(id: number, overrides: Partial<Playlist> = {}): Playlist {
  return {
    id,
    name: `Playlist ${id}`,
    type: 'Mix',
    isPublic: false,
    imgLink: null,
    userId: 7,
    songIds: [],
    readOnly: false,
    source: null,
    smart: null,
    ...overrides,
  };
}

/** A finished scan's report (no problems) unless overridden. */
export function makeScan(overrides: Partial<LibraryScan> = {}): LibraryScan {
  return {
    state: 'done',
    startedAt: '2025-06-14T09:00:00.000Z',
    finishedAt: '2025-06-14T09:02:00.000Z',
    seen: 0,
    done: 0,
    added: 0,
    updated: 0,
    moved: 0,
    missing: 0,
    errors: 0,
    filesPerSecond: 0,
    playlists: 0,
    unmatchedEntries: 0,
    problems: [],
    ...overrides,
  };
}

/** A library folder on the server, never scanned unless overridden. */
export function makeLibrary(id: number, overrides: Partial<Library> = {}): Library {
  return {
    id,
    name: `Library ${id}`,
    path: `/srv/music/library-${id}`,
    songCount: 0,
    missingCount: 0,
    scan: null,
    lastScannedAt: null,
    everyone: true,
    members: [],
    ...overrides,
  };
}

/** A SongPage answer (`songs.page`, `likes.page`, `songs.playlistPage`): by default the whole list in one page. */
export function makeSongPage(items: Song[], overrides: Partial<SongPage> = {}): SongPage {
  return { items, nextCursor: null, total: items.length, seed: null, ...overrides };
}

/**
 * A paged list's mock: answers `songs` `size` at a time, following the request's `cursor` (made here: `at<index>`),
 * with their count as `total`.
 */
export function pagedSongs(songs: Song[], size: number): (request: Request) => SongPage {
  return (request) => {
    const cursor = new URL(request.url).searchParams.get('cursor');
    const start = cursor === null ? 0 : Number(cursor.slice('at'.length));
    const end = start + size;
    return makeSongPage(songs.slice(start, end), {
      nextCursor: end < songs.length ? `at${end}` : null,
      total: songs.length,
    });
  };
}

/** A fetch Response for mocked calls. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function textResponse(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'Content-Type': 'text/plain' } });
}

export function errorResponse(status: number, code: string, message: string, field?: string): Response {
  return jsonResponse({ error: field === undefined ? { code, message } : { code, message, field } }, status);
}
