import { STATUS_CODES } from 'node:http';
import type { CapturedRequest, ForwardResult } from '../capture/record.js';
import { headerValue, headerValueText, verificationText } from '../capture/record.js';
import { formatSize } from '../config/size.js';
import type { HeaderPairs } from '../config/types.js';
import { type ContentDecoding, codingsOf, MAX_CODINGS } from '../format/decode.js';
import { printableInUi } from '../format/printable.js';
import { fullTimestamp } from '../format/time.js';
import { type BodyView, formatBody, formatRaw, hexBytesPerRow, hexRow } from './body.js';
import { rowCount, wrap } from './text-width.js';

export type Tone = 'title' | 'heading' | 'meta' | 'plain' | 'hint' | 'good' | 'bad';

export interface DetailLine {
  readonly text: string;
  readonly tone: Tone;
}

/** How the body is shown; `v` cycles through them. */
export type BodyMode = 'pretty' | 'raw' | 'hex';
export const BODY_MODES: readonly BodyMode[] = ['pretty', 'raw', 'hex'];

/**
 * The detail pane's content as lines already wrapped to the pane. `line(i)` builds rows on demand
 * (hex dumps, long text), so a 10 MiB body costs only the rows on screen.
 */
export interface DetailDocument {
  readonly length: number;
  line(index: number): DetailLine;
  /**
   * Index of the `... N more lines (Enter to expand)` line when the body is collapsed, else null.
   * The pane keeps it in view (see `visibleLines`): it is the only sign the body is cut.
   */
  readonly markerIndex: number | null;
  /** Index of the request body's first row, and its rows (as shown: collapsed or whole). */
  readonly bodyStart: number;
  readonly bodyLength: number;
}

/**
 * Bodies decoded so far, by body (the record's own Buffer): decoding runs off the event loop
 * (`decodeContent`), asked for by the reducer and kept in its state; `decoding` while under way.
 */
export type DecodedBodies = ReadonlyMap<Buffer, ContentDecoding | 'decoding'>;
export const NO_DECODED: DecodedBodies = new Map();

/** Body lines shown before `Enter` expands the body. */
export const COLLAPSED_BODY_LINES = 20;

export function buildDetail(
  record: CapturedRequest,
  width: number,
  expanded: boolean,
  mode: BodyMode = 'pretty',
  decoded: DecodedBodies = NO_DECODED,
): DetailDocument {
  const cached = lastDetail;
  if (
    cached &&
    cached.record === record &&
    cached.width === width &&
    cached.expanded === expanded &&
    cached.mode === mode &&
    cached.decoded === decoded
  ) {
    return cached.document;
  }
  const document = composeDetail(record, width, expanded, mode, decoded);
  lastDetail = { record, width, expanded, mode, decoded, document };
  return document;
}

/** The reducer and the view ask for the same document in a row; keep the last one. */
let lastDetail: {
  record: CapturedRequest;
  width: number;
  expanded: boolean;
  mode: BodyMode;
  decoded: DecodedBodies;
  document: DetailDocument;
} | null = null;

/**
 * The lines the pane shows from `top`: when the body is collapsed and its marker would fall below
 * the pane, the marker takes the pane's last row, so it is always visible.
 */
export function visibleLines(document: DetailDocument, top: number, rows: number): DetailLine[] {
  const lines: DetailLine[] = [];
  const end = Math.min(document.length, top + rows);
  for (let index = top; index < end; index += 1) lines.push(document.line(index));
  const marker = document.markerIndex;
  if (marker !== null && marker >= end && lines.length > 0) {
    lines[lines.length - 1] = document.line(marker);
  }
  return lines;
}

