import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import { toPlaylistJson } from './playlists.presenter.js';
import type { PlaylistsService } from './playlists.service.js';
import type { SmartPlaylistsService } from './smart-playlists.service.js';

/** Smart playlists (issue 28): created and edited as JSON; read, played and deleted as any playlist. */
export function smartPlaylistsRoutes(app: App, playlists: PlaylistsService, smart: SmartPlaylistsService): void {
  route(app, endpoints.playlists.createSmart, async (request) => {
    const actor = await requireViewer(request);
    return toPlaylistJson(await playlists.createSmart(actor, request.body));
  });

  route(app, endpoints.playlists.updateSmart, async (request) => {
    const actor = await requireViewer(request);
    return toPlaylistJson(await playlists.updateSmart(actor, request.params.id, request.body));
  });

  route(app, endpoints.playlists.previewSmart, async (request) => {
    const viewer = await requireViewer(request);
    return smart.preview(viewer, request.body.definition);
  });
}
