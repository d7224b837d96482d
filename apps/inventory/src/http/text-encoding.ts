import { isUtf8 } from 'node:buffer';
import { badRequest } from '../errors.js';

/**
 * Text arrives as bytes; decoded the default way, a body's sequence that is not UTF-8 (a Latin-1
 * `é`, a truncated character, an encoded surrogate) becomes U+FFFD, and the altered text would be
 * stored as if sent; a query's is kept as its percent-encoded text. Both are refused here instead.
 * (Bytes beyond ASCII sent unencoded in the URL never get this far: Node's HTTP parser refuses
 * them, see clientErrorAnswer.)
 */

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A body's bytes as text, or 400 when they are not UTF-8. A byte-order mark is kept here; both
 * readers then skip it (the JSON parser, secure-json-parse, strips one; the CSV reader too).
 */
export function utf8Body(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw badRequest('Request body is not valid UTF-8');
  }
}

const PERCENT_ENCODED_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Whether every run of percent-encoded bytes in a query string is UTF-8 (RFC 3986 §2.5: URIs
 * encode text as UTF-8). The query parser (fast-querystring) leaves any other run undecoded, so
 * `?hostname=%E0%A4` searched for the six characters `%E0%A4` as if they had been sent.
 */
export function percentEncodedUtf8(query: string): boolean {
  if (!query.includes('%')) return true;
  for (const [run] of query.matchAll(PERCENT_ENCODED_RUN)) {
    if (!isUtf8(Buffer.from(run.replaceAll('%', ''), 'hex'))) return false;
  }
  return true;
}
