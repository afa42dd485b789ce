/**
 * Subsonic API tests' support (issue 13): calls through app.inject with an API key, the same call in JSON and in XML,
 * and the OpenSubsonic types' field names and types as zod schemas, taken from the OpenSubsonic documentation
 * (opensubsonic.netlify.app, "Responses"). Only the fields Tonearm answers are listed, with the documented type; the
 * schemas are strict, so a field the documentation does not name fails the test.
 *
 *   const api = subsonicApi(t, key);
 *   const album = await api.shape('getAlbum', { id: 'al-3' }, z.object({ album: AlbumWithSongsID3 }));
 *
 * `shape` asks for the JSON answer, checks it against the schema, then asks for the XML answer and checks that it
 * carries exactly the same tree (attributes for scalars, one element per object, one element per array item).
 */
import { XMLParser } from 'fast-xml-parser';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';
import type { TestApp } from './harness.js';

export type SubsonicQuery = Record<string, string | number | boolean | readonly (string | number)[]>;

/** The envelope every answer has. */
export const SubsonicEnvelope = z.object({
  status: z.enum(['ok', 'failed']),
  version: z.string(),
  type: z.literal('tonearm'),
  serverVersion: z.string(),
  openSubsonic: z.literal(true),
});

const IsoDate = z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'an ISO 8601 date');
const int = z.number().int();

export const ItemGenre = z.strictObject({ name: z.string() });
export const ReplayGain = z.strictObject({
  trackGain: z.number().optional(),
  albumGain: z.number().optional(),
  trackPeak: z.number().optional(),
  albumPeak: z.number().optional(),
  baseGain: z.number().optional(),
  fallbackGain: z.number().optional(),
});

/** Child (a song), as Tonearm fills it. */
/** An artist named by a song (OpenSubsonic's ArtistID3 with id and name). */
const ArtistRef = z.strictObject({ id: z.string(), name: z.string() });

export const Child = z.strictObject({
  id: z.string(),
  parent: z.string().optional(),
  isDir: z.boolean(),
  title: z.string(),
  album: z.string().optional(),
  artist: z.string().optional(),
  track: int.optional(),
  year: int.optional(),
  genre: z.string().optional(),
  coverArt: z.string().optional(),
  size: int.optional(),
  contentType: z.string().optional(),
  suffix: z.string().optional(),
  transcodedContentType: z.string().optional(),
  transcodedSuffix: z.string().optional(),
  duration: int.optional(),
  bitRate: int.optional(),
  path: z.string().optional(),
  isVideo: z.boolean().optional(),
  playCount: int.optional(),
  userPlayCount: int.optional(),
  discNumber: int.optional(),
  created: IsoDate.optional(),
  starred: IsoDate.optional(),
  albumId: z.string().optional(),
  artistId: z.string().optional(),
  type: z.string().optional(),
  mediaType: z.string().optional(),
  played: IsoDate.optional(),
  genres: z.array(ItemGenre).optional(),
  replayGain: ReplayGain.optional(),
  // OpenSubsonic: the song's people and MusicBrainz id.
  artists: z.array(ArtistRef).optional(),
  displayArtist: z.string().optional(),
  albumArtists: z.array(ArtistRef).optional(),
  displayAlbumArtist: z.string().optional(),
  contributors: z
    .array(z.strictObject({ role: z.string(), subRole: z.string().optional(), artist: ArtistRef }))
    .optional(),
  musicBrainzId: z.string().optional(),
});

/** AlbumID3 (an album in a list). */
export const AlbumID3 = z.strictObject({
  id: z.string(),
  name: z.string(),
  artist: z.string().optional(),
  artistId: z.string().optional(),
  coverArt: z.string().optional(),
  songCount: int,
  duration: int,
  playCount: int.optional(),
  created: IsoDate,
  starred: IsoDate.optional(),
  year: int.optional(),
  genre: z.string().optional(),
  played: IsoDate.optional(),
  // OpenSubsonic: the release's facts.
  isCompilation: z.boolean().optional(),
  releaseTypes: z.array(z.string()).optional(),
  musicBrainzId: z.string().optional(),
  originalReleaseDate: z.strictObject({ year: int.optional(), month: int.optional(), day: int.optional() }).optional(),
});

/** AlbumID3WithSongs (getAlbum). */
export const AlbumWithSongsID3 = AlbumID3.extend({ song: z.array(Child).optional() });

/** ArtistID3 (an artist in a list). */
export const ArtistID3 = z.strictObject({
  id: z.string(),
  name: z.string(),
  coverArt: z.string().optional(),
  artistImageUrl: z.string().optional(),
  albumCount: int.optional(),
  starred: IsoDate.optional(),
});

/** `lyrics` (getLyrics): the text is required; artist and title are not. */
export const Lyrics = z.strictObject({
  artist: z.string().optional(),
  title: z.string().optional(),
  value: z.string(),
});

/** `line` of structured lyrics: `start` only in synced lyrics. */
export const LyricsLine = z.strictObject({ start: int.nonnegative().optional(), value: z.string() });

/** `structuredLyrics` (OpenSubsonic's songLyrics extension): lang, synced and line are required. */
export const StructuredLyrics = z.strictObject({
  displayArtist: z.string().optional(),
  displayTitle: z.string().optional(),
  lang: z.string(),
  offset: int.optional(),
  synced: z.boolean(),
  line: z.array(LyricsLine),
});

/** `lyricsList` (getLyricsBySongId). */
export const LyricsList = z.strictObject({ structuredLyrics: z.array(StructuredLyrics).optional() });

/** A Subsonic error inside a normal answer. */
export const SubsonicErrorShape = z.strictObject({ code: int, message: z.string().optional() });

