import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import {
  type CapturedRequest,
  type ExchangeFailureKind,
  type ForwardResult,
  headerProblem,
  PLAIN_AUTHORITY,
  type RequestDraft,
  type SentResponse,
  SIGNATURE_SCHEMES,
  type Verification,
} from '../capture/record.js';
import { MAX_HEADER_BYTES } from '../capture/server.js';
import type { HeaderPairs } from '../config/types.js';
import { CliError } from '../errors.js';
import { recordedTarget } from '../forward/url.js';
import { requestJson } from '../output/json.js';

/** Appends records to a `--save` file, one `--json` line each, written through to the disk. */
export interface SessionWriter {
  append(record: CapturedRequest): void;
  close(): void;
}

/**
 * Opens (creates or appends to) a session file; a CliError (exit 2) when it cannot be opened. Each record
 * is one synchronous write of one line: once `append` returns, the line is in the operating
 * system's hands, so a crash of the tool loses at most the record being written.
 */
export function openSession(path: string): SessionWriter {
  let fd: number;
  try {
    fd = openSync(path, 'a');
  } catch (error) {
    // A bad flag: exit 2 (the tool opens it before listening).
    throw new CliError(`--save ${path}: cannot open (${(error as NodeJS.ErrnoException).code})`, 2);
  }
  let open = true;
  return {
    append(record) {
      if (!open) return;
      const line = Buffer.from(`${requestJson(record)}\n`);
      try {
        let written = 0;
        while (written < line.length) written += writeSync(fd, line, written);
      } catch (error) {
        throw new CliError(
          `--save ${path}: cannot write (${(error as NodeJS.ErrnoException).code})`,
          1,
        );
      }
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/** One record read back: the `seq` it had in the file, and the record to add to a store. */
export interface LoadedRecord {
  readonly fileSeq: number;
  readonly draft: RequestDraft;
}

export interface LoadOptions {
  /** Longest line accepted, in bytes (a record of --max-body plus its headers, base64). */
  readonly maxLineBytes: number;
  /**
   * Called with `file:line: what is wrong` for a line that is not a record, which is then skipped:
   * one bad line never costs the others. Without it, such a line is a CliError (exit 2).
   */
  readonly onSkip?: (problem: string) => void;
}

/**
 * Reads a session file (the `--json` format) line by line, in bounded memory: a line longer than
 * `maxLineBytes` is refused before it is held whole, one of more than `MAX_LINE_VALUES` values
 * before it is parsed. A malformed line is reported as `file:line: problem` to `onSkip` and
 * skipped (or, without `onSkip`, ends the reading with a CliError). Blank lines are skipped.
 * A file that cannot be read is always a CliError.
 */
export async function* readSession(
  path: string,
  options: LoadOptions,
): AsyncGenerator<LoadedRecord> {
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  /** Inside a line too long to hold: its bytes are dropped up to the next line break. */
  let skippingLongLine = false;
  const problem = (message: string) => {
    const text = `${path}:${lineNumber}: ${message}`;
    if (!options.onSkip) throw new CliError(text, 2);
    options.onSkip(text);
  };
  const parse = (line: Buffer): LoadedRecord | null => {
    lineNumber += 1;
    if (exceedsJsonValues(line, MAX_LINE_VALUES)) {
      problem(`line holds more than ${MAX_LINE_VALUES} JSON values (not a saved record)`);
      return null;
    }
    const text = line.toString('utf8').trim();
    if (text === '') return null;
    try {
      return recordFromJson(text);
    } catch (error) {
      problem((error as Error).message);
      return null;
    }
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (;;) {
        const end = chunk.indexOf(0x0a, start);
        const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
        if (skippingLongLine) {
          if (end === -1) break;
          skippingLongLine = false;
          start = end + 1;
          continue;
        }
        if (pendingBytes + piece.length > options.maxLineBytes) {
          lineNumber += 1;
          pending = [];
          pendingBytes = 0;
          problem(`line longer than ${options.maxLineBytes} bytes (not a saved record)`);
          if (end === -1) {
            skippingLongLine = true;
            break;
          }
          start = end + 1;
          continue;
        }
        if (end === -1) {
          if (piece.length > 0) {
            pending.push(Buffer.from(piece));
            pendingBytes += piece.length;
          }
          break;
        }
        const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
        pending = [];
        pendingBytes = 0;
        const record = parse(line);
        if (record) yield record;
        start = end + 1;
      }
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CliError(`${path}: cannot be read (${code})`, 2);
  } finally {
    stream.destroy();
  }
  if (pendingBytes > 0) {
    const record = parse(Buffer.concat(pending));
    if (record) yield record;
  }
}

/**
 * JSON values (arrays, objects and the items in them) a line may hold, counted before it is
 * parsed: parsing builds an object per value, so an 18.8 MB line of tiny values cost 16.6 s and
 * 1 GB. A record holds at most about 770,000: 128 Ki one-letter headers and as many query
 * parameters (the most 256 KiB of request head can carry), three values each, and its few fields.
 */
export const MAX_LINE_VALUES = 800_000;

/**
 * Whether `line` holds more than `max` JSON values: counts `[`, `{` and `,` outside strings in one
 * pass over the bytes, without building anything.
 */
export function exceedsJsonValues(line: Buffer, max: number): boolean {
  let count = 0;
  let inString = false;
  for (let i = 0; i < line.length; i += 1) {
    const byte = line[i];
    if (inString) {
      if (byte === 0x5c)
        i += 1; // a backslash escapes the next byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x2c || byte === 0x5b || byte === 0x7b) {
      count += 1;
      if (count > max) return true;
    }
  }
  return false;
}

/** What a line may claim, at most: headers as the server accepts them, fields as they come. */
const MAX_HEADERS = MAX_HEADER_BYTES / 2;
const MAX_SHORT_TEXT = 1024;
/**
 * A URL as the capture can record one: a target of up to the head's 256 KiB after a base (the
 * forward or replay target, the Host header). A forward's target and the messages and status
 * text that may quote it are read back up to this: what the tool writes, it can read.
 */
const MAX_URL = 2 * MAX_HEADER_BYTES;
const MAX_QUOTING_TEXT = MAX_URL + MAX_SHORT_TEXT;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the bytes a request line cannot hold
const TARGET_CHARS = /^[^\u0000-\u0020\u007f\u0100-\uffff]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: what no URL the capture records holds
const URL_CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const FAILURE_KINDS: readonly ExchangeFailureKind[] = [
  'refused',
  'timeout',
  'reset',
  'dns',
  'queue-full',
  'loop',
  'cancelled',
  'error',
];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field<T>(
  object: Json,
  key: string,
  check: (value: unknown) => value is T,
  what: string,
  prefix = '',
): T {
  const value = object[key];
  if (!check(value)) throw new Error(`${prefix}${key}: must be ${what}`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isShortString = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= MAX_SHORT_TEXT;
const isUrlText = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= MAX_URL;
/** A status text or failure message: from a response head, or quoting a URL. */
const isQuotingText = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= MAX_QUOTING_TEXT;
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isPositive = (value: unknown): value is number => isCount(value) && value > 0;
const isStatus = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 999;

function body(object: Json, prefix: string): Buffer {
  const encoding = field(
    object,
    'bodyEncoding',
    (value): value is 'utf8' | 'base64' => value === 'utf8' || value === 'base64',
    '"utf8" or "base64"',
    prefix,
  );
  const text = field(object, 'body', isString, 'a string', prefix);
  if (encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
    throw new Error(`${prefix}body: is not base64`);
  }
  return Buffer.from(text, encoding);
}

/** Header pairs back to binary strings, refusing what HTTP could not carry. */
function headers(object: Json, key: string, prefix: string): HeaderPairs {
  const list = object[key];
  if (!Array.isArray(list)) throw new Error(`${prefix}${key}: must be a list of [name, value]`);
  if (list.length > MAX_HEADERS)
    throw new Error(`${prefix}${key}: more than ${MAX_HEADERS} headers`);
  let total = 0;
  return list.map((pair: unknown, index) => {
    const where = `${prefix}${key}[${index}]`;
    if (!Array.isArray(pair) || pair.length < 2 || pair.length > 3) {
      throw new Error(`${where}: must be [name, value] or [name, base64, "base64"]`);
    }
    const [name, value, encoding] = pair as unknown[];
    if (typeof name !== 'string' || !TOKEN.test(name)) {
      throw new Error(`${where}: the name must be an HTTP token`);
    }
    if (typeof value !== 'string' || (encoding !== undefined && encoding !== 'base64')) {
      throw new Error(`${where}: the value must be a string (then "base64" or nothing)`);
    }
    const bytes = Buffer.from(value, encoding === 'base64' ? 'base64' : 'utf8');
    const binary = bytes.toString('latin1');
    // Only what HTTP can carry: a control character made sending it crash the tool.
    const problem = headerProblem(name, binary);
    if (problem) throw new Error(`${where}: ${problem}`);
    total += name.length + bytes.length;
    if (total > MAX_HEADER_BYTES)
      throw new Error(`${prefix}${key}: more than ${MAX_HEADER_BYTES} bytes`);
    return [name, binary] as const;
  });
}

function response(value: unknown, prefix: string): SentResponse {
  if (!isObject(value)) throw new Error(`${prefix}: must be an object`);
  const at = `${prefix}.`;
  return {
    status: field(value, 'status', isStatus, 'an HTTP status', at),
    headers: headers(value, 'headers', at),
    body: body(value, at),
  };
}

function forward(value: unknown): ForwardResult {
  if (!isObject(value)) throw new Error('forward: must be an object');
  const at = 'forward.';
  // Saved before requestTarget: `OPTIONS *` went to `http://host*`.
  const recorded = recordedTarget(field(value, 'target', isUrlText, 'a URL', at));
  if (value.requestTarget !== undefined && value.requestTarget !== '*') {
    throw new Error('forward.requestTarget: must be * (the only request target recorded apart)');
  }
  const target = recorded.target;
  const requestTarget = value.requestTarget ?? recorded.requestTarget;
  const sent = requestTarget === '*' ? { target, requestTarget } : { target };
  if (value.pending === true) {
    return {
      kind: 'failure',
      ...sent,
      failure: 'cancelled',
      message: 'not finished when saved',
      durationMs: 0,
    };
  }
  const durationMs = field(value, 'durationMs', isCount, 'a count of ms', at);
  if (value.failure !== undefined) {
    return {
      kind: 'failure',
      ...sent,
      failure: field(
        value,
        'failure',
        (kind): kind is ExchangeFailureKind => FAILURE_KINDS.includes(kind as ExchangeFailureKind),
        `one of ${FAILURE_KINDS.join(', ')}`,
        at,
      ),
      message: field(value, 'message', isQuotingText, 'a string', at),
      durationMs,
    };
  }
  const kept = body(value, at);
  const size = field(value, 'size', isCount, 'a byte count', at);
  if (size < kept.length) throw new Error('forward.size: smaller than the body');
  return {
    kind: 'response',
    ...sent,
    status: field(value, 'status', isStatus, 'an HTTP status', at),
    statusText: field(value, 'statusText', isQuotingText, 'a string', at),
    headers: headers(value, 'headers', at),
    body: kept,
    size,
    truncated: size > kept.length,
    durationMs,
  };
}

function verification(value: unknown): Verification {
  if (!isObject(value)) throw new Error('verification: must be an object');
  const at = 'verification.';
  return {
    scheme: field(
      value,
      'scheme',
      (scheme): scheme is Verification['scheme'] =>
        (SIGNATURE_SCHEMES as readonly unknown[]).includes(scheme),
      `one of ${SIGNATURE_SCHEMES.join(', ')}`,
      at,
    ),
    ok: field(value, 'ok', isBoolean, 'true or false', at),
    reason: field(value, 'reason', isShortString, 'a short string', at),
  };
}

/** Parses one line of the `--json` format back into a record; throws an Error saying what is wrong. */
export function recordFromJson(line: string): LoadedRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new Error(`not valid JSON (${(error as Error).message.slice(0, 80)})`);
  }
  if (!isObject(value)) throw new Error('must be a JSON object (a record)');
  const seq = field(value, 'seq', isPositive, 'a positive integer');
  const time = Date.parse(field(value, 'time', isShortString, 'an ISO 8601 time'));
  if (Number.isNaN(time)) throw new Error('time: must be an ISO 8601 time');
  const method = field(value, 'method', isShortString, 'an HTTP method');
  if (!TOKEN.test(method)) throw new Error('method: must be an HTTP token');
  const target = field(value, 'target', isString, 'the request target');
  if (target.length > MAX_HEADER_BYTES || !TARGET_CHARS.test(target)) {
    throw new Error('target: must be a request target as sent (no spaces or controls)');
  }
  const kept = body(value, '');
  const size = field(value, 'size', isCount, 'a byte count');
  if (size < kept.length) throw new Error('size: smaller than the body');
  const draft: {
    -readonly [K in keyof RequestDraft]: RequestDraft[K];
  } = {
    receivedAt: time,
    method,
    target,
    path: field(value, 'path', isString, 'a string'),
    url: field(value, 'url', isString, 'a string'),
    query: [],
    headers: headers(value, 'headers', ''),
    body: kept,
    size,
    truncated: size > kept.length,
    remote: field(value, 'remote', isShortString, 'a short string'),
    httpVersion: field(value, 'httpVersion', isShortString, 'a short string'),
  };
  if (draft.path.length > MAX_HEADER_BYTES || draft.url.length > MAX_URL) {
    throw new Error('path or url: longer than a request can be');
  }
  // A relayed or replayed record's command goes to its url: a line break in it would be a second
  // request smuggled into the pasted command's request line. (A space can be there: the capture
  // builds the url from the Host header, which may hold one, or a tab.)
  if (URL_CONTROLS.test(draft.url)) {
    throw new Error('url: must be a URL as sent (no line breaks or controls but tab)');
  }
  if (value.response !== undefined) draft.response = response(value.response, 'response');
  if (value.forward !== undefined) draft.forward = forward(value.forward);
  if (value.verification !== undefined) draft.verification = verification(value.verification);
  if (value.local !== undefined) {
    const local = field(value, 'local', isShortString, 'an address and port');
    if (!PLAIN_AUTHORITY.test(local)) throw new Error('local: must be an address and port');
    draft.local = local;
  }
  if (value.replayOf !== undefined) {
    draft.replayOf = field(value, 'replayOf', isPositive, 'a positive integer');
  }
  if (value.relayedVia !== undefined) {
    draft.relayedVia = field(value, 'relayedVia', isShortString, 'a relay send URL');
  }
  return { fileSeq: seq, draft };
}

/**
 * Gives loaded records to `add` in file order with `replayOf` pointing at the new seqs. Only the
 * last `window` originals are remembered (a replay follows its original closely; older links
 * point at seqs no longer held anyway), so memory stays bounded whatever the file's length.
 */
export async function loadInto(
  records: AsyncIterable<LoadedRecord>,
  add: (draft: RequestDraft) => CapturedRequest,
  window: number,
): Promise<number> {
  const newSeq = new Map<number, number>();
  let count = 0;
  for await (const { fileSeq, draft } of records) {
    const replayOf = draft.replayOf === undefined ? undefined : newSeq.get(draft.replayOf);
    const { replayOf: _old, ...rest } = draft;
    const added = add(replayOf === undefined ? rest : { ...rest, replayOf });
    newSeq.delete(fileSeq);
    newSeq.set(fileSeq, added.seq);
    if (newSeq.size > window) newSeq.delete(newSeq.keys().next().value as number);
    count += 1;
  }
  return count;
}