function composeDetail(
  record: CapturedRequest,
  width: number,
  expanded: boolean,
  mode: BodyMode,
  decoded: DecodedBodies,
): DetailDocument {
  const head: DetailLine[] = [];
  const add = (text: string, tone: Tone) => {
    for (const part of wrap(text, width)) head.push({ text: part, tone });
  };
  add(`${printableInUi(record.method)} ${printableInUi(record.url)}`, 'title');
  add(
    `#${record.seq} · ${fullTimestamp(record.receivedAt)} · ${printableInUi(record.remote)} · HTTP/${printableInUi(record.httpVersion)}`,
    'meta',
  );
  if (record.replayOf !== undefined) add(`↻ replay of #${record.replayOf}`, 'meta');
  if (record.relayedVia !== undefined) {
    add(
      `⇄ relayed via ${printableInUi(record.relayedVia)} from ${printableInUi(record.remote)}`,
      'meta',
    );
  }
  if (record.verification) {
    add(
      printableInUi(verificationText(record.verification)),
      record.verification.ok ? 'good' : 'bad',
    );
  }
  if (record.response) add(`Answered ${statusLine(record.response.status)}`, 'meta');
  if (record.forward) {
    const summary = exchangeSummary(record.forward, record.replayOf !== undefined);
    add(summary.text, summary.tone);
  }
  if (record.query.length > 0) {
    add('', 'plain');
    add(`Query parameters (${record.query.length})`, 'heading');
    for (const [name, value] of record.query)
      add(`  ${printableInUi(name)} = ${printableInUi(value)}`, 'plain');
  }
  add('', 'plain');
  // A stored record unpacks its headers on each read: once here.
  const headers = record.headers;
  add(`Headers (${headers.length})`, 'heading');
  for (const [name, value] of sortHeaders(headers)) {
    add(`  ${printableInUi(name)}: ${printableInUi(headerValueText(value))}`, 'plain');
  }
  add('', 'plain');

  const shown = bodyView(record, headers, mode, decoded.get(record.body));
  const { view } = shown;
  const size = record.truncated
    ? `${formatSize(record.body.length)} kept of ${formatSize(record.size)} (truncated by --max-body)`
    : formatSize(record.size);
  add(bodyHeading(shown, size), 'heading');

  const requestBody = collapse(bodyRows(view, width), expanded);
  const tail: Rows[] = [];
  if (record.response) {
    const { status, headers, body } = record.response;
    tail.push(
      exchangeRows(
        `Response sent · ${statusLine(status)}`,
        headers,
        body,
        false,
        width,
        expanded,
        mode,
        decoded.get(body),
      ),
    );
  }
  if (record.forward?.kind === 'response') {
    const answer = record.forward;
    const title = `${record.replayOf !== undefined ? 'Replay' : 'Forward'} answer · ${statusLine(answer.status, answer.statusText)} · ${answer.durationMs} ms`;
    tail.push(
      exchangeRows(
        title,
        answer.headers,
        answer.body,
        answer.truncated,
        width,
        expanded,
        mode,
        decoded.get(answer.body),
      ),
    );
  }
  const body =
    tail.length === 0
      ? requestBody
      : { ...concat([requestBody, ...tail]), markerIndex: requestBody.markerIndex };
  return {
    length: head.length + body.length,
    line: (index) =>
      index < head.length
        ? (head[index] ?? EMPTY)
        : index - head.length < body.length
          ? body.line(index - head.length)
          : EMPTY,
    markerIndex: body.markerIndex === null ? null : head.length + body.markerIndex,
    bodyStart: head.length,
    bodyLength: requestBody.length,
  };
}

const EMPTY: DetailLine = { text: '', tone: 'plain' };

/** Headers sorted by name, case-insensitively; repeated headers keep their arrival order. */
export function sortHeaders(headers: CapturedRequest['headers']) {
  return [...headers].sort(([a], [b]) => {
    const left = a.toLowerCase();
    const right = b.toLowerCase();
    return left < right ? -1 : left > right ? 1 : 0;
  });
}

interface ShownBody {
  readonly view: BodyView;
  /** Why the bytes are shown as they came, for the heading (e.g. `, gzip not decoded: …`). */
  readonly note: string;
  /** The codings undone and the size they gave, when the body was decoded. */
  readonly decoded: {
    readonly codings: string;
    readonly size: number;
    readonly partial: boolean;
  } | null;
}

/**
 * The body's heading: `Body · JSON · 399 B`, or with a coding undone, the decoded size first and
 * what it came from after (`Body · JSON · 662 B decoded from 399 B of gzip`).
 */
function bodyHeading(shown: ShownBody, size: string): string {
  const { view, note, decoded } = shown;
  if (!decoded) return `Body · ${view.label}${note} · ${size}`;
  const start = decoded.partial ? ' (the start only)' : '';
  return `Body · ${view.label} · ${formatSize(decoded.size)}${start} decoded from ${size} of ${printableInUi(decoded.codings)}`;
}

/** Formatting a body can be costly (10 MiB of JSON): keep the few most recently viewed. */
const bodyCache = new Map<
  string,
  { record: CapturedRequest; decoding: ContentDecoding | 'decoding' | undefined; shown: ShownBody }
>();
const BODY_CACHE_SIZE = 8;

