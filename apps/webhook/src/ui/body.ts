import { isUtf8 } from 'node:buffer';
import { headerValueText } from '../capture/record.js';
import { reindentJson } from '../format/json-tokens.js';
import { multipartBoundary, parseMultipart } from '../format/multipart.js';
import { printableInUi, printableLinesInUi } from '../format/printable.js';

/**
 * Bodies above this are shown as sent: re-indenting 10 MiB of JSON takes long enough to stall the
 * UI each time such a request is selected.
 */
export const PRETTY_LIMIT = 1024 * 1024;

/** Multipart bodies nested inside multipart bodies are shown part by part this deep, then as text. */
const MAX_MULTIPART_DEPTH = 2;

/** One part of a multipart body: its headers (printable), then its body by its own type. */
export interface BodyPart {
  readonly headers: readonly string[];
  readonly view: BodyView;
}

/** How a body is shown: text lines, bytes for a hex dump built only for the rows on screen, parts. */
export type BodyView =
  | { readonly kind: 'empty'; readonly label: string }
  | {
      readonly kind: 'json' | 'form' | 'text';
      readonly label: string;
      /** Printable lines, not yet wrapped to the pane. */
      readonly lines: readonly string[];
    }
  | { readonly kind: 'binary'; readonly label: string; readonly bytes: Buffer }
  | {
      readonly kind: 'multipart';
      readonly label: string;
      readonly parts: readonly BodyPart[];
      /** A note after the last part (parts left out, a body cut short), or null. */
      readonly note: string | null;
    };

/**
 * Chooses how to show a body: JSON (by content type, or because it parses) re-indented with every
 * literal as sent; form fields; multipart part by part; UTF-8 text; otherwise a hex dump. Never
 * throws: anything unexpected falls back to the raw text or the hex dump.
 */
export function formatBody(
  body: Buffer,
  contentType: string | undefined,
  truncated = false,
  depth = 0,
): BodyView {
  if (body.length === 0) return { kind: 'empty', label: 'empty' };
  const boundary = depth < MAX_MULTIPART_DEPTH ? multipartBoundary(contentType) : null;
  if (boundary !== null) {
    const multipart = formatMultipart(body, boundary, truncated, depth);
    if (multipart) return multipart;
  }
  const text = decodeUtf8(body, truncated);
  if (text === null) return { kind: 'binary', label: 'binary, hex dump', bytes: body };
  const type = (contentType ?? '').toLowerCase();
  try {
    if (type.includes('application/x-www-form-urlencoded')) {
      const fields = [...new URLSearchParams(text)];
      return {
        kind: 'form',
        label: `form, ${fields.length} field${fields.length === 1 ? '' : 's'}`,
        lines: fields.map(([name, value]) => `${printableInUi(name)} = ${printableInUi(value)}`),
      };
    }
    // A byte order mark before JSON is not JSON to a strict parser (nor to most receivers): say
    // it is there, since it is invisible, and show the JSON after it.
    const bom = text.startsWith('\ufeff');
    const json = bom ? text.slice(1) : text;
    const bomNote = bom ? ', after a byte order mark <U+FEFF>' : '';
    if (body.length > PRETTY_LIMIT && type.includes('json')) {
      return {
        kind: 'json',
        label: `JSON${bomNote}, shown as sent (over 1 MiB)`,
        lines: printableLinesInUi(text),
      };
    }
    if (body.length <= PRETTY_LIMIT && isJsonContainer(json)) {
      const indented = reindentJson(json);
      return indented
        ? { kind: 'json', label: `JSON${bomNote}`, lines: indented.map(printableInUi) }
        : {
            kind: 'json',
            label: `JSON${bomNote}, shown as sent (nested too deep to indent)`,
            lines: printableLinesInUi(text),
          };
    }
    const label = type.includes('json') ? `text (not valid JSON${bomNote})` : 'text';
    return { kind: 'text', label, lines: printableLinesInUi(text) };
  } catch {
    // Pathological input (say, JSON nested deeper than the stack): show it as it came.
    return { kind: 'text', label: 'text', lines: printableLinesInUi(text) };
  }
}

/** The body as UTF-8 text lines, without reformatting (the `raw` view); hex when not UTF-8. */
export function formatRaw(body: Buffer, truncated = false): BodyView {
  if (body.length === 0) return { kind: 'empty', label: 'empty' };
  const text = decodeUtf8(body, truncated);
  if (text === null) return { kind: 'binary', label: 'binary, hex dump', bytes: body };
  return { kind: 'text', label: 'raw text', lines: printableLinesInUi(text) };
}

function formatMultipart(
  body: Buffer,
  boundary: string,
  truncated: boolean,
  depth: number,
): BodyView | null {
  const parsed = parseMultipart(body, boundary);
  if (!parsed) return null;
  const parts = parsed.parts.map((part, index): BodyPart => {
    const type = part.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    const last = index === parsed.parts.length - 1;
    return {
      headers: part.headers.map(
        ([name, value]) => `${printableInUi(name)}: ${printableInUi(headerValueText(value))}`,
      ),
      view: formatBody(part.body, type, truncated && last, depth + 1),
    };
  });
  const notes: string[] = [];
  if (parsed.more > 0)
    notes.push(`${parsed.more} more part${parsed.more === 1 ? '' : 's'} not shown`);
  if (!parsed.complete) notes.push('no closing boundary: the body ends inside the last part');
  const count = parsed.parts.length + parsed.more;
  return {
    kind: 'multipart',
    label: `multipart, ${count} part${count === 1 ? '' : 's'}`,
    parts,
    note: notes.length > 0 ? notes.join('; ') : null,
  };
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

/** Whether `text` is a JSON object or array (`123` or `"x"` is shown as is anyway). */
function isJsonContainer(text: string): boolean {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
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
