import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { StatementWrite } from '../audit/audit-log.js';
import type { AnyDatabase } from '../db/schema.js';
import type { ParameterOf } from '../db/statement-template.js';
import { notFound } from '../errors.js';
import {
  type ResourceDefinition,
  secretColumns,
  tagColumns,
  type WriteCondition,
} from './definition.js';
import { preconditionFailed } from './etags.js';
import { answerColumns, ROW_TAG, type Row, visibleColumns } from './rows.js';

/*
 * Writes as parts of one statement (audit-log.ts's writeWithAudit sets who writes; the tables'
 * triggers write the audit rows, migration 012): one
 * round trip per write, the statement being its own transaction. The steps are named after what
 * they do; the names end in `__` where they could meet a table's name. Like lists, their texts
 * are compiled once per shape (the table and the fields written) and then only bound.
 */

const step = (name: string, query: unknown) => sql`${sql.id(name)} AS (${query})`;

/** The fields a write sets, in a fixed order: the same fields, whatever their order, one text. */
const fieldsOf = (values: Row) =>
  Object.keys(values)
    .filter((field) => values[field] !== undefined)
    .sort();

const fieldParam = (field: string) => `value:${field}`;

function fieldValues(fields: readonly string[], values: Row): Row {
  return Object.fromEntries(fields.map((field) => [fieldParam(field), values[field]]));
}

function assertColumns(definition: ResourceDefinition, fields: readonly string[]): void {
  // Write-only columns (sealed secrets, a password hash) may be written, never read back.
  const columns = [
    ...visibleColumns(definition),
    ...secretColumns(definition),
    ...(definition.hiddenColumns ?? []),
  ];
  for (const field of fields) {
    if (!columns.includes(field)) throw new Error(`${field} is not a column of ${definition.name}`);
  }
}

export function insertStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  values: Row,
): { id: string; write: StatementWrite } {
  const id = uuidv7();
  const fields = fieldsOf(values);
  assertColumns(definition, fields);
  return {
    id,
    write: {
      shape: JSON.stringify(['insert', definition.table, fields]),
      parts: (param) => ({
        steps: [
          step(
            'created__',
            db
              .insertInto(definition.table)
              .values({
                id: param('id'),
                ...Object.fromEntries(fields.map((field) => [field, param(fieldParam(field))])),
              })
              .returning([...answerColumns(definition), ROW_TAG]),
          ),
        ],
        result: sql`SELECT * FROM created__`,
      }),
      values: { id, ...fieldValues(fields, values) },
    },
  };
}

/**
 * Bulk create: every item in one INSERT (typed by the table's own row type through
 * jsonb_populate_recordset), so all are stored or none. Items are given their ids here; the
 * caller puts the returned rows back in the items' order.
 */
export function insertRowsStatement(
  definition: ResourceDefinition,
  items: readonly Row[],
): { ids: string[]; write: StatementWrite } {
  const fields = [...new Set(items.flatMap((values) => fieldsOf(values)))].sort();
  assertColumns(definition, fields);
  const ids = items.map(() => uuidv7());
  const table = sql.table(definition.table);
  const columns = ['id', ...fields];
  return {
    ids,
    write: {
      shape: JSON.stringify(['bulk-insert', definition.table, fields]),
      parts: (param) => ({
        steps: [
          step(
            'created__',
            sql`INSERT INTO ${table} (${sql.join(columns.map((column) => sql.ref(column)))})
              SELECT ${sql.join(columns.map((column) => sql.ref(`r.${column}`)))}
              FROM jsonb_populate_recordset(NULL::${table}, ${param('items')}::jsonb) AS r
              RETURNING ${sql.join(visibleColumns(definition).map((column) => sql.ref(column)))}`,
          ),
        ],
        result: sql`SELECT * FROM created__`,
      }),
      values: {
        items: JSON.stringify(items.map((values, index) => ({ ...values, id: ids[index] }))),
      },
    },
  };
}

/**
 * The write's condition on the row's tag (If-Match): it is part of the write's own WHERE, which
 * PostgreSQL evaluates again on the newest row version after waiting for a concurrent writer.
 */
const tagMatches = (param: ParameterOf, alias?: string) =>
  sql<boolean>`${sql.ref(alias ? `${alias}.xmin` : 'xmin')}::text IN (SELECT jsonb_array_elements_text(${param('if_match')}::jsonb))`;

/**
 * Answers the row as now stored with its new tag, or nothing when there is no such id or, with
 * `ifMatch` (the tags an If-Match accepts), when the row's tag is none of them.
 */
