import { isAscii, isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type {
  CapturedRequest,
  ForwardResult,
  SentResponse,
  Verification,
} from '../capture/record.js';
import { headerValueBytes, verificationText } from '../capture/record.js';
import type { HeaderPairs } from '../config/types.js';
import { INVISIBLE_CLASS } from '../format/printable.js';

/**
 * Characters `JSON.stringify` leaves raw that a terminal or a reader's editor acts on: C1 controls
 * (U+009B is a one-byte CSI), DEL, the bidirectional marks and overrides, U+2028/U+2029 (line
 * breaks to JavaScript and some editors), U+FEFF and every other invisible format character
 * (zero-width space, joiners, soft hyphen, U+061C, U+180E, U+FFF9–U+FFFB, the tag characters
 * U+E0001–U+E007F...: Unicode's Cf). Each is written as its `\u` escape (one beyond U+FFFF as
 * its surrogate pair), which every JSON parser reads back as the same character.
 */
const UNSAFE_IN_JSON = new RegExp(`[\\u007f-\\u009f\\u2065${INVISIBLE_CLASS}]`, 'gu');

/** `\u` escapes of each UTF-16 unit: a character beyond U+FFFF as its surrogate pair, as JSON has it. */
const escapeChar = (char: string) => {
  let escaped = '';
  for (let i = 0; i < char.length; i += 1)
    escaped += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return escaped;
};

/** JSON text that is safe to print on a terminal: only printable characters, one line. */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_IN_JSON, escapeChar);
}

/**
 * A header pair in JSON: `[name, value]` with the value decoded as UTF-8 when its bytes are valid
 * UTF-8 (ASCII always is), else `[name, base64, "base64"]`. Either way the exact bytes come back.
 */
export type JsonHeader = [string, string] | [string, string, 'base64'];

export function headersToJson(headers: HeaderPairs): JsonHeader[] {
  return headers.map(([name, value]) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: testing for non-ASCII
    if (!/[^\u0000-\u007f]/.test(value)) return [name, value];
    const bytes = headerValueBytes(value);
    return isUtf8(bytes)
      ? [name, bytes.toString('utf8')]
      : [name, bytes.toString('base64'), 'base64'];
  });
}

/** `body` as text when it is valid UTF-8, else base64; `bodyEncoding` says which. */
export function bodyToJson(body: Buffer): { bodyEncoding: 'utf8' | 'base64'; body: string } {
  const utf8 = isUtf8(body);
  return { bodyEncoding: utf8 ? 'utf8' : 'base64', body: body.toString(utf8 ? 'utf8' : 'base64') };
}

function responseJson(response: SentResponse) {
  return {
    status: response.status,
    headers: headersToJson(response.headers),
    ...bodyToJson(response.body),
  };
}

/** `target` a URL; `requestTarget` (`*`) only when the request target sent was not its path. */
function targetJson(forward: ForwardResult): { target: string; requestTarget?: '*' } {
  return forward.requestTarget
    ? { target: forward.target, requestTarget: forward.requestTarget }
    : { target: forward.target };
}

function forwardJson(forward: ForwardResult) {
  switch (forward.kind) {
    case 'pending':
      return { ...targetJson(forward), pending: true };
    case 'failure':
      return {
        ...targetJson(forward),
        failure: forward.failure,
        message: forward.message,
        durationMs: forward.durationMs,
      };
    case 'response':
      return {
        ...targetJson(forward),
        status: forward.status,
        statusText: forward.statusText,
        headers: headersToJson(forward.headers),
        size: forward.size,
        truncated: forward.truncated,
        durationMs: forward.durationMs,
        ...bodyToJson(forward.body),
      };
  }
}

function verificationJson(verification: Verification) {
  return { ...verification, text: verificationText(verification) };
}

/**
 * One record as the `--json` / `--save` object: everything replay and export need (the raw
 * bytes, header order and case, the response sent, the forward result, the verification).
 */
export function recordToJson(
  record: CapturedRequest,
  /** `verbatim`: the body is left out (an empty string): the caller writes its bytes itself. */
  body: 'text' | 'verbatim' = 'text',
): Record<string, unknown> {
  return {
    seq: record.seq,
    time: new Date(record.receivedAt).toISOString(),
    method: record.method,
    url: record.url,
    path: record.path,
    target: record.target,
    query: record.query,
    headers: headersToJson(record.headers),
    remote: record.remote,
    ...(record.local !== undefined ? { local: record.local } : {}),
    httpVersion: record.httpVersion,
    size: record.size,
    truncated: record.truncated,
    ...(body === 'text' ? bodyToJson(record.body) : { bodyEncoding: 'utf8', body: '' }),
    ...(record.response ? { response: responseJson(record.response) } : {}),
    ...(record.forward ? { forward: forwardJson(record.forward) } : {}),
    ...(record.verification ? { verification: verificationJson(record.verification) } : {}),
    ...(record.replayOf !== undefined ? { replayOf: record.replayOf } : {}),
    ...(record.relayedVia !== undefined ? { relayedVia: record.relayedVia } : {}),
  };
}

/** Stands for the body while the rest of a line is escaped; unguessable, so no field holds it. */
const BODY_SLOT = `\u0000${randomUUID()}\u0000`;
const BODY_SLOT_JSON = JSON.stringify(BODY_SLOT);

/**
 * One `--json` line (without its newline). The same text as `terminalSafeJson(recordToJson(...))`,
 * but the body (up to --max-body) is not run through the escaping pattern with the rest: an ASCII
 * body without DEL, or a base64 one, has nothing to escape. Scanning and copying every line whole
 * cost a large string per request, which the collector frees late (RELIABILITY.md, `--json`).
 */
export function requestJson(record: CapturedRequest): string {
  const pieces = requestJsonPieces(record, Number.POSITIVE_INFINITY);
  return pieces
    .map((piece) => (typeof piece === 'string' ? piece : piece.toString('latin1')))
    .join('');
}

/** A body at least this long is written from its own bytes when they need no escaping. */
export const VERBATIM_BODY_BYTES = 64 * 1024;

/**
 * One `--json` line as pieces to write in order: text, and (for a body of at least `verbatimFrom`
 * bytes that JSON and the terminal take as they are) the body's own bytes, so a large body never
 * becomes a string at all: neither its text nor its JSON is made, only the bytes already held.
 */
export function requestJsonPieces(
  record: CapturedRequest,
  verbatimFrom = VERBATIM_BODY_BYTES,
): (string | Buffer)[] {
  const verbatim = record.body.length >= verbatimFrom && plainJsonText(record.body);
  const object = recordToJson(record, verbatim ? 'verbatim' : 'text');
  const body = object.body as string;
  object.body = BODY_SLOT;
  const rest = terminalSafeJson(object);
  const at = rest.indexOf(BODY_SLOT_JSON);
  const before = rest.slice(0, at);
  const after = rest.slice(at + BODY_SLOT_JSON.length);
  if (verbatim) return [`${before}"`, record.body, `"${after}`];
  const safe =
    object.bodyEncoding === 'base64' || (isAscii(record.body) && record.body.indexOf(0x7f) === -1);
  return [before + (safe ? JSON.stringify(body) : terminalSafeJson(body)) + after];
}

/** Whether every byte is printable ASCII that a JSON string holds as itself (no `"`, no `\\`). */
function plainJsonText(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i] as number;
    if (byte < 0x20 || byte > 0x7e || byte === 0x22 || byte === 0x5c) return false;
  }
  return true;
}
