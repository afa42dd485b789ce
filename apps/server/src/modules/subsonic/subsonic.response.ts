import { SUBSONIC_API_VERSION, type SubsonicErrorCode } from '@tonearm/contract';

/**
 * A Subsonic answer as a tree both formats are written from. In XML an object is an element: its scalar fields are
 * attributes, an object field is one child element, an array field is one child element per item (an array of
 * scalars gives elements with text, as `<versions>1</versions>`), and a scalar `value` field is the element's text. In
 * JSON the tree is written as it is.
 */
export type SubsonicScalar = string | number | boolean;
export type SubsonicValue = SubsonicScalar | SubsonicNode | readonly SubsonicScalar[] | readonly SubsonicNode[];
export interface SubsonicNode {
  readonly [name: string]: SubsonicValue | undefined;
}

export type SubsonicFormat = 'json' | 'xml';

/** An error a method answers: inside a normal response, `status="failed"`. */
export class SubsonicError extends Error {
  constructor(
    readonly code: SubsonicErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SubsonicError';
  }
}

/**
 * Come back later: too many failed sign-ins (the web login's limits, HTTP 429), or every transcoding slot taken (503).
 * Still the Subsonic envelope (error 0), but with that HTTP status and Retry-After, so that an app or a proxy that
 * reads the status backs off.
 */
export class SubsonicRateLimited extends SubsonicError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    readonly http: 429 | 503 = 429,
  ) {
    super(0, message);
    this.name = 'SubsonicRateLimited';
  }
}

// The control characters are the point here: XML 1.0 has no way to write them.
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Text fit for an XML attribute or element: the five special characters escaped, and the characters XML 1.0 cannot
 * carry at all (controls other than tab, newline and return; lone surrogates; U+FFFE/U+FFFF) left out.
 */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

/** The field whose value is an element's text in XML (`<genre songCount="3">Rock</genre>`), as Subsonic's JSON names it. */
export const TEXT_FIELD = 'value';

const isScalar = (value: unknown): value is SubsonicScalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function elementXml(name: string, node: SubsonicNode, attributes = ''): string {
  let attrs = attributes;
  let children = '';
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined) continue;
    if (key === TEXT_FIELD && isScalar(value)) children += escapeXml(String(value));
    else if (isScalar(value)) attrs += ` ${key}="${escapeXml(String(value))}"`;
    else if (Array.isArray(value)) {
      for (const item of value as readonly (SubsonicScalar | SubsonicNode)[]) {
        children += isScalar(item) ? `<${key}>${escapeXml(String(item))}</${key}>` : elementXml(key, item);
      }
    } else children += elementXml(key, value as SubsonicNode);
  }
  return children === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${children}</${name}>`;
}

/** What every answer carries (OpenSubsonic: `type`, `serverVersion` and `openSubsonic` besides the version). */
export function envelope(serverVersion: string, status: 'ok' | 'failed'): SubsonicNode {
  return { status, version: SUBSONIC_API_VERSION, type: 'tonearm', serverVersion, openSubsonic: true };
}

/** The body and content type of one answer. */
export function renderSubsonic(
  format: SubsonicFormat,
  head: SubsonicNode,
  body: SubsonicNode,
): {
  contentType: string;
  payload: string;
} {
  const response = { ...head, ...body };
  if (format === 'json') {
    return {
      contentType: 'application/json; charset=utf-8',
      payload: JSON.stringify({ 'subsonic-response': response }),
    };
  }
  const xml = elementXml('subsonic-response', response, ' xmlns="http://subsonic.org/restapi"');
  return { contentType: 'text/xml; charset=utf-8', payload: `<?xml version="1.0" encoding="UTF-8"?>${xml}` };
}

export const errorBody = (error: SubsonicError): SubsonicNode => ({
  error: { code: error.code, message: error.message },
});
