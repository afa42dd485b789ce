/**
 * Every Subsonic answer a test receives is checked against the contract's schemas of the OpenSubsonic responses
 * (packages/contract/src/subsonic-responses.ts), whatever the test itself looks at: `t.as(…)` requests to `/rest/`
 * go through `checkSubsonicAnswer` (test/client.ts), and so do the tests that call over real HTTP
 * (`subsonicFetch`, handed to the npm `subsonic-api` client).
 *
 * - JSON: `subsonic-response` is the only member; the envelope is Tonearm's; a failed answer holds the error and
 *   nothing else; an ok answer's body is exactly its method's schema.
 * - XML: the root element is `subsonic-response` in Subsonic's namespace; the tree is read into the JSON shape,
 *   guided by the same schema (an attribute is a scalar field, a child element an object field or an array item,
 *   the element's text the `value` field), and checked by the same schema, so an attribute or an element the schema
 *   does not have is an error as in JSON.
 * - Bytes (audio, images) only from the methods that answer them, and never a JSON or XML body that is not the
 *   envelope (but for HTTP's own refusal of a Range beyond the bytes, 416, whose body nobody reads).
 */
import {
  SUBSONIC_API_VERSION,
  SUBSONIC_BINARY_METHODS,
  SUBSONIC_ENVELOPE_FIELDS,
  SubsonicEnvelopeFields,
  SubsonicFailedBody,
  SubsonicResponseBodies,
} from '@tonearm/contract';
import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';

export const SUBSONIC_XML_NAMESPACE = 'http://subsonic.org/restapi';

/** One exchange with `/rest/`, as a test saw it. */
export interface SubsonicExchange {
  /** The request's path and query (`/rest/getAlbum.view?id=al-3&f=json`), or a whole URL. */
  url: string;
  httpMethod: string;
  /** A formPost body (`application/x-www-form-urlencoded`), when the call had one. */
  form?: string | undefined;
  status: number;
  contentType: string | undefined;
  body: string;
}

/** What a checked answer was: the method called, the format it came in, and its tree in the JSON shape. */
export interface CheckedAnswer {
  method: string;
  format: 'json' | 'xml' | 'bytes';
  /** The `subsonic-response` object (from XML: read into the JSON shape); null for bytes. */
  answer: Record<string, unknown> | null;
}

/** An XML element as `subsonicXmlParser` reads it: attributes under `@name`, children as arrays, text as `#text`. */
export type XmlElement = Record<string, unknown>;

/** Subsonic XML read keeping every attribute and text as written (the schema decides the types). */
export const subsonicXmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  alwaysCreateTextNode: true,
  isArray: (_name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute,
});

/** The Subsonic method a URL calls (`/rest/getAlbum.view?…` → getAlbum), or null for any other URL. */
export function subsonicMethodOf(url: string): string | null {
  const path = new URL(url, 'http://tonearm.test').pathname;
  const match = /^\/rest\/([^/]+)\/?$/.exec(path);
  return match?.[1] === undefined ? null : decodeURIComponent(match[1]).replace(/\.view$/, '');
}

/** Parameters of the call: the query string, then the form body (as the server reads them). */
function paramsOf(exchange: SubsonicExchange): URLSearchParams {
  const params = new URLSearchParams(new URL(exchange.url, 'http://tonearm.test').search);
  if (exchange.form !== undefined)
    for (const [name, value] of new URLSearchParams(exchange.form)) params.append(name, value);
  return params;
}

function fail(exchange: SubsonicExchange, what: string): never {
  throw new Error(`Subsonic answer of ${exchange.httpMethod} ${exchange.url} breaks the OpenSubsonic spec: ${what}`);
}

/** The schema of a whole answer: the envelope's fields and the body's. */
function answerSchema(method: string, status: unknown): z.ZodObject | null {
  const body: z.ZodObject | undefined =
    status === 'failed'
      ? SubsonicFailedBody
      : Object.hasOwn(SubsonicResponseBodies, method)
        ? SubsonicResponseBodies[method as keyof typeof SubsonicResponseBodies]
        : undefined;
  if (body === undefined) return null;
  return z.strictObject({
    ...SubsonicEnvelopeFields,
    status: status === 'failed' ? z.literal('failed') : z.literal('ok'),
    version: z.literal(SUBSONIC_API_VERSION),
    type: z.literal('tonearm'),
    openSubsonic: z.literal(true),
    ...body.shape,
  });
}

// Failures are HTTP 200, but for Tonearm's documented choices: 429 (rate limited), 503 (transcoding busy), 500 (a fault).
const HTTP_OF_FAILURES = new Set([200, 429, 500, 503]);

/** Checks one answer of `/rest/` (see the top of this file); throws, naming the call and what is wrong. */
export function checkSubsonicAnswer(exchange: SubsonicExchange): CheckedAnswer {
  const method = subsonicMethodOf(exchange.url);
  if (method === null) fail(exchange, 'not a /rest/ URL');
  const type = exchange.contentType ?? '';
  const asked = paramsOf(exchange).get('f') === 'json' ? 'json' : 'xml';
  const binary = (SUBSONIC_BINARY_METHODS as readonly string[]).includes(method);
  // HEAD answers carry no body by HTTP itself: nothing of Subsonic to check.
  if (exchange.httpMethod === 'HEAD') return { method, format: 'bytes', answer: null };
  // A Range beyond the bytes is refused by HTTP itself (416), before anything of Subsonic: whatever its body.
  if (binary && exchange.status === 416) return { method, format: 'bytes', answer: null };
  let answer: Record<string, unknown>;
  if (type.startsWith('application/json')) {
    if (asked !== 'json') fail(exchange, 'JSON without f=json');
    answer = jsonAnswer(exchange);
  } else if (type.startsWith('text/xml')) {
    if (asked !== 'xml') fail(exchange, 'XML although f=json was asked for');
    answer = xmlAnswer(exchange, method);
  } else {
    if (!binary) {
      fail(exchange, `${method} answered ${type === '' ? 'no content type' : type}, not the envelope`);
    }
    return { method, format: 'bytes', answer: null };
  }
  const schema = answerSchema(method, answer.status);
  if (schema === null) fail(exchange, `${method} answered ok, but the contract has no schema for it`);
  const checked = schema.safeParse(answer);
  if (!checked.success) fail(exchange, z.prettifyError(checked.error));
  const expected = answer.status === 'ok' ? exchange.status === 200 : HTTP_OF_FAILURES.has(exchange.status);
  if (!expected) fail(exchange, `HTTP ${String(exchange.status)} for a ${String(answer.status)} answer`);
  return { method, format: asked, answer };
}