type XmlElement = Record<string, unknown>;

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  alwaysCreateTextNode: true,
  isArray: (_name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute,
});

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

const ENVELOPE_FIELDS = new Set(['status', 'version', 'type', 'serverVersion', 'openSubsonic']);

/** Expects the XML element to carry exactly `json`: scalars as attributes, objects and array items as elements. */
export function expectSameTree(json: Record<string, unknown>, element: XmlElement, path = 'subsonic-response'): void {
  const attributes = Object.keys(element).filter((key) => key.startsWith('@') && key !== '@xmlns');
  const children = Object.keys(element).filter((key) => !key.startsWith('@') && key !== '#text');
  // Subsonic's `value` field (a genre's name) is the element's text in XML.
  const text = isScalar(json.value) ? String(json.value) : undefined;
  const elementText = element['#text']?.toString() ?? '';
  expect(elementText, `${path}: text`).toBe(text ?? '');
  const scalarKeys = Object.keys(json).filter((key) => key !== 'value' && isScalar(json[key]));
  const childKeys = Object.keys(json).filter((key) => {
    const value = json[key];
    return !isScalar(value) && value !== undefined && !(Array.isArray(value) && value.length === 0);
  });
  expect(attributes.map((key) => key.slice(1)).sort(), `${path}: attributes`).toEqual(scalarKeys.sort());
  expect(children.sort(), `${path}: child elements`).toEqual(childKeys.sort());
  for (const key of scalarKeys) expect(element[`@${key}`], `${path}@${key}`).toBe(String(json[key]));
  for (const key of childKeys) {
    const value = json[key];
    const elements = element[key] as XmlElement[];
    if (Array.isArray(value)) {
      expect(elements, `${path}.${key}: one element per item`).toHaveLength(value.length);
      value.forEach((item: unknown, index) => {
        if (isScalar(item))
          expect(elements[index]?.['#text']?.toString() ?? '', `${path}.${key}[${index}]`).toBe(String(item));
        else expectSameTree(item as Record<string, unknown>, elements[index] ?? {}, `${path}.${key}[${index}]`);
      });
    } else {
      expect(elements, `${path}.${key}: one element`).toHaveLength(1);
      expectSameTree(value as Record<string, unknown>, elements[0] ?? {}, `${path}.${key}`);
    }
  }
}

export function queryString(query: SubsonicQuery): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  return search.toString();
}

/** A new API key of `user`, made through the API as that user. */
export async function apiKeyOf(t: Pick<TestApp, 'as'>, user: { id: number; cookie?: string }): Promise<string> {
  const created = await t.as(user).post(`/api/users/${user.id}/api-keys`, { name: 'Player' });
  expect(created.statusCode, created.body).toBe(201);
  return z.object({ key: z.string() }).parse(created.json()).key;
}

export interface SubsonicApi {
  /** GET /rest/<method> with the credentials, the query and f=json; the response as it came. */
  raw(method: string, query?: SubsonicQuery): Promise<LightMyRequestResponse>;
  /** The JSON answer's `subsonic-response`, whatever its status. */
  json(method: string, query?: SubsonicQuery): Promise<Record<string, unknown>>;
  /** The XML answer's text. */
  xml(method: string, query?: SubsonicQuery): Promise<string>;
  /** An ok answer's body (envelope removed) checked against `schema`, and the XML answer checked to carry the same. */
  shape<T>(method: string, query: SubsonicQuery, schema: z.ZodType<T>): Promise<T>;
  /** Expects a failed answer with this code (in both formats); answers its message. */
  error(method: string, query: SubsonicQuery, code: number): Promise<string>;
}

/** Calls as the owner of `credentials`: `{ apiKey }`, or `{ u, p }`, or `{ u, t, s }`. */
export function subsonicApi(t: Pick<TestApp, 'as'>, credentials: SubsonicQuery): SubsonicApi {
  const raw = (method: string, query: SubsonicQuery = {}, format: 'json' | 'xml' = 'json') =>
    t
      .as(null)
      .get(`/rest/${method}?${queryString({ ...credentials, ...query, ...(format === 'json' ? { f: 'json' } : {}) })}`);
  const json = async (method: string, query: SubsonicQuery = {}) => {
    const response = await raw(method, query);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    return (JSON.parse(response.body) as { 'subsonic-response': Record<string, unknown> })['subsonic-response'];
  };
  const xml = async (method: string, query: SubsonicQuery = {}) => {
    const response = await raw(method, query, 'xml');
    expect(response.headers['content-type']).toMatch(/^text\/xml/);
    return response.body;
  };
  const sameInXml = async (method: string, query: SubsonicQuery, answer: Record<string, unknown>) => {
    const parsed = xmlParser.parse(await xml(method, query)) as Record<string, XmlElement[]>;
    const root = parsed['subsonic-response'];
    expect(root).toHaveLength(1);
    expect(root?.[0]?.['@xmlns']).toBe('http://subsonic.org/restapi');
    expectSameTree(answer, root?.[0] ?? {});
  };
  return {
    raw,
    json,
    xml,
    async shape(method, query, schema) {
      const answer = await json(method, query);
      expect(answer.error, `${method} failed`).toBeUndefined();
      expect(answer.status).toBe('ok');
      SubsonicEnvelope.parse(answer);
      const body = Object.fromEntries(Object.entries(answer).filter(([key]) => !ENVELOPE_FIELDS.has(key)));
      const parsed = schema.parse(body);
      await sameInXml(method, query, answer);
      return parsed;
    },
    async error(method, query, code) {
      const answer = await json(method, query);
      expect(answer.status).toBe('failed');
      const error = SubsonicErrorShape.parse(answer.error);
      expect(error.code, error.message).toBe(code);
      await sameInXml(method, query, answer);
      return error.message ?? '';
    },
  };
}
