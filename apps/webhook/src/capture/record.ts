import { isUtf8 } from 'node:buffer';
import type { HeaderPairs } from '../config/types.js';

/**
 * A record's fields other than its headers and query, which the store keeps in a packed form
 * (`StoredFields`); `CapturedRequest` adds them back as pairs. The one list of a record's fields.
 */
export interface RecordFields {
  /** 1, 2, 3... in the order requests completed; never reused, not even after a clear. */
  readonly seq: number;
  /** When the request line and headers arrived (ms since the epoch). */
  readonly receivedAt: number;
  readonly method: string;
  /** The request target exactly as sent: path and query, still percent-encoded. */
  readonly target: string;
  /** The decoded path without its query (the raw path when it does not decode). */
  readonly path: string;
  /** Scheme, host (the Host header, else the listening address), path and query. */
  readonly url: string;
  /** The body bytes kept (at most --max-body). */
  readonly body: Buffer;
  /** Bytes the client sent in the body, kept or not. */
  readonly size: number;
  /** True when the body was longer than --max-body and only its start was kept. */
  readonly truncated: boolean;
  /** Client address and port, e.g. `127.0.0.1:51234`. */
  readonly remote: string;
  /**
   * The address and port the request was sent to (this tool's socket, `127.0.0.1:9080`): where an
   * exported curl command sends it again, whatever its `Host` header says. Absent on replays and
   * on records loaded from files written before it was kept.
   */
  readonly local?: string;
  readonly httpVersion: string;
  /**
   * The response this tool sent to the client: the configured one, the forward target's (with
   * --respond-with-forward), or a 401 (--reject-invalid). Absent on replays, where this tool was
   * the client, and on records loaded from files written before it existed.
   */
  readonly response?: SentResponse;
  /**
   * The exchange with a forward target: for a captured request, what the `--forward-to` or route
   * target answered (or why it did not); for a replay, the replay target's answer. `pending` while
   * it is under way. Absent when nothing was forwarded.
   */
  readonly forward?: ForwardResult;
  /** The signature check of the route's (or the global) `verify` scheme; absent when none applies. */
  readonly verification?: Verification;
  /** For a replay: the `seq` of the record it replays (the original, not an earlier replay of it). */
  readonly replayOf?: number;
  /**
   * The relay send URL the request came through (`--relay`); `remote` is then the sender's
   * address as the relay saw it. Absent for requests that reached the port.
   */
  readonly relayedVia?: string;
}

/** One captured request, as received: nothing normalised away. */
export interface CapturedRequest extends RecordFields {
  /** Query parameters in order; repeated names kept. */
  readonly query: HeaderPairs;
  /** Headers in arrival order, names as sent; repeated headers kept. */
  readonly headers: HeaderPairs;
}

/** A record before the store numbers it. */
export type RequestDraft = Omit<CapturedRequest, 'seq'>;

/**
 * Header values, everywhere in records, are "binary strings": one character per byte as received
 * (what Node's `rawHeaders` gives, latin1), so the exact bytes survive for forwarding, replay and
 * export. `headerValueBytes` gives the bytes back; `headerValueText` is what to show a person.
 */
export function headerValueBytes(value: string): Buffer {
  return Buffer.from(value, 'latin1');
}

/** The value decoded as UTF-8 when its bytes are valid UTF-8 (`ZoÃ«` shows as `Zoë`), else as is. */
export function headerValueText(value: string): string {
  // ASCII (the common case) is the same either way; skip the round trip.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: testing for non-ASCII
  if (!/[^\u0000-\u007f]/.test(value)) return value;
  const bytes = headerValueBytes(value);
  return isUtf8(bytes) ? bytes.toString('utf8') : value;
}

/** A header name: an HTTP token (RFC 9110 §5.6.2). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/**
 * A header value as a binary string that Node can send: tab, visible ASCII, space and any byte from
 * 0x80 (RFC 9110 §5.5); no other control character (a line break would end the header).
 */
export const HEADER_VALUE = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;

