import { DB_ID_MAX, RequestMessages, type SearchKind } from '@tonearm/contract';
import { badRequest } from '../../http/errors.js';

/** The groups a search answers (the contract's SearchKind): each is paged on its own. */
export type SearchGroup = SearchKind;

/** Where a search page stopped: the stage of the ranking, and the id of the last row given from it. */
export interface SearchPosition {
  stage: number;
  id: number;
}

const GROUP_CODES: Record<SearchGroup, string> = { songs: 's', artists: 'a', playlists: 'p' };
const CURSOR_TEXT = /^search\.([sap])\.([0-9a-z]{1,8})\.(\d{1,2})\.(\d{1,10})$/;

/** FNV-1a of the query's key: a cursor carries it, so a cursor of another query is refused rather than misread. */
function keyHash(key: readonly string[]): string {
  let hash = 0x811c9dc5;
  for (const char of key.join('\u0000')) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/**
 * The opaque cursor (base64url) of a position in one group's ranking for a query (`key`: its terms, and any filter).
 */
export function encodeSearchCursor(group: SearchGroup, key: readonly string[], at: SearchPosition): string {
  const text = `search.${GROUP_CODES[group]}.${keyHash(key)}.${String(at.stage)}.${String(at.id)}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

/**
 * The position a cursor names, for this group and this query's key. Anything else (not ours, another group's, another
 * query's, a stage the group has not) is a 400 with RequestMessages.badCursor.
 */
export function decodeSearchCursor(
  cursor: string,
  group: SearchGroup,
  key: readonly string[],
  stageCount: number,
): SearchPosition {
  const match = CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const stage = Number(match?.[3]);
  const id = Number(match?.[4]);
  const valid =
    match !== null &&
    match[1] === GROUP_CODES[group] &&
    match[2] === keyHash(key) &&
    stage < stageCount &&
    id >= 1 &&
    id <= DB_ID_MAX;
  if (!valid) throw badRequest(RequestMessages.badCursor, 'cursor');
  return { stage, id };
}