function bodyView(
  record: CapturedRequest,
  headers: HeaderPairs,
  mode: BodyMode,
  decoding: ContentDecoding | 'decoding' | undefined,
): ShownBody {
  const key = `${record.seq}:${mode}`;
  let entry = bodyCache.get(key);
  if (entry && entry.record === record && entry.decoding === decoding) {
    bodyCache.delete(key);
  } else {
    entry = {
      record,
      decoding,
      shown: showBody({ headers, body: record.body, truncated: record.truncated }, mode, decoding),
    };
  }
  bodyCache.set(key, entry);
  const oldest = bodyCache.keys().next();
  if (bodyCache.size > BODY_CACHE_SIZE && !oldest.done) bodyCache.delete(oldest.value);
  return entry.shown;
}

/**
 * The body's codings to undo (`Content-Encoding`), or none for an empty body. Asked on every step
 * for the selected request (a stored one unpacks its headers on each read): kept per body.
 */
export function pendingCodings(headers: () => HeaderPairs, body: Buffer): readonly string[] {
  if (body.length === 0) return NO_CODINGS;
  let codings = codingsByBody.get(body);
  if (!codings) {
    codings = codingsOf(headerValue(headers(), 'content-encoding'));
    codingsByBody.set(body, codings);
  }
  return codings;
}
const NO_CODINGS: readonly string[] = [];
const codingsByBody = new WeakMap<Buffer, readonly string[]>();

/**
 * The body in one of the three modes. `pretty` and `raw` show it with its `Content-Encoding`
 * undone (`decoding`, done off the event loop and bounded, see `decodeContent`; `decoding…` until
 * it is); `hex` shows the bytes as received. The record is never changed: forward, replay and
 * export send what arrived.
 */
export function showBody(
  record: Pick<CapturedRequest, 'headers' | 'body' | 'truncated'>,
  mode: BodyMode,
  decoding?: ContentDecoding | 'decoding',
): ShownBody {
  const { body, truncated, headers } = record;
  if (mode === 'hex') {
    return body.length === 0
      ? { view: { kind: 'empty', label: 'empty' }, note: '', decoded: null }
      : {
          view: { kind: 'binary', label: 'hex, as received', bytes: body },
          note: '',
          decoded: null,
        };
  }
  const codings = pendingCodings(() => headers, body);
  let bytes = body;
  let decoded: ShownBody['decoded'] = null;
  if (codings.length > 0) {
    if (decoding === undefined || decoding === 'decoding') {
      const name = codings.length > MAX_CODINGS ? `${codings.length} codings` : codings.join(', ');
      return {
        view: { kind: 'empty', label: `decoding ${printableInUi(name)}…` },
        note: '',
        decoded: null,
      };
    }
    if (decoding.kind === 'failed') {
      const note = `, ${printableInUi(decoding.codings)} not decoded: ${decoding.reason}`;
      return { view: formatRaw(body, truncated), note, decoded: null };
    }
    if (decoding.kind === 'decoded') {
      bytes = decoding.bytes;
      decoded = { codings: decoding.codings, size: bytes.length, partial: decoding.partial };
    }
  }
  const view =
    mode === 'raw'
      ? formatRaw(bytes, truncated)
      : formatBody(bytes, headerValue(headers, 'content-type'), truncated);
  return { view, note: '', decoded };
}

/** `200 OK`: the status and its reason phrase (the target's own, else the standard one). */
function statusLine(status: number, reason?: string): string {
  const phrase = reason || STATUS_CODES[status] || '';
  return phrase ? `${status} ${printableInUi(phrase)}` : String(status);
}

/** One line about a forward (or a replay's) exchange, for the top of the detail pane. */
function exchangeSummary(result: ForwardResult, isReplay: boolean): DetailLine {
  const verb = isReplay ? 'Replayed to' : 'Forwarded to';
  const target = printableInUi(result.target);
  switch (result.kind) {
    case 'pending':
      return { text: `→ ${verb} ${target} · waiting for the answer…`, tone: 'meta' };
    case 'failure':
      return {
        text: `✗ ${verb} ${target} · ${result.failure}: ${printableInUi(result.message)} · ${result.durationMs} ms`,
        tone: 'bad',
      };
    case 'response':
      return {
        text: `→ ${verb} ${target} · ${statusLine(result.status, result.statusText)} · ${result.durationMs} ms`,
        tone: result.status >= 400 ? 'bad' : 'good',
      };
  }
}

/** Lines of a response shown collapsed, like the request body's; all of it once expanded. */
export const COLLAPSED_RESPONSE_LINES = 10;

