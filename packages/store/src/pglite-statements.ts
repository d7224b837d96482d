import { type messages, type PGlite, parse, protocol, type Results } from '@electric-sql/pglite';
import { STATEMENTS_PER_CONNECTION } from './postgres.js';

/**
 * Named statements for the embedded store: each statement text is parsed once per session, and
 * every later call only binds its values and runs it, as the PostgreSQL server store's named
 * statements do (postgres.ts).
 *
 * `PGlite.query(text, values)` sends every statement unnamed, so PostgreSQL parses, analyses
 * and plans it again at each call, in WebAssembly. For a list of a device's interfaces that was
 * 1.0–1.4 ms of a 1.4 ms call; the same statement prepared once ran in 0.40–0.45 ms. The messages
 * are those `PGlite.query` sends (its own source, `base.ts`), with the statement named: Parse
 * and Describe once; then Bind, Execute and Sync, in one call into PGlite (where `PGlite.query`
 * makes one per message, and describes the result again each time). Values are written by
 * PGlite's own serializers for the parameter types PostgreSQL described, and rows read by its own
 * parsers with the columns PostgreSQL described when the statement was prepared.
 *
 * `PGlite.query` also calls the filesystem's `syncToFs` after a statement outside a transaction;
 * the store's filesystems (a host folder, memory) write through and do nothing there, and the
 * durable store's flushes happen inside PostgreSQL at each commit (embedded.ts).
 *
 * A prepared statement outlives a rolled-back transaction (it belongs to the session), and
 * PostgreSQL plans it again by itself when a table it reads changes. One whose result columns
 * changed type (a migration) or that the session no longer knows is forgotten at its first
 * error, and prepared again at its next call.
 */

/**
 * Statements kept prepared, the least recently used closed first: the bound of a server store's
 * connection, the embedded store being one session.
 */
const STATEMENTS_KEPT = STATEMENTS_PER_CONNECTION;

interface Prepared {
  name: string;
  /** Type of each parameter, as PostgreSQL inferred it (ParameterDescription). */
  types: readonly number[];
  /** Its result's columns, as PostgreSQL described them; none for a statement without rows. */
  description: messages.RowDescriptionMessage | undefined;
}

/** SQLSTATEs after which a prepared statement cannot be used again as it is. */
const FORGETS_THE_STATEMENT = new Set([
  '0A000', // cached plan must not change result type
  '26000', // prepared statement does not exist
]);

/** The setting a statement planned once runs under, and its reset: the same bytes every call. */
const PLAN_ONCE = protocol.serialize.query('SET plan_cache_mode = force_generic_plan');
const PLAN_AS_USUAL = protocol.serialize.query('RESET plan_cache_mode');

/** Messages that end an Execute's result. */
const COMPLETES = new Set(['commandComplete', 'emptyQueryResponse']);

export class NamedStatements {
  /** Text to statement, least recently used first. */
  readonly #prepared = new Map<string, Prepared>();
  #issued = 0;

  constructor(private readonly pglite: PGlite) {}

