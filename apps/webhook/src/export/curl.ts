import { isUtf8 } from 'node:buffer';
import type { CapturedRequest } from '../capture/record.js';
import { headerValueBytes, PLAIN_AUTHORITY } from '../capture/record.js';
import { INVISIBLE_CLASS } from '../format/printable.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the bytes a request line cannot hold
const REQUEST_TARGET_CHARS = /^[^\u0000-\u0020\u007f\u0100-\uffff]+$/;

/** A record as a curl command, or why it cannot be one. */
export type CurlExport =
  | {
      readonly ok: true;
      /** A shell command line reproducing the request byte for byte. */
      readonly command: string;
      /**
       * When the body cannot be written safely in a shell argument (not printable UTF-8), the
       * command reads it with `--data-binary @path`: the caller writes these bytes there.
       */
      readonly bodyFile: { readonly path: string; readonly bytes: Buffer } | null;
    }
  | { readonly ok: false; readonly reason: string };

export interface CurlOptions {
  /** Where a non-printable body goes (default `webhook-<seq>.body`). */
  readonly bodyFilePath?: string;
  /** Send it to this origin (`http://127.0.0.1:3000`) instead of the one it was sent to. */
  readonly origin?: string;
}

/**
 * Text a POSIX shell reproduces exactly inside single quotes: printable UTF-8 with tabs and line
 * breaks, but no other control character (a terminal would act on them when the command is
 * shown, and some shells mangle them).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters that make text unsafe
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// U+2065 (unassigned) is kept from the list this replaced.
const INVISIBLE = new RegExp(`[\\u2065${INVISIBLE_CLASS}]`, 'u');

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

/**
 * What a terminal paste or typing alters inside quotes: bash's line editor turns a pasted CR into a
 * line feed (CR LF arrived as LF LF, and the body's signature failed), and a typed tab completes.
 * Text holding them is written as a `$'…'` word with these escaped.
 */
const ALTERED_BY_PASTE = /[\r\t]/;

/**
 * Printable text as a bash/zsh ANSI-C quoted word: the text as it is, with only CR, tab, line
 * feed, `'` and `\` escaped, so the command still reads as the text and pastes exactly.
 */
export function ansiCText(text: string): string {
  let word = "$'";
  for (const char of text) {
    if (char === '\\' || char === "'") word += `\\${char}`;
    else if (char === '\r') word += '\\r';
    else if (char === '\t') word += '\\t';
    else if (char === '\n') word += '\\n';
    else word += char;
  }
  return `${word}'`;
}

/**
 * A shell word for these bytes: single-quoted text when printable (ANSI-C quoted text when it
 * holds what a paste alters), else ANSI-C quoted bytes.
 */
function shellWord(bytes: Buffer): string {
  if (!printableText(bytes)) return ansiCQuote(bytes);
  const text = bytes.toString('utf8');
  return ALTERED_BY_PASTE.test(text) ? ansiCText(text) : shellQuote(text);
}

/**
 * How the body is framed is curl's to say: a chunked request is sent with a Content-Length (curl
 * would otherwise chunk it its own way). Every other header goes as captured, in its place:
 * `Connection`, `Expect: 100-continue` (curl then waits for the 100, as the sender did), and
 * `Content-Length` when it is the length of the body sent (curl sends the given one instead of
 * adding its own; a truncated body's would be wrong, so curl's own is sent then).
 */
const LEFT_TO_CURL = new Set(['transfer-encoding']);

/** Where a command sends a record: an origin, and the request-target exactly as it goes out. */
export interface CurlDestination {
  readonly origin: string;
  readonly target: string;
}

/**
 * Where the command sends the record, so that it goes where the record went. A request captured
 * on the port goes to the address it came in on (`local`), never to its `Host` header, which the
 * sender chose (`Host: x@127.0.0.1:46206` would send the pasted command elsewhere), with its
 * target as captured. A replay, or a request that came through a relay, went to its URL: the
 * replay target's or the relay channel's path joined with the request's, so the command goes to
 * that URL's origin with the rest of it as sent. A record saved before the address was kept goes
 * to the scheme and authority of its URL. Only a plain `host:port` is trusted; otherwise there is
 * nowhere safe to send it.
 */
