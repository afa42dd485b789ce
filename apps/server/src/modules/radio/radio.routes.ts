import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { seesLibrary } from '../../db/library-visibility.js';
import { requireViewer } from '../../http/session.js';
import { toSongsJson } from '../songs/songs.presenter.js';
import type { SongsService } from '../songs/songs.service.js';
import type { RadioService } from './radio.service.js';

/** The next songs of a radio, for the signed-in listener, among the songs they may see. */
export function radioRoutes(app: App, radio: RadioService, songs: SongsService): void {
  route(app, endpoints.radio.next, async (request) => {
    const user = await requireViewer(request);
    const next = await radio.next({ ...request.body, hidden: user.hiddenLibraries });
    // listByIds reads the songs as they are now and leaves out those of libraries the listener may not see, but keeps
    // missing ones: the service checked its choice against the database, and this drops again any song gone, hidden
    // or missing since.
    const listing = await songs.listByIds(
      user,
      next.map((song) => song.songId),
    );
    const rows = listing.rows.filter(
      (row) => row.missing_since === null && seesLibrary(user.hiddenLibraries, row.library_id),
    );
    return { songIds: rows.map((row) => row.id), songs: toSongsJson({ ...listing, rows }) };
  });
}