/** What is wrong with a header (binary string value) HTTP cannot carry; null when it is fine. */
export function headerProblem(name: string, value: string): string | null {
  if (!HEADER_NAME.test(name)) return 'the name must be an HTTP token';
  if (!HEADER_VALUE.test(value)) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: naming the worst of them
    if (/[\r\n\u0000]/.test(value)) return 'the value holds a line break or NUL';
    if (/[\u0100-\u{10ffff}]/u.test(value)) {
      return 'the value holds a character above U+00FF (header values are bytes: give UTF-8 text as its bytes, one character U+0000–U+00FF per byte)';
    }
    return 'the value holds a control character';
  }
  return null;
}

/** What this tool answered. `headers` in the order sent; `body` the bytes sent. */
export interface SentResponse {
  readonly status: number;
  readonly headers: HeaderPairs;
  readonly body: Buffer;
}

/** Why an exchange with a forward or replay target produced no response. */
export type ExchangeFailureKind =
  /** Connection refused: nothing listens there. */
  | 'refused'
  /** No complete answer within the forward timeout. */
  | 'timeout'
  /** The connection was reset or closed before a complete answer. */
  | 'reset'
  /** The target's host name does not resolve. */
  | 'dns'
  /** Not sent: the forward queue was full (a slow or dead target under a flood). */
  | 'queue-full'
  /** Not sent: the request already went through this tool's forwarding (a loop, see `Via`). */
  | 'loop'
  /** Not sent: the tool stopped first. */
  | 'cancelled'
  /** Anything else (TLS failure, a malformed answer...); `message` says what. */
  | 'error';

/** The target answered. Header values are binary strings, as for requests. */
export interface ExchangeResponse {
  readonly kind: 'response';
  /** The full URL the request was sent to (for `OPTIONS *`, the origin: see requestTarget). */
  readonly target: string;
  /** The request target sent when it is not the URL's path: `*` for `OPTIONS *`. */
  readonly requestTarget?: '*';
  readonly status: number;
  readonly statusText: string;
  readonly headers: HeaderPairs;
  /** The answer's body as received (not decoded), at most --max-body bytes kept. */
  readonly body: Buffer;
  /** Bytes of body the target sent, kept or not. */
  readonly size: number;
  readonly truncated: boolean;
  /** From sending the request to the end of the answer, in ms. */
  readonly durationMs: number;
}

/** The target did not answer. `message` is a short human explanation (`connect ECONNREFUSED ...`). */
export interface ExchangeFailure {
  readonly kind: 'failure';
  readonly target: string;
  readonly requestTarget?: '*';
  readonly failure: ExchangeFailureKind;
  readonly message: string;
  readonly durationMs: number;
}

/** Queued or under way. */
export interface ExchangePending {
  readonly kind: 'pending';
  readonly target: string;
  readonly requestTarget?: '*';
}

export type ForwardResult = ExchangeResponse | ExchangeFailure | ExchangePending;

/** The signature schemes `verify` knows (config `scheme`). */
export const SIGNATURE_SCHEMES = [
  'github',
  'stripe',
  'standard-webhooks',
  'slack',
  'shopify',
  'hmac-sha256',
  'hmac-sha512',
] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** The outcome of checking a request's signature. */
export interface Verification {
  readonly scheme: SignatureScheme;
  readonly ok: boolean;
  /**
   * Why, in a few words: `signature valid`, `signature mismatch`, `timestamp outside tolerance
   * (412 s)`, `missing Stripe-Signature header`. `verificationText` makes the line to show.
   */
  readonly reason: string;
}

/** `✓ github signature valid`, `✗ stripe: timestamp outside tolerance (412 s)`. */
export function verificationText(verification: Verification): string {
  return verification.ok
    ? `✓ ${verification.scheme} ${verification.reason}`
    : `✗ ${verification.scheme}: ${verification.reason}`;
}

/** Case-insensitive lookup of the first header with that name. */
export function headerValue(headers: HeaderPairs, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return headers.find(([key]) => key.toLowerCase() === wanted)?.[1];
}

/** Pairs from Node's flat `rawHeaders` list. */
export function pairHeaders(raw: readonly string[]): HeaderPairs {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] ?? '', raw[i + 1] ?? '']);
  return pairs;
}

/** Decodes a path for matching and display; a malformed escape leaves it as sent. */
export function decodePath(rawPath: string): string {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    return rawPath;
  }
}

