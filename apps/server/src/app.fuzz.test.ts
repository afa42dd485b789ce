import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, type AppSuiteOptions } from '../test/dialects.js';
import { insertPlaylist, insertSongs, makeAdmin, makeUser } from '../test/factories.js';
import { imageFile, multipartBody } from '../test/media.js';
import type { RouteEntry } from './http/route-table.js';

/*
 * Fuzzes every registered route (from app.routeTable) as an anonymous caller, a user and an admin, on both dialects,
 * with deterministic inputs (fast-check, fixed seeds): out-of-range and malformed ids in every path parameter, odd
 * query strings, malformed JSON, wrong types, huge strings, NUL characters, deep nesting, wrong content types and
 * multipart forms with bad fields. Then, over real HTTP (inject normalises paths and skips the HTTP parser), odd paths,
 * bad Content-Encodings and a 1 MB deeply nested body. Bad input must never be answered with a 5xx, nor logged as an
 * error; the offending requests are listed when it is.
 */

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

interface Offence {
  request: string;
  status: number | string;
  body: string;
}

const CASES_PER_ROUTE_AND_CALLER = 10;
/** Each fuzz test takes 10–15 s per dialect on an idle machine; the margin is for a busy one. */
const FUZZ_TIMEOUT_MS = 120_000;
const DB_INT_PAST = '2147483648';

/** Path segments as written in a URL (already percent-encoded where needed). */
const BAD_SEGMENTS = [
  '0',
  '-1',
  '2147483647',
  DB_INT_PAST,
  '99999999999',
  '9007199254740993',
  '1e400',
  '1.5',
  'NaN',
  'abc',
  '%00',
  '1%00',
  'a%00b',
  '%ff',
  '%',
  '0x10',
  '%20%201',
  'x'.repeat(4000),
];

const QUERY_KEYS = ['limit', 'offset', 'q', 'genre', 'artistId', 'sort', 'order', 'w', 'id', 'songId', 'username'];
const QUERY_VALUES = [
  '',
  '%00',
  'a%00b',
  DB_INT_PAST,
  '-5',
  '0',
  '1e309',
  '%ff',
  'desc',
  'username',
  '%5B%5D',
  'x'.repeat(3000),
  '640',
  'Pop',
];

const FIELDS = [
  'username',
  'email',
  'password',
  'currentPassword',
  'gender',
  'address',
  'role',
  'premium',
  'premiumUntil',
  'songId',
  'songIds',
  'plan',
  'cardNumber',
  'expiry',
  'cvc',
  'name',
  'type',
  'isPublic',
  'songs',
  'removeImage',
  'artistId',
  'genre',
];

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? [value] : { a: value };
  return value;
};

const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -1, 1, 2_147_483_647, 2_147_483_648, 99_999_999_999, 1e300, -1e300, 1.5, true, false, null),
  fc.constantFrom(
    '',
    'nul\u0000x',
    '\u0000',
    'x'.repeat(200_000),
    'ünïcödé 🎵',
    '2147483648',
    'monthly',
    'ADMIN',
    'USER',
    'other',
    'Pop',
    '4242424242424242',
    '12/99',
    '123',
    'person@example.test',
    '9999-12-31T23:59:59.999Z',
    '+275760-09-13T00:00:00.000Z',
    'correct horse battery staple',
    '[1,2]',
    `[${DB_INT_PAST}]`,
  ),
  fc.constantFrom([1, 2], [2_147_483_648], [-1, 0], ['a'], [[1]], [null], { a: 1 }, {}, nested(200)),
);

const jsonBody: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), jsonValue, { maxKeys: 5 }).map((v) => JSON.stringify(v)),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '{',
      '{"username":',
      'nul',
      '"\u0000"',
      '[]',
      '42',
      'null',
      '"text"',
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '{"a\\u0000b":1}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
    ),
  },
);

type BodyKind =
  | { kind: 'none' }
  | { kind: 'json'; body: string; contentType: string }
  | { kind: 'form'; fields: Record<string, string>; file: string | null };

const NO_BODY: BodyKind = { kind: 'none' };

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'multipart/form-data',
  'multipart/form-data; boundary=nothing-like-this',
  'application/xml',
);

const formValue = fc.constantFrom(
  '',
  'nul\u0000x',
  DB_INT_PAST,
  '0',
  '-3',
  'abc',
  `[${DB_INT_PAST}]`,
  '[1,"a"]',
  '{"a":1}',
  'true',
  'Pop',
  'x'.repeat(300 * 1024),
  'A name',
);

const bodyKind: fc.Arbitrary<BodyKind> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(NO_BODY) },
  {
    weight: 5,
    arbitrary: fc.record({ body: jsonBody, contentType: contentTypes }).map<BodyKind>((v) => ({ kind: 'json', ...v })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        fields: fc.dictionary(
          fc.constantFrom('name', 'genre', 'artistId', 'type', 'isPublic', 'songs', 'removeImage', 'x\u0000'),
          formValue,
          {
            maxKeys: 5,
          },
        ),
        file: fc.constantFrom(null, 'songFile', 'imageFile', 'image', 'other'),
      })
      .map<BodyKind>((v) => ({ kind: 'form', ...v })),
  },
);

