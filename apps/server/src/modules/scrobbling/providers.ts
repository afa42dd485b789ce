import { createHash } from 'node:crypto';
import type { ScrobbleService } from '@tonearm/contract';

/** What one queued row sends: the song as it was when queued. */
export interface ScrobbleItem {
  artist: string;
  title: string;
  album: string | null;
  durationMs: number | null;
  /** When the listen began (ISO). */
  playedAt: string;
}

/** How a send went. */
export type SendOutcome =
  /** Accepted; the items of `rejected` (indexes) were refused for good (the reason is kept on the row). */
  | { kind: 'sent'; rejected: { index: number; reason: string }[] }
  /** The service is down, rate-limited or unreachable: try again later (not before `afterMs` when it said so). */
  | { kind: 'retry'; reason: string; afterMs?: number }
  /** The credentials were refused: stop sending to this account until the listener connects again. */
  | { kind: 'refused'; reason: string };

export type Validation = { kind: 'ok'; remoteName: string } | Exclude<SendOutcome, { kind: 'sent' }>;

export type Secrets = Record<string, string>;

/** One scrobbling service's documented API. */
export interface Provider {
  readonly service: ScrobbleService;
  readonly label: string;
  /** Listens one request may carry. */
  readonly batchMax: number;
  validate(secrets: Secrets): Promise<Validation>;
  scrobble(secrets: Secrets, items: readonly ScrobbleItem[]): Promise<SendOutcome>;
  nowPlaying(secrets: Secrets, item: ScrobbleItem): Promise<SendOutcome>;
}

/** A request that takes longer is given up (and retried later). */
const REQUEST_TIMEOUT_MS = 10_000;
const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

async function request(url: string, init: RequestInit): Promise<Response | { failed: string }> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}

/** ListenBrainz (listenbrainz.readthedocs.io, API v1): a user token, JSON listens. */
export function listenBrainz(baseUrl: string): Provider {
  const base = baseUrl.replace(/\/+$/, '');
  const headers = (secrets: Secrets) => ({
    authorization: `Token ${secrets.token ?? ''}`,
    'content-type': 'application/json',
  });
  const metadata = (item: ScrobbleItem) => ({
    artist_name: item.artist,
    track_name: item.title,
    ...(item.album === null ? {} : { release_name: item.album }),
    additional_info: {
      submission_client: 'Tonearm',
      media_player: 'Tonearm',
      ...(item.durationMs === null ? {} : { duration_ms: item.durationMs }),
    },
  });

  async function submit(secrets: Secrets, body: unknown, count: number): Promise<SendOutcome> {
    const answer = await request(`${base}/1/submit-listens`, {
      method: 'POST',
      headers: headers(secrets),
      body: JSON.stringify(body),
    });
    if ('failed' in answer) return { kind: 'retry', reason: answer.failed };
    if (answer.ok) return { kind: 'sent', rejected: [] };
    const reason = await errorText(answer);
    if (answer.status === 401) return { kind: 'refused', reason };
    if (answer.status === 429) {
      const seconds = Number(answer.headers.get('x-ratelimit-reset-in'));
      return { kind: 'retry', reason, ...(Number.isFinite(seconds) && seconds > 0 ? { afterMs: seconds * 1000 } : {}) };
    }
    if (answer.status >= 500) return { kind: 'retry', reason };
    // A 400 names the listens as they are: sending them again would fail again.
    return { kind: 'sent', rejected: Array.from({ length: count }, (_, index) => ({ index, reason })) };
  }

  return {
    service: 'listenbrainz',
    label: 'ListenBrainz',
    batchMax: 100,
    async validate(secrets) {
      const answer = await request(`${base}/1/validate-token`, { headers: headers(secrets) });
      if ('failed' in answer) return { kind: 'retry', reason: answer.failed };
      if (answer.status >= 500 || answer.status === 429) return { kind: 'retry', reason: await errorText(answer) };
      const body = (await answer.json().catch(() => ({}))) as { valid?: boolean; user_name?: string; message?: string };
      if (answer.ok && body.valid === true && typeof body.user_name === 'string') {
        return { kind: 'ok', remoteName: body.user_name };
      }
      return { kind: 'refused', reason: body.message ?? 'Invalid token' };
    },
    scrobble(secrets, items) {
      const payload = items.map((item) => ({
        listened_at: unixSeconds(item.playedAt),
        track_metadata: metadata(item),
      }));
      return submit(secrets, { listen_type: items.length === 1 ? 'single' : 'import', payload }, items.length);
    },
    nowPlaying(secrets, item) {
      return submit(secrets, { listen_type: 'playing_now', payload: [{ track_metadata: metadata(item) }] }, 1);
    },
  };
}

/** Last.fm error codes (last.fm/api/errorcodes) that mean the credentials are no good. */
const LASTFM_REFUSED = new Set([4, 9, 10, 13, 14, 26]);
/** ...and those that mean "later": operation failed, service offline, temporarily unavailable, rate limit. */
const LASTFM_LATER = new Set([8, 11, 16, 29]);

