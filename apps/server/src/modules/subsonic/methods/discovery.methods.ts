import { RADIO_BATCH_MAX, RADIO_SEED_MAX } from '@tonearm/contract';
import type { ArtistRow } from '../../../db/schema.js';
import type { SessionViewer } from '../../../http/session.js';
import type { SubsonicDeps } from '../subsonic-deps.js';
import type { TopSongsArtist } from '../subsonic-catalogue.repository.js';
import { idOfKind, parseSubsonicId } from '../subsonic-ids.js';
import {
  intParam,
  notFoundError,
  orNotFound,
  requiredParam,
  type MethodTable,
  type SubsonicCall,
} from '../subsonic-method.js';
import type { SubsonicParams } from '../subsonic-params.js';
import { inOrder } from '../subsonic-star-marks.js';
import type { SubsonicNode } from '../subsonic.response.js';

/** Subsonic's default of getSimilarSongs(2) and getTopSongs; the radio answers at most RADIO_BATCH_MAX at once. */
const SIMILAR_DEFAULT = 50;
const TOP_MAX = 500;
/** OpenSubsonic's defaults of getSonicSimilarTracks' and findSonicPath's `count`. */
const SONIC_DEFAULT = 10;
const PATH_DEFAULT = 25;

/** A sonicMatch: a song as a `Child` and its similarity (sonicScore). */
interface SonicMatch extends SubsonicNode {
  entry: SubsonicNode;
  similarity: number;
}

/**
 * OpenSubsonic's similarity from the radio's: the cosine of the songs' vectors (-1…1) as 0 (most different) to 1 (the
 * same song), not rounded (two songs that differ a little must not read as one); -1 when either has no analysed audio.
 */
function sonicScore(cosine: number | null | undefined): number {
  if (cosine === null || cosine === undefined) return -1;
  return Math.min(1, Math.max(0, (cosine + 1) / 2));
}

/** An artist's songs the caller sees, as the seed of its radio (at most RADIO_SEED_MAX). */
async function artistSeeds(deps: SubsonicDeps, user: SessionViewer, artistId: number): Promise<number[]> {
  const listing = await deps.songs.list(user, { artistId, limit: RADIO_SEED_MAX });
  return listing.rows.map((row) => row.id);
}

/**
 * getArtistInfo(2)'s similar artists: those of the songs a radio of the artist's songs chooses, the most chosen first
 * (the radio service's similarArtists), only artists the caller sees, at most `count`.
 */
export async function similarArtistRows(
  deps: SubsonicDeps,
  user: SessionViewer,
  artistId: number,
  count: number,
): Promise<ArtistRow[]> {
  if (count === 0) return [];
  const hidden = user.hiddenLibraries;
  const seedIds = await artistSeeds(deps, user, artistId);
  const ids = await deps.radio.similarArtists({ artistId, seedIds, count, hidden });
  const [seen, rows] = await Promise.all([
    deps.catalogue.existing('artist', ids, hidden),
    deps.catalogue.artistsByIds(ids),
  ]);
  return inOrder(
    ids.filter((id) => seen.has(id)),
    rows,
  );
}

/**
 * Issue 28's song radio for Subsonic apps: getSimilarSongs and getSimilarSongs2 (the radio of a song, an album or an
 * artist, the seed itself left out), getTopSongs (an artist's songs this server's listeners heard most, by name or,
 * OpenSubsonic's topSongsByArtistId, by id), and OpenSubsonic's sonicSimilarity: getSonicSimilarTracks (a song's
 * radio, most like its sound first) and findSonicPath (songs leading from one song's sound to another's).
 */