const query = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.constantFrom(...QUERY_VALUES)), { maxLength: 4 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));

function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readInt32LE(0);
}

function fillPath(url: string, segment: (name: string) => string): string {
  return url.replace(/:(\w+)/g, (_match, name: string) => segment(name));
}

async function toRequest(route: RouteEntry, url: string, body: BodyKind, image: Buffer): Promise<FuzzRequest> {
  const request: FuzzRequest = { method: route.method, url, headers: {} };
  if (body.kind === 'json') {
    request.headers['content-type'] = body.contentType;
    request.payload = body.body;
  } else if (body.kind === 'form') {
    const file = body.file === null ? {} : { [body.file]: { filename: 'f.png', type: 'image/png', data: image } };
    const form = multipartBody({ ...body.fields, ...file });
    Object.assign(request.headers, form.headers);
    request.payload = form.payload;
  }
  return Promise.resolve(request);
}

function describeRequest(request: FuzzRequest, caller: string): string {
  const payload = request.payload === undefined ? '' : ` ${String(request.payload).slice(0, 160)}`;
  return `[${caller}] ${request.method} ${request.url.slice(0, 160)} ${JSON.stringify(request.headers)}${payload}`;
}

/** One raw HTTP/1.1 request on its own connection; answers the status, or the socket error's code. */
function rawRequest(port: number, request: FuzzRequest): Promise<{ status: number | string; body: string }> {
  return new Promise((resolve) => {
    const outgoing = http.request(
      { host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? error.message, body: '' }));
    outgoing.end(request.payload);
  });
}

let webDist: string;
const errorLogs: string[] = [];

/** The app serves a web app of its own (a temp dir made first) and logs its errors where the tests read them. */
const fuzzed: AppSuiteOptions = {
  prepare: async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'tonearm-fuzz-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(webDist, 'assets', 'app-1.js'), 'console.log(1)');
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        errorLogs.push(chunk.toString('utf8').slice(0, 2000));
        done();
      },
    });
    return { config: { webDist }, logger: pino({ level: 'error' }, sink) };
  },
};

