import { ApiError, badRequest } from '../errors.js';

/**
 * Entity tags of records (RFC 9110 §8.8.3) and the conditional requests built on them
 * (If-Match, If-None-Match; §13.1).
 *
 * A record's tag is the transaction id that wrote its current row version (PostgreSQL's `xmin`):
 * every committed change of the row, a foreign key's action included, writes a new version with
 * a new transaction id, and nothing else does (a lock or a read leaves it). No column has to be
 * kept up to date for it, and a write compares it in its own WHERE clause, which PostgreSQL
 * evaluates again on the newest version after waiting for a concurrent writer: of two clients
 * racing with the same tag, the second finds a different one and writes nothing.
 */

/** The column a statement answers a record's tag in (never sent as a field). */
export const ETAG_COLUMN = '__etag';

/** The strong ETag header value of a tag: `"123456"`. */
export const strongEtag = (tag: string) => `"${tag}"`;
/** A projection of the record (`fields`, `brief`): the same version, other bytes, so weak. */
export const weakEtag = (tag: string) => `W/"${tag}"`;

export interface EntityTag {
  weak: boolean;
  opaque: string;
}

/** A condition header: `*` (any current version) or a list of tags. */
export type TagCondition = { any: true } | { any: false; tags: EntityTag[] };

/** More tags than a client has any use for: refused rather than compared. */
export const MAX_CONDITION_TAGS = 64;

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text.
const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** One entity tag as a JSON Schema pattern (a batch item's `etag`); what parseEntityTag reads. */
export const ENTITY_TAG_PATTERN = '^[\\t ]*(W/)?"[\\x21\\x23-\\x7e\\x80-\\xff]*"[\\t ]*$';

/**
 * If-Match and If-None-Match as parseTagCondition reads them, as a JSON Schema pattern for the
 * document and the validator: `*`, or a list of entity tags with optional whitespace and empty
 * elements (RFC 9110 §5.6.1). Each repetition starts with the one comma it consumes, so the
 * expression cannot backtrack more than linearly on a hostile header.
 */
const TAG = '(?:W/)?"[\\x21\\x23-\\x7e\\x80-\\xff]*"';
export const TAG_CONDITION_PATTERN = `^[\\t ]*(?:\\*[\\t ]*|(?:,[\\t ]*)*${TAG}[\\t ]*(?:,[\\t ]*(?:${TAG}[\\t ]*)?)*)$`;

/** The 400 of a condition header that is neither `*` nor a list of entity tags. */
export const invalidConditionMessage = (header: string) =>
  `Invalid ${header} header: expected "*" or a list of entity tags ("…" or W/"…")`;

/** One entity tag, as an ETag header or a batch item's `etag` writes it; undefined if invalid. */
export function parseEntityTag(value: string): EntityTag | undefined {
  const match = ENTITY_TAG.exec(value.trim());
  if (!match) return undefined;
  return { weak: match[1] !== undefined, opaque: match[2] ?? '' };
}

/**
 * If-Match or If-None-Match: undefined when absent; a 400 in the error shape when it is neither
 * `*` nor a comma-separated list of entity tags. Empty list elements are allowed (RFC 9110 §5.6.1).
 */
export function parseTagCondition(
  header: string,
  value: string | string[] | undefined,
): TagCondition | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(', ') : value;
  const invalid = () => badRequest(invalidConditionMessage(header));
  if (text.trim() === '*') return { any: true };
  const tags: EntityTag[] = [];
  // A linear scan (a tag may hold commas, so no split; no backtracking regex on a header).
  const isSpace = (char: string | undefined) => char === ' ' || char === '\t';
  let position = 0;
  while (position < text.length) {
    while (isSpace(text[position])) position++;
    if (position >= text.length) break;
    if (text[position] === ',') {
      position++;
      continue;
    }
    const weak = text.startsWith('W/', position);
    const open = weak ? position + 2 : position;
    if (text[open] !== '"') throw invalid();
    const close = text.indexOf('"', open + 1);
    if (close < 0) throw invalid();
    const tag = parseEntityTag(text.slice(position, close + 1));
    if (!tag) throw invalid();
    tags.push(tag);
    if (tags.length > MAX_CONDITION_TAGS) {
      throw badRequest(`Invalid ${header} header: more than ${MAX_CONDITION_TAGS} entity tags`);
    }
    position = close + 1;
    while (isSpace(text[position])) position++;
    if (position < text.length && text[position] !== ',') throw invalid();
  }
  if (tags.length === 0) throw invalid();
  return { any: false, tags };
}

/**
 * The tags an If-Match accepts, compared strongly (a weak tag never matches); undefined for
 * "any current version" (`*`, or no header: the write needs the record to exist either way).
 */
export function ifMatchTags(condition: TagCondition | undefined): string[] | undefined {
  if (condition === undefined || condition.any) return undefined;
  return condition.tags.filter((tag) => !tag.weak).map((tag) => tag.opaque);
}

/** If-None-Match against the current tag, compared weakly: true means 304 Not Modified. */
export function noneMatchHolds(condition: TagCondition | undefined, current: string): boolean {
  if (condition === undefined) return false;
  if (condition.any) return true;
  return condition.tags.some((tag) => tag.opaque === current);
}

export const preconditionFailed = (message: string) => new ApiError(412, message);
