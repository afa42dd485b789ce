import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import type { RadioService } from './radio.service.js';

/** The next songs of a radio, for the signed-in listener, among the songs they may see. */
export function radioRoutes(app: App, radio: RadioService): void {
  route(app, endpoints.radio.next, async (request) => {
    const user = await requireViewer(request);
    const songs = await radio.next({ ...request.body, hidden: user.hiddenLibraries });
    return { songIds: songs.map((song) => song.songId) };
  });
}
