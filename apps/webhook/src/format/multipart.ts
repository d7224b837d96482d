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
 * bytes.
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
    // The rest of the delimiter line (transport padding), then the part's headers.
    const lineEnd = body.indexOf('\r\n', cursor);
    if (lineEnd === -1) break;
    cursor = lineEnd + 2;
    const headersEnd = body.indexOf('\r\n\r\n', cursor - 2);
    const end = body.indexOf(next, cursor);
    const partEnd = end === -1 ? body.length : end;
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
    if (parts.length < MAX_PARTS) {
      parts.push({ headers, body: body.subarray(Math.min(contentStart, partEnd), partEnd) });
    } else {
      more += 1;
    }
    at = end === -1 ? -1 : end + 2;
  }
  return { parts, more, complete };
}
