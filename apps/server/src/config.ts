import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENRES, isGenre, type Genre } from '@tonearm/contract';
import { z } from 'zod';

export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** LOG_FORMAT: 'pretty' for people at a terminal, 'json' lines for log collectors. */
export type LogFormat = 'pretty' | 'json';
export type PaymentProviderName = 'demo' | 'stripe' | 'none';

export interface LibrariesConfig {
  /** MUSIC_DIR: a folder made the first library at start (named after the folder); null: none. */
  musicDir: string | null;
  /** SCAN_INTERVAL (minutes): every library is scanned this often; 0: only at start, on change and on demand. */
  scanIntervalMs: number;
  /** SCAN_WATCH: a change in a library's folder starts a scan once the folder has been quiet for `quietMs`. */
  watch: boolean;
  quietMs: number;
  /** SCAN_CONCURRENCY: files whose tags a scan reads at once. */
  concurrency: number;
  /** SCAN_THREADS: threads that read a scan's files beside the main one (0: the main one reads them). */
  threads: number;
  /** SCAN_DEFAULT_GENRE: the genre of a file whose genre tag names none of the catalogue's. */
  defaultGenre: Genre;
}

export interface Config {
  port: number;
  host: string;
  /** Absolute; holds the SQLite file and the local blobs. */
  dataDir: string;
  /** postgres:// URL; null means the embedded SQLite database in dataDir. */
  databaseUrl: string | null;
  /** External origin without a trailing slash, e.g. https://music.example.org; null when not configured. */
  publicUrl: string | null;
  /** The longest a session lives after sign-in, however active. */
  sessionTtlSeconds: number;
  /** A session unused this long ends; each use slides it forward (never past the ttl). */
  sessionIdleSeconds: number;
  nodeEnv: NodeEnv;
  logLevel: LogLevel;
  /** LOG_FORMAT; null lets the logger decide: pretty when stdout is a terminal, JSON lines otherwise. */
  logFormat: LogFormat | null;
  /** Seed the demo catalogue on first start. */
  demo: boolean;
  /** Library folders read in place (MUSIC_DIR, SCAN_*). */
  libraries: LibrariesConfig;
  paymentProvider: PaymentProviderName;
  prices: { monthlyCents: number; yearlyCents: number; currency: string };
  /** apiUrl (STRIPE_API_URL) points the Stripe client elsewhere, e.g. at stripe-mock; absent means api.stripe.com. */
  stripe: { secretKey: string | null; webhookSecret: string | null; apiUrl?: string };
  /** Where listens are sent (issue 28): LISTENBRAINZ_API_URL and LASTFM_API_URL, the real services by default. */
  scrobbling: { listenBrainzUrl: string; lastFmUrl: string };
  /** Passed to Fastify's trustProxy: false, true, a hop count, or a comma-separated list of addresses/CIDRs. */
  trustProxy: boolean | number | string;
  /** Built web app to serve; null when it has not been built. */
  webDist: string | null;
  /** Login and register attempts allowed per IP and minute. */
  authRateLimitPerMinute: number;
  /** Failed sign-ins one account may have in 15 minutes before it refuses further attempts for a while. */
  loginFailuresPerAccount: number;
  limits: Limits;
  timeouts: HttpTimeouts;
  /** REGISTRATION: 'closed' leaves account creation to administrators (and to claiming the first administrator). */
  registration: 'open' | 'closed';
  transcode: TranscodeConfig;
  /** The background audio analysis of issue 28's song radio (docs/radio.md). */
  analysis: AnalysisConfig;
  /**
   * SECRET_KEY: what the app passwords of Subsonic apps are encrypted under (a 32-byte key is derived from it); null
   * means a random key kept in `${dataDir}/secret.key`, made on first use.
   */
  secretKey: string | null;
  /**
   * MEDIA_OFFLOAD=nginx: stored media are answered with `X-Accel-Redirect` to `prefix` (MEDIA_OFFLOAD_PREFIX, an
   * `internal` nginx location aliased to DATA_DIR/blobs) after the access checks, and nginx sends the bytes; null
   * (the default) means Tonearm sends them itself. `gate` (MEDIA_OFFLOAD_GATE): where nginx asks about `/media/`
   * requests over the lean listener of modules/media/offload-gate.ts; null when nginx asks the HTTP server.
   */
  mediaOffload: { via: 'nginx'; prefix: string; gate: GateAddress | null } | null;
  metrics: MetricsConfig;
  /** Where blobs (audio, images) live: `${dataDir}/blobs`, or an S3-compatible bucket (STORAGE=s3). */
  storage: StorageConfig;
  /** Songs per read when the whole catalogue is streamed (modules/songs/songs.stream.ts); tests set a small one. */
  catalogueChunkRows?: number;
}

