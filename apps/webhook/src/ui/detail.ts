import type { CapturedRequest } from '../capture/record.js';
import { headerValue } from '../capture/record.js';
import { formatSize } from '../config/size.js';
import { printable } from '../format/printable.js';
import { fullTimestamp } from '../format/time.js';
import { type BodyView, formatBody, hexBytesPerRow, hexRow } from './body.js';

export type Tone = 'title' | 'heading' | 'meta' | 'plain' | 'hint';

export interface DetailLine {
  readonly text: string;
  readonly tone: Tone;
}

/**
 * The detail pane's content as lines already wrapped to the pane. `line(i)` builds rows on demand
 * for hex dumps, so a 10 MiB binary body costs only the rows on screen.
 */
export interface DetailDocument {
  readonly length: number;
  line(index: number): DetailLine;
}

/** Body lines shown before `Enter` expands the body. */
export const COLLAPSED_BODY_LINES = 20;

export function buildDetail(
  record: CapturedRequest,
  width: number,
  expanded: boolean,
): DetailDocument {
  const cached = lastDetail;
  if (
    cached &&
    cached.record === record &&
    cached.width === width &&
    cached.expanded === expanded
  ) {
    return cached.document;
  }
  const document = composeDetail(record, width, expanded);
  lastDetail = { record, width, expanded, document };
  return document;
}

/** The reducer and the view ask for the same document in a row; keep the last one. */
let lastDetail: {
  record: CapturedRequest;
  width: number;
  expanded: boolean;
  document: DetailDocument;
} | null = null;

function composeDetail(record: CapturedRequest, width: number, expanded: boolean): DetailDocument {
  const head: DetailLine[] = [];
  const add = (text: string, tone: Tone) => {
    for (const part of wrap(text, width)) head.push({ text: part, tone });
  };
  add(`${printable(record.method)} ${printable(record.url)}`, 'title');
  add(
    `#${record.seq} · ${fullTimestamp(record.receivedAt)} · ${record.remote} · HTTP/${record.httpVersion}`,
    'meta',
  );
  if (record.query.length > 0) {
    add('', 'plain');
    add(`Query parameters (${record.query.length})`, 'heading');
    for (const [name, value] of record.query)
      add(`  ${printable(name)} = ${printable(value)}`, 'plain');
  }
  add('', 'plain');
  add(`Headers (${record.headers.length})`, 'heading');
  for (const [name, value] of sortHeaders(record.headers)) {
    add(`  ${printable(name)}: ${printable(value)}`, 'plain');
  }
  add('', 'plain');

  const view = bodyView(record);
  const size = record.truncated
    ? `${formatSize(record.body.length)} kept of ${formatSize(record.size)} (truncated by --max-body)`
    : formatSize(record.size);
  add(`Body · ${view.label} · ${size}`, 'heading');

  const body = bodyRows(view, width, expanded);
  return {
    length: head.length + body.length,
    line: (index) =>
      index < head.length
        ? (head[index] ?? EMPTY)
        : index - head.length < body.length
          ? body.line(index - head.length)
          : EMPTY,
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

/** Formatting a body can be costly (10 MiB of JSON): keep the few most recently viewed. */
const bodyCache = new Map<CapturedRequest, BodyView>();
const BODY_CACHE_SIZE = 8;

function bodyView(record: CapturedRequest): BodyView {
  let view = bodyCache.get(record);
  if (view) {
    bodyCache.delete(record);
  } else {
    view = formatBody(record.body, headerValue(record.headers, 'content-type'), record.truncated);
  }
  bodyCache.set(record, view);
  const oldest = bodyCache.keys().next();
  if (bodyCache.size > BODY_CACHE_SIZE && !oldest.done) bodyCache.delete(oldest.value);
  return view;
}

function bodyRows(view: BodyView, width: number, expanded: boolean): DetailDocument {
  if (view.kind === 'empty') return { length: 0, line: () => EMPTY };
  const more = (count: number): DetailLine => ({
    text: `... ${count} more line${count === 1 ? '' : 's'} (Enter to expand)`,
    tone: 'hint',
  });
  if (view.kind === 'binary') {
    const perRow = hexBytesPerRow(width);
    const total = Math.ceil(view.bytes.length / perRow);
    const shown = expanded ? total : Math.min(total, COLLAPSED_BODY_LINES);
    const hidden = total - shown;
    return {
      length: shown + (hidden > 0 ? 1 : 0),
      line: (index) =>
        index < shown ? { text: hexRow(view.bytes, index, perRow), tone: 'plain' } : more(hidden),
    };
  }
  // Collapsed shows the first rows as they appear on screen (a long line counts for each row it
  // wraps to) and only counts the rest, so a huge one-line body costs little until expanded.
  const limit = expanded ? Number.POSITIVE_INFINITY : COLLAPSED_BODY_LINES;
  const rows: DetailLine[] = [];
  let total = 0;
  for (const line of view.lines) {
    if (rows.length < limit) {
      for (const part of wrap(line, width, limit - rows.length))
        rows.push({ text: part, tone: 'plain' });
    }
    total += rowCount(line, width);
  }
  const hidden = total - rows.length;
  if (hidden > 0) rows.push(more(hidden));
  return { length: rows.length, line: (index) => rows[index] ?? EMPTY };
}

/** Rows `line` takes once wrapped to `width` code points. */
function rowCount(line: string, width: number): number {
  let points = line.length;
  for (let i = 0; i < line.length; i += 1) {
    const code = line.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) points -= 1; // a surrogate pair is one code point
  }
  return Math.max(1, Math.ceil(points / width));
}

/**
 * Hard-wraps a line to `width` code points (a line never spills over the pane), returning at most
 * `maxParts` rows.
 */
export function wrap(line: string, width: number, maxParts = Number.POSITIVE_INFINITY): string[] {
  if (line.length <= width) return [line];
  const parts: string[] = [];
  let part = '';
  let points = 0;
  for (const char of line) {
    if (points === width) {
      parts.push(part);
      if (parts.length >= maxParts) return parts;
      part = '';
      points = 0;
    }
    part += char;
    points += 1;
  }
  parts.push(part);
  return parts.slice(0, maxParts);
}
