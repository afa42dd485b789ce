import { SubsonicMessages, plainText } from '@tonearm/contract';
import type { SessionViewer } from '../../../http/session.js';
import type { SubsonicDeps } from '../subsonic-deps.js';
import { idOfKind } from '../subsonic-ids.js';
import { intParam, notFoundError, requiredParam, subsonicFail, type MethodTable } from '../subsonic-method.js';
import type { SubsonicParams } from '../subsonic-params.js';

/** The bookmarks getBookmarks answers at most, the most recently changed first. */
export const BOOKMARKS_MAX = 1000;
/** The longest comment a bookmark keeps. */
export const BOOKMARK_COMMENT_MAX = 500;

/** The song `id` names, as the caller sees it (70 when it names none: missing, or in a library hidden from them). */
async function visibleSongId(deps: SubsonicDeps, user: SessionViewer, params: SubsonicParams): Promise<number> {
  const id = idOfKind(requiredParam(params, 'id'), 'song');
  if (id === null) throw notFoundError('Song');
  const listing = await deps.songs.listByIds(user, [id]);
  if (listing.rows.length === 0) throw notFoundError('Song');
  return id;
}

/** `comment`: plain text (no control characters), trimmed; none when empty; error 0 past BOOKMARK_COMMENT_MAX. */
function commentParam(params: SubsonicParams): string | null {
  const comment = plainText(params.get('comment') ?? '').trim();
  if (comment.length > BOOKMARK_COMMENT_MAX) {
    throw subsonicFail('generic', SubsonicMessages.commentTooLong(BOOKMARK_COMMENT_MAX));
  }
  return comment === '' ? null : comment;
}

/**
 * Bookmarks (migration 025): a user's resume point in a song, e.g. in a long recording, one per song, seen by that user
 * alone. A song the caller cannot see (missing, or in a library hidden from them) is error 70 for every method, and
 * getBookmarks leaves such bookmarks out, exactly as it leaves out songs deleted since (whose bookmarks go with them).
 */
export function bookmarksMethods(deps: SubsonicDeps, now: () => Date = () => new Date()): MethodTable {
  const { bookmarks, marks } = deps;
  return {
    getBookmarks: {
      run: async ({ caller }) => {
        const rows = await bookmarks.list(caller.user.id, BOOKMARKS_MAX);
        const listing = await deps.songs.listByIds(
          caller.user,
          rows.map((row) => row.song_id),
        );
        const children = await marks.songs(caller.user, listing);
        const entries = new Map(listing.rows.map((row, index) => [row.id, children[index]]));
        const bookmark = rows.flatMap((row) => {
          const entry = entries.get(row.song_id);
          if (entry === undefined) return [];
          return [
            {
              position: row.position_ms,
              username: caller.user.username,
              comment: row.comment ?? undefined,
              created: row.created_at,
              changed: row.changed_at,
              entry: { ...entry, bookmarkPosition: row.position_ms },
            },
          ];
        });
        return { bookmarks: { bookmark } };
      },
    },
    createBookmark: {
      run: async ({ params, caller }) => {
        const songId = await visibleSongId(deps, caller.user, params);
        requiredParam(params, 'position');
        const positionMs = intParam(params, 'position', 0, 0, Number.MAX_SAFE_INTEGER);
        const comment = commentParam(params);
        await bookmarks.save(caller.user.id, songId, { positionMs, comment, at: now().toISOString() });
        return {};
      },
    },
    deleteBookmark: {
      run: async ({ params, caller }) => {
        const songId = await visibleSongId(deps, caller.user, params);
        if (!(await bookmarks.delete(caller.user.id, songId))) throw notFoundError('Bookmark');
        return {};
      },
    },
  };
}
