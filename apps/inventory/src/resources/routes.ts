import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { type AuditEntry, type StatementWrite, writeWithAudit } from '../audit/audit-log.js';
import { type ConstraintMessages, withItemIndex } from '../db/errors.js';
import { badRequest, notFound } from '../errors.js';
import { acceptCsv, CSV_CONTENT_TYPE, rowNumber } from './csv-import.js';
import { normaliseTags, type ResourceDefinition, tagColumns, withDefaults } from './definition.js';
import { resourceByName } from './definitions/index.js';
import { type ListQuery, project, selectedFields, sendListPage } from './pages.js';
import {
  type AnyDatabase,
  checkBatch,
  countRows,
  deleteRowsStatement,
  deleteStatement,
  findRow,
  insertRowsStatement,
  insertStatement,
  type Row,
  rowExists,
  updateRowsStatement,
  updateStatement,
} from './repository.js';
import {
  BatchDeleteBody,
  BatchResult,
  batchUpdateSchema,
  CountResult,
  createBodySchema,
  createdSchema,
  fullRecordSchema,
  IdParams,
  listQuerySchema,
  NoContent,
  pageSchema,
  partialRecordSchema,
  readQuerySchema,
  recordSchema,
  responses,
  TAG_CHANGES,
} from './schemas.js';

/**
 * An id may appear once per batch, in any letter case (uuids are case-insensitive): a batch
 * naming a record twice would otherwise be counted and audited twice for one change.
 */
function refuseDuplicateIds(ids: readonly string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    const normalised = id.toLowerCase();
    if (seen.has(normalised)) throw badRequest(`Duplicate id in batch: ${id}`);
    seen.add(normalised);
  }
}

export interface ResourceRoutesOptions {
  definition: ResourceDefinition;
  db: AnyDatabase;
  /** Messages of named constraints (index.ts's constraintMessages), for bulk errors. */
  constraintMessages?: ConstraintMessages;
}

/**
 * The eight endpoints of a resource (list, get, create, replace, patch, delete, batch patch,
 * batch delete) plus its nested lists, all from its definition. Registered with the resource's
 * prefix: `app.register(resourceRoutes, { prefix: '/devices', definition, db })`.
 */
