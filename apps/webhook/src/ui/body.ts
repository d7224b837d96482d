import { isUtf8 } from 'node:buffer';
import { printable, printableLines } from '../format/printable.js';

/**
 * Bodies above this are shown as sent: re-indenting 10 MiB of JSON takes long enough to stall the
 * UI each time such a request is selected.
 */
export const PRETTY_LIMIT = 1024 * 1024;

/** How a body is shown: text lines, or bytes for a hex dump built only for the rows on screen. */
export type BodyView =
  | { readonly kind: 'empty'; readonly label: string }
  | {
      readonly kind: 'json' | 'form' | 'text';
      readonly label: string;
      /** Printable lines, not yet wrapped to the pane. */
      readonly lines: readonly string[];
    }
  | { readonly kind: 'binary'; readonly label: string; readonly bytes: Buffer };

/**
 * Chooses how to show a body: JSON (by content type, or because it parses) pretty-printed when
 * that loses nothing; form fields; UTF-8 text; otherwise a hex dump. Never throws: anything
 * unexpected falls back to the raw text or the hex dump.
 */
export function formatBody(
  body: Buffer,
  contentType: string | undefined,
  truncated = false,
): BodyView {
  if (body.length === 0) return { kind: 'empty', label: 'empty' };
  const text = decodeUtf8(body, truncated);
  if (text === null) return { kind: 'binary', label: 'binary, hex dump', bytes: body };
  const type = (contentType ?? '').toLowerCase();
  try {
    if (type.includes('application/x-www-form-urlencoded')) {
      const fields = [...new URLSearchParams(text)];
      return {
        kind: 'form',
        label: `form, ${fields.length} field${fields.length === 1 ? '' : 's'}`,
        lines: fields.map(([name, value]) => `${printable(name)} = ${printable(value)}`),
      };
    }
    if (body.length > PRETTY_LIMIT && type.includes('json')) {
      return {
        kind: 'json',
        label: 'JSON, shown as sent (over 1 MiB)',
        lines: printableLines(text),
      };
    }
    const json = body.length <= PRETTY_LIMIT ? parseJson(text) : undefined;
    if (json !== undefined) {
      if (jsonIsLossless(text)) {
        return {
          kind: 'json',
          label: 'JSON',
          lines: printableLines(JSON.stringify(json, null, 2)),
        };
      }
      return {
        kind: 'json',
        label: 'JSON, shown as sent (re-indenting would change numbers or duplicate keys)',
        lines: printableLines(text),
      };
    }
    const label = type.includes('json') ? 'text (not valid JSON)' : 'text';
    return { kind: 'text', label, lines: printableLines(text) };
  } catch {
    // Pathological input (say, JSON nested deeper than the stack): show it as it came.
    return { kind: 'text', label: 'text', lines: printableLines(text) };
  }
}

/** The body as text when it is UTF-8; a truncated body may end in the middle of a character. */
function decodeUtf8(body: Buffer, truncated: boolean): string | null {
  const maxCut = truncated ? Math.min(3, body.length - 1) : 0;
  for (let cut = 0; cut <= maxCut; cut += 1) {
    const part = cut === 0 ? body : body.subarray(0, body.length - cut);
    if (isUtf8(part)) return part.toString('utf8');
  }
  return null;
}

function parseJson(text: string): unknown {
  const start = text.trimStart()[0];
  // Only objects and arrays are worth pretty-printing; `123` or `"x"` is shown as is anyway.
  if (start !== '{' && start !== '[') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether `JSON.stringify(JSON.parse(text))` keeps everything `text` says. It does not for
 * integers beyond 2^53, numbers with more digits than a double holds, numbers that overflow, and
 * duplicate keys (the last one wins). `text` must be valid JSON. Iterative, so nesting depth does
 * not matter.
 */
export function jsonIsLossless(text: string): boolean {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '{') {
      stack.push(new Set());
      expectKey = true;
      i += 1;
    } else if (char === '[') {
      stack.push(null);
      i += 1;
    } else if (char === '}' || char === ']') {
      stack.pop();
      expectKey = false;
      i += 1;
    } else if (char === ',') {
      expectKey = stack.at(-1) instanceof Set;
      i += 1;
    } else if (char === '"') {
      const end = stringEnd(text, i);
      const keys = stack.at(-1);
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(i, end)) as string;
        if (keys.has(key)) return false;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      const match = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;
      match.lastIndex = i;
      const number = match.exec(text);
      if (!number) return false;
      if (!numberIsExact(number[0], number[1] === undefined && number[2] === undefined)) {
        return false;
      }
      i += number[0].length;
    } else {
      i += 1; // whitespace, ':', and the letters of true, false, null
    }
  }
  return true;
}

/** Index just after the string literal starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (char === '\\') i += 2;
    else if (char === '"') return i + 1;
    else i += 1;
  }
  return i;
}

function numberIsExact(literal: string, isInteger: boolean): boolean {
  const value = Number(literal);
  if (!Number.isFinite(value)) return false;
  if (isInteger) return Number.isSafeInteger(value);
  const mantissa = literal
    .replace(/^-/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '');
  const significant = mantissa.replace(/^0+/, '').replace(/0+$/, '');
  return significant.length <= 17;
}

/** Bytes per hex-dump row that fit in `width` columns. */
export function hexBytesPerRow(width: number): number {
  if (width >= 77) return 16;
  if (width >= 44) return 8;
  return 4;
}

/** One hex-dump row: `00000010  48 65 6c 6c 6f 0a 00 ff  ...  |Hello...|`. */
export function hexRow(bytes: Buffer, row: number, perRow: number): string {
  const offset = row * perRow;
  const slice = bytes.subarray(offset, offset + perRow);
  const hex: string[] = [];
  for (let i = 0; i < perRow; i += 1) {
    if (i === 8) hex.push('');
    const byte = slice[i];
    hex.push(byte === undefined ? '  ' : byte.toString(16).padStart(2, '0'));
  }
  let ascii = '';
  for (const byte of slice) ascii += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.';
  return `${offset.toString(16).padStart(8, '0')}  ${hex.join(' ')}  |${ascii}|`;
}