export function discoveryMethods(deps: SubsonicDeps): MethodTable {
  const { marks } = deps;

  /** The seed's songs, as the caller sees them (70 when the id names nothing they see). */
  async function seedsOf(user: SessionViewer, id: string): Promise<number[]> {
    const parsed = parseSubsonicId(id);
    if (parsed?.kind === 'song') {
      await orNotFound('Song', () => deps.songs.get(user, parsed.id));
      return [parsed.id];
    }
    if (parsed?.kind === 'album') {
      const { listing } = await orNotFound('Album', () => deps.albums.get(user, parsed.id));
      return listing.rows.map((row) => row.id);
    }
    if (parsed?.kind === 'artist') {
      const seeds = await artistSeeds(deps, user, parsed.id);
      if (seeds.length === 0) throw notFoundError('Artist');
      return seeds;
    }
    throw notFoundError('Song');
  }

  /**
   * getTopSongs' artist: `id` (topSongsByArtistId; before `artist`), an artist the caller sees (70 otherwise), or else
   * `artist`, a name (10 without either).
   */
  async function topSongsArtist(user: SessionViewer, params: SubsonicParams): Promise<TopSongsArtist> {
    const id = params.get('id');
    if (id === undefined) return { name: requiredParam(params, 'artist') };
    const artistId = idOfKind(id, 'artist');
    const artist = artistId === null ? undefined : await deps.browse.artist(artistId, { hidden: user.hiddenLibraries });
    if (artist === undefined) throw notFoundError('Artist');
    return { id: artist.id };
  }

  /** The radio of `seeds` for the caller without the seeds themselves: at most `count` song ids. */
  async function radioWithoutSeeds(user: SessionViewer, seeds: readonly number[], count: number): Promise<number[]> {
    if (count === 0 || seeds.length === 0) return [];
    const seedSet = new Set(seeds);
    // One more than asked: the radio's first song may be the seed's own, which a list of similar songs leaves out.
    const next = await deps.radio.next({
      seedIds: seeds.slice(0, RADIO_SEED_MAX),
      historyIds: [],
      count: Math.min(RADIO_BATCH_MAX, count + 1),
      hidden: user.hiddenLibraries,
    });
    return next
      .map((song) => song.songId)
      .filter((songId) => !seedSet.has(songId))
      .slice(0, count);
  }

  async function similar(call: SubsonicCall) {
    const user = call.caller.user;
    const seeds = await seedsOf(user, requiredParam(call.params, 'id'));
    const count = intParam(call.params, 'count', SIMILAR_DEFAULT, 0, RADIO_BATCH_MAX);
    return marks.songs(user, await deps.songs.listByIds(user, await radioWithoutSeeds(user, seeds, count)));
  }

  /** The song an id names for the caller (70 when it names no song they see). */
  async function songOf(user: SessionViewer, id: string): Promise<number> {
    const songId = idOfKind(id, 'song');
    if (songId === null) throw notFoundError('Song');
    await orNotFound('Song', () => deps.songs.get(user, songId));
    return songId;
  }

  /** The songs as sonicMatches, in order, each with its similarity to `fromId`'s sound. */
  async function sonicMatches(user: SessionViewer, fromId: number, ids: readonly number[]): Promise<SonicMatch[]> {
    const [similarity, listing] = await Promise.all([
      deps.radio.similarities(fromId, ids),
      deps.songs.listByIds(user, ids),
    ]);
    const entries = await marks.songs(user, listing);
    return entries.map((entry, at) => ({ entry, similarity: sonicScore(similarity.get(listing.rows[at]?.id ?? 0)) }));
  }

  return {
    getSimilarSongs: { run: async (call) => ({ similarSongs: { song: await similar(call) } }) },
    getSimilarSongs2: { run: async (call) => ({ similarSongs2: { song: await similar(call) } }) },
    getTopSongs: {
      run: async (call) => {
        const user = call.caller.user;
        const artist = await topSongsArtist(user, call.params);
        const count = intParam(call.params, 'count', SIMILAR_DEFAULT, 0, TOP_MAX);
        const ids = count === 0 ? [] : await deps.catalogue.topSongIds(artist, count, user.hiddenLibraries);
        return { topSongs: { song: await marks.songs(user, await deps.songs.listByIds(user, ids)) } };
      },
    },
    getSonicSimilarTracks: {
      run: async (call) => {
        const user = call.caller.user;
        const songId = await songOf(user, requiredParam(call.params, 'id'));
        const count = intParam(call.params, 'count', SONIC_DEFAULT, 0, RADIO_BATCH_MAX);
        const matches = await sonicMatches(user, songId, await radioWithoutSeeds(user, [songId], count));
        // The most similar first; the radio's order among equals, and for the songs not analysed (-1), last.
        return { sonicMatch: matches.sort((a, b) => b.similarity - a.similarity) };
      },
    },
    findSonicPath: {
      run: async (call) => {
        const user = call.caller.user;
        const [start, end] = [requiredParam(call.params, 'startSongId'), requiredParam(call.params, 'endSongId')];
        const [startId, endId] = [await songOf(user, start), await songOf(user, end)];
        const length = intParam(call.params, 'count', PATH_DEFAULT, 2, RADIO_BATCH_MAX);
        const ids = await deps.radio.path({ startId, endId, length, hidden: user.hiddenLibraries });
        return { sonicMatch: await sonicMatches(user, startId, ids) };
      },
    },
  };
}
