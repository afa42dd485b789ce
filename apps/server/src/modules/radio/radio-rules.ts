/*
 * Issue 28's radio: how candidates are scored and how the next songs are chosen from them. Pure functions, so every
 * rule is tested on its own; the service gathers the candidates (index neighbours, tag matches, co-listens) and the
 * listener's visible songs before calling them.
 */

/** How many songs back a song may not come again ("no song twice in 50"). */
export const NO_REPEAT_WINDOW = 50;
/** At most this many songs in a row by one artist. */
export const MAX_ARTIST_RUN = 3;

export interface RadioSong {
  songId: number;
  artistId: number | null;
  albumId: number | null;
  genre: string | null;
  year: number | null;
}

export interface Candidate extends RadioSong {
  /** Cosine similarity of the standardised vectors to the seed, or null when either has no vector. */
  audio: number | null;
  /** Sessions in which this server's listeners played the song with a seed song. */
  coListens: number;
  /** Play starts of the song that never became a listen (skips), and its listens: the skip share down-weights it. */
  skips: number;
  listens: number;
}

export interface SeedProfile {
  artistIds: ReadonlySet<number>;
  albumIds: ReadonlySet<number>;
  genres: ReadonlySet<string>;
  /** The seed songs' mean year, or null when none has one. */
  year: number | null;
}

/** The blend's weights: audio leads when there is a vector; tags and co-listens carry songs without one. */
const WEIGHTS = { audio: 1, genre: 0.35, year: 0.2, artist: 0.25, album: 0.1, coListen: 0.4, skip: 0.5 };

export function seedProfile(songs: RadioSong[]): SeedProfile {
  const years = songs.map((s) => s.year).filter((y): y is number => y !== null);
  return {
    artistIds: new Set(songs.map((s) => s.artistId).filter((id): id is number => id !== null)),
    albumIds: new Set(songs.map((s) => s.albumId).filter((id): id is number => id !== null)),
    genres: new Set(songs.map((s) => s.genre?.toLowerCase()).filter((g): g is string => !!g)),
    year: years.length === 0 ? null : years.reduce((a, b) => a + b, 0) / years.length,
  };
}

/** One number per candidate, higher is a better next song. */
export function scoreCandidate(seed: SeedProfile, candidate: Candidate): number {
  const tags =
    (candidate.genre !== null && seed.genres.has(candidate.genre.toLowerCase()) ? WEIGHTS.genre : 0) +
    (candidate.year !== null && seed.year !== null ? WEIGHTS.year * yearCloseness(candidate.year, seed.year) : 0) +
    (candidate.artistId !== null && seed.artistIds.has(candidate.artistId) ? WEIGHTS.artist : 0) +
    (candidate.albumId !== null && seed.albumIds.has(candidate.albumId) ? WEIGHTS.album : 0);
  // log: the tenth shared session says less than the first.
  const together = WEIGHTS.coListen * Math.min(1, Math.log1p(candidate.coListens) / Math.log(10));
  const starts = candidate.skips + candidate.listens;
  const skipShare = starts === 0 ? 0 : candidate.skips / starts;
  return WEIGHTS.audio * (candidate.audio ?? 0) + tags + together - WEIGHTS.skip * skipShare;
}

/** 1 for the same year, ½ ten years apart, towards 0 further away. */
function yearCloseness(year: number, seedYear: number): number {
  return 1 / (1 + Math.abs(year - seedYear) / 10);
}

export interface NextSongsRequest {
  /** Candidates, any order; each is scored against the seed. */
  candidates: Candidate[];
  seed: SeedProfile;
  /** The seed's songs, in order: the first starts a fresh radio, all are left out of the continuation. */
  seedSongs: RadioSong[];
  /** What was already played or queued, oldest first (only the last 50 matter). */
  history: RadioSong[];
  count: number;
}

/**
 * The next `count` songs: best score first, never one of the last 50 (history and this batch), never a 4th song in a
 * row by one artist, seed songs only as the very first song of a radio. When the rules leave nothing, the batch ends
 * short rather than break them.
 */
export function nextSongs(request: NextSongsRequest): RadioSong[] {
  const recent = request.history.slice(-(NO_REPEAT_WINDOW - 1));
  const blocked = new Set(recent.map((s) => s.songId));
  const queue: RadioSong[] = [...recent];
  const chosen: RadioSong[] = [];
  const first = request.seedSongs[0];
  if (request.history.length === 0 && first && request.count > 0) take(first);
  for (const s of request.seedSongs) blocked.add(s.songId);

  const ranked = request.candidates
    .map((candidate) => ({ candidate, score: scoreCandidate(request.seed, candidate) }))
    .sort((a, b) => b.score - a.score || a.candidate.songId - b.candidate.songId);
  const waiting = ranked.map((r) => r.candidate).filter((c) => !blocked.has(c.songId));
  while (chosen.length < request.count) {
    const at = waiting.findIndex((c) => !blocked.has(c.songId) && !endsArtistRun(queue, c.artistId));
    if (at < 0) break;
    const [song] = waiting.splice(at, 1);
    if (song) take(song);
  }
  return chosen;

  function take(song: RadioSong) {
    chosen.push(song);
    queue.push(song);
    blocked.add(song.songId);
  }
}

/** Would `artistId` make a run longer than MAX_ARTIST_RUN at the end of `queue`? */
function endsArtistRun(queue: RadioSong[], artistId: number | null): boolean {
  if (artistId === null || queue.length < MAX_ARTIST_RUN) return false;
  return queue.slice(-MAX_ARTIST_RUN).every((s) => s.artistId === artistId);
}

/**
 * The artists most like `artistId` by a radio of its songs: those of the songs the radio chose, the most chosen first
 * (ties: the first chosen first), without the artist itself and songs of no artist; at most `count`.
 */
export function rankArtists(chosen: readonly RadioSong[], artistId: number, count: number): number[] {
  const times = new Map<number, number>();
  for (const song of chosen) {
    if (song.artistId !== null && song.artistId !== artistId)
      times.set(song.artistId, (times.get(song.artistId) ?? 0) + 1);
  }
  return [...times.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Math.max(0, count))
    .map(([id]) => id);
}
