import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import { toSongsJson } from '../songs/songs.presenter.js';
import type { SongsService } from '../songs/songs.service.js';
import type { RadioService } from './radio.service.js';

/** The next songs of a radio, for the signed-in listener, among the songs they may see. */
export function radioRoutes(app: App, radio: RadioService, songs: SongsService): void {
  route(app, endpoints.radio.next, async (request) => {
    const user = await requireViewer(request);
    const next = await radio.next({ ...request.body, hidden: user.hiddenLibraries });
    const songIds = next.map((song) => song.songId);
    return { songIds, songs: toSongsJson(await songs.listByIds(user, songIds)) };
  });
}
