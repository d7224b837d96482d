import { clusterMeasures, clustersOf } from '../format/clusters.js';

/** Printable ASCII only: one column per character, the common case, measured without a table. */
const ASCII = /^[\u0020-\u007e]*$/;

/**
 * Columns one grapheme cluster may take: the larger of string-width's measure of the whole and the
 * sum of its code points'. Terminals differ: tmux draws Devanagari क्ष (क, virama, ष) in two
 * columns where string-width says one, and an emoji with a variation selector the other way round.
 * Every measure here takes the larger, so a row is never wider than its pane whichever is right.
 */
function clusterColumns(cluster: string): number {
  const { whole, sum } = clusterMeasures(cluster);
  return Math.max(whole, sum);
}

/** Columns `text` takes on a terminal (wide characters count 2, combining marks 0). */
export function columnsOf(text: string): number {
  if (ASCII.test(text)) return text.length;
  let columns = 0;
  for (const cluster of clustersOf(text)) columns += clusterColumns(cluster);
  return columns;
}

/**
 * Hard-wraps a line to `width` terminal columns (a line never spills over the pane), returning at
 * most `maxParts` rows. A wide character that does not fit at the end of a row starts the next; a
 * grapheme cluster is never cut in two.
 */
export function wrap(line: string, width: number, maxParts = Number.POSITIVE_INFINITY): string[] {
  const safeWidth = Math.max(1, width);
  if (ASCII.test(line)) {
    if (line.length <= safeWidth) return [line];
    const parts: string[] = [];
    for (let at = 0; at < line.length && parts.length < maxParts; at += safeWidth) {
      parts.push(line.slice(at, at + safeWidth));
    }
    return parts;
  }
  const parts: string[] = [];
  let part = '';
  let used = 0;
  for (const segment of clustersOf(line)) {
    const size = clusterColumns(segment);
    if (used + size > safeWidth && part !== '') {
      parts.push(part);
      if (parts.length >= maxParts) return parts;
      part = '';
      used = 0;
    }
    part += segment;
    used += size;
  }
  parts.push(part);
  return parts.slice(0, maxParts);
}

/** Rows `line` takes once wrapped to `width` columns. */
export function rowCount(line: string, width: number): number {
  const safeWidth = Math.max(1, width);
  if (ASCII.test(line)) return Math.max(1, Math.ceil(line.length / safeWidth));
  return wrap(line, safeWidth).length;
}

/** Cuts or pads `text` to exactly `width` columns, so a highlight spans the whole row. */
export function fit(text: string, width: number): string {
  const size = columnsOf(text);
  if (size <= width) return text + ' '.repeat(width - size);
  const [head = ''] = wrap(text, Math.max(1, width - 1), 1);
  return `${head}…${' '.repeat(Math.max(0, width - 1 - columnsOf(head)))}`;
}

/**
 * `text` in at most `width` columns, cut in the middle when longer: the start and the end are
 * kept (the end gets two thirds), so `/services/…/hooks/github` and `/services/…/hooks/gzip` stay
 * apart where cutting the end would make both `/services/produc…`.
 */
export function middleEllipsis(text: string, width: number): string {
  if (columnsOf(text) <= width) return text;
  if (width <= 1) return width === 1 ? '…' : '';
  // A stand-in `printable` wrote (`<U+200B>`) is kept or dropped whole, never cut in two.
  // Grapheme clusters otherwise, so a combining mark stays with its letter.
  const chars = (text.match(/<U\+[0-9A-F]{4,6}>|[^<]+|</gu) ?? []).flatMap((piece) =>
    piece.startsWith('<U+') ? [piece] : [...clustersOf(piece)],
  );
  const tailRoom = Math.ceil(((width - 1) * 2) / 3);
  let headRoom = width - 1 - tailRoom;
  let tail = '';
  let used = 0;
  for (let i = chars.length - 1; i >= 0; i -= 1) {
    const size = columnsOf(chars[i] ?? '');
    if (used + size > tailRoom) break;
    tail = (chars[i] ?? '') + tail;
    used += size;
  }
  headRoom += tailRoom - used;
  let head = '';
  let headUsed = 0;
  for (const char of chars) {
    const size = columnsOf(char);
    if (headUsed + size > headRoom) break;
    head += char;
    headUsed += size;
  }
  return `${head}…${tail}`;
}
