import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { type AuditEntry, mutateWithAudit } from '../audit/audit-log.js';
import { badRequest, notFound } from '../errors.js';
import { type ResourceDefinition, withDefaults } from './definition.js';
import { resourceByName } from './definitions/index.js';
import { type ListQuery, listPage } from './pages.js';
import {
  type AnyDatabase,
  countRows,
  deleteRow,
  deleteRows,
  findRow,
  insertRow,
  type Row,
  rowExists,
  updateRow,
  updateRows,
} from './repository.js';
import {
  BatchDeleteBody,
  BatchResult,
  batchUpdateSchema,
  CountResult,
  fullRecordSchema,
  IdParams,
  listQuerySchema,
  NoContent,
  pageSchema,
  partialRecordSchema,
  recordSchema,
  responses,
} from './schemas.js';

export interface ResourceRoutesOptions {
  definition: ResourceDefinition;
  db: AnyDatabase;
}

/**
 * The eight endpoints of a resource (list, get, create, replace, patch, delete, batch patch,
 * batch delete) plus its nested lists, all from its definition. Registered with the resource's
 * prefix: `app.register(resourceRoutes, { prefix: '/devices', definition, db })`.
 */
export const resourceRoutes: FastifyPluginAsyncTypebox<ResourceRoutesOptions> = async (
  app,
  { definition, db },
) => {
  const read = { access: 'authenticated' } as const;
  const write = { access: definition.writeRoles };
  const fullRecord = fullRecordSchema(definition);
  const partialRecord = partialRecordSchema(definition);
  const record = recordSchema(definition);
  const page = pageSchema(definition);

  const mutate = <T>(
    request: FastifyRequest,
    work: (trx: AnyDatabase) => Promise<{ result: T; audit: AuditEntry[] }>,
  ) => mutateWithAudit(db, request, work);

  const prepare = (values: Row) => definition.prepareWrite?.(values) ?? values;

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

  const updateExisting = async (trx: AnyDatabase, id: string, values: Row) => {
    const row = await updateRow(trx, definition, id, values);
    if (!row) throw notFound(definition.notFoundMessage);
    return row;
  };

  const entry = (action: AuditEntry['action'], id: string, changes: Row | null): AuditEntry => ({
    action,
    resourceType: definition.name,
    resourceId: id,
    changes,
  });

  app.get(
    '/',
    {
      config: read,
      schema: { querystring: listQuerySchema(definition), response: responses({ 200: page }) },
    },
    async (request) => listPage(db, definition, request.query as ListQuery),
  );

  app.post(
    '/',
    { config: write, schema: { body: fullRecord, response: responses({ 201: record }) } },
    async (request, reply) => {
      const values = prepare(withDefaults(definition, request.body as Row));
      const row = await mutate(request, async (trx) => {
        const created = await insertRow(trx, definition, values);
        return { result: created, audit: [entry('create', String(created.id), values)] };
      });
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
      const seen = new Set<string>();
      for (const { id } of items) {
        const normalised = id.toLowerCase();
        if (seen.has(normalised)) throw badRequest(`Duplicate id in batch: ${id}`);
        seen.add(normalised);
      }
      const updates = items.map(({ id, ...fields }) => ({ id, values: prepare(fields) }));
      const count = await mutate(request, async (trx) => {
        // Throwing (an unknown id, a constraint) rolls the whole batch back.
        await updateRows(trx, definition, updates);
        return {
          result: updates.length,
          audit: updates.map(({ id, values }) => entry('update', id, values)),
        };
      });
      return { status: 'success' as const, message: `${count} ${definition.name} updated`, count };
    },
  );

  app.delete(
    '/',
    { config: write, schema: { body: BatchDeleteBody, response: responses({ 200: BatchResult }) } },
    async (request) => {
      const ids = request.body as string[];
      const count = await mutate(request, async (trx) => {
        const deleted = await deleteRows(trx, definition, ids);
        return { result: deleted, audit: ids.map((id) => entry('delete', id, null)) };
      });
      return { status: 'success' as const, message: `${count} ${definition.name} deleted`, count };
    },
  );

  app.get(
    '/:id',
    { config: read, schema: { params: IdParams, response: responses({ 200: record }) } },
    async (request) => {
      const row = await findRow(db, definition, request.params.id);
      if (!row) throw notFound(definition.notFoundMessage);
      return row;
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
      return mutate(request, async (trx) => ({
        result: await updateExisting(trx, id, values),
        audit: [entry('replace', id, values)],
      }));
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
      return mutate(request, async (trx) => ({
        result: await updateExisting(trx, id, values),
        audit: [entry('update', id, values)],
      }));
    },
  );

  app.delete(
    '/:id',
    { config: write, schema: { params: IdParams, response: responses({ 204: NoContent }) } },
    async (request, reply) => {
      const { id } = request.params;
      await mutate(request, async (trx) => {
        await deleteRow(trx, definition, id);
        return { result: undefined, audit: [entry('delete', id, null)] };
      });
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
      async (request) => {
        const { id } = request.params;
        await parentMustExist(id);
        return listPage(db, childDefinition, request.query as ListQuery, {
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
