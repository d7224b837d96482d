import type { HeaderPairs } from '../config/types.js';

/** A request as edited in $EDITOR before a replay. */
export interface EditableRequest {
  readonly method: string;
  /** The request target: path and query, as sent. */
  readonly target: string;
  readonly headers: HeaderPairs;
  readonly body: Buffer;
}

/**
 * The request as an HTTP/1.1 message, the form everyone reads: request line, headers, a blank
 * line, then the body bytes exactly (binary bodies included).
 */
export function toEditableText(request: EditableRequest): Buffer {
  const head = [
    `${request.method} ${request.target} HTTP/1.1`,
    ...request.headers.map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\n');
  return Buffer.concat([Buffer.from(head, 'latin1'), request.body]);
}

export type EditResult = { ok: true; request: EditableRequest } | { ok: false; error: string };

/**
 * Reads the edited message back. Line ends may be `\n` or `\r\n`. Editors add a final newline
 * (vim does by default): when the original body did not end with one and the edited body does,
 * one is taken off, so an unchanged body stays byte for byte the same (and
 * its signature valid). `Content-Length` and `Transfer-Encoding` are dropped: the replay sends the
 * edited body's length.
 */
export function fromEditableText(edited: Buffer, original: EditableRequest): EditResult {
  const text = edited.toString('latin1');
  const blank = /\r?\n\r?\n/.exec(text);
  const headEnd = blank ? blank.index : text.length;
  const lines = text.slice(0, headEnd).split(/\r?\n/);
  const requestLine = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) +(\S+)(?: +HTTP\/\d(?:\.\d)?)? *$/.exec(
    lines[0] ?? '',
  );
  if (!requestLine) {
    return {
      ok: false,
      error: 'The first line must be METHOD TARGET, e.g. POST /hooks/x HTTP/1.1',
    };
  }
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { ok: false, error: `Not a header line: ${line.slice(0, 60)}` };
    const name = line.slice(0, colon).trim();
    if (/^(content-length|transfer-encoding)$/i.test(name)) continue;
    headers.push([name, line.slice(colon + 1).trim()]);
  }
  let body = blank ? edited.subarray(blank.index + blank[0].length) : Buffer.alloc(0);
  const endsWithNewline = (bytes: Buffer) => bytes.at(-1) === 0x0a;
  if (!endsWithNewline(original.body) && endsWithNewline(body)) {
    body = body.subarray(0, body.at(-2) === 0x0d ? -2 : -1);
  }
  return {
    ok: true,
    request: {
      method: requestLine[1] as string,
      target: requestLine[2] as string,
      headers,
      body,
    },
  };
}
