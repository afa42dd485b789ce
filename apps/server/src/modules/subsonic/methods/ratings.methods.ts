import { RATING_MAX, SubsonicMessages } from '@tonearm/contract';
import type { SubsonicDeps } from '../subsonic-deps.js';
import { parseSubsonicId } from '../subsonic-ids.js';
import { notFoundError, requiredParam, subsonicFail, type MethodTable } from '../subsonic-method.js';

const WHAT = { song: 'Song', album: 'Album', artist: 'Artist' } as const;

/** `rating`: required (10), a whole number from 0 (clears) to RATING_MAX, anything else error 0. */
function ratingParam(raw: string): number {
  if (!/^\d{1,2}$/.test(raw) || Number(raw) > RATING_MAX) throw subsonicFail('generic', SubsonicMessages.ratingRange);
  return Number(raw);
}

/** Issue 28: setRating, the caller's 1–5 stars on a song, an album or an artist (`id`, with its prefix); 0 clears. */
export function ratingsMethods(deps: SubsonicDeps): MethodTable {
  return {
    setRating: {
      run: async ({ caller, params }) => {
        const { user } = caller;
        const raw = requiredParam(params, 'id');
        const rating = ratingParam(requiredParam(params, 'rating'));
        const parsed = parseSubsonicId(raw);
        if (parsed === null || parsed.kind === 'playlist') throw notFoundError('Song');
        // An item in a library hidden from the caller does not exist for them: 70, like one that does not exist.
        const found = await deps.catalogue.existing(parsed.kind, [parsed.id], user.hiddenLibraries);
        if (!found.has(parsed.id)) throw notFoundError(WHAT[parsed.kind]);
        await deps.ratings.rate(user, parsed.kind, parsed.id, rating);
        return {};
      },
    },
  };
}
