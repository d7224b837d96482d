import { isUtf8 } from 'node:buffer';
import type { CapturedRequest } from '../capture/record.js';
import { headerValueBytes } from '../capture/record.js';

export interface CurlExport {
  /** A shell command line reproducing the request byte for byte. */
  readonly command: string;
  /**
   * When the body cannot be written safely in a shell argument (not printable UTF-8), the command
   * reads it with `--data-binary @path`: the caller writes these bytes there.
   */
  readonly bodyFile: { readonly path: string; readonly bytes: Buffer } | null;
}

export interface CurlOptions {
  /** Where a non-printable body goes (default `webhook-<seq>.body`). */
  readonly bodyFilePath?: string;
  /** Send it somewhere else than where it was sent (default: the record's URL). */
  readonly url?: string;
}

/**
 * Text a POSIX shell reproduces exactly inside single quotes: printable UTF-8 with tabs and line
 * breaks, but no other control character (a terminal would act on them when the command is
 * shown, and some shells mangle them).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters that make text unsafe
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const INVISIBLE = /[\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

function printableText(bytes: Buffer): boolean {
  if (!isUtf8(bytes)) return false;
  const text = bytes.toString('utf8');
  return !CONTROLS.test(text) && !INVISIBLE.test(text);
}

/** A single-quoted shell word: `'it'\''s'`. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * Bytes that are not printable text, as a bash/zsh ANSI-C quoted word (`$'\x80abc'`): exact bytes,
 * nothing a terminal would act on when the command is shown.
 */
export function ansiCQuote(bytes: Buffer): string {
  let text = "$'";
  for (const byte of bytes) {
    if (byte >= 0x20 && byte < 0x7f && byte !== 0x27 && byte !== 0x5c)
      text += String.fromCharCode(byte);
    else text += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${text}'`;
}

/** A shell word for these bytes: single-quoted text when printable, else ANSI-C quoted. */
function shellWord(bytes: Buffer): string {
  return printableText(bytes) ? shellQuote(bytes.toString('utf8')) : ansiCQuote(bytes);
}

/**
 * Headers curl adds by itself or derives from what it sends: left to curl, so the command does
 * not send them twice. `Host` is kept when it differs from the URL's (curl then uses ours).
 */
const LEFT_TO_CURL = new Set(['content-length', 'transfer-encoding', 'connection', 'expect']);

/**
 * The record as a curl command: method, URL, every header in order and case as sent (curl's `-H`
 * with an empty value would remove a header, so those are written `Name;`), and the body with
 * `--data-binary` (exact bytes: no newline stripping, no `@` interpretation of the text).
 */
export function toCurl(record: CapturedRequest, options: CurlOptions = {}): CurlExport {
  const parts = ['curl', '--silent', '--show-error', '--include', '-X', shellQuote(record.method)];
  const url = options.url ?? record.url;
  parts.push('--url', shellWord(Buffer.from(url, 'latin1')));
  const hostless = new URL(/^https?:\/\//i.test(url) ? url : 'http://x/').host;
  for (const [name, value] of record.headers) {
    const lower = name.toLowerCase();
    if (LEFT_TO_CURL.has(lower)) continue;
    if (lower === 'host' && value === hostless) continue;
    const bytes = headerValueBytes(value);
    const line =
      bytes.length === 0
        ? Buffer.from(`${name};`)
        : Buffer.concat([Buffer.from(`${name}: `), bytes]);
    parts.push('-H', shellWord(line));
  }
  // curl adds its own Accept and User-Agent: empty them unless the request had its own.
  const has = (wanted: string) => record.headers.some(([name]) => name.toLowerCase() === wanted);
  if (!has('user-agent')) parts.push('-H', shellQuote('User-Agent:'));
  if (!has('accept')) parts.push('-H', shellQuote('Accept:'));
  let bodyFile: CurlExport['bodyFile'] = null;
  if (record.body.length > 0) {
    // A body starting with @ would be taken for a file name: it goes through a file too.
    if (printableText(record.body) && record.body[0] !== 0x40) {
      parts.push('--data-binary', shellQuote(record.body.toString('utf8')));
    } else {
      const path = options.bodyFilePath ?? `webhook-${record.seq}.body`;
      bodyFile = { path, bytes: record.body };
      parts.push('--data-binary', shellQuote(`@${path}`));
    }
  }
  const truncated = record.truncated
    ? `# the body was truncated by --max-body: ${record.body.length} of ${record.size} bytes\n`
    : '';
  return { command: `${truncated}${parts.join(' ')}`, bodyFile };
}