export type StorageConfig = { kind: 'local' } | S3StorageConfig;

/** STORAGE=s3 (docs/design.md, "S3 storage"). */
export interface S3StorageConfig {
  kind: 's3';
  /** S3_ENDPOINT: an S3-compatible service (MinIO, Garage, …); null means AWS itself. */
  endpoint: string | null;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** S3_FORCE_PATH_STYLE: `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (MinIO needs it). */
  forcePathStyle: boolean;
  /** S3_PRESIGN: /media answers a redirect to a short-lived signed URL of the bucket instead of relaying the bytes. */
  presign: boolean;
}

/** HTTP timeouts, in milliseconds (docs/configuration.md). */
export interface HttpTimeouts {
  /** The request line and headers must arrive within this (Node's headersTimeout). */
  headersMs: number;
  /** A request body that is not an upload (JSON, forms) must have arrived this long after the headers: else 408. */
  requestMs: number;
  /** An upload (multipart body) is cut with a 408 once no byte arrived for this long; a slow but moving one goes on. */
  uploadIdleMs: number;
  /** Backstop for every request, uploads included: headers and body within this (Node's requestTimeout). */
  uploadMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
}

/** Converting audio on the fly with ffmpeg (`/media/audio/{key}?format=`; docs/design.md, "Transcoding"). */
export interface TranscodeConfig {
  /** The ffmpeg binary (FFMPEG_PATH): a name looked up in PATH, or a path. Tried once at start-up. */
  ffmpegPath: string;
  /** Finished transcodes kept on disk, least recently used evicted past this (TRANSCODE_CACHE_MB, in MiB). */
  cacheBytes: number;
  /** ffmpeg processes running at once; past this a new transcode is answered 503 (TRANSCODE_CONCURRENCY). */
  concurrency: number;
}

/** The background audio analysis (modules/analysis; docs/radio.md). It needs ffmpeg, like transcoding. */
export interface AnalysisConfig {
  /** ANALYSIS: analyse songs' audio in the background (on by default); off, no song gets a feature vector. */
  enabled: boolean;
  /** ANALYSIS_CONCURRENCY: songs analysed at once by this instance (each one ffmpeg and a turn of the thread). */
  concurrency: number;
}

/** `GET /metrics` (docs/operations.md): off, open, or behind a bearer token. */
export interface MetricsConfig {
  /** METRICS=1, or a METRICS_TOKEN: the route exists (404 otherwise, like any unknown path). */
  enabled: boolean;
  /** METRICS_TOKEN: when set, a scrape must send `Authorization: Bearer <token>` (401 otherwise). */
  token: string | null;
}

/** What one user may create, and how much image work the process takes on at once (issue 9: safe by default). */
export interface Limits {
  /** Profile photos and playlist covers a user may upload in a rolling 24 hours (IMAGE_UPLOADS_PER_DAY). */
  imageUploadsPerDay: number;
  /** Bytes of such images a user may upload in a rolling 24 hours (IMAGE_UPLOAD_MB_PER_DAY, in MiB). */
  imageUploadBytesPerDay: number;
  /** Playlists one user may own (PLAYLISTS_PER_USER). */
  playlistsPerUser: number;
  /** Unpaid checkouts of the last 24 hours one user may have open (PENDING_ORDERS_PER_USER). */
  pendingOrdersPerUser: number;
  /** Live sessions per user; a new login ends the oldest beyond this (SESSIONS_PER_USER). */
  sessionsPerUser: number;
  /** Upload requests (photo, playlist with cover) per user and minute (UPLOAD_RATE_LIMIT). */
  uploadsPerMinute: number;
  /** Checkout requests per user and minute (CHECKOUT_RATE_LIMIT). */
  checkoutsPerMinute: number;
  /** Images decoded at the same time by this process (IMAGE_CONCURRENCY). */
  imageConcurrency: number;
  /** Images waiting for a decoding slot; past this an upload is refused with 429 (IMAGE_QUEUE). */
  imageQueue: number;
  /** Largest image accepted, in pixels (IMAGE_MAX_MEGAPIXELS × 1 000 000), checked from the header before decoding. */
  imageMaxPixels: number;
}

/** A bad environment variable. The message is one line naming the variable, fit to print on its own. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
const THIRTY_DAYS_SECONDS = 30 * 24 * 60 * 60;
const FOURTEEN_DAYS_SECONDS = 14 * 24 * 60 * 60;
const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
const TIMEOUT_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DAY_MS = 86_400_000;
/** A bearer token (RFC 6750 token68 characters), long enough not to be guessed. */
const METRICS_TOKEN_PATTERN = /^[A-Za-z0-9._~+/=-]{16,}$/;
/** 32 characters: the 64 hex digits of `openssl rand -hex 32` pass, a short word does not. */
const SECRET_KEY_MIN_LENGTH = 32;
/** The internal nginx location of MEDIA_OFFLOAD=nginx (docs/deploy/nginx.conf). */
export const DEFAULT_MEDIA_OFFLOAD_PREFIX = '/_tonearm_blobs/';

/** Where the media offload gate listens: a Unix socket, or a TCP host and port. */
export type GateAddress = { path: string } | { host: string; port: number };

function gateAddress(value: string): GateAddress {
  if (value.startsWith('/')) return { path: value };
  const colon = value.lastIndexOf(':');
  return { host: value.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(value.slice(colon + 1)) };
}

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v));

const flag = (fallback: boolean) =>
  optionalText.pipe(
    z
      .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
        error: 'must be one of 1, 0, true, false, yes, no, on, off',
      })
      .optional()
      .transform((v) => (v === undefined ? fallback : ['1', 'true', 'yes', 'on'].includes(v))),
  );

/** A flag that may be left unset (undefined), for variables whose default depends on another. */
const optionalFlag = optionalText.pipe(
  z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
      error: 'must be one of 1, 0, true, false, yes, no, on, off',
    })
    .optional()
    .transform((v) => (v === undefined ? undefined : ['1', 'true', 'yes', 'on'].includes(v))),
);

const integer = (fallback: number, min: number, max: number) =>
  optionalText.pipe(
    z
      .string()
      .regex(/^\d+$/, `must be a whole number between ${min} and ${max}`)
      .transform(Number)
      .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .optional()
      .transform((v) => v ?? fallback),
  );

/** Seconds, or a number with a unit s, m, h or d (e.g. 12h, 30d). */
const duration = (fallback: number) =>
  optionalText.pipe(
    z
      .string()
      .regex(/^\d+[smhd]?$/, 'must be a number of seconds or a duration like 45m, 12h or 30d')
      .transform((v) => {
        const unit = /[smhd]$/.test(v) ? v.slice(-1) : 's';
        return Number.parseInt(v, 10) * (DURATION_UNITS[unit] ?? 1);
      })
      .pipe(z.number().min(60, 'must be at least 60 seconds'))
      .optional()
      .transform((v) => v ?? fallback),
  );

/** A timeout in milliseconds from seconds, or a number with a unit ms, s, m or h (e.g. 500ms, 30s, 2m). */
const timeout = (fallbackMs: number) =>
  optionalText.pipe(
    z
      .string()
      .regex(/^\d+(ms|s|m|h)?$/, 'must be a number of seconds or a duration like 500ms, 30s, 2m or 1h')
      .transform((v) => Number.parseInt(v, 10) * (TIMEOUT_UNITS_MS[/[a-z]+$/.exec(v)?.[0] ?? 's'] ?? 1000))
      .pipe(z.number().min(100, 'must be at least 100ms').max(DAY_MS, 'must be at most 24h'))
      .optional()
      .transform((v) => v ?? fallbackMs),
  );

const httpUrl = (what: string) =>
  z.string().refine((v) => {
    try {
      const url = new URL(v);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, `must be ${what}`);

const EnvSchema = z.object({
  PORT: integer(4000, 0, 65_535),
  HOST: optionalText.transform((v) => v ?? '0.0.0.0'),
  DATA_DIR: optionalText.transform((v) => v ?? './data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(
    httpUrl('an http:// or https:// URL such as https://music.example.org')
      .transform((v) => new URL(v).origin)
      .optional(),
  ),
  SESSION_TTL: duration(THIRTY_DAYS_SECONDS),
  SESSION_IDLE: duration(FOURTEEN_DAYS_SECONDS),
  NODE_ENV: optionalText.pipe(
    z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).optional(),
  ),
  LOG_LEVEL: optionalText.pipe(
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .optional(),
  ),
  LOG_FORMAT: optionalText.pipe(z.enum(['pretty', 'json'], { error: 'must be pretty or json' }).optional()),
  DEMO: flag(true),
  MUSIC_DIR: optionalText,
  SCAN_INTERVAL: integer(0, 0, 10_080),
  SCAN_WATCH: flag(true),
  SCAN_QUIET_MS: integer(2000, 50, 600_000),
  SCAN_CONCURRENCY: integer(8, 1, 32),
  // One, and one per core beyond the first three, at most two. The threads run at nice 10 (scan-worker.ts). Measured on
  // two cores (bench:scan, 20 000 files, SQLite): one thread against none, first scan 590 files/s against 523, and a
  // listener's page p99 during a scan 54 ms against 128.
  SCAN_THREADS: integer(Math.max(1, Math.min(2, availableParallelism() - 2)), 0, 8),
  SCAN_DEFAULT_GENRE: optionalText.pipe(
    z
      .string()
      .refine(isGenre, `must be one of the catalogue's genres: ${GENRES.join(', ')}`)
      .optional()
      .transform((v): Genre => (v !== undefined && isGenre(v) ? v : 'Pop')),
  ),
  PAYMENT_PROVIDER: optionalText.pipe(
    z.enum(['demo', 'stripe', 'none'], { error: 'must be demo, stripe or none' }).optional(),
  ),
  PRICE_MONTHLY_CENTS: integer(499, 1, 100_000_000),
  PRICE_YEARLY_CENTS: integer(4990, 1, 100_000_000),
  CURRENCY: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code such as EUR')
      .transform((v) => v.toUpperCase())
      .optional()
      .transform((v) => v ?? 'EUR'),
  ),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_API_URL: optionalText.pipe(httpUrl('an http:// or https:// URL such as http://localhost:12111').optional()),
  LISTENBRAINZ_API_URL: optionalText.pipe(
    httpUrl('an http:// or https:// URL such as https://api.listenbrainz.org').optional(),
  ),
  LASTFM_API_URL: optionalText.pipe(
    httpUrl('an http:// or https:// URL such as https://ws.audioscrobbler.com/2.0/').optional(),
  ),
  TRUST_PROXY: optionalText,
  WEB_DIST: optionalText,
  AUTH_RATE_LIMIT: integer(10, 1, 1_000_000),
  AUTH_ACCOUNT_LIMIT: integer(10, 1, 1_000_000),
  IMAGE_UPLOADS_PER_DAY: integer(50, 1, 1_000_000),
  IMAGE_UPLOAD_MB_PER_DAY: integer(200, 1, 1_000_000),
  PLAYLISTS_PER_USER: integer(500, 1, 1_000_000),
  PENDING_ORDERS_PER_USER: integer(5, 1, 1000),
  SESSIONS_PER_USER: integer(10, 1, 1000),
  UPLOAD_RATE_LIMIT: integer(20, 1, 1_000_000),
  CHECKOUT_RATE_LIMIT: integer(5, 1, 1_000_000),
  IMAGE_CONCURRENCY: integer(2, 1, 64),
  IMAGE_QUEUE: integer(16, 0, 10_000),
  // sharp's own default ceiling is 268 megapixels (0x3FFF × 0x3FFF).
  IMAGE_MAX_MEGAPIXELS: integer(40, 1, 268),
  HEADERS_TIMEOUT: timeout(20_000),
  REQUEST_TIMEOUT: timeout(30_000),
  UPLOAD_IDLE_TIMEOUT: timeout(30_000),
  UPLOAD_TIMEOUT: timeout(3_600_000),
  // Above the 60 s idle timeout of common load balancers, so they close first and never reuse a closing connection.
  KEEP_ALIVE_TIMEOUT: timeout(72_000),
  FFMPEG_PATH: optionalText.transform((v) => v ?? 'ffmpeg'),
  TRANSCODE_CACHE_MB: integer(1024, 1, 10_000_000),
  // One ffmpeg per core: a transcode keeps one core busy until it is done.
  TRANSCODE_CONCURRENCY: integer(availableParallelism(), 1, 256),
  ANALYSIS: flag(true),
  ANALYSIS_CONCURRENCY: integer(1, 1, 4),
  REGISTRATION: optionalText.pipe(z.enum(['open', 'closed'], { error: 'must be open or closed' }).optional()),
  MEDIA_OFFLOAD: optionalText.pipe(z.enum(['off', 'nginx'], { error: 'must be off or nginx' }).optional()),
  MEDIA_OFFLOAD_PREFIX: optionalText.pipe(
    z
      .string()
      .regex(/^\/[A-Za-z0-9._~/-]*\/$/, 'must be a URL path that starts and ends with / such as /_tonearm_blobs/')
      .refine((v) => !v.split('/').some((part) => part === '.' || part === '..'), 'must not contain . or .. segments')
      .optional()
      .transform((v) => v ?? DEFAULT_MEDIA_OFFLOAD_PREFIX),
  ),
  MEDIA_OFFLOAD_GATE: optionalText.pipe(
    z
      .string()
      .regex(
        /^(\/[^\0]+|(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5})$/,
        'must be host:port, such as 127.0.0.1:4001, or the absolute path of a Unix socket',
      )
      .transform(gateAddress)
      .refine((v) => 'path' in v || (v.port >= 1 && v.port <= 65_535), 'must name a port from 1 to 65535')
      .optional(),
  ),
  SECRET_KEY: optionalText.pipe(
    z
      .string()
      .min(SECRET_KEY_MIN_LENGTH, `must be at least ${SECRET_KEY_MIN_LENGTH} characters (e.g. openssl rand -hex 32)`)
      .optional(),
  ),
  METRICS: optionalFlag,
  METRICS_TOKEN: optionalText.pipe(
    z
      .string()
      .regex(
        METRICS_TOKEN_PATTERN,
        'must be at least 16 characters of A-Z, a-z, 0-9 and - . _ ~ + / = (e.g. openssl rand -hex 32)',
      )
      .optional(),
  ),
  STORAGE: optionalText.pipe(z.enum(['local', 's3'], { error: 'must be local or s3' }).optional()),
  S3_ENDPOINT: optionalText.pipe(httpUrl('an http:// or https:// URL such as https://s3.example.org').optional()),
  S3_REGION: optionalText.transform((v) => v ?? 'us-east-1'),
  S3_BUCKET: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 of a-z, 0-9, dots and hyphens)')
      .optional(),
  ),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: flag(false),
  S3_PRESIGN: flag(false),
});

