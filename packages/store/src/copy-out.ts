import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import pg from 'pg';

/**
 * `COPY (…) TO STDOUT` on the PostgreSQL store: the server writes the result as text (CSV), and
 * it reaches the caller as a byte stream that pauses the connection while the reader is behind,
 * so no row becomes an object and memory stays at a few chunks whatever the result's size.
 *
 * COPY is a utility statement: it takes no bound parameters, so its values are written into its
 * text as literals, with `pg`'s own conversion of each value (the one it uses for a parameter) and
 * its quoting (`escapeLiteral`). An untyped literal gets its type from its context exactly as a
 * parameter does, so the statement means what the parameterised one means.
 */

/**
 * Runs `COPY (<query>) TO STDOUT …` (`text`) and streams what the server writes; PostgreSQL
 * cancels it after `deadlineMs` (0: never), reader's time included.
 */
export type CopyOut = (text: string, deadlineMs: number) => Readable;

const copiers = new WeakMap<object, CopyOut>();

/**
 * Keyed by the instance's adapter, which the copies a Kysely instance makes of itself (with a
 * plugin, a schema) share with it, so they find the same connections.
 */
export function registerCopyOut(db: Kysely<never>, copy: CopyOut): void {
  copiers.set(db.getExecutor().adapter, copy);
}

/** COPY TO STDOUT through `db`'s connections, or undefined where the store has none (PGlite). */
export function copyOutOf(db: Kysely<never>): CopyOut | undefined {
  return copiers.get(db.getExecutor().adapter);
}

const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(value: unknown): unknown;
};

/** A value as a literal of PostgreSQL's, as `pg` would have sent it as a parameter. */
export function literal(value: unknown): string {
  const prepared = prepareValue(value);
  if (prepared === null || prepared === undefined) return 'NULL';
  if (typeof prepared !== 'string')
    throw new Error('a binary value cannot be written as a literal');
  // The protocol ends a statement's text at a NUL byte, so one inside a literal would break the
  // message and the connection; PostgreSQL refuses NUL in text anyway. Refused as PostgreSQL
  // refuses it in a parameter (SQLSTATE 22021), so callers answer it as they answer that.
  if (prepared.includes('\0')) {
    throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
    });
  }
  return pg.escapeLiteral(prepared);
}

/**
 * `text` with each `$n` outside quotes replaced by the literal of `parameters[n - 1]`. The texts
 * given here are the service's own (compiled statement templates), never a client's; the scan
 * still skips quoted strings and identifiers, so a `$` inside one is left alone.
 */
export function inlineParameters(text: string, parameters: readonly unknown[]): string {
  let result = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (char === "'" || char === '"') {
      const end = closingQuote(text, index);
      result += text.slice(index, end);
      index = end;
    } else if (char === '$' && /[0-9]/.test(text[index + 1] ?? '')) {
      let end = index + 1;
      while (/[0-9]/.test(text[end] ?? '')) end += 1;
      const position = Number(text.slice(index + 1, end));
      if (position < 1 || position > parameters.length) {
        throw new Error(`statement parameter $${position} has no value`);
      }
      result += literal(parameters[position - 1]);
      index = end;
    } else {
      result += char;
      index += 1;
    }
  }
  return result;
}

/** The index just past the quoted string or identifier opening at `start` (quotes doubled inside). */
function closingQuote(text: string, start: number): number {
  const quote = text[start];
  let index = start + 1;
  for (;;) {
    const next = text.indexOf(quote as string, index);
    if (next === -1) throw new Error('unterminated quoted text in a statement');
    if (text[next + 1] === quote) index = next + 2;
    else return next + 1;
  }
}
