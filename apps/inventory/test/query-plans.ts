import type { CompiledQuery } from 'kysely';
import type { AnyDatabase } from '../src/db/schema.js';

/** A node of `EXPLAIN (FORMAT JSON)`, with the fields the plan tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Heap Fetches'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** What `EXPLAIN (FORMAT JSON)` returns: one row holding the plan. */
export type ExplainedRow = { 'QUERY PLAN': [{ Plan: PlanNode }] };

/** The node and every node under it. */
export const nodesOf = (node: PlanNode): PlanNode[] => [
  node,
  ...(node.Plans ?? []).flatMap(nodesOf),
];

/**
 * `db` as a list sees it, with `before` called on the real instance for each statement the list
 * sends, before the statement runs (to explain it, say).
 */
export function beforeEachStatement(
  db: AnyDatabase,
  before: (target: AnyDatabase, query: CompiledQuery) => Promise<void>,
): AnyDatabase {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'executeQuery') {
        const value = Reflect.get(target, property, receiver);
        // Kysely's classes keep private fields: their methods must run on the real instance.
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (query: CompiledQuery) => {
        await before(target, query);
        return target.executeQuery(query);
      };
    },
  });
}