export function curlDestination(
  record: CapturedRequest,
  origin?: string,
): CurlDestination | { error: string } {
  const url = /^(https?):\/\/([^/?#]*)/i.exec(record.url);
  // A replay loaded without its original has no `replayOf`; its `remote` still says what it is.
  const wentToUrl =
    record.replayOf !== undefined || record.remote === 'replay' || record.relayedVia !== undefined;
  const target = wentToUrl && url ? record.url.slice(url[0].length) || '/' : record.target;
  if (origin !== undefined) return { origin, target };
  if (!wentToUrl && record.local !== undefined && PLAIN_AUTHORITY.test(record.local)) {
    return { origin: `http://${record.local}`, target };
  }
  if (url?.[1] && url[2] !== undefined && PLAIN_AUTHORITY.test(url[2])) {
    return { origin: `${url[1].toLowerCase()}://${url[2]}`, target };
  }
  return { error: 'no address to send it to (the address it came in on was not kept)' };
}

/**
 * The record as a curl command. It sends exactly the captured request once: `--globoff` so `{}`
 * and `[]` in the URL are not expanded into many requests, `--request-target` so the path and
 * query go out as captured (no normalising of `..` or re-encoding), to where it was sent
 * (`curlDestination`), with every header in order and case as sent, `Host` included (curl's `-H`
 * with an empty value would remove a header, so those are written `Name;`), and the body with
 * `--data-binary` (exact bytes: no newline stripping, no `@` interpretation of the text). The
 * headers curl would add on its own (User-Agent, Accept, a form Content-Type, Expect) are
 * switched off when the request had none; only Transfer-Encoding is left to curl.
 */
export function toCurl(record: CapturedRequest, options: CurlOptions = {}): CurlExport {
  const destination = curlDestination(record, options.origin);
  if ('error' in destination) return { ok: false, reason: destination.error };
  const parts = ['curl', '--silent', '--show-error', '--include', '--globoff'];
  const { origin, target } = destination;
  // What curl puts on the request line as it is: a space or line break would end it and start
  // a request of the file's choosing.
  if (!REQUEST_TARGET_CHARS.test(target)) {
    return {
      ok: false,
      reason: 'its request target holds a space or control character: no request line can hold it',
    };
  }
  parts.push('-X', shellQuote(record.method), '--url', shellWord(Buffer.from(origin, 'latin1')));
  parts.push('--request-target', shellWord(Buffer.from(target, 'latin1')));
  for (const [name, value] of record.headers) {
    const lower = name.toLowerCase();
    if (LEFT_TO_CURL.has(lower)) continue;
    if (lower === 'content-length' && value.trim() !== String(record.body.length)) continue;
    const bytes = headerValueBytes(value);
    const line =
      bytes.length === 0
        ? Buffer.from(`${name};`)
        : Buffer.concat([Buffer.from(`${name}: `), bytes]);
    parts.push('-H', shellWord(line));
  }
  const has = (wanted: string) => record.headers.some(([name]) => name.toLowerCase() === wanted);
  const ownHeaders = ['Host', 'User-Agent', 'Accept'];
  if (record.body.length > 0) ownHeaders.push('Content-Type', 'Expect');
  for (const name of ownHeaders) {
    if (!has(name.toLowerCase())) parts.push('-H', shellQuote(`${name}:`));
  }
  let bodyFile: { path: string; bytes: Buffer } | null = null;
  if (record.body.length > 0) {
    // A body starting with @ would be taken for a file name: it goes through a file too.
    if (printableText(record.body) && record.body[0] !== 0x40) {
      parts.push('--data-binary', shellWord(record.body));
    } else {
      const path = options.bodyFilePath ?? `webhook-${record.seq}.body`;
      bodyFile = { path, bytes: record.body };
      parts.push('--data-binary', shellQuote(`@${path}`));
    }
  }
  const truncated = record.truncated
    ? `# the body was truncated by --max-body: ${record.body.length} of ${record.size} bytes\n`
    : '';
  return { ok: true, command: `${truncated}${parts.join(' ')}`, bodyFile };
}