export function updateStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
  values: Row,
  ifMatch?: readonly string[],
  condition?: WriteCondition,
): StatementWrite {
  const fields = fieldsOf(values);
  assertColumns(definition, fields);
  const checked = ifMatch !== undefined;
  return {
    shape: JSON.stringify(['update', definition.table, fields, checked, condition?.name]),
    parts: (param) => {
      let update = db
        .updateTable(definition.table)
        .set({
          ...Object.fromEntries(fields.map((field) => [field, param(fieldParam(field))])),
          // When the row is written, after its lock (not the transaction's start, now()): a
          // change applied after another is later, as in its history (migration 033).
          updated_at: sql`clock_timestamp()`,
        })
        .where('id', '=', param('id'));
      if (checked) update = update.where(tagMatches(param));
      if (condition) update = update.where(condition.sql(param));
      return {
        steps: [step('updated__', update.returning([...answerColumns(definition), ROW_TAG]))],
        result: sql`SELECT * FROM updated__`,
      };
    },
    values: {
      id,
      ...fieldValues(fields, values),
      ...(checked ? { if_match: JSON.stringify(ifMatch) } : {}),
      ...condition?.values,
    },
  };
}

/** Answers the id deleted, or nothing when there is no such id (or its tag is not `ifMatch`). */
export function deleteStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
  ifMatch?: readonly string[],
): StatementWrite {
  const checked = ifMatch !== undefined;
  return {
    shape: JSON.stringify(['delete', definition.table, checked]),
    parts: (param) => {
      let remove = db.deleteFrom(definition.table).where('id', '=', param('id'));
      if (checked) remove = remove.where(tagMatches(param));
      return {
        steps: [step('deleted__', remove.returning('id'))],
        result: sql`SELECT id FROM deleted__`,
      };
    },
    values: { id, ...(checked ? { if_match: JSON.stringify(ifMatch) } : {}) },
  };
}

export const TAG_CHANGE_FIELDS = ['add_tags', 'remove_tags'] as const;

export interface RowUpdate {
  id: string;
  values: Row;
  /** The tag the item's record must still have (a batch item's `etag`, unquoted). */
  etag?: string;
}

/**
 * The first steps of a batch over the ids of the parameter `ids` (a JSON array, `batch_size`
 * distinct ids): their rows locked in id order (concurrent batches over the same rows then wait
 * for each other instead of deadlocking), and whether every id was found. Each write of the
 * batch is conditioned on `complete__.ok`, so a batch naming an unknown id writes nothing; the
 * statement answers `{ok, found}` for the caller to name it.
 */
function lockedBatch(definition: ResourceDefinition, param: ParameterOf, tagged = false) {
  // With tags (the parameter `etags`: {id: tag}), an item whose row, as locked, has another tag
  // is stale, and a stale item fails the batch like an unknown one. The lock waits for a
  // concurrent writer and then reads the row's newest version, so the tag compared is current.
  const stale = tagged
    ? sql`(SELECT array_agg(l.id::text ORDER BY l.id) FROM locked__ AS l
           JOIN jsonb_each_text(${param('etags')}::jsonb) AS e ON e.key = l.id::text
           WHERE e.value <> l.tag)`
    : sql`NULL::text[]`;
  return [
    sql`locked__ AS (
      SELECT id, xmin::text AS tag FROM ${sql.table(definition.table)}
      WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text(${param('ids')}::jsonb))
      ORDER BY id FOR UPDATE)`,
    sql`checked__ AS (
      SELECT count(*) = ${param('batch_size')}::bigint AS complete, array_agg(id::text) AS found,
             ${stale} AS stale
      FROM locked__)`,
    sql`complete__ AS (
      SELECT complete AND stale IS NULL AS ok, found, stale FROM checked__)`,
  ];
}

/** The batch's distinct ids in lower case (as PostgreSQL writes uuids), sorted. */
function batchIds(ids: readonly string[]) {
  const distinct = [...new Set(ids.map((id) => id.toLowerCase()))].sort();
  return { ids: JSON.stringify(distinct), batch_size: distinct.length };
}

const BATCH_COMPLETE = sql`(SELECT ok FROM complete__)`;

export interface BatchOutcome {
  ok: boolean;
  found: string[] | null;
  /** Items whose `etag` is not the record's (batch PATCH with tags). */
  stale: string[] | null;
}

/**
 * Throws 404 naming the first id of `ids` the batch did not find, if any, else 412 naming the
 * first whose `etag` is stale.
 */