  /**
   * Runs `text` with `values`; with `genericPlan`, under `plan_cache_mode = force_generic_plan`
   * (generic-plans.ts), which the server store keeps on connections of their own and the one
   * session here sets for this statement alone.
   */
  run<R>(text: string, values: readonly unknown[], genericPlan = false): Promise<Results<R>> {
    // PGlite's own lock for a sequence of protocol messages, as its query() takes.
    return this.pglite.runExclusive(() => this.#run<R>(text, values, genericPlan));
  }

  async #run<R>(
    text: string,
    values: readonly unknown[],
    genericPlan: boolean,
  ): Promise<Results<R>> {
    const { serialize } = protocol;
    let prepared = this.#lookUp(text);
    try {
      if (prepared === undefined) prepared = await this.#prepare(text);
      const { name, types, description } = prepared;
      const serialized = values.map((value, index) => {
        if (value === null || value === undefined) return null;
        const serializer = this.pglite.serializers[types[index] ?? 0];
        return serializer ? serializer(value) : String(value);
      });
      const bind = serialize.bind({ statement: name, values: serialized });
      // One call into PostgreSQL for the whole sequence: each call costs PGlite a pass through
      // its protocol loop and parser whatever it carries. PostgreSQL reads the messages in order,
      // as from a socket; after an error it skips to the Sync, and the RESET after it still
      // runs. The Close of forgotten statements opens the sequence, where no error of it can be
      // pending yet; they are taken from the list only once every message is written.
      //
      // `plan_cache_mode` is set and reset around the statement, so no other statement (a
      // transaction's least of all) ever runs under it. Inside a transaction that is rolled
      // back, both are undone with it and the session keeps the setting it had before.
      // PostgreSQL reads the setting at each call of a prepared statement, so one prepared text
      // serves both ways.
      const messages = await this.#send(
        Buffer.concat([
          ...(genericPlan ? [PLAN_ONCE] : []),
          ...this.#closing.splice(0).map((closed) => serialize.close({ type: 'S', name: closed })),
          bind,
          serialize.execute({}),
          serialize.sync(),
          ...(genericPlan ? [PLAN_AS_USUAL] : []),
        ]),
      );
      // The statement's own messages, from its BindComplete to its CommandComplete. No Describe
      // at each call: a prepared statement's result columns are those PostgreSQL described when
      // it was prepared (it refuses to run one whose columns changed, 0A000 below), and its rows
      // are read with that description.
      const from = messages.findIndex((message) => message.name === 'bindComplete');
      const to = messages.findIndex(
        (message, index) => index > from && COMPLETES.has(message.name),
      );
      const own = messages.slice(from + 1, to < 0 ? messages.length : to + 1);
      return parse.parseResults(
        description ? [description, ...own] : own,
        this.pglite.parsers,
      )[0] as Results<R>;
    } catch (error) {
      const code = (error as { code?: unknown } | undefined)?.code;
      if (prepared !== undefined && typeof code === 'string' && FORGETS_THE_STATEMENT.has(code)) {
        this.#forget(text, prepared.name);
      }
      throw error;
    }
  }

  #lookUp(text: string): Prepared | undefined {
    const known = this.#prepared.get(text);
    if (known !== undefined) {
      this.#prepared.delete(text);
      this.#prepared.set(text, known);
    }
    return known;
  }

  async #prepare(text: string): Promise<Prepared> {
    const { serialize } = protocol;
    if (this.#prepared.size >= STATEMENTS_KEPT) {
      const [oldestText, oldest] = this.#prepared.entries().next().value as [string, Prepared];
      this.#forget(oldestText, oldest.name);
    }
    // A name is never issued twice, so a statement closed or lost cannot collide with a new one.
    const name = `netops_${++this.#issued}`;
    const described = await this.#send(
      Buffer.concat([
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
    );
    const prepared: Prepared = {
      name,
      types: parse.parseDescribeStatementResults(described),
      description: described.find(
        (message): message is messages.RowDescriptionMessage => message.name === 'rowDescription',
      ),
    };
    this.#prepared.set(text, prepared);
    return prepared;
  }

  /** Drops a statement here; the session closes it before the next statement. */
  #forget(text: string, name: string): void {
    this.#prepared.delete(text);
    this.#closing.push(name);
  }

  /**
   * Statements forgotten, closed in the session at the start of the next sequence (closing an
   * unknown name is no error).
   */
  readonly #closing: string[] = [];

  #send(message: Uint8Array) {
    return this.pglite.execProtocolStream(message, { syncToFs: false });
  }
}

/** One registry per PGlite session: the store's Kysely instances share its statements. */
const registries = new WeakMap<PGlite, NamedStatements>();

export function namedStatementsOf(pglite: PGlite): NamedStatements {
  let registry = registries.get(pglite);
  if (registry === undefined) {
    registry = new NamedStatements(pglite);
    registries.set(pglite, registry);
  }
  return registry;
}
