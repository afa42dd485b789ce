import { readFileSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.js';

const cwd = '/srv/tonearm';

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({}, cwd);
    expect(config).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
      dataDir: path.resolve(cwd, 'data'),
      databaseUrl: null,
      publicUrl: null,
      sessionTtlSeconds: 30 * 24 * 3600,
      nodeEnv: 'development',
      logLevel: 'info',
      demo: true,
      paymentProvider: 'none',
      prices: { monthlyCents: 499, yearlyCents: 4990, currency: 'EUR' },
      stripe: { secretKey: null, webhookSecret: null },
      trustProxy: false,
      authRateLimitPerMinute: 10,
      timeouts: {
        headersMs: 20_000,
        requestMs: 30_000,
        uploadIdleMs: 30_000,
        uploadMs: 3_600_000,
        keepAliveMs: 72_000,
      },
      registration: 'open',
      logFormat: null,
      metrics: { enabled: false, token: null },
    });
  });

  it('reads REGISTRATION', () => {
    expect(loadConfig({ REGISTRATION: 'closed' }, cwd).registration).toBe('closed');
    expect(loadConfig({ REGISTRATION: 'open' }, cwd).registration).toBe('open');
    expect(errorOf({ REGISTRATION: 'invite' }).message).toBe(
      'Invalid configuration: REGISTRATION must be open or closed (got "invite")',
    );
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/tonearm',
        DATABASE_URL: 'postgres://u:p@db:5432/tonearm',
        PUBLIC_URL: 'https://music.example.org/',
        SESSION_TTL: '12h',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DEMO: '0',
        PAYMENT_PROVIDER: 'stripe',
        PRICE_MONTHLY_CENTS: '999',
        PRICE_YEARLY_CENTS: '9990',
        CURRENCY: 'usd',
        STRIPE_SECRET_KEY: 'sk_test_1',
        STRIPE_WEBHOOK_SECRET: 'whsec_1',
        TRUST_PROXY: '2',
        AUTH_RATE_LIMIT: '5',
        HEADERS_TIMEOUT: '10',
        REQUEST_TIMEOUT: '15s',
        UPLOAD_IDLE_TIMEOUT: '1m',
        UPLOAD_TIMEOUT: '2h',
        KEEP_ALIVE_TIMEOUT: '500ms',
      },
      cwd,
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/tonearm',
      databaseUrl: 'postgres://u:p@db:5432/tonearm',
      publicUrl: 'https://music.example.org',
      sessionTtlSeconds: 12 * 3600,
      nodeEnv: 'production',
      logLevel: 'warn',
      demo: false,
      paymentProvider: 'stripe',
      prices: { monthlyCents: 999, yearlyCents: 9990, currency: 'USD' },
      stripe: { secretKey: 'sk_test_1', webhookSecret: 'whsec_1' },
      trustProxy: 2,
      authRateLimitPerMinute: 5,
      timeouts: { headersMs: 10_000, requestMs: 15_000, uploadIdleMs: 60_000, uploadMs: 7_200_000, keepAliveMs: 500 },
    });
  });

  it.each([
    ['REQUEST_TIMEOUT', '10d', 'must be a number of seconds or a duration like 500ms, 30s, 2m or 1h'],
    ['UPLOAD_IDLE_TIMEOUT', '50ms', 'must be at least 100ms'],
    ['KEEP_ALIVE_TIMEOUT', '25h', 'must be at most 24h'],
    ['HEADERS_TIMEOUT', '2h', 'must not exceed UPLOAD_TIMEOUT'],
  ])('refuses %s=%s', (variable, value, problem) => {
    const error = errorOf({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(problem);
  });

  it('resolves a relative DATA_DIR against the working directory', () => {
    expect(loadConfig({ DATA_DIR: 'music' }, cwd).dataDir).toBe('/srv/tonearm/music');
  });

  it.each([
    ['', true],
    ['1', true],
    ['on', true],
    ['0', false],
    ['false', false],
    ['no', false],
  ])('reads DEMO=%j as %s', (value, expected) => {
    expect(loadConfig({ DEMO: value }, cwd).demo).toBe(expected);
  });

  it.each([
    ['true', true],
    ['false', false],
    ['1', 1],
    ['10.0.0.0/8,127.0.0.1', '10.0.0.0/8,127.0.0.1'],
    ['loopback, 192.168.1.10, ::1, fd00::/8', 'loopback,192.168.1.10,::1,fd00::/8'],
  ])('reads TRUST_PROXY=%j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }, cwd).trustProxy).toBe(expected);
  });

  it.each(['proxy.example.org', '10.0.0.0/33', '10.0.0.1/8/2', 'yes'])('refuses TRUST_PROXY=%j', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value }, cwd)).toThrow(/TRUST_PROXY must be true, false, a hop count/);
  });

  it('takes SESSION_TTL as plain seconds too', () => {
    expect(loadConfig({ SESSION_TTL: '3600' }, cwd).sessionTtlSeconds).toBe(3600);
  });

  it('runs the demo payment provider only when PAYMENT_PROVIDER=demo asks for it, in any NODE_ENV', () => {
    for (const nodeEnv of [undefined, 'development', 'test', 'production'] as const) {
      const env: Record<string, string> = nodeEnv === undefined ? {} : { NODE_ENV: nodeEnv };
      expect(loadConfig(env, cwd).paymentProvider).toBe('none');
      expect(loadConfig({ ...env, PAYMENT_PROVIDER: 'demo' }, cwd).paymentProvider).toBe('demo');
      expect(loadConfig({ ...env, STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh' }, cwd).paymentProvider).toBe(
        'stripe',
      );
    }
    expect(loadConfig({ PAYMENT_PROVIDER: 'none', STRIPE_SECRET_KEY: 'sk' }, cwd).paymentProvider).toBe('none');
  });

  it('limits what a user can create by default, and reads every limit', () => {
    expect(loadConfig({}, cwd).limits).toEqual({
      imageUploadsPerDay: 50,
      imageUploadBytesPerDay: 200 * 1024 * 1024,
      playlistsPerUser: 500,
      pendingOrdersPerUser: 5,
      sessionsPerUser: 10,
      uploadsPerMinute: 20,
      checkoutsPerMinute: 5,
      imageConcurrency: 2,
      imageQueue: 16,
      imageMaxPixels: 40_000_000,
    });
    const env = {
      IMAGE_UPLOADS_PER_DAY: '7',
      IMAGE_UPLOAD_MB_PER_DAY: '3',
      PLAYLISTS_PER_USER: '9',
      PENDING_ORDERS_PER_USER: '2',
      SESSIONS_PER_USER: '4',
      UPLOAD_RATE_LIMIT: '6',
      CHECKOUT_RATE_LIMIT: '1',
      IMAGE_CONCURRENCY: '1',
      IMAGE_QUEUE: '0',
      IMAGE_MAX_MEGAPIXELS: '12',
    };
    expect(loadConfig(env, cwd).limits).toEqual({
      imageUploadsPerDay: 7,
      imageUploadBytesPerDay: 3 * 1024 * 1024,
      playlistsPerUser: 9,
      pendingOrdersPerUser: 2,
      sessionsPerUser: 4,
      uploadsPerMinute: 6,
      checkoutsPerMinute: 1,
      imageConcurrency: 1,
      imageQueue: 0,
      imageMaxPixels: 12_000_000,
    });
  });

  it('transcodes with ffmpeg from PATH, a 1 GiB cache and one process per core by default, and reads each', () => {
    expect(loadConfig({}, cwd).transcode).toEqual({
      ffmpegPath: 'ffmpeg',
      cacheBytes: 1024 * 1024 * 1024,
      concurrency: availableParallelism(),
    });
    const env = { FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg', TRANSCODE_CACHE_MB: '50', TRANSCODE_CONCURRENCY: '3' };
    expect(loadConfig(env, cwd).transcode).toEqual({
      ffmpegPath: '/opt/ffmpeg/bin/ffmpeg',
      cacheBytes: 50 * 1024 * 1024,
      concurrency: 3,
    });
  });

  it('sends media itself by default; MEDIA_OFFLOAD=nginx hands them to nginx under MEDIA_OFFLOAD_PREFIX', () => {
    expect(loadConfig({}, cwd).mediaOffload).toBeNull();
    expect(loadConfig({ MEDIA_OFFLOAD: 'off', MEDIA_OFFLOAD_PREFIX: '/x/' }, cwd).mediaOffload).toBeNull();
    expect(loadConfig({ MEDIA_OFFLOAD: 'nginx' }, cwd).mediaOffload).toEqual({
      via: 'nginx',
      prefix: '/_tonearm_blobs/',
      gate: null,
    });
    expect(loadConfig({ MEDIA_OFFLOAD: 'nginx', MEDIA_OFFLOAD_PREFIX: '/internal/blobs/' }, cwd).mediaOffload).toEqual({
      via: 'nginx',
      prefix: '/internal/blobs/',
      gate: null,
    });
    expect(loadConfig({ MEDIA_OFFLOAD: 'nginx', STORAGE: 'local' }, cwd).mediaOffload).not.toBeNull();
  });

  it('opens the offload gate at MEDIA_OFFLOAD_GATE (host:port or a socket path), only with MEDIA_OFFLOAD=nginx', () => {
    const gateOf = (value: string) =>
      loadConfig({ MEDIA_OFFLOAD: 'nginx', MEDIA_OFFLOAD_GATE: value }, cwd).mediaOffload?.gate;
    expect(gateOf('127.0.0.1:4001')).toEqual({ host: '127.0.0.1', port: 4001 });
    expect(gateOf('[::1]:4001')).toEqual({ host: '::1', port: 4001 });
    expect(gateOf('localhost:65535')).toEqual({ host: 'localhost', port: 65_535 });
    expect(gateOf('/run/tonearm/gate.sock')).toEqual({ path: '/run/tonearm/gate.sock' });
    for (const bad of [
      '4001',
      '127.0.0.1',
      '127.0.0.1:0',
      '127.0.0.1:70000',
      'unix:/run/gate.sock',
      'a b:1',
      'gate.sock',
    ]) {
      expect(() => gateOf(bad), bad).toThrow(/MEDIA_OFFLOAD_GATE/);
    }
    expect(() => loadConfig({ MEDIA_OFFLOAD_GATE: '127.0.0.1:4001' }, cwd)).toThrow(
      'MEDIA_OFFLOAD_GATE needs MEDIA_OFFLOAD=nginx',
    );
  });

  it('keeps blobs on the local disk by default, and reads the S3 settings with STORAGE=s3', () => {
    expect(loadConfig({ S3_BUCKET: 'ignored' }, cwd).storage).toEqual({ kind: 'local' });
    const s3 = { STORAGE: 's3', S3_BUCKET: 'tonearm-media', S3_ACCESS_KEY_ID: 'AK', S3_SECRET_ACCESS_KEY: 'SK' };
    expect(loadConfig(s3, cwd).storage).toEqual({
      kind: 's3',
      endpoint: null,
      region: 'us-east-1',
      bucket: 'tonearm-media',
      accessKeyId: 'AK',
      secretAccessKey: 'SK',
      forcePathStyle: false,
      presign: false,
    });
    const minio = {
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'eu-west-3',
      S3_FORCE_PATH_STYLE: '1',
      S3_PRESIGN: 'yes',
    };
    expect(loadConfig({ ...s3, ...minio }, cwd).storage).toMatchObject({
      endpoint: 'http://minio:9000',
      region: 'eu-west-3',
      forcePathStyle: true,
      presign: true,
    });
  });

  it('is silent by default under NODE_ENV=test', () => {
    expect(loadConfig({ NODE_ENV: 'test' }, cwd).logLevel).toBe('silent');
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a whole number between 0 and 65535 (got "abc")'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be at most 65535 (got "70000")'],
    [
      { DATABASE_URL: 'mysql://secret@x/db' },
      'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL',
    ],
    [{ PUBLIC_URL: 'music.example.org' }, 'PUBLIC_URL must be an http:// or https:// URL'],
    [{ SESSION_TTL: 'forever' }, 'SESSION_TTL must be a number of seconds or a duration like 45m, 12h or 30d'],
    [{ SESSION_TTL: '5' }, 'SESSION_TTL must be at least 60 seconds'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV must be development, production or test (got "staging")'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ DEMO: 'maybe' }, 'DEMO must be one of 1, 0, true, false, yes, no, on, off'],
    [{ PAYMENT_PROVIDER: 'paypal' }, 'PAYMENT_PROVIDER must be demo, stripe or none'],
    [{ PRICE_MONTHLY_CENTS: '4.99' }, 'PRICE_MONTHLY_CENTS must be a whole number'],
    [{ PRICE_YEARLY_CENTS: '0' }, 'PRICE_YEARLY_CENTS must be at least 1'],
    [{ CURRENCY: 'euro' }, 'CURRENCY must be a three-letter ISO 4217 code such as EUR'],
    [{ PAYMENT_PROVIDER: 'stripe' }, 'STRIPE_SECRET_KEY is required when PAYMENT_PROVIDER is stripe'],
    [{ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk' }, 'STRIPE_WEBHOOK_SECRET is required'],
    [{ PLAYLISTS_PER_USER: '0' }, 'PLAYLISTS_PER_USER must be at least 1 (got "0")'],
    [{ SESSIONS_PER_USER: 'many' }, 'SESSIONS_PER_USER must be a whole number between 1 and 1000'],
    [{ IMAGE_MAX_MEGAPIXELS: '500' }, 'IMAGE_MAX_MEGAPIXELS must be at most 268'],
    [{ IMAGE_CONCURRENCY: '0' }, 'IMAGE_CONCURRENCY must be at least 1'],
    [{ TRANSCODE_CACHE_MB: 'lots' }, 'TRANSCODE_CACHE_MB must be a whole number between 1 and 10000000'],
    [{ TRANSCODE_CONCURRENCY: '0' }, 'TRANSCODE_CONCURRENCY must be at least 1'],
    [{ MEDIA_OFFLOAD: 'apache' }, 'MEDIA_OFFLOAD must be off or nginx (got "apache")'],
    [{ MEDIA_OFFLOAD_PREFIX: 'blobs/' }, 'MEDIA_OFFLOAD_PREFIX must be a URL path that starts and ends with /'],
    [{ MEDIA_OFFLOAD_PREFIX: '/blobs' }, 'MEDIA_OFFLOAD_PREFIX must be a URL path that starts and ends with /'],
    [{ MEDIA_OFFLOAD_PREFIX: '/a b/' }, 'MEDIA_OFFLOAD_PREFIX must be a URL path that starts and ends with /'],
    [{ MEDIA_OFFLOAD_PREFIX: '/x/../' }, 'MEDIA_OFFLOAD_PREFIX must not contain . or .. segments'],
    [
      { MEDIA_OFFLOAD: 'nginx', STORAGE: 's3' },
      'Invalid configuration: MEDIA_OFFLOAD nginx needs STORAGE=local (nginx sends files from DATA_DIR/blobs)',
    ],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT must be pretty or json (got "xml")'],
    [{ METRICS: 'maybe' }, 'METRICS must be one of 1, 0, true, false, yes, no, on, off'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN must be at least 16 characters of A-Z, a-z, 0-9'],
    [{ METRICS_TOKEN: 'has spaces in it, too many' }, 'METRICS_TOKEN must be at least 16 characters'],
    [
      { METRICS: '0', METRICS_TOKEN: 'a'.repeat(32) },
      'Invalid configuration: METRICS is off, but METRICS_TOKEN is set: unset one of them',
    ],
    [{ WEB_DIST: 'nowhere' }, 'WEB_DIST has no index.html (/srv/tonearm/nowhere)'],
    [{ STORAGE: 'ftp' }, 'STORAGE must be local or s3 (got "ftp")'],
    [{ STORAGE: 's3' }, 'S3_BUCKET is required when STORAGE is s3'],
    [{ STORAGE: 's3', S3_BUCKET: 'media' }, 'S3_ACCESS_KEY_ID is required when STORAGE is s3'],
    [{ STORAGE: 's3', S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AK' }, 'S3_SECRET_ACCESS_KEY is required when STORAGE'],
    [{ S3_BUCKET: 'My_Bucket' }, 'S3_BUCKET must be a bucket name'],
    [{ S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT must be an http:// or https:// URL'],
    [{ S3_PRESIGN: 'sometimes' }, 'S3_PRESIGN must be one of 1, 0, true, false, yes, no, on, off'],
  ])('rejects %j with a one-line message naming the variable', (env, expected) => {
    const error = errorOf(env);
    expect(error.message).toContain(expected);
    expect(error.message).not.toContain('\n');
    expect(error.variable).toBe(expected.replace('Invalid configuration: ', '').split(' ')[0]);
  });

  it('never echoes a secret in the message', () => {
    expect(errorOf({ DATABASE_URL: 'mysql://user:hunter2@db/x' }).message).not.toContain('hunter2');
    expect(errorOf({ SECRET_KEY: 'hunter2' }).message).not.toContain('hunter2');
    expect(errorOf({ METRICS_TOKEN: 'hunter2 secret' }).message).not.toContain('hunter2');
    expect(errorOf({ STORAGE: 's3', S3_SECRET_ACCESS_KEY: 'hunter2' }).message).not.toContain('hunter2');
  });

  it('reads SECRET_KEY of at least 32 characters; without it, null (a key file in DATA_DIR)', () => {
    expect(loadConfig({}, cwd).secretKey).toBeNull();
    const key = 'a'.repeat(64);
    expect(loadConfig({ SECRET_KEY: key }, cwd).secretKey).toBe(key);
    expect(errorOf({ SECRET_KEY: 'x'.repeat(31) }).message).toBe(
      'Invalid configuration: SECRET_KEY must be at least 32 characters (e.g. openssl rand -hex 32)',
    );
  });

  it('has every variable documented in docs/configuration.md and in the example environment file of docs/deploy, and no other', () => {
    const repo = new URL('../../../', import.meta.url);
    const documented = tableVariables(readFileSync(new URL('docs/configuration.md', repo), 'utf8'));
    const envFile = readFileSync(new URL('docs/deploy/tonearm.env', repo), 'utf8');
    const inEnvFile = [...envFile.matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1] ?? '');
    expect(CONFIG_VARIABLES).toContain('MEDIA_OFFLOAD');
    expect(CONFIG_VARIABLES.filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
    expect(CONFIG_VARIABLES.filter((name) => !inEnvFile.includes(name))).toEqual([]);
    expect(inEnvFile.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
  });

  it("names only real variables in the README's table of main settings", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const named = tableVariables(readme);
    expect(named).toContain('PORT');
    expect(named.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
  });

  it('reads LOG_FORMAT; unset, the logger decides by whether stdout is a terminal', () => {
    expect(loadConfig({}, cwd).logFormat).toBeNull();
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, cwd).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }, cwd).logFormat).toBe('json');
  });

  it('opens /metrics with METRICS=1, puts it behind METRICS_TOKEN when one is set, and keeps it off otherwise', () => {
    const token = 'b'.repeat(64);
    expect(loadConfig({ METRICS: '0' }, cwd).metrics).toEqual({ enabled: false, token: null });
    expect(loadConfig({ METRICS: '1' }, cwd).metrics).toEqual({ enabled: true, token: null });
    expect(loadConfig({ METRICS_TOKEN: token }, cwd).metrics).toEqual({ enabled: true, token });
    expect(loadConfig({ METRICS: 'yes', METRICS_TOKEN: token }, cwd).metrics).toEqual({ enabled: true, token });
  });
});

/** The variables a Markdown table names in its first column, written as `NAME` (several per cell: `A` / `B`). */
function tableVariables(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? ''));
}