/** Last.fm's 2.0 API: method calls signed with the API secret (api_sig), a session key per listener. */
export function lastFm(baseUrl: string): Provider {
  async function call(secrets: Secrets, params: Record<string, string>): Promise<{ body: unknown } | SendOutcome> {
    const signed: Record<string, string> = { ...params, api_key: secrets.apiKey ?? '', sk: secrets.sessionKey ?? '' };
    signed.api_sig = lastFmSignature(signed, secrets.secret ?? '');
    const answer = await request(baseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...signed, format: 'json' }).toString(),
    });
    if ('failed' in answer) return { kind: 'retry', reason: answer.failed };
    const body = (await answer.json().catch(() => null)) as { error?: number; message?: string } | null;
    if (body !== null && typeof body.error === 'number') {
      const reason = `${String(body.error)}: ${body.message ?? 'error'}`;
      if (LASTFM_REFUSED.has(body.error)) return { kind: 'refused', reason };
      if (LASTFM_LATER.has(body.error)) return { kind: 'retry', reason };
      return { kind: 'sent', rejected: [{ index: -1, reason }] };
    }
    if (!answer.ok || body === null) return { kind: 'retry', reason: `HTTP ${String(answer.status)}` };
    return { body };
  }

  const trackParams = (item: ScrobbleItem, suffix = '') => ({
    [`artist${suffix}`]: item.artist,
    [`track${suffix}`]: item.title,
    ...(item.album === null ? {} : { [`album${suffix}`]: item.album }),
    ...(item.durationMs === null ? {} : { [`duration${suffix}`]: String(Math.round(item.durationMs / 1000)) }),
  });

  return {
    service: 'lastfm',
    label: 'Last.fm',
    batchMax: 50,
    async validate(secrets) {
      const result = await call(secrets, { method: 'user.getInfo' });
      if (!('body' in result)) return result.kind === 'sent' ? { kind: 'refused', reason: reasonOf(result) } : result;
      const name = (result.body as { user?: { name?: unknown } }).user?.name;
      return typeof name === 'string' ? { kind: 'ok', remoteName: name } : { kind: 'refused', reason: 'No user' };
    },
    async scrobble(secrets, items) {
      const params: Record<string, string> = { method: 'track.scrobble' };
      items.forEach((item, index) => {
        Object.assign(params, trackParams(item, `[${String(index)}]`), {
          [`timestamp[${String(index)}]`]: String(unixSeconds(item.playedAt)),
        });
      });
      const result = await call(secrets, params);
      if (!('body' in result)) return spreadRejection(result, items.length);
      return { kind: 'sent', rejected: ignoredScrobbles(result.body) };
    },
    async nowPlaying(secrets, item) {
      const result = await call(secrets, { method: 'track.updateNowPlaying', ...trackParams(item) });
      return 'body' in result ? { kind: 'sent', rejected: [] } : spreadRejection(result, 1);
    },
  };
}

/** api_sig: every parameter but `format` and `callback`, sorted by name, names and values run together, the secret after, md5. */
export function lastFmSignature(params: Record<string, string>, secret: string): string {
  const text = Object.keys(params)
    .filter((name) => name !== 'format' && name !== 'callback' && name !== 'api_sig')
    .sort()
    .map((name) => `${name}${params[name] ?? ''}`)
    .join('');
  return createHash('md5').update(`${text}${secret}`, 'utf8').digest('hex');
}

/** A whole-request refusal of a batch counts against each of its items. */
function spreadRejection(outcome: SendOutcome, count: number): SendOutcome {
  if (outcome.kind !== 'sent') return outcome;
  const reason = reasonOf(outcome);
  return { kind: 'sent', rejected: Array.from({ length: count }, (_, index) => ({ index, reason })) };
}

function reasonOf(outcome: SendOutcome): string {
  return outcome.kind === 'sent' ? (outcome.rejected[0]?.reason ?? 'refused') : outcome.reason;
}

/** The scrobbles Last.fm ignored (ignoredMessage code other than 0), by index in the batch. */
function ignoredScrobbles(body: unknown): { index: number; reason: string }[] {
  const scrobbles = (body as { scrobbles?: { scrobble?: unknown } }).scrobbles?.scrobble;
  const list = Array.isArray(scrobbles) ? scrobbles : scrobbles === undefined ? [] : [scrobbles];
  return list.flatMap((entry, index) => {
    const ignored = (entry as { ignoredMessage?: { code?: string; '#text'?: string } }).ignoredMessage;
    return ignored?.code !== undefined && ignored.code !== '0'
      ? [{ index, reason: `ignored (${ignored.code}): ${ignored['#text'] ?? ''}`.trim() }]
      : [];
  });
}

async function errorText(answer: Response): Promise<string> {
  const text = await answer.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: string; message?: string };
    return `HTTP ${String(answer.status)}: ${body.error ?? body.message ?? text}`.slice(0, 300);
  } catch {
    return `HTTP ${String(answer.status)}: ${text}`.slice(0, 300);
  }
}
