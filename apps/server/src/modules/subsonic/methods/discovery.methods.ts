import { RADIO_BATCH_MAX, RADIO_SEED_MAX } from '@tonearm/contract';
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

/** Subsonic's default of getSimilarSongs(2) and getTopSongs; the radio answers at most RADIO_BATCH_MAX at once. */
const SIMILAR_DEFAULT = 50;
const TOP_MAX = 500;

/**
 * Issue 28's song radio for Subsonic apps: getSimilarSongs and getSimilarSongs2 (the radio of a song, an album or an
 * artist, the seed itself left out), and getTopSongs (an artist's songs this server's listeners heard most, by name or,
 * OpenSubsonic's topSongsByArtistId, by id).
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
      const listing = await deps.songs.list(user, { artistId: parsed.id, limit: RADIO_SEED_MAX });
      if (listing.rows.length === 0) throw notFoundError('Artist');
      return listing.rows.map((row) => row.id);
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

  async function similar(call: SubsonicCall) {
    const user = call.caller.user;
    const seeds = await seedsOf(user, requiredParam(call.params, 'id'));
    const count = intParam(call.params, 'count', SIMILAR_DEFAULT, 0, RADIO_BATCH_MAX);
    if (count === 0 || seeds.length === 0) return [];
    const seedSet = new Set(seeds);
    // One more than asked: the radio's first song may be the seed's own, which a list of similar songs leaves out.
    const next = await deps.radio.next({
      seedIds: seeds.slice(0, RADIO_SEED_MAX),
      historyIds: [],
      count: Math.min(RADIO_BATCH_MAX, count + 1),
      hidden: user.hiddenLibraries,
    });
    const ids = next
      .map((song) => song.songId)
      .filter((songId) => !seedSet.has(songId))
      .slice(0, count);
    return marks.songs(user, await deps.songs.listByIds(user, ids));
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
  };
}
