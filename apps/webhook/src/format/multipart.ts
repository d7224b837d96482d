import type { HeaderPairs } from '../config/types.js';

/** One part of a `multipart/*` body: its headers as sent, then its bytes. */
export interface MultipartPart {
  readonly headers: HeaderPairs;
  readonly body: Buffer;
}

/** Parts shown at most; a body with more says how many were left out. */
export const MAX_PARTS = 200;

/** The `boundary` parameter of a multipart content type, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^\s*multipart\//i.test(contentType)) return null;
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,200})"|([^;\s]{1,200}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/**
 * Splits a multipart body (RFC 2046) into its parts. Returns null when the body does not start
 * with the boundary (not multipart after all); a body cut short (by --max-body or a broken
 * sender) yields the parts found so far, the last one as far as it goes. Binary safe: bodies stay
 * bytes. Linear in the body's length whatever it holds: each byte is looked at a bounded number
 * of times, so a hostile body cannot hold up the event loop that captures and answers requests.
 */
export function parseMultipart(
  body: Buffer,
  boundary: string,
): { parts: MultipartPart[]; more: number; complete: boolean } | null {
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  let at = body.indexOf(delimiter);
  if (at === -1) return null;
  const parts: MultipartPart[] = [];
  let more = 0;
  let complete = false;
  const next = Buffer.from(`\r\n--${boundary}`, 'latin1');
  while (at !== -1) {
    let cursor = at + delimiter.length;
    if (body[cursor] === 0x2d && body[cursor + 1] === 0x2d) {
      complete = true; // the closing delimiter `--boundary--`
      break;
    }
    // The rest of the delimiter line (transport padding), then the part's headers. The next
    // delimiter starts with CRLF, so this search stops at it at the latest.
    const lineEnd = body.indexOf('\r\n', cursor);
    if (lineEnd === -1) break;
    cursor = lineEnd + 2;
    // The part's end first; everything else about the part is looked for inside it. (Searching
    // the header break to the end of the body for every part made a body of many parts without
    // one quadratic: minutes at 10 MiB, the event loop that captures and answers frozen.)
    const end = body.indexOf(next, cursor);
    const partEnd = end === -1 ? body.length : end;
    at = end === -1 ? -1 : end + 2;
    // Past MAX_PARTS the parts are only counted: their delimiters, each searched for once.
    if (parts.length >= MAX_PARTS) {
      more += 1;
      continue;
    }
    // The blank line may end with the CRLF that starts the next delimiter (`--b\r\nName: v\r\n`
    // then `\r\n--b`: headers, an empty body), and starts at `cursor - 2` for a part without
    // headers (`--b\r\n\r\nbody`).
    const searchEnd = Math.min(partEnd + 2, body.length);
    const found = body.subarray(cursor - 2, searchEnd).indexOf('\r\n\r\n');
    const headersEnd = found === -1 ? -1 : cursor - 2 + found;
    let headers: [string, string][] = [];
    let contentStart = cursor;
    if (headersEnd !== -1 && headersEnd < partEnd) {
      headers = body
        .subarray(cursor, headersEnd)
        .toString('latin1')
        .split('\r\n')
        .filter((line) => line !== '')
        .map((line) => {
          const colon = line.indexOf(':');
          return colon === -1
            ? [line, '']
            : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
        });
      contentStart = headersEnd + 4;
    }
    parts.push({ headers, body: body.subarray(Math.min(contentStart, partEnd), partEnd) });
  }
  return { parts, more, complete };
}