function jsonAnswer(exchange: SubsonicExchange): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(exchange.body);
  } catch {
    fail(exchange, 'the body is no JSON');
  }
  const root = z.strictObject({ 'subsonic-response': z.record(z.string(), z.unknown()) }).safeParse(parsed);
  if (!root.success) fail(exchange, 'the JSON is not one `subsonic-response` object');
  return root.data['subsonic-response'];
}

function xmlAnswer(exchange: SubsonicExchange, method: string): Record<string, unknown> {
  if (!exchange.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')) fail(exchange, 'no XML declaration');
  let parsed: Record<string, XmlElement[] | undefined>;
  try {
    parsed = subsonicXmlParser.parse(exchange.body) as Record<string, XmlElement[] | undefined>;
  } catch (error) {
    fail(exchange, `the body is no XML (${String(error)})`);
  }
  const roots = Object.keys(parsed).filter((name) => name !== '?xml');
  const root = parsed['subsonic-response'];
  if (roots.length !== 1 || root?.length !== 1 || root[0] === undefined) {
    fail(exchange, 'the XML is not one `subsonic-response` element');
  }
  const element = root[0];
  if (element['@xmlns'] !== SUBSONIC_XML_NAMESPACE) fail(exchange, `the namespace is not ${SUBSONIC_XML_NAMESPACE}`);
  const { '@xmlns': _namespace, ...rest } = element;
  const schema = answerSchema(method, rest['@status']) ?? z.strictObject(SubsonicEnvelopeFields);
  return fromXml(rest, schema);
}

/** The schema inside `.optional()`. */
function required(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner;
}

/** An attribute's (or a text's) value as the field's schema types it: XML has only text. */
function scalarFromXml(text: string, schema: z.ZodType | undefined): unknown {
  if (schema === undefined) return text;
  const inner = required(schema);
  const { type } = inner.def;
  if (type === 'number') return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? Number(text) : text;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (inner instanceof z.ZodLiteral) return inner.def.values.find((value) => String(value) === text) ?? text;
  return text;
}

/**
 * One element read into the JSON shape of `schema` (an object schema). What the schema does not name is kept as XML
 * gave it, so that the strict schema refuses it; an array field without any element is the empty array (XML cannot
 * write one otherwise), and is left out when the field may be absent.
 */
export function fromXml(element: XmlElement, schema: z.ZodType): Record<string, unknown> {
  const inner = required(schema);
  const shape: Record<string, z.ZodType> = inner instanceof z.ZodObject ? inner.shape : {};
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(element)) {
    if (key === '#text') {
      const text = String(value);
      if (text !== '') result.value = scalarFromXml(text, shape.value);
    } else if (key.startsWith('@')) {
      result[key.slice(1)] = scalarFromXml(String(value), shape[key.slice(1)]);
    } else {
      result[key] = childrenFromXml(value as XmlElement[], shape[key]);
    }
  }
  for (const [key, field] of Object.entries(shape)) {
    if (result[key] === undefined && field instanceof z.ZodArray) result[key] = [];
  }
  // A required text that is empty (`<lyrics/>`, a blank line of lyrics): XML writes no text at all.
  if (result.value === undefined && shape.value !== undefined && !(shape.value instanceof z.ZodOptional)) {
    result.value = '';
  }
  return result;
}

function childrenFromXml(elements: XmlElement[], schema: z.ZodType | undefined): unknown {
  const inner = schema === undefined ? undefined : required(schema);
  if (inner instanceof z.ZodArray) {
    const item = inner.element as z.ZodType;
    const scalar = !(required(item) instanceof z.ZodObject);
    return elements.map((element) => {
      if (!scalar) return fromXml(element, item);
      // An array of scalars: one element each, its text the value (`<versions>1</versions>`), nothing else.
      const { '#text': text, ...others } = element;
      return Object.keys(others).length > 0 || typeof text !== 'string' ? element : scalarFromXml(text, item);
    });
  }
  if (inner instanceof z.ZodObject)
    return elements.length === 1 && elements[0] ? fromXml(elements[0], inner) : elements;
  return elements;
}

/** A `fetch` that checks every `/rest/` answer it receives (for clients that call over real HTTP). */
export function subsonicFetch(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (subsonicMethodOf(url) === null) return response;
    const type = response.headers.get('content-type') ?? undefined;
    const textual = type !== undefined && /^(application\/json|text\/xml)/.test(type);
    const form =
      typeof init?.body === 'string'
        ? init.body
        : init?.body instanceof URLSearchParams
          ? init.body.toString()
          : undefined;
    checkSubsonicAnswer({
      url,
      httpMethod: init?.method ?? 'GET',
      form,
      status: response.status,
      contentType: type,
      body: textual ? await response.clone().text() : '',
    });
    return response;
  };
}

export { SUBSONIC_ENVELOPE_FIELDS };
