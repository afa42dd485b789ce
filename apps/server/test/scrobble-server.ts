import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastFmSignature } from '../src/modules/scrobbling/providers.js';

/** How the fake services answer right now. */
export type ServiceMode = 'ok' | 'down' | 'rate-limited';

export interface ReceivedListen {
  service: 'listenbrainz' | 'lastfm';
  type: 'listen' | 'now_playing';
  artist: string;
  title: string;
  album: string | undefined;
  /** Unix seconds (listens only). */
  listenedAt: number | undefined;
  durationMs: number | undefined;
}

/**
 * ListenBrainz and Last.fm as their documentation describes them, on one local port (neither can be reached from
 * here): ListenBrainz's GET /1/validate-token and POST /1/submit-listens (Authorization: Token, 401 for a bad token,
 * 429 with X-RateLimit-Reset-In), Last.fm's signed 2.0 methods user.getInfo, track.scrobble (batches, ignoredMessage)
 * and track.updateNowPlaying, with its JSON errors (9 invalid session, 10 invalid key, 13 bad signature, 16
 * temporarily unavailable, 29 rate limit). Everything accepted is recorded.
 */
export interface ScrobbleServer {
  readonly listenBrainzUrl: string;
  readonly lastFmUrl: string;
  readonly received: ReceivedListen[];
  /** Requests per service, accepted or not. */
  readonly requests: { listenbrainz: number; lastfm: number };
  mode: ServiceMode;
  /** Titles Last.fm ignores (ignoredMessage code 1, "artist ignored"). */
  ignoredTitles: Set<string>;
  close(): Promise<void>;
}

export const LISTENBRAINZ_TOKEN = 'lb-valid-token';
export const LASTFM = { apiKey: 'fm-api-key', secret: 'fm-shared-secret', sessionKey: 'fm-session-key' };

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startScrobbleServer(): Promise<ScrobbleServer> {
  const state = {
    received: [] as ReceivedListen[],
    requests: { listenbrainz: 0, lastfm: 0 },
    mode: 'ok' as ServiceMode,
    ignoredTitles: new Set<string>(),
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://local');
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify(body));
      };
      if (url.pathname.startsWith('/1/')) {
        state.requests.listenbrainz += 1;
        const token = /^Token (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (url.pathname === '/1/validate-token') {
          if (state.mode === 'down') {
            send(503, { code: 503, error: 'Service unavailable' });
            return;
          }
          if (token === LISTENBRAINZ_TOKEN)
            send(200, { code: 200, message: 'Token valid.', valid: true, user_name: 'lb-listener' });
          else send(200, { code: 200, message: 'Token invalid.', valid: false });
          return;
        }
        const text = await bodyOf(request);
        if (state.mode === 'down') {
          send(503, { code: 503, error: 'Service unavailable' });
          return;
        }
        if (state.mode === 'rate-limited') {
          send(429, { code: 429, error: 'Too many requests' }, { 'x-ratelimit-reset-in': '1' });
          return;
        }
        if (token !== LISTENBRAINZ_TOKEN) {
          send(401, { code: 401, error: 'Invalid authorization token.' });
          return;
        }
        const body = JSON.parse(text) as {
          listen_type: string;
          payload: {
            listened_at?: number;
            track_metadata: {
              artist_name: string;
              track_name: string;
              release_name?: string;
              additional_info?: { duration_ms?: number };
            };
          }[];
        };
        for (const listen of body.payload) {
          state.received.push({
            service: 'listenbrainz',
            type: body.listen_type === 'playing_now' ? 'now_playing' : 'listen',
            artist: listen.track_metadata.artist_name,
            title: listen.track_metadata.track_name,
            album: listen.track_metadata.release_name,
            listenedAt: listen.listened_at,
            durationMs: listen.track_metadata.additional_info?.duration_ms,
          });
        }
        send(200, { status: 'ok' });
        return;
      }
      if (url.pathname === '/2.0/' && request.method === 'POST') {
        state.requests.lastfm += 1;
        const form = Object.fromEntries(new URLSearchParams(await bodyOf(request)));
        if (state.mode === 'down') {
          send(200, { error: 16, message: 'There was a temporary error processing your request.' });
          return;
        }
        if (state.mode === 'rate-limited') {
          send(200, { error: 29, message: 'Rate limit exceeded' });
          return;
        }
        if (form.api_key !== LASTFM.apiKey) {
          send(200, { error: 10, message: 'Invalid API key' });
          return;
        }
        if (form.api_sig !== lastFmSignature(form, LASTFM.secret)) {
          send(200, { error: 13, message: 'Invalid method signature supplied' });
          return;
        }
        if (form.sk !== LASTFM.sessionKey) {
          send(200, { error: 9, message: 'Invalid session key' });
          return;
        }
        if (form.method === 'user.getInfo') {
          send(200, { user: { name: 'fm-listener' } });
          return;
        }
        if (form.method === 'track.updateNowPlaying') {
          state.received.push({
            service: 'lastfm',
            type: 'now_playing',
            artist: form.artist ?? '',
            title: form.track ?? '',
            album: form.album,
            listenedAt: undefined,
            durationMs: form.duration === undefined ? undefined : Number(form.duration) * 1000,
          });
          send(200, { nowplaying: { track: { '#text': form.track } } });
          return;
        }
        if (form.method === 'track.scrobble') {
          const scrobble = [];
          for (let index = 0; form[`artist[${String(index)}]`] !== undefined; index += 1) {
            const field = (name: string) => form[`${name}[${String(index)}]`];
            const title = field('track') ?? '';
            const ignored = state.ignoredTitles.has(title);
            if (!ignored) {
              state.received.push({
                service: 'lastfm',
                type: 'listen',
                artist: field('artist') ?? '',
                title,
                album: field('album'),
                listenedAt: Number(field('timestamp')),
                durationMs: field('duration') === undefined ? undefined : Number(field('duration')) * 1000,
              });
            }
            scrobble.push({
              track: { '#text': title },
              ignoredMessage: ignored ? { code: '1', '#text': 'Artist was ignored' } : { code: '0', '#text': '' },
            });
          }
          const ignoredCount = scrobble.filter((one) => one.ignoredMessage.code !== '0').length;
          send(200, {
            scrobbles: {
              '@attr': { accepted: scrobble.length - ignoredCount, ignored: ignoredCount },
              scrobble: scrobble.length === 1 ? scrobble[0] : scrobble,
            },
          });
          return;
        }
        send(200, { error: 3, message: 'Invalid Method' });
        return;
      }
      send(404, { error: 'not found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${String(port)}`;
  return Object.assign(state, {
    listenBrainzUrl: base,
    lastFmUrl: `${base}/2.0/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
