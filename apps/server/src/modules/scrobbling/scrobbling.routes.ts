import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireUser } from '../../http/session.js';
import type { ScrobblingService } from './scrobbling.service.js';

/** Each listener's own scrobbling accounts: nobody reads or changes another's. */
export function scrobblingRoutes(app: App, scrobbling: ScrobblingService): void {
  route(app, endpoints.scrobbling.accounts, async (request) => ({
    accounts: await scrobbling.accounts((await requireUser(request)).id),
  }));

  route(app, endpoints.scrobbling.connectListenBrainz, async (request) =>
    scrobbling.connect((await requireUser(request)).id, 'listenbrainz', { token: request.body.token }),
  );

  route(app, endpoints.scrobbling.connectLastFm, async (request) => {
    const { apiKey, secret, sessionKey } = request.body;
    return scrobbling.connect((await requireUser(request)).id, 'lastfm', { apiKey, secret, sessionKey });
  });

  route(app, endpoints.scrobbling.disconnect, async (request) => {
    await scrobbling.disconnect((await requireUser(request)).id, request.params.service);
  });
}
