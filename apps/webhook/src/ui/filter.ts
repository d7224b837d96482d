import type { CapturedRequest } from '../capture/record.js';
import { headerValueText, StoredRequest } from '../capture/record.js';

/**
 * The filter language of `/`, parsed once into predicates (after mitmproxy's filter expressions,
 * kept to what a webhook list needs). Terms are separated by spaces and must all match:
 *
 *   push                      plain text: method, path, header names and values, body
 *   method:POST               the method, any case
 *   status:4xx  status:404    the status of the response sent or of the forward target's answer
 *   path:/hooks/*             the decoded path; `*` matches anything (slashes too)
 *   header:x-github-event=push  a header with that name (and value); `*` as in path
 *   header:x-signature        a header with that name, any value
 *   verified:true|false|none  signature verification passed, failed, or was not configured
 *   !term                     the term must not match
 *   "two words"               quotes keep spaces in a term (`header:"user-agent=Go http*"`)
 */
export interface Term {
  readonly field: 'text' | 'method' | 'status' | 'path' | 'header' | 'verified';
  /** The term as typed, without `!`: used to tell whether a new filter narrows an old one. */
  readonly source: string;
  readonly negated: boolean;
  readonly test: (record: CapturedRequest) => boolean;
}

export interface Filter {
  readonly text: string;
  readonly terms: readonly Term[];
}

export type FilterParse =
  | { readonly ok: true; readonly filter: Filter }
  | { readonly ok: false; readonly error: string };

/** Bytes of each body the plain-text search looks at: the start of a 10 MiB upload is enough. */
export const BODY_SEARCH_LIMIT = 1024 * 1024;

/** Statuses of the response this tool sent and of the forward (or replay) target's answer. */
export function statusesOf(record: CapturedRequest): number[] {
  const statuses: number[] = [];
  if (record.response) statuses.push(record.response.status);
  if (record.forward?.kind === 'response') statuses.push(record.forward.status);
  return statuses;
}

/** True or false when a signature was checked, null when no scheme applied. */
function verifiedOf(record: CapturedRequest): boolean | null {
  return record.verification ? record.verification.ok : null;
}