/**
 * `host:port` as a URL authority may hold it with nothing else: a name or IPv4 address, or an
 * IPv6 one in brackets, and a port. No credentials (`x@host`), spaces or paths.
 */
export const PLAIN_AUTHORITY = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** A request target's path (still encoded) and the query text after its `?`. */
function targetParts(target: string): { rawPath: string; search: string } {
  // An absolute-form target (`GET http://host/path`, as sent to proxies) still has a path.
  let rest = target;
  if (!rest.startsWith('/') && /^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) {
    const afterScheme = rest.indexOf('//') + 2;
    const slash = rest.indexOf('/', afterScheme);
    rest = slash === -1 ? '/' : rest.slice(slash);
  }
  const mark = rest.indexOf('?');
  return mark === -1
    ? { rawPath: rest, search: '' }
    : { rawPath: rest.slice(0, mark), search: rest.slice(mark + 1) };
}

/** A request target's decoded path, without parsing its query (records derive that when asked). */
export function targetPath(target: string): string {
  return decodePath(targetParts(target).rawPath);
}

/** Splits a request target into its decoded path and its query pairs. */
export function splitTarget(target: string): { path: string; query: HeaderPairs } {
  const { rawPath, search } = targetParts(target);
  const query: HeaderPairs = search === '' ? NO_QUERY : [...new URLSearchParams(search)];
  if (query !== NO_QUERY) derivedQueries.add(query);
  return { path: decodePath(rawPath), query };
}

const NO_QUERY: HeaderPairs = Object.freeze([]) as HeaderPairs;
/**
 * Query lists `splitTarget` made: a record given one of them derives it again when asked instead
 * of holding it, without parsing the target a second time to compare (see `givenQuery`).
 */
const derivedQueries = new WeakSet<HeaderPairs>();

/** The complete URL the client asked for. */
export function completeUrl(target: string, host: string | undefined, fallbackHost: string) {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return target;
  return `http://${host || fallbackHost}${target.startsWith('/') ? '' : '/'}${target}`;
}

/**
 * Headers as one buffer of `name:value\n` lines (values are binary strings, so each character is
 * one byte). A request may carry tens of thousands of headers; as `[name, value]` arrays they
 * would cost about fifteen times their size in the heap (3.85 GB under a header flood). Names never contain
 * `:` and values never contain a line break (Node's parser refuses both; loaded files are checked).
 */
export function packHeaders(headers: HeaderPairs): Buffer {
  return packFields(headers.length * 2, (i) => headers[i >> 1]?.[i & 1] ?? '');
}

/**
 * `packHeaders` of Node's flat `rawHeaders` list (name, value, name, value...), without building
 * the pairs: under a header flood they were most of what each request left for the collector.
 */
export function packRawHeaders(raw: readonly string[]): Buffer {
  return packFields(raw.length - (raw.length % 2), (i) => raw[i] ?? '');
}

/** `count` fields, names at even positions and values at odd ones, as `name:value\n` lines. */
function packFields(count: number, field: (i: number) => string): Buffer {
  let length = 0;
  for (let i = 0; i < count; i += 1) length += field(i).length + 1;
  const block = Buffer.allocUnsafe(length);
  let offset = 0;
  for (let i = 0; i < count; i += 1) {
    offset += block.write(field(i), offset, 'latin1');
    block[offset++] = i % 2 === 0 ? 0x3a : 0x0a; // ':' after a name, '\n' after a value
  }
  return block;
}

/** The pairs back from `packHeaders`. */
export function unpackHeaders(block: Buffer): HeaderPairs {
  const pairs: [string, string][] = [];
  let start = 0;
  while (start < block.length) {
    let end = block.indexOf(0x0a, start);
    if (end === -1) end = block.length;
    const colon = block.indexOf(0x3a, start);
    const split = colon === -1 || colon > end ? end : colon;
    pairs.push([
      block.toString('latin1', start, split),
      block.toString('latin1', Math.min(split + 1, end), end),
    ]);
    start = end + 1;
  }
  return pairs;
}

/** Fields a record is built from; headers packed, query derived from the target when asked. */
export interface StoredFields extends RecordFields {
  readonly headerBlock: Buffer;
}

/** What is settled after the request arrived: the answer, the forward, the signature check. */
export type RecordOutcome = Partial<Pick<RecordFields, 'response' | 'forward' | 'verification'>>;