type Env = Record<string, string | undefined>;

/** Every environment variable the server reads (docs/configuration.md and docs/deploy/tonearm.env list them all). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

/** Never echoed in error messages: they may carry passwords. */
const SECRET_VARIABLES = new Set([
  'DATABASE_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'SECRET_KEY',
  'METRICS_TOKEN',
  'S3_SECRET_ACCESS_KEY',
]);

function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isProxyAddress(entry));
  if (bad !== undefined) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be true, false, a hop count, or a comma-separated list of addresses, CIDR ranges or loopback, linklocal, uniquelocal (got "${bad}")`,
    );
  }
  return entries.join(',');
}

/** An address, a CIDR range, or one of proxy-addr's named ranges. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (address === undefined || rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Stripe when its key is configured, otherwise no payments. The demo provider hands out premium for a test card, so it
 * runs only when the operator asks for it by name (PAYMENT_PROVIDER=demo), whatever NODE_ENV says.
 */
function defaultPaymentProvider(stripeKey: string | undefined): PaymentProviderName {
  return stripeKey === undefined ? 'none' : 'stripe';
}

function resolveWebDist(raw: string | undefined, cwd: string): string | null {
  if (raw !== undefined) {
    const dir = path.resolve(cwd, raw);
    if (!existsSync(path.join(dir, 'index.html'))) throw new ConfigError('WEB_DIST', `has no index.html (${dir})`);
    return dir;
  }
  return existsSync(path.join(DEFAULT_WEB_DIST, 'index.html')) ? DEFAULT_WEB_DIST : null;
}

/** METRICS=1 opens /metrics, a METRICS_TOKEN puts it behind that token (whatever METRICS says, unless it says off). */
function metricsConfig(flag: boolean | undefined, token: string | undefined): MetricsConfig {
  if (flag === false && token !== undefined) {
    throw new ConfigError('METRICS', 'is off, but METRICS_TOKEN is set: unset one of them');
  }
  return { enabled: flag === true || token !== undefined, token: token ?? null };
}

type ParsedEnv = z.infer<typeof EnvSchema>;

/** STORAGE=s3 needs a bucket and both keys; the S3_ settings are ignored with local storage. */
function storageOf(e: ParsedEnv): StorageConfig {
  if (e.STORAGE !== 's3') return { kind: 'local' };
  const required = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  const missing = required.find((name) => e[name] === undefined);
  if (missing !== undefined) throw new ConfigError(missing, 'is required when STORAGE is s3');
  return {
    kind: 's3',
    endpoint: e.S3_ENDPOINT ?? null,
    region: e.S3_REGION,
    bucket: e.S3_BUCKET ?? '',
    accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    presign: e.S3_PRESIGN,
  };
}

/** Reads the configuration from environment variables; throws ConfigError on the first bad value. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = typeof issue?.path[0] === 'string' ? issue.path[0] : 'environment';
    const got = SECRET_VARIABLES.has(variable) ? undefined : env[variable];
    const shown = got === undefined ? '' : ` (got "${got.length > 60 ? `${got.slice(0, 60)}…` : got}")`;
    throw new ConfigError(variable, `${issue?.message ?? 'is invalid'}${shown}`);
  }
  const e = parsed.data;
  const nodeEnv = e.NODE_ENV ?? 'development';
  const paymentProvider = e.PAYMENT_PROVIDER ?? defaultPaymentProvider(e.STRIPE_SECRET_KEY);
  if (paymentProvider === 'stripe' && e.STRIPE_SECRET_KEY === undefined) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'is required when PAYMENT_PROVIDER is stripe');
  }
  if (paymentProvider === 'stripe' && e.STRIPE_WEBHOOK_SECRET === undefined) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'is required when PAYMENT_PROVIDER is stripe');
  }
  // nginx can only send a file it can open: blobs on a remote store have none (S3_PRESIGN is their offload).
  if (e.MEDIA_OFFLOAD_GATE !== undefined && e.MEDIA_OFFLOAD !== 'nginx') {
    throw new ConfigError('MEDIA_OFFLOAD_GATE', 'needs MEDIA_OFFLOAD=nginx (the gate hands media to nginx)');
  }
  if (e.MEDIA_OFFLOAD === 'nginx' && e.STORAGE === 's3') {
    throw new ConfigError('MEDIA_OFFLOAD', 'nginx needs STORAGE=local (nginx sends files from DATA_DIR/blobs)');
  }
  // Node refuses a headers timeout longer than the whole-request one.
  if (e.HEADERS_TIMEOUT > e.UPLOAD_TIMEOUT) throw new ConfigError('HEADERS_TIMEOUT', 'must not exceed UPLOAD_TIMEOUT');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    publicUrl: e.PUBLIC_URL ?? null,
    scrobbling: {
      listenBrainzUrl: e.LISTENBRAINZ_API_URL ?? 'https://api.listenbrainz.org',
      lastFmUrl: e.LASTFM_API_URL ?? 'https://ws.audioscrobbler.com/2.0/',
    },
    sessionTtlSeconds: e.SESSION_TTL,
    sessionIdleSeconds: Math.min(e.SESSION_IDLE, e.SESSION_TTL),
    nodeEnv,
    logLevel: e.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    logFormat: e.LOG_FORMAT ?? null,
    demo: e.DEMO,
    libraries: {
      musicDir: e.MUSIC_DIR === undefined ? null : path.resolve(cwd, e.MUSIC_DIR),
      scanIntervalMs: e.SCAN_INTERVAL * 60_000,
      watch: e.SCAN_WATCH,
      quietMs: e.SCAN_QUIET_MS,
      concurrency: e.SCAN_CONCURRENCY,
      threads: e.SCAN_THREADS,
      defaultGenre: e.SCAN_DEFAULT_GENRE,
    },
    paymentProvider,
    prices: { monthlyCents: e.PRICE_MONTHLY_CENTS, yearlyCents: e.PRICE_YEARLY_CENTS, currency: e.CURRENCY },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY ?? null,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
      ...(e.STRIPE_API_URL === undefined ? {} : { apiUrl: e.STRIPE_API_URL }),
    },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    webDist: resolveWebDist(e.WEB_DIST, cwd),
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT,
    loginFailuresPerAccount: e.AUTH_ACCOUNT_LIMIT,
    limits: {
      imageUploadsPerDay: e.IMAGE_UPLOADS_PER_DAY,
      imageUploadBytesPerDay: e.IMAGE_UPLOAD_MB_PER_DAY * 1024 * 1024,
      playlistsPerUser: e.PLAYLISTS_PER_USER,
      pendingOrdersPerUser: e.PENDING_ORDERS_PER_USER,
      sessionsPerUser: e.SESSIONS_PER_USER,
      uploadsPerMinute: e.UPLOAD_RATE_LIMIT,
      checkoutsPerMinute: e.CHECKOUT_RATE_LIMIT,
      imageConcurrency: e.IMAGE_CONCURRENCY,
      imageQueue: e.IMAGE_QUEUE,
      imageMaxPixels: e.IMAGE_MAX_MEGAPIXELS * 1_000_000,
    },
    timeouts: {
      headersMs: e.HEADERS_TIMEOUT,
      requestMs: e.REQUEST_TIMEOUT,
      uploadIdleMs: e.UPLOAD_IDLE_TIMEOUT,
      uploadMs: e.UPLOAD_TIMEOUT,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT,
    },
    registration: e.REGISTRATION ?? 'open',
    secretKey: e.SECRET_KEY ?? null,
    mediaOffload:
      e.MEDIA_OFFLOAD === 'nginx'
        ? { via: 'nginx', prefix: e.MEDIA_OFFLOAD_PREFIX, gate: e.MEDIA_OFFLOAD_GATE ?? null }
        : null,
    storage: storageOf(e),
    transcode: {
      ffmpegPath: e.FFMPEG_PATH,
      cacheBytes: e.TRANSCODE_CACHE_MB * 1024 * 1024,
      concurrency: e.TRANSCODE_CONCURRENCY,
    },
    metrics: metricsConfig(e.METRICS, e.METRICS_TOKEN),
    analysis: { enabled: e.ANALYSIS, concurrency: e.ANALYSIS_CONCURRENCY },
  };
}