/** Splits on spaces, keeping quoted parts together (`a "b c"` is two terms). */
function tokens(text: string): string[] | string {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (const char of text) {
    if (char === '"') {
      quoted = !quoted;
      started = true;
    } else if (!quoted && /\s/.test(char)) {
      if (started) out.push(current);
      current = '';
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (quoted) return 'a quote is not closed';
  if (started) out.push(current);
  return out;
}

export function parseFilter(text: string): FilterParse {
  const parts = tokens(text);
  if (typeof parts === 'string') return { ok: false, error: parts };
  const terms: Term[] = [];
  for (const part of parts) {
    const negated = part.startsWith('!') && part.length > 1;
    const body = negated ? part.slice(1) : part;
    const term = parseTerm(body);
    if (typeof term === 'string') return { ok: false, error: term };
    terms.push({ ...term, source: body, negated });
  }
  return { ok: true, filter: { text, terms } };
}

type Parsed = Pick<Term, 'field' | 'test'> | string;

function parseTerm(part: string): Parsed {
  const colon = part.indexOf(':');
  const prefix = colon > 0 ? part.slice(0, colon).toLowerCase() : '';
  const value = part.slice(colon + 1);
  switch (prefix) {
    case 'method': {
      if (value === '') return 'method: needs a method, e.g. method:POST';
      const wanted = value.toUpperCase();
      return { field: 'method', test: (record) => record.method.toUpperCase() === wanted };
    }
    case 'status':
      return statusTerm(value);
    case 'path': {
      if (value === '') return 'path: needs a path, e.g. path:/hooks/*';
      const pattern = glob(value);
      return { field: 'path', test: (record) => pattern.test(record.path) };
    }
    case 'header':
      return headerTerm(value);
    case 'verified': {
      const wanted = { true: true, false: false, none: null }[value.toLowerCase()];
      if (wanted === undefined) return 'verified: expects true, false or none';
      return { field: 'verified', test: (record) => verifiedOf(record) === wanted };
    }
    default:
      // Anything else, `http://x` included, is text to look for.
      return textTerm(part);
  }
}

function statusTerm(value: string): Parsed {
  const match = /^([1-5])(\d\d|xx|\*\*)$/i.exec(value);
  if (!match) return 'status: expects a code like 404 or a class like 4xx';
  const exact = /^\d+$/.test(value) ? Number(value) : null;
  const klass = Number(match[1]);
  return {
    field: 'status',
    test: (record) =>
      statusesOf(record).some((status) =>
        exact === null ? Math.floor(status / 100) === klass : status === exact,
      ),
  };
}

function headerTerm(value: string): Parsed {
  const equals = value.indexOf('=');
  const name = equals === -1 ? value : value.slice(0, equals);
  if (name === '') return 'header: needs a name, e.g. header:x-github-event=push';
  const namePattern = glob(name);
  const valuePattern = equals === -1 ? null : glob(value.slice(equals + 1));
  return {
    field: 'header',
    test: (record) =>
      record.headers.some(
        ([headerName, headerValue]) =>
          namePattern.test(headerName) &&
          (valuePattern === null || valuePattern.test(headerValueText(headerValue))),
      ),
  };
}

function textTerm(needle: string): Parsed {
  const lower = needle.toLowerCase();
  const ascii = /^[\u0020-\u007e]*$/.test(needle);
  // ASCII needles search bytes as Latin-1 (one character per byte, no decoding); others search
  // UTF-8 text, as header values and bodies are shown.
  const pattern = ascii ? new RegExp(escapeRegExp(needle), 'i') : null;
  const inText = (text: string) =>
    pattern ? pattern.test(text) : text.toLowerCase().includes(lower);
  const inBytes = (bytes: Buffer) => inText(bytes.toString(ascii ? 'latin1' : 'utf8'));
  return {
    field: 'text',
    test: (record) => {
      if (inText(record.method) || inText(record.path) || inText(record.target)) return true;
      // A stored record keeps its headers packed in one buffer (`name:value` lines): search that
      // rather than unpacking tens of thousands of pairs.
      if (record instanceof StoredRequest) {
        if (inBytes(record.headerBlock)) return true;
      } else {
        for (const [name, value] of record.headers) {
          if (inText(name) || inText(headerValueText(value))) return true;
        }
      }
      return inBytes(record.body.subarray(0, BODY_SEARCH_LIMIT));
    },
  };
}

/** A case-insensitive pattern matching the whole text, `*` matching any run of characters. */
function glob(pattern: string): RegExp {
  const source = pattern.split('*').map(escapeRegExp).join('.*');
  return new RegExp(`^${source}$`, 'is');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function matches(filter: Filter, record: CapturedRequest): boolean {
  for (const term of filter.terms) {
    if (term.test(record) === term.negated) return false;
  }
  return true;
}

/**
 * Whether everything `next` matches is also matched by `previous`, so `next` need only be tried on
 * `previous`'s matches: the same terms, maybe more, the last of which may have grown as plain text
 * (typing `pus` then `push`). Typing is then cheaper with every key.
 */
export function narrows(previous: Filter, next: Filter): boolean {
  const old = previous.terms;
  if (old.length === 0 || next.terms.length < old.length) return false;
  for (let i = 0; i < old.length; i += 1) {
    const before = old[i] as Term;
    const after = next.terms[i] as Term;
    if (before.negated !== after.negated) return false;
    if (before.source === after.source) continue;
    const grew =
      i === old.length - 1 &&
      !before.negated &&
      before.field === 'text' &&
      after.field === 'text' &&
      after.source.toLowerCase().includes(before.source.toLowerCase());
    if (!grew) return false;
  }
  return true;
}