/** A packed request's fields before the store numbers it. */
export type PackedFields = Omit<StoredFields, 'seq'>;

/** The class's fields are PackedFields (declared once, here), assigned whole in its constructor. */
export interface PackedRequest extends PackedFields {}

/**
 * A request with its headers packed in one buffer and its query parsed from the target only when
 * read, so what it costs is close to the bytes it came from. The capture server hands requests
 * over in this form, packed straight from what Node parsed: the pairs are built only for whoever
 * asks for them (a signature check, a forward), never for a request that is only recorded.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface above
export class PackedRequest implements RequestDraft {
  /** Query pairs given that the target does not yield (hand-made records); else derived. */
  readonly givenQuery: HeaderPairs | undefined;

  constructor(fields: PackedFields, givenQuery?: HeaderPairs) {
    Object.assign(this, fields);
    this.givenQuery = givenQuery;
  }

  get headers(): HeaderPairs {
    return unpackHeaders(this.headerBlock);
  }

  get query(): HeaderPairs {
    if (this.givenQuery) return this.givenQuery;
    return this.method === 'CONNECT' ? [] : splitTarget(this.target).query;
  }
}

/** The class's fields are StoredFields (declared once, here), assigned whole in its constructor. */
export interface StoredRequest extends StoredFields {}

/** A record as the store holds it: a packed request with its number. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface above
export class StoredRequest extends PackedRequest implements CapturedRequest {
  constructor(fields: StoredFields, givenQuery?: HeaderPairs) {
    super(fields, givenQuery);
  }

  /** A stored record numbered `seq` from a draft (or another record), with `outcome` set on it. */
  static from(
    seq: number,
    draft: RequestDraft | CapturedRequest,
    outcome?: RecordOutcome,
  ): StoredRequest {
    if (draft instanceof PackedRequest) {
      // Own fields only: headers and query are getters on the prototype.
      return new StoredRequest({ ...draft, ...outcome, seq }, draft.givenQuery);
    }
    const { headers, query: _query, ...fields } = draft;
    return new StoredRequest(
      { ...fields, ...outcome, seq, headerBlock: packHeaders(headers) },
      givenQuery(draft),
    );
  }

  /** The same record with some fields replaced (a forward result arriving). */
  with(patch: RecordOutcome): StoredRequest {
    return StoredRequest.from(this.seq, this, patch);
  }
}

/**
 * The draft's query when it is not what the target yields (records made by hand), else undefined
 * so the record derives it when asked rather than holding thousands of pairs.
 */
function givenQuery(draft: RequestDraft | CapturedRequest): HeaderPairs | undefined {
  if (draft.query.length === 0 || derivedQueries.has(draft.query)) return undefined;
  const derived = draft.method === 'CONNECT' ? [] : splitTarget(draft.target).query;
  const same =
    derived.length === draft.query.length &&
    derived.every(
      ([name, value], i) => draft.query[i]?.[0] === name && draft.query[i]?.[1] === value,
    );
  return same ? undefined : draft.query;
}

/**
 * Bytes a record holds, as `--max-memory` counts them: every buffer and string it keeps plus a
 * fixed allowance for the object itself. Responses shared by every request (the configured ones)
 * cost nothing per record and are not counted.
 */
export const RECORD_OVERHEAD_BYTES = 512;

export function recordBytes(record: CapturedRequest): number {
  const headerBytes =
    record instanceof StoredRequest ? record.headerBlock.length : pairsBytes(record.headers);
  let bytes =
    RECORD_OVERHEAD_BYTES +
    record.body.length +
    headerBytes +
    record.target.length +
    record.path.length +
    record.url.length;
  if (record.forward && record.forward.kind === 'response') {
    bytes += record.forward.body.length + pairsBytes(record.forward.headers);
  }
  if (record.response && record.response !== record.forward) {
    bytes += pairsBytes(record.response.headers);
  }
  return bytes;
}

/** Bytes of header pairs held as arrays of strings: their text and about 48 bytes per pair. */
export function pairsBytes(headers: HeaderPairs): number {
  let bytes = 0;
  for (const [name, value] of headers) bytes += name.length + value.length + 48;
  return bytes;
}
