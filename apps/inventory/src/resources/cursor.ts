import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../errors.js';

/**
 * Keyset paging cursors (`?cursor=`, `meta.next_cursor`): the position of a page's last row in
 * its list's order (its sort values, then its id), for the list it was made for (resource, sort,
 * filters). Opaque to clients and signed (HMAC-SHA-256 with a key derived from the JWT secret,
 * so every instance sharing that secret accepts the others' cursors): a cursor edited by hand,
 * or presented to another resource, sort or set of filters, is a 400, never a wrong page or a
 * value reaching SQL that the service did not write itself.
 */

interface CursorPayload {
  /** Resource. */
  r: string;
  /** The list it belongs to: a digest of its sort and filters (list.ts's conditionsKey). */
  l: string;
  /** The last row's sort values, then its id. */
  k: unknown[];
}

export const INVALID_CURSOR = 'Invalid cursor';
export const FOREIGN_CURSOR =
  'Cursor does not belong to this list: it was made for another resource, sort or filter';

/** Longest cursor accepted (query schema): sort values are at most a few text columns. */
export const MAX_CURSOR_LENGTH = 4096;

/** Short and fixed-length, however many filters the list has. */
const digest = (list: string) => createHash('sha256').update(list).digest('base64url').slice(0, 16);

export class CursorCodec {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'netops-inventory', 'list-cursor', 32));
  }

  #sign(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }

  encode(resource: string, list: string, key: readonly unknown[]): string {
    const body = Buffer.from(
      JSON.stringify({ r: resource, l: digest(list), k: [...key] } satisfies CursorPayload),
    ).toString('base64url');
    return `${body}.${this.#sign(body)}`;
  }

  /** The position a cursor holds, or a 400 when it is not one this service made for this list. */
  decode(cursor: string, resource: string, list: string): unknown[] {
    const [body, signature, extra] = cursor.split('.');
    if (body === undefined || signature === undefined || extra !== undefined) {
      throw badRequest(INVALID_CURSOR);
    }
    const expected = Buffer.from(this.#sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw badRequest(INVALID_CURSOR);
    }
    let payload: CursorPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw badRequest(INVALID_CURSOR);
    }
    if (payload.r !== resource || payload.l !== digest(list) || !Array.isArray(payload.k)) {
      throw badRequest(FOREIGN_CURSOR);
    }
    return payload.k;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs and checks list cursors (resources/cursor.ts). */
    listCursors: CursorCodec;
  }
}