export const resourceRoutes: FastifyPluginAsyncTypebox<ResourceRoutesOptions> = async (
  app,
  { definition, db, constraintMessages = {} },
) => {
  acceptCsv(app, definition);
  const read = { access: 'authenticated' } as const;
  const write = { access: definition.writeRoles };
  const fullRecord = fullRecordSchema(definition);
  const partialRecord = partialRecordSchema(definition);
  const record = recordSchema(definition);
  const page = pageSchema(definition);

  /** Every write and its audit rows: one statement, one round trip (audit-log.ts). */
  const writeAudited = <R = Row>(
    request: FastifyRequest,
    statement: StatementWrite,
    audit: AuditEntry[],
  ) => writeWithAudit<R>(db, request, statement, audit);

  const tagged = tagColumns(definition);
  /** The definition's own adjustments, and tags stored as a sorted set. */
  const prepare = (given: Row) => {
    const values = definition.prepareWrite?.(given) ?? given;
    if (!tagged.some((column) => Array.isArray(values[column]))) return values;
    const normalised = { ...values };
    for (const column of tagged) {
      const tags = normalised[column];
      if (Array.isArray(tags)) normalised[column] = normaliseTags(tags as string[]);
    }
    return normalised;
  };

  /** PUT replaces the whole record: absent optional fields return to their default or null. */
  const replacement = (body: Row): Row =>
    prepare(
      Object.fromEntries(
        Object.entries(definition.columns).map(([name, column]) => [
          name,
          body[name] !== undefined ? body[name] : (column.default ?? null),
        ]),
      ),
    );

  const updateExisting = async (
    request: FastifyRequest,
    id: string,
    values: Row,
    audit: AuditEntry,
  ) => {
    const [row] = await writeAudited(request, updateStatement(db, definition, id, values), [audit]);
    if (!row) throw notFound(definition.notFoundMessage);
    return row;
  };

  const entry = (action: AuditEntry['action'], id: string, changes: Row | null): AuditEntry => ({
    action,
    resourceType: definition.name,
    resourceId: id,
    changes,
  });

  /**
   * Bulk create: every item validated (the schema) before anything is written, then one
   * statement, so all are stored or none, each with its audit row. A constraint an item breaks
   * is reported with that item's index.
   */
  const createMany = async (request: FastifyRequest, items: readonly Row[]) => {
    const prepared = items.map((item) => prepare(withDefaults(definition, item)));
    const { ids, write: insert } = insertRowsStatement(definition, prepared);
    let rows: Row[];
    try {
      rows = await writeAudited(
        request,
        insert,
        ids.map((id, index) => entry('create', id, prepared[index] ?? null)),
      );
    } catch (error) {
      // A CSV file's rows are named by their row number (csv-import.ts), JSON items by index.
      const csv = (request as { csvImport?: boolean }).csvImport === true;
      throw withItemIndex(error, prepared, constraintMessages, (index) =>
        csv ? `Row ${rowNumber(index)}` : `Item ${index}`,
      );
    }
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return ids.map((id) => {
      const row = byId.get(id);
      if (!row) throw new Error(`the bulk insert into ${definition.table} did not return ${id}`);
      return row;
    });
  };

  app.get(
    '/',
    {
      config: read,
      schema: { querystring: listQuerySchema(definition), response: responses({ 200: page }) },
    },
    async (request, reply) =>
      sendListPage(request, reply, db, definition, request.query as ListQuery),
  );

  app.post(
    '/',
    {
      config: write,
      schema: {
        // The document's text/csv body is described in http/openapi.ts (csv-import.ts).
        consumes: ['application/json', CSV_CONTENT_TYPE],
        body: createBodySchema(definition),
        response: responses({ 201: createdSchema(definition) }),
      },
    },
    async (request, reply) => {
      if (Array.isArray(request.body)) {
        const rows = await createMany(request, request.body as Row[]);
        // Written here: the route's serialiser knows the one-record branch only.
        return reply
          .status(201)
          .type('application/json; charset=utf-8')
          .serializer((payload) => JSON.stringify(payload))
          .send(rows);
      }
      const values = prepare(withDefaults(definition, request.body as Row));
      const { id, write: insert } = insertStatement(db, definition, values);
      const [row] = await writeAudited(request, insert, [entry('create', id, values)]);
      if (!row) throw new Error(`the insert into ${definition.table} returned no row`);
      return reply.status(201).send(row);
    },
  );

  app.patch(
    '/',
    {
      config: write,
      schema: { body: batchUpdateSchema(definition), response: responses({ 200: BatchResult }) },
    },
    async (request) => {
      const items = request.body as Array<Row & { id: string }>;
      refuseDuplicateIds(items.map((item) => item.id));
      items.forEach((item, index) => {
        const changes = TAG_CHANGES.filter((change) => item[change] !== undefined);
        const replaced = tagged.filter((column) => item[column] !== undefined);
        if (changes.length > 0 && replaced.length > 0) {
          throw badRequest(
            `Item ${index}: ${changes.join(' and ')} cannot be combined with ${replaced.join(', ')}`,
          );
        }
      });
      const updates = items.map(({ id, ...fields }) => ({ id, values: prepare(fields) }));
      // All or nothing: an unknown id or a violated constraint writes no row of the batch.
      const outcome = await writeAudited<{ ok: boolean; found: string[] | null }>(
        request,
        updateRowsStatement(definition, updates),
        updates.map(({ id, values }) => entry('update', id, values)),
      );
      checkBatch(
        definition,
        updates.map((update) => update.id),
        outcome,
      );
      const count = updates.length;
      return { status: 'success' as const, message: `${count} ${definition.name} updated`, count };
    },
  );

  app.delete(
    '/',
    { config: write, schema: { body: BatchDeleteBody, response: responses({ 200: BatchResult }) } },
    async (request) => {
      const ids = request.body as string[];
      refuseDuplicateIds(ids);
      const outcome = await writeAudited<{ ok: boolean; found: string[] | null }>(
        request,
        deleteRowsStatement(definition, ids),
        ids.map((id) => entry('delete', id, null)),
      );
      checkBatch(definition, ids, outcome);
      const count = new Set(ids.map((id) => id.toLowerCase())).size;
      return { status: 'success' as const, message: `${count} ${definition.name} deleted`, count };
    },
  );

  app.get(
    '/:id',
    {
      config: read,
      schema: {
        params: IdParams,
        querystring: readQuerySchema(definition),
        response: responses({ 200: recordSchema(definition, true) }),
      },
    },
    async (request, reply) => {
      const { fields, brief } = request.query as { fields?: string; brief?: boolean };
      const selected = selectedFields(definition, fields, brief);
      const row = await findRow(db, definition, request.params.id, selected);
      if (!row) throw notFound(definition.notFoundMessage);
      if (!selected) return row;
      // The route's schema requires every field; a selection is written as it is.
      const projected = project([row], selected)[0] ?? {};
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload) => JSON.stringify(payload))
        .send(projected);
    },
  );

  app.put(
    '/:id',
    {
      config: write,
      schema: { params: IdParams, body: fullRecord, response: responses({ 200: record }) },
    },
    async (request) => {
      const { id } = request.params;
      const values = replacement(request.body as Row);
      return updateExisting(request, id, values, entry('replace', id, values));
    },
  );

  app.patch(
    '/:id',
    {
      config: write,
      schema: { params: IdParams, body: partialRecord, response: responses({ 200: record }) },
    },
    async (request) => {
      const { id } = request.params;
      const values = prepare(request.body as Row);
      return updateExisting(request, id, values, entry('update', id, values));
    },
  );

  app.delete(
    '/:id',
    { config: write, schema: { params: IdParams, response: responses({ 204: NoContent }) } },
    async (request, reply) => {
      const { id } = request.params;
      const [deleted] = await writeAudited(request, deleteStatement(db, definition, id), [
        entry('delete', id, null),
      ]);
      if (!deleted) throw notFound(definition.notFoundMessage);
      return reply.status(204).send(null);
    },
  );

  for (const child of definition.children ?? []) {
    const childDefinition = resourceByName(child.resource);
    const parentMustExist = async (id: string) => {
      if (!(await rowExists(db, definition, id))) throw notFound(definition.notFoundMessage);
    };

    app.get(
      `/:id/${child.listPath}`,
      {
        config: read,
        schema: {
          params: IdParams,
          // The parent is in the path; filtering on it again would be meaningless.
          querystring: listQuerySchema(childDefinition, [child.foreignKey]),
          response: responses({ 200: pageSchema(childDefinition) }),
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await parentMustExist(id);
        return sendListPage(request, reply, db, childDefinition, request.query as ListQuery, {
          [child.foreignKey]: id,
        });
      },
    );

    app.get(
      `/:id/${child.countPath}`,
      { config: read, schema: { params: IdParams, response: responses({ 200: CountResult }) } },
      async (request) => {
        const { id } = request.params;
        await parentMustExist(id);
        const count = await countRows(db, childDefinition, { [child.foreignKey]: id });
        return { status: 'success' as const, count };
      },
    );
  }
};