describeEachDialect('fuzzing every endpoint on %s', fuzzed, (t) => {
  let port: number;
  let image: Buffer;
  const callers: Record<'anonymous' | 'user' | 'admin', () => Promise<Record<string, string>>> = {
    anonymous: () => Promise.resolve({}),
    user: () => Promise.resolve({}),
    admin: () => Promise.resolve({}),
  };
  /** Ids of real rows, so fuzzed requests reach handlers past their lookups too. */
  let realIds: string[];

  beforeAll(async () => {
    const admin = await makeAdmin(t);
    const user = await makeUser(t);
    const victim = await makeUser(t);
    // Sessions may be ended by the fuzz itself (logout, password changes): each route starts with fresh ones.
    const sessionOf = (id: number) => async () => {
      const { token } = await t.app.sessionStore.create(id);
      return { cookie: `tonearm_session=${token}` };
    };
    callers.user = sessionOf(user.id);
    callers.admin = sessionOf(admin.id);
    const songs = await insertSongs(t, 2);
    const playlist = await insertPlaylist(t, { ownerId: victim.id, name: 'Fuzzed', isPublic: true });
    realIds = [String(victim.id), String(songs[0]?.id), String(playlist)];
    image = await imageFile(16, 16);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await rm(webDist, { recursive: true, force: true });
  });

  it(
    'answers no generated request to any registered route with a 5xx, as anyone',
    { timeout: FUZZ_TIMEOUT_MS },
    async () => {
      const routes = t.app.routeTable;
      expect(routes.length).toBeGreaterThan(60);
      const offences: Offence[] = [];
      let sent = 0;
      const errorLogsBefore = errorLogs.length;
      for (const route of routes) {
        const params = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
        const segments = fc.constantFrom(...BAD_SEGMENTS, ...realIds);
        const generated = fc.sample(
          fc.record({
            segments: fc.array(segments, { minLength: params.length, maxLength: params.length }),
            query,
            body: bodyKind,
          }),
          { seed: seedOf(`${route.method} ${route.url}`), numRuns: CASES_PER_ROUTE_AND_CALLER },
        );
        // Every bad segment in every parameter (the others real), besides the generated cases.
        const fixed = params.flatMap((_param, index) =>
          BAD_SEGMENTS.map((bad) => ({
            segments: params.map((_p, i) => (i === index ? bad : (realIds[1] ?? '1'))),
            query: '',
            body: NO_BODY,
          })),
        );
        for (const [caller, headersOf] of Object.entries(callers)) {
          const session = await headersOf();
          const cases = caller === 'user' ? generated : [...generated, ...fixed];
          for (const fuzz of cases) {
            let index = 0;
            const url = fillPath(route.url, () => fuzz.segments[index++] ?? '1') + fuzz.query;
            const request = await toRequest(route, url, fuzz.body, image);
            Object.assign(request.headers, session);
            const response = await t.app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers: request.headers,
              ...(request.payload === undefined ? {} : { payload: request.payload }),
            });
            sent += 1;
            if (response.statusCode >= 500) {
              offences.push({
                request: describeRequest(request, caller),
                status: response.statusCode,
                body: response.body.slice(0, 300),
              });
            }
          }
        }
      }
      console.info(`[fuzz ${t.dialect}] ${sent} requests to ${routes.length} routes`);
      expect(offences, JSON.stringify(offences.slice(0, 40), null, 2)).toEqual([]);
      expect(errorLogs.slice(errorLogsBefore)).toEqual([]);
    },
  );

  it(
    'answers odd paths, bad encodings and a 1 MB deeply nested body over real HTTP without a 5xx',
    { timeout: FUZZ_TIMEOUT_MS },
    async () => {
      const paths = [
        '//x',
        '//api/songs',
        '//media/audio/x',
        '/../../etc/passwd',
        '/api/../../etc/passwd',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/..%2f..%2fetc%2fpasswd',
        '/assets/../index.html',
        '/assets/..%2f..%2fetc%2fpasswd',
        '/media/../api/songs',
        '/media/audio/..%2f..%2fx',
        '/media/images/../../x?w=64',
        '/media/images/x?w=%00',
        '/api//songs',
        '/api/songs/%00',
        '/%00',
        '/a%00b',
        '/%ff',
        '/.',
        '/./.',
        '/?%00',
        `/api/songs/${DB_INT_PAST}`,
        `/api/payment/orders/99999999999`,
        `/${'a'.repeat(8000)}`,
      ];
      const gzipNotJson = gzipSync('{"username": nope');
      const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
      const deep = `${'['.repeat(512 * 1024)}${']'.repeat(512 * 1024)}`;
      const deepObject = `${'{"a":'.repeat(200 * 1024)}1${'}'.repeat(200 * 1024)}`;
      const bodies: { headers: Record<string, string>; payload: string | Buffer }[] = [
        { headers: { 'content-type': 'application/json', 'content-encoding': 'foo' }, payload: '{}' },
        { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: '{"a":1}' },
        { headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' }, payload: '{"a":1}' },
        { headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, payload: '{"a":1}' },
        { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip, gzip' }, payload: '{"a":1}' },
        { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: gzipNotJson },
        {
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          payload: gzipNotJson.subarray(0, 10),
        },
        { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: bomb },
        { headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-encoding': 'gzip' }, payload: 'xx' },
        { headers: { 'content-type': 'application/json' }, payload: deep },
        { headers: { 'content-type': 'application/json' }, payload: deepObject },
        { headers: { 'content-type': 'application/json' }, payload: '{"username":"nul\u0000x","password":"p"}' },
        { headers: { 'content-type': 'application/json' }, payload: `{"songId":${DB_INT_PAST}}` },
      ];
      const posts = ['/api/auth/login', '/api/plays', '/api/payment/checkout', '/api/playlists', '/api/songs'];
      const requests: { caller: string; request: FuzzRequest }[] = [];
      for (const [caller, headersOf] of Object.entries(callers)) {
        if (caller === 'user') continue;
        const session = await headersOf();
        for (const url of paths) {
          for (const accept of ['application/json', 'text/html']) {
            requests.push({ caller, request: { method: 'GET', url, headers: { ...session, accept } } });
          }
        }
        for (const url of posts) {
          for (const body of bodies) {
            requests.push({
              caller,
              request: { method: 'POST', url, headers: { ...session, ...body.headers }, payload: body.payload },
            });
          }
        }
        const usersPut = `/api/users/${realIds[0] ?? '1'}`;
        for (const body of bodies) {
          requests.push({
            caller,
            request: { method: 'PUT', url: usersPut, headers: { ...session, ...body.headers }, payload: body.payload },
          });
        }
      }
      const offences: Offence[] = [];
      const errorLogsBefore = errorLogs.length;
      for (const { caller, request } of requests) {
        const response = await rawRequest(port, request);
        if (typeof response.status === 'string' || response.status >= 500) {
          offences.push({
            request: describeRequest(request, caller),
            status: response.status,
            body: response.body.slice(0, 300),
          });
        }
      }
      console.info(`[fuzz ${t.dialect}] ${requests.length} raw HTTP requests`);
      expect(offences, JSON.stringify(offences.slice(0, 40), null, 2)).toEqual([]);
      expect(errorLogs.slice(errorLogsBefore)).toEqual([]);
    },
  );
});