/** A response under the request: a heading, its headers, then its body by its type. */
function exchangeRows(
  title: string,
  headers: HeaderPairs,
  body: Buffer,
  truncated: boolean,
  width: number,
  expanded: boolean,
  mode: BodyMode,
  decoding: ContentDecoding | 'decoding' | undefined,
): Rows {
  const shown = showBody({ headers, body, truncated }, mode, decoding);
  const head = [
    '',
    title,
    ...sortHeaders(headers).map(
      ([name, value]) => `  ${printableInUi(name)}: ${printableInUi(headerValueText(value))}`,
    ),
  ];
  const heading = bodyHeading(shown, formatSize(body.length));
  const headingRows = textRows([head[0] ?? '', head[1] ?? ''], width, 'heading');
  const headerRows = textRows(head.slice(2), width, 'plain');
  const bodyRowsAll = bodyRows(shown.view, width);
  let rows = bodyRowsAll;
  if (!expanded && bodyRowsAll.length > COLLAPSED_RESPONSE_LINES + 1) {
    const hidden = bodyRowsAll.length - COLLAPSED_RESPONSE_LINES;
    const more: DetailLine = {
      text: `... ${hidden} more line${hidden === 1 ? '' : 's'} (Enter to expand)`,
      tone: 'hint',
    };
    rows = {
      length: COLLAPSED_RESPONSE_LINES + 1,
      line: (index) => (index < COLLAPSED_RESPONSE_LINES ? bodyRowsAll.line(index) : more),
    };
  }
  const parts = [headingRows, headerRows];
  if (shown.view.kind !== 'empty') parts.push(textRows([heading], width, 'heading'), rows);
  else parts.push(textRows([`Body · ${shown.view.label}`], width, 'heading'));
  return concat(parts);
}

/** A run of rows, built on demand. */
interface Rows {
  readonly length: number;
  line(index: number): DetailLine;
}

const NO_ROWS: Rows = { length: 0, line: () => EMPTY };

function bodyRows(view: BodyView, width: number): Rows {
  switch (view.kind) {
    case 'empty':
      return NO_ROWS;
    case 'binary': {
      const perRow = hexBytesPerRow(width);
      return {
        length: Math.ceil(view.bytes.length / perRow),
        line: (index) => ({ text: hexRow(view.bytes, index, perRow), tone: 'plain' }),
      };
    }
    case 'multipart': {
      const runs: Rows[] = [];
      view.parts.forEach((part, index) => {
        const heading = `── part ${index + 1} of ${view.parts.length} · ${part.view.label} ──`;
        runs.push(textRows([heading], width, 'heading'));
        runs.push(textRows(part.headers, width, 'meta'));
        runs.push(bodyRows(part.view, width));
      });
      if (view.note) runs.push(textRows([`── ${view.note}`], width, 'hint'));
      return concat(runs);
    }
    default:
      return textRows(view.lines, width, 'plain');
  }
}

/**
 * Lines wrapped to `width`, counted up front but wrapped only as far as someone reads: a huge
 * one-line body costs little until it is scrolled through.
 */
function textRows(lines: readonly string[], width: number, tone: Tone): Rows {
  let length = 0;
  for (const line of lines) length += rowCount(line, width);
  const rows: DetailLine[] = [];
  let next = 0;
  return {
    length,
    line(index) {
      while (rows.length <= index && next < lines.length) {
        for (const part of wrap(lines[next] ?? '', width)) rows.push({ text: part, tone });
        next += 1;
      }
      return rows[index] ?? EMPTY;
    },
  };
}

function concat(runs: readonly Rows[]): Rows {
  const starts: number[] = [];
  let length = 0;
  for (const run of runs) {
    starts.push(length);
    length += run.length;
  }
  return {
    length,
    line(index) {
      for (let i = runs.length - 1; i >= 0; i -= 1) {
        if (index >= (starts[i] ?? 0)) return runs[i]?.line(index - (starts[i] ?? 0)) ?? EMPTY;
      }
      return EMPTY;
    },
  };
}

/** The first rows of a collapsed body, then a line saying how many more there are. */
function collapse(rows: Rows, expanded: boolean): Rows & { markerIndex: number | null } {
  const hidden = rows.length - COLLAPSED_BODY_LINES;
  if (expanded || hidden <= 0) return { ...rows, line: rows.line, markerIndex: null };
  const marker: DetailLine = {
    text: `... ${hidden} more line${hidden === 1 ? '' : 's'} (Enter to expand)`,
    tone: 'hint',
  };
  return {
    length: COLLAPSED_BODY_LINES + 1,
    line: (index) => (index < COLLAPSED_BODY_LINES ? rows.line(index) : marker),
    markerIndex: COLLAPSED_BODY_LINES,
  };
}

export { wrap };
