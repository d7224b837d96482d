import { CompiledQuery } from 'kysely';
import { RecentlyUsed } from '../lib/recently-used.js';
import type { AnyDatabase } from './schema.js';

/**
 * Statements built with Kysely once per shape, then only bound. Building and compiling a list
 * or a write with Kysely cost more of the server's CPU than PostgreSQL spent answering it (a
 * fifth of a busy core in the profiles), and every compiled text was a new string that the
 * store's named-statement lookup had to hash in full. A statement's shape (table, filtered
 * columns, sort, fields written) decides its text; its values only fill the parameters.
 *
 * Built with `param(name)` wherever a value goes, a statement compiles to its text and the order
 * of its parameters; `bind` puts each request's values in that order. Every value must be a
 * `param`: one left in the builder as it is would otherwise be baked into a text shared by every
 * later request of that shape, so compiling refuses it.
 */

/** What a builder passes where a value goes. */
export class Parameter {
  constructor(readonly name: string) {}
}

export type ParameterOf = (name: string) => Parameter;

/** A query builder or an `sql` fragment: anything Kysely compiles. */
export interface Compilable {
  compile(db: AnyDatabase): CompiledQuery;
}

export class StatementTemplate {
  readonly text: string;
  readonly #order: readonly string[];

  constructor(compiled: CompiledQuery) {
    this.text = compiled.sql;
    this.#order = compiled.parameters.map((value, index) => {
      if (!(value instanceof Parameter)) {
        throw new Error(
          `parameter $${index + 1} of a statement template is a value, not a param(): ${compiled.sql}`,
        );
      }
      return value.name;
    });
  }

  /** The statement with `values` (by parameter name) in place; every name must have a value. */
  bind(values: Readonly<Record<string, unknown>>): CompiledQuery {
    const parameters = this.#order.map((name) => {
      if (!(name in values)) throw new Error(`no value for statement parameter "${name}"`);
      return values[name];
    });
    return CompiledQuery.raw(this.text, parameters);
  }
}

/**
 * Shapes kept: far more than the service's routes produce in normal use (each list filter
 * combination, sort and written field set is one), bounded because clients choose them.
 */
const TEMPLATES = 2000;
const templates = new RecentlyUsed<StatementTemplate>(TEMPLATES);
const param: ParameterOf = (name) => new Parameter(name);

/**
 * The template of `shape`, built with `build` the first time. `shape` must name everything that
 * changes the text, prefixed by what builds it (two builders never share a shape).
 */
export function statementTemplate(
  db: AnyDatabase,
  shape: string,
  build: (param: ParameterOf) => Compilable,
): StatementTemplate {
  let template = templates.get(shape);
  if (template === undefined) {
    template = new StatementTemplate(build(param).compile(db));
    templates.set(shape, template);
  }
  return template;
}