export function checkBatch(
  definition: ResourceDefinition,
  ids: readonly string[],
  rows: readonly BatchOutcome[],
  /** Names the item refused in front of the message (a CSV file's `Row 3`); JSON names none. */
  itemLabel?: (index: number) => string,
): void {
  const outcome = rows[0];
  if (outcome?.ok) return;
  const labelled = (index: number, message: string) =>
    itemLabel && index >= 0 ? `${itemLabel(index)}: ${message}` : message;
  const found = new Set(outcome?.found ?? []);
  const missingAt = ids.findIndex((id) => !found.has(id.toLowerCase()));
  if (missingAt >= 0 || !outcome?.stale) {
    throw notFound(labelled(missingAt, `${definition.notFoundMessage}: ${ids[missingAt]}`));
  }
  const stale = new Set(outcome.stale);
  const firstAt = ids.findIndex((id) => stale.has(id.toLowerCase()));
  throw preconditionFailed(
    labelled(
      firstAt,
      `Precondition failed: ${definition.name} ${ids[firstAt]} has changed since its etag was read (nothing was changed)`,
    ),
  );
}

/**
 * A batch of partial updates in one statement whatever its size: the rows locked (above), then
 * one UPDATE per distinct set of fields (usually one) joining the table with the items, typed by
 * the table's own row type through jsonb_populate_recordset.
 */
export function updateRowsStatement(
  definition: ResourceDefinition,
  updates: readonly RowUpdate[],
): StatementWrite {
  const byFields = new Map<string, Row[]>();
  for (const { id, values } of updates) {
    const fields = fieldsOf(values);
    assertColumns(
      definition,
      fields.filter((field) => !(TAG_CHANGE_FIELDS as readonly string[]).includes(field)),
    );
    const key = fields.join(',');
    let items = byFields.get(key);
    if (items === undefined) {
      items = [];
      byFields.set(key, items);
    }
    items.push({ ...values, id });
  }
  const fieldSets = [...byFields.keys()];
  const table = sql.table(definition.table);
  const updated = (index: number) => `updated${index}__`;
  const etags = updates.filter((update) => update.etag !== undefined);
  const tagged = etags.length > 0;
  return {
    shape: JSON.stringify(['batch-update', definition.table, fieldSets, tagged]),
    parts: (param) => {
      const updateSteps = fieldSets.map((key, index) => {
        const fields = key.split(',').filter(Boolean);
        const assignments = fields
          .filter((field) => !(TAG_CHANGE_FIELDS as readonly string[]).includes(field))
          .map((field) => sql`${sql.ref(field)} = r.${sql.ref(field)}`);
        const items = param(`items:${index}`);
        const changesTags = fields.some((field) =>
          (TAG_CHANGE_FIELDS as readonly string[]).includes(field),
        );
        // Tags added and removed against the row as it is when this UPDATE locks it: a
        // concurrent change to the same record is waited for and built upon, never lost.
        const tagChanges = changesTags
          ? tagColumns(definition).map(
              (column) => sql`${sql.ref(column)} = ARRAY(
                SELECT DISTINCT tag FROM unnest(t.${sql.ref(column)} || coalesce(d.add_tags, '{}')) AS tag
                WHERE tag <> ALL (coalesce(d.remove_tags, '{}')) ORDER BY tag)`,
            )
          : [];
        const deltas = changesTags
          ? sql`JOIN jsonb_to_recordset(${items}::jsonb) AS d(id uuid, add_tags text[], remove_tags text[])
              ON d.id = r.id`
          : sql``;
        return step(
          updated(index),
          sql`UPDATE ${table} AS t SET ${sql.join([...assignments, ...tagChanges, sql`updated_at = clock_timestamp()`])}
            FROM jsonb_populate_recordset(NULL::${table}, ${items}::jsonb) AS r ${deltas}
            WHERE t.id = r.id AND ${BATCH_COMPLETE}
            RETURNING t.id`,
        );
      });
      return {
        steps: [...lockedBatch(definition, param, tagged), ...updateSteps],
        result: sql`SELECT ok, found, stale FROM complete__`,
      };
    },
    values: {
      ...batchIds(updates.map((update) => update.id)),
      ...(tagged
        ? {
            etags: JSON.stringify(
              Object.fromEntries(etags.map(({ id, etag }) => [id.toLowerCase(), etag])),
            ),
          }
        : {}),
      ...Object.fromEntries(
        [...byFields.values()].map((items, index) => [`items:${index}`, JSON.stringify(items)]),
      ),
    },
  };
}

/** Deletes every id or, when one is unknown, none (see checkBatch). */
export function deleteRowsStatement(
  definition: ResourceDefinition,
  ids: readonly string[],
): StatementWrite {
  return {
    shape: JSON.stringify(['batch-delete', definition.table]),
    parts: (param) => ({
      steps: [
        ...lockedBatch(definition, param),
        sql`deleted__ AS (
          DELETE FROM ${sql.table(definition.table)}
          WHERE id IN (SELECT id FROM locked__) AND ${BATCH_COMPLETE}
          RETURNING id)`,
      ],
      result: sql`SELECT ok, found, stale FROM complete__`,
    }),
    values: batchIds(ids),
  };
}
