/**
 * Subsonic API tests' support (issue 13): calls through app.inject with an API key, the same call in JSON and in XML.
 * Every answer is checked against the contract's OpenSubsonic schemas on its way (test/client.ts runs
 * checkSubsonicAnswer on every `/rest/` answer); `shape` then reads the body with the test's own schema.
 *
 *   const api = subsonicApi(t, key);
 *   const album = await api.shape('getAlbum', { id: 'al-3' }, z.object({ album: AlbumWithSongsID3 }));
 *
 * `shape` asks for the JSON answer, checks it against the schema, then asks for the XML answer and checks that it
 * carries exactly the same tree (attributes for scalars, one element per object, one element per array item).
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';
import { SubsonicErrorBody } from '@tonearm/contract';
import type { TestApp } from './harness.js';
import {
  SUBSONIC_ENVELOPE_FIELDS,
  SUBSONIC_XML_NAMESPACE,
  subsonicXmlParser,
  type XmlElement,
} from './subsonic-answers.js';

export type SubsonicQuery = Record<string, string | number | boolean | readonly (string | number)[]>;

/**
 * The OpenSubsonic types, from the contract (packages/contract/src/subsonic-responses.ts), under the names the
 * specification gives them. Every answer is checked against its method's schema anyway (test/subsonic-answers.ts);
 * tests use these to read what they look at.
 */
export {
  SubsonicAlbumID3 as AlbumID3,
  SubsonicAlbumID3WithSongs as AlbumWithSongsID3,
  SubsonicArtistID3 as ArtistID3,
  SubsonicChild as Child,
  SubsonicErrorBody as SubsonicErrorShape,
  SubsonicItemGenre as ItemGenre,
  SubsonicLyrics as Lyrics,
  SubsonicLyricsList as LyricsList,
  SubsonicReplayGain as ReplayGain,
} from '@tonearm/contract';

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

const ENVELOPE_FIELDS = new Set(SUBSONIC_ENVELOPE_FIELDS);

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
    const parsed = subsonicXmlParser.parse(await xml(method, query)) as Record<string, XmlElement[]>;
    const root = parsed['subsonic-response'];
    expect(root).toHaveLength(1);
    expect(root?.[0]?.['@xmlns']).toBe(SUBSONIC_XML_NAMESPACE);
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
      const body = Object.fromEntries(Object.entries(answer).filter(([key]) => !ENVELOPE_FIELDS.has(key)));
      const parsed = schema.parse(body);
      await sameInXml(method, query, answer);
      return parsed;
    },
    async error(method, query, code) {
      const answer = await json(method, query);
      expect(answer.status).toBe('failed');
      const error = SubsonicErrorBody.parse(answer.error);
      expect(error.code, error.message).toBe(code);
      await sameInXml(method, query, answer);
      return error.message ?? '';
    },
  };
}
