import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import {
  type StatementWrite,
  type WriteIntent,
  writeUnaudited,
  writeWithAudit,
} from '../audit/audit-log.js';
import { auditLogs } from '../audit/definition.js';
import type { Access } from '../auth/roles.js';
import { type ConstraintMessages, namesKeyValue, withItemIndex } from '../db/errors.js';
import type { AnyDatabase } from '../db/schema.js';
import { statementTemplate } from '../db/statement-template.js';
import { ApiError, badRequest, FieldRefusal, notFound } from '../errors.js';
import { acceptCsv, CSV_CONTENT_TYPE, type CsvImportRequest } from './csv-import.js';
import {
  disagreeingForms,
  normaliseTags,
  offers,
  type PreparedWrite,
  type RecordWrite,
  type ResourceDefinition,
  type ResourceOperation,
  secretColumns,
  tagColumns,
  type WriteCondition,
  withDefaults,
} from './definition.js';
import { resourceByName } from './definitions/index.js';
import {
  ifMatchTags,
  noneMatchHolds,
  parseEntityTag,
  parseTagCondition,
  preconditionFailed,
  strongEtag,
  weakEtag,
} from './etags.js';
import { countMatching } from './list.js';
import { canonicalFormOf, kindOf, parseConditions } from './lookups.js';
import { type ListQuery, project, selectedFields, sendListPage } from './pages.js';
import {
  answerColumns,
  answersWithKeptJson,
  findRecord,
  RECORD_JSON,
  type Row,
  rowExists,
  takeTag,
  visibleColumns,
} from './rows.js';
import {
  BatchDeleteBody,
  BatchResult,
  batchUpdateSchema,
  CountResult,
  conditionalHeaders,
  countQuerySchema,
  createBodySchema,
  createdSchema,
  exampleRecord,
  fullRecordSchema,
  IdParams,
  listQuerySchema,
  NoContent,
  NotModified,
  PreconditionFailed,
  pageSchema,
  partialRecordSchema,
  readQuerySchema,
  recordSchema,
  responses,
  tagChangesConflict,
  withEtagHeader,
  withExample,
} from './schemas.js';
import type { SecretSealer } from './sealing.js';
import {
  type BatchOutcome,
  checkBatch,
  deleteRowsStatement,
  deleteStatement,
  insertRowsStatement,
  insertStatement,
  updateRowsStatement,
  updateStatement,
} from './writes.js';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

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

/**
 * How a bulk create's or batch update's errors name an item: a CSV row by number
 * (csv-import.ts), JSON by index.
 */
function bulkItemLabel(request: FastifyRequest): (index: number) => string {
  const lines = (request as CsvImportRequest).csvLines;
  return (index) => (lines ? `Row ${lines[index]}` : `Item ${index}`);
}

/** One endpoint of a resource: what registers it (see `endpoints` in resourceRoutes). */
interface Endpoint {
  /** The operation whose offer registers it; undefined: not registered. */
  operation: ResourceOperation | undefined;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** The resource's readers, its writers, or the roles named. */
  who: 'read' | 'write' | Access;
  schema: FastifySchema;
  handler: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

/** Each endpoint's summary in the API document, where the definition gives none. */
const DEFAULT_SUMMARIES: Record<ResourceOperation, (name: string) => string> = {
  list: (name) => `List ${name} (filters, lookups, sorting, paging, CSV export)`,
  read: (name) => `Read one of ${name}`,
  create: (name) => `Create ${name}: one record`,
  'bulk-create': (name) => `Create ${name}: one record, a JSON array or a CSV file`,
  replace: (name) => `Replace one of ${name}`,
  update: (name) => `Change fields of one of ${name}`,
  delete: (name) => `Delete one of ${name}`,
  'batch-update': (name) => `Change many ${name} at once (all or none)`,
  'batch-delete': (name) => `Delete many ${name} at once (all or none)`,
  history: (name) => `Change history of one of ${name}`,
};

export interface ResourceRoutesOptions {
  definition: ResourceDefinition;
  db: AnyDatabase;
  /** Messages of named constraints (index.ts's constraintMessages), for bulk errors. */
  constraintMessages?: ConstraintMessages;
  /** Seals the values of write-only columns (ColumnDefinition.secret) before they are stored. */
  sealer?: SecretSealer;
  /** Why an outbound URL (a `url` column) may not be called, or undefined when it may. */
  checkOutboundUrl?: (url: string) => Promise<string | undefined>;
}

/**
 * The endpoints of a resource (list, get, create, replace, patch, delete, batch patch, batch
 * delete, history; those its definition offers) plus its nested lists, all from its definition,
 * with its write hooks around single-record writes. Registered with the resource's prefix:
 * `app.register(resourceRoutes, { prefix: '/devices', definition, db })`.
 */
export const resourceRoutes: FastifyPluginAsyncTypebox<ResourceRoutesOptions> = async (
  app,
  { definition, db, constraintMessages = {}, sealer, checkOutboundUrl },
) => {
  const has = (operation: ResourceOperation) => offers(definition, operation);
  const { hooks } = definition;
  if (hooks && (has('bulk-create') || has('batch-update') || has('batch-delete'))) {
    throw new Error(`${definition.name}: write hooks apply to single-record writes only`);
  }
  if (has('bulk-create') || has('batch-update')) acceptCsv(app, definition);
  /** Who may call an endpoint (the guard, auth/guard.ts) and its summary in the document. */
  const route = (operation: ResourceOperation, access: Access, scope?: 'read' | 'write') => {
    const apiTokenScope = scope && definition.apiTokenScopes?.[scope];
    const summary =
      definition.summaries?.[operation] ??
      DEFAULT_SUMMARIES[operation === 'create' && has('bulk-create') ? 'bulk-create' : operation](
        definition.name,
      );
    return {
      config: {
        access: definition.access?.[operation] ?? access,
        ...(apiTokenScope ? { apiTokenScope } : {}),
      },
      summary: { summary },
    };
  };
  const readAccess = definition.readRoles ?? ('authenticated' as const);
  const reading = (operation: ResourceOperation) => route(operation, readAccess, 'read');
  const writing = (operation: ResourceOperation) =>
    route(operation, definition.writeRoles, 'write');
  const fullRecord = fullRecordSchema(definition);
  const partialRecord = partialRecordSchema(definition);
  const record = recordSchema(definition);
  const page = pageSchema(definition);

  /**
   * Every write and its audit rows: one statement, one round trip (audit-log.ts); for a table
   * that is not audited, the write alone.
   */
  const writeAudited = <R = Row>(
    request: FastifyRequest,
    statement: StatementWrite,
    action: WriteIntent['action'],
  ) =>
    definition.audited === false
      ? writeUnaudited<R>(db, request, statement)
      : writeWithAudit<R>(db, request, statement, { resourceType: definition.name, action });

  /** The definition's checks and conversions before a single-record write. */
  const beforeWrite = async (
    operation: RecordWrite,
    request: FastifyRequest,
    values: Row,
    id?: string,
  ): Promise<PreparedWrite> =>
    hooks?.beforeWrite
      ? hooks.beforeWrite({ operation, request, values, ...(id !== undefined ? { id } : {}) })
      : { values };
  const keptJson = answersWithKeptJson(definition);
  /**
   * A whole record's body: its kept JSON as it is (answersWithKeptJson; a string of a JSON type
   * is sent without being serialised again), else the row for the route's serialiser.
   */
  const recordBody = (reply: FastifyReply, row: Row) => {
    if (!keptJson) return row;
    reply.type(JSON_CONTENT_TYPE);
    return row[RECORD_JSON] as string;
  };

  /**
   * The answer to a single-record write: the record's body, or what the definition's hook makes
   * of it (a resource answered with its kept JSON has no afterWrite hook).
   */
  const answerOf = async (
    reply: FastifyReply,
    operation: RecordWrite,
    request: FastifyRequest,
    id: string,
    row: Row | undefined,
    prepared: PreparedWrite,
  ) =>
    (await hooks?.afterWrite?.({
      operation,
      request,
      id,
      ...(row ? { row } : {}),
      carried: prepared.carried,
    })) ?? (row ? recordBody(reply, row) : row);

  const tagged = tagColumns(definition);
  const secrets = secretColumns(definition);
  const urlColumns = Object.entries(definition.columns)
    .filter(([, column]) => kindOf(column) === 'url')
    .map(([name]) => name);
  /** Write-only values sealed before anything else sees them. */
  const seal = (given: Row): Row => {
    if (!secrets.some((column) => typeof given[column] === 'string')) return given;
    if (!sealer) throw new Error(`${definition.name} has secret columns but no sealer`);
    const sealed = { ...given };
    for (const column of secrets) {
      const value = sealed[column];
      if (typeof value === 'string') sealed[column] = sealer.seal(value);
    }
    return sealed;
  };
  /**
   * Outbound URLs the service may not call (SSRF policy) are refused before any write, and after
   * the values' own rules (prepare): the check may wait for DNS, and a write refused for a field
   * of its own is refused for that field whatever its address.
   */
  const checkUrls = async (items: readonly Row[], label?: (index: number) => string) => {
    if (urlColumns.length === 0) return;
    for (const [index, item] of items.entries()) {
      for (const column of urlColumns) {
        const value = item[column];
        if (typeof value !== 'string') continue;
        const problem = checkOutboundUrl ? await checkOutboundUrl(value) : undefined;
        if (problem === undefined) continue;
        throw badRequest(
          label ? `${label(index)} (${column}): ${problem}` : `${column}: ${problem}`,
        );
      }
    }
  };
  const canonicalColumns = Object.entries(definition.columns).flatMap(([name, column]) => {
    const canonical = canonicalFormOf(column);
    const { maxLength } = column.schema as { maxLength?: unknown };
    return canonical
      ? [{ name, canonical, maxLength: typeof maxLength === 'number' ? maxLength : undefined }]
      : [];
  });
  /**
   * Values in their one form (canonicalFormOf: timestamps to the millisecond, MAC addresses in
   * lower case, names in NFC), whichever write sent them. A few characters grow when composed
   * (U+0958 becomes U+0915 U+093C): a name the schema admitted may then be too long.
   */
  const inCanonicalForm = (given: Row): Row => {
    if (!canonicalColumns.some(({ name }) => typeof given[name] === 'string')) return given;
    const canonicalised = { ...given };
    for (const { name, canonical, maxLength } of canonicalColumns) {
      const value = canonicalised[name];
      if (typeof value !== 'string') continue;
      const stored = canonical(value);
      if (maxLength !== undefined && stored !== value && [...stored].length > maxLength) {
        throw new FieldRefusal(
          name,
          `must not have more than ${maxLength} characters in Unicode's composed form (NFC), which this value has once composed`,
        );
      }
      canonicalised[name] = stored;
    }
    return canonicalised;
  };
  const forms = Object.entries(definition.columns).flatMap(([name, column]) =>
    column.formOf ? [{ name, ...column.formOf }] : [],
  );
  /**
   * A column declared as another's value in another form (ColumnDefinition.formOf) and that
   * column, both set whenever a write gives either: from the value given, null when the one given
   * is null; both given must agree.
   */
  const inBothForms = (given: Row): Row => {
    const disagreement = disagreeingForms(definition, given);
    if (disagreement) throw new FieldRefusal(disagreement.column, disagreement.reason);
    let values = given;
    for (const { name, column, from, to } of forms) {
      if (given[name] === undefined && given[column] === undefined) continue;
      const own = given[name] ?? null;
      const other = given[column] ?? null;
      let pair: [unknown, unknown] = [null, null];
      if (other !== null) {
        pair = [from(other), other];
      } else if (own !== null) {
        pair = [own, to(own)];
      }
      values = { ...values, [name]: pair[0], [column]: pair[1] };
    }
    return values;
  };
  /**
   * The definition's own adjustments, both forms of a value, values in their canonical form, tags
   * as a sorted set.
   */
  const prepare = (given: Row) => {
    const adjusted = definition.prepareWrite?.(given) ?? given;
    // Each value in its one form first: a name too long once composed is refused for itself,
    // whatever else the write breaks.
    const canonical = inCanonicalForm(adjusted);
    const values = seal(forms.length > 0 ? inBothForms(canonical) : canonical);
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

  /** The tags an If-Match accepts (undefined: none given, or `*`). */
  const ifMatchOf = (request: FastifyRequest) =>
    ifMatchTags(parseTagCondition('If-Match', request.headers['if-match']));

  /**
   * RFC 9110 §13.2.2 for a write to one record: If-Match first, then If-None-Match. Returns the
   * tags the write's own WHERE must find (undefined: any version). With If-None-Match the record's
   * current tag is read and checked against both headers, then the write is made conditional on
   * that very version, so a change in between makes it 412 rather than slip through.
   */
  const writeTags = async (request: FastifyRequest, id: string) => {
    const ifMatch = ifMatchOf(request);
    const noneMatch = parseTagCondition('If-None-Match', request.headers['if-none-match']);
    if (noneMatch === undefined) return ifMatch;
    const current = await findRecord(db, definition, id);
    if (!current) throw notFound(definition.notFoundMessage);
    const tag = takeTag(current);
    if (ifMatch !== undefined && !ifMatch.includes(tag)) throw stale();
    if (noneMatchHolds(noneMatch, tag)) {
      throw preconditionFailed(
        `Precondition failed: If-None-Match names the current version of the ${definition.name} record (nothing was changed)`,
      );
    }
    return [tag];
  };

  const stale = () =>
    preconditionFailed(
      `Precondition failed: the ${definition.name} record has changed since its ETag was read (nothing was changed)`,
    );

  /** Whether a hook's write condition holds now (read again after the write refused). */
  const conditionHolds = async (condition: WriteCondition) => {
    const template = statementTemplate(
      db,
      JSON.stringify(['condition', definition.table, condition.name]),
      (param) => sql`SELECT ${condition.sql(param)} AS ok`,
    );
    const result = await db.executeQuery<{ ok: boolean }>(template.bind(condition.values));
    return result.rows[0]?.ok === true;
  };

  /**
   * A write that wrote nothing: 404 when the record is not there; when it is, the hook's refusal
   * if its condition failed, else 412 as its tag is not one If-Match named (the write's own
   * WHERE decided; this only tells which it was).
   */
  const notWritten = async (
    id: string,
    ifMatch: readonly string[] | undefined,
    condition?: WriteCondition,
  ) => {
    if ((ifMatch !== undefined || condition) && (await rowExists(db, definition, id))) {
      if (condition && !(await conditionHolds(condition))) return condition.refusal();
      if (ifMatch !== undefined) return stale();
    }
    return notFound(definition.notFoundMessage);
  };

  const updateExisting = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    values: Row,
    operation: 'replace' | 'update',
  ) => {
    const ifMatch = await writeTags(request, id);
    const prepared = await beforeWrite(operation, request, values, id);
    if (prepared.unchanged) {
      const current = await findRecord(db, definition, id, answerColumns(definition));
      if (!current) throw notFound(definition.notFoundMessage);
      const tag = takeTag(current);
      if (ifMatch !== undefined && !ifMatch.includes(tag)) throw stale();
      reply.header('etag', strongEtag(tag));
      return answerOf(reply, operation, request, id, current, prepared);
    }
    // PUT of a resource that keeps the fields not sent is a change, not a replacement.
    const action = definition.putChangesFieldsSent ? 'update' : operation;
    const [row] = await writeAudited(
      request,
      updateStatement(db, definition, id, prepared.values, ifMatch, prepared.condition),
      action,
    );
    if (!row) throw await notWritten(id, ifMatch, prepared.condition);
    reply.header('etag', strongEtag(takeTag(row)));
    return answerOf(reply, operation, request, id, row, prepared);
  };

  /**
   * `prepare` of one item of a bulk create or batch: a refusal it raises (two forms of a value
   * that disagree, a definition's own rule) names the item, as the schema's refusals do.
   */
  const prepareItem = (given: Row, label: string) => {
    try {
      return prepare(given);
    } catch (error) {
      if (error instanceof FieldRefusal) {
        throw new ApiError(400, `${label} (${error.field}): ${error.reason}`, error.headers);
      }
      if (error instanceof ApiError && error.statusCode === 400) {
        throw new ApiError(400, `${label}: ${error.message}`, error.headers);
      }
      throw error;
    }
  };

  /**
   * Bulk create: every item validated (the schema) before anything is written, then one
   * statement, so all are stored or none, each with its audit row. A constraint an item breaks
   * is reported with that item's index.
   */
  const createMany = async (request: FastifyRequest, items: readonly Row[]) => {
    const label = bulkItemLabel(request);
    const prepared = items.map((item, index) =>
      prepareItem(withDefaults(definition, item), label(index)),
    );
    await checkUrls(items, label);
    const { ids, write: insert } = insertRowsStatement(definition, prepared);
    let rows: Row[];
    try {
      rows = await writeAudited(request, insert, 'create');
    } catch (error) {
      throw withItemIndex(error, prepared, constraintMessages, bulkItemLabel(request));
    }
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return ids.map((id) => {
      const row = byId.get(id);
      if (!row) throw new Error(`the bulk insert into ${definition.table} did not return ${id}`);
      return row;
    });
  };

  /** POST of one record: what the definition's hooks make of it, and their answer. */
  const createOne = async (request: FastifyRequest, reply: FastifyReply, body: Row) => {
    const values = prepare(withDefaults(definition, body));
    await checkUrls([body]);
    const prepared = await beforeWrite('create', request, values);
    const { id, write: insert } = insertStatement(db, definition, prepared.values);
    const [row] = await writeAudited(request, insert, 'create');
    if (!row) throw new Error(`the insert into ${definition.table} returned no row`);
    reply.status(201).header('etag', strongEtag(takeTag(row)));
    return reply.send(await answerOf(reply, 'create', request, id, row, prepared));
  };

  /** Bulk create: an array (JSON) or the records of a CSV file; one record goes to createOne. */
  const createRecords = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!Array.isArray(request.body)) return createOne(request, reply, request.body as Row);
    const rows = await createMany(request, request.body as Row[]);
    // Written here: the route's serialiser knows the one-record branch only.
    return reply
      .status(201)
      .type(JSON_CONTENT_TYPE)
      .serializer((payload) => JSON.stringify(payload))
      .send(rows);
  };

  /**
   * The rows of `ids` as stored, in their order (undefined for an unknown id): read only after a
   * batch failed on a key, to name the item behind a key it changed in part. A failed read names
   * none.
   */
  const storedRows = async (ids: readonly string[]): Promise<(Row | undefined)[]> => {
    try {
      const rows = await db
        .selectFrom(definition.table)
        .select(visibleColumns(definition))
        .where('id', 'in', ids)
        .execute();
      const byId = new Map(rows.map((row: Row) => [String(row.id).toLowerCase(), row]));
      return ids.map((id) => byId.get(id.toLowerCase()));
    } catch {
      return [];
    }
  };

  /** Batch PATCH: every item's changes, all or none, each item's etag checked in the write. */
  const updateRecords = async (request: FastifyRequest) => {
    const items = request.body as Array<Row & { id: string }>;
    const itemLabel = bulkItemLabel(request);
    refuseDuplicateIds(items.map((item) => item.id));
    items.forEach((item, index) => {
      const conflict = tagChangesConflict(definition, item);
      if (conflict) throw badRequest(`${itemLabel(index)}: ${conflict}`);
    });
    const updates = items.map(({ id, etag, ...fields }, index) => {
      if (etag === undefined) return { id, values: prepareItem(fields, itemLabel(index)) };
      // The tag as an ETag header gives it; a weak one never matches (strong comparison).
      const tag = parseEntityTag(String(etag));
      if (!tag)
        throw badRequest(`${itemLabel(index)}: invalid etag: expected an ETag such as "123"`);
      return {
        id,
        values: prepareItem(fields, itemLabel(index)),
        etag: tag.weak ? '' : tag.opaque,
      };
    });
    await checkUrls(items, itemLabel);
    // All or nothing: an unknown id or a violated constraint writes no row of the batch.
    let outcome: BatchOutcome[];
    try {
      outcome = await writeAudited<BatchOutcome>(
        request,
        updateRowsStatement(definition, updates),
        'update',
      );
    } catch (error) {
      throw withItemIndex(
        error,
        updates.map((update) => update.values),
        constraintMessages,
        itemLabel,
        namesKeyValue(error) ? await storedRows(updates.map((update) => update.id)) : [],
      );
    }
    checkBatch(
      definition,
      updates.map((update) => update.id),
      outcome,
      (request as CsvImportRequest).csvLines ? itemLabel : undefined,
    );
    const count = updates.length;
    return { status: 'success' as const, message: `${count} ${definition.name} updated`, count };
  };

  /** Batch DELETE: the records of the ids given, all or none. */
  const deleteRecords = async (request: FastifyRequest) => {
    const ids = request.body as string[];
    refuseDuplicateIds(ids);
    const outcome = await writeAudited<BatchOutcome>(
      request,
      deleteRowsStatement(definition, ids),
      'delete',
    );
    checkBatch(definition, ids, outcome);
    const count = new Set(ids.map((id) => id.toLowerCase())).size;
    return { status: 'success' as const, message: `${count} ${definition.name} deleted`, count };
  };

  /** GET of one record: its fields (or those chosen), its ETag, 304 for a current If-None-Match. */
  const readRecord = async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const { fields, brief } = request.query as { fields?: string; brief?: boolean };
    const ifNoneMatch = parseTagCondition('If-None-Match', request.headers['if-none-match']);
    const selected = selectedFields(definition, fields, brief);
    const row = await findRecord(db, definition, id, selected ?? answerColumns(definition));
    if (!row) throw notFound(definition.notFoundMessage);
    const tag = takeTag(row);
    // A projection is the same version in other bytes: a weak tag (RFC 9110 §8.8.1).
    reply.header('etag', selected ? weakEtag(tag) : strongEtag(tag));
    // No body at all: `null` would be serialised, and a 304 may carry no Content-Length but the
    // 200's (RFC 9110 §8.6), nor a body's Content-Type.
    if (noneMatchHolds(ifNoneMatch, tag))
      return reply.status(304).removeHeader('content-type').send();
    if (!selected) return recordBody(reply, row);
    // The route's schema requires every field; a selection is written as it is.
    const projected = project([row], selected)[0] ?? {};
    return reply
      .type(JSON_CONTENT_TYPE)
      .serializer((payload) => JSON.stringify(payload))
      .send(projected);
  };

  /** PUT: the whole record (or, for putChangesFieldsSent, the fields sent). */
  const replaceRecord = async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const body = request.body as Row;
    const values = definition.putChangesFieldsSent ? prepare(body) : replacement(body);
    await checkUrls([body]);
    return updateExisting(request, reply, id, values, 'replace');
  };

  /** PATCH: the fields sent. */
  const updateRecord = async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const values = prepare(request.body as Row);
    await checkUrls([request.body as Row]);
    return updateExisting(request, reply, id, values, 'update');
  };

  /** DELETE of one record, under its preconditions and hooks. */
  const deleteRecord = async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const ifMatch = await writeTags(request, id);
    const prepared = await beforeWrite('delete', request, {}, id);
    const [deleted] = await writeAudited(
      request,
      deleteStatement(db, definition, id, ifMatch),
      'delete',
    );
    if (!deleted) throw await notWritten(id, ifMatch);
    await answerOf(reply, 'delete', request, id, undefined, prepared);
    return reply.status(204).send(null);
  };

  const conditional = conditionalHeaders('If-Match', 'If-None-Match');

  /**
   * The endpoints, one row each: the operation that offers it, method and path, who may call it
   * (the resource's readers, its writers, or admins), its schema and handler. Those the
   * definition offers are registered below, all the same way.
   */
  const endpoints: Endpoint[] = [
    {
      operation: 'list',
      method: 'GET',
      url: '/',
      who: 'read',
      schema: { querystring: listQuerySchema(definition), response: responses({ 200: page }) },
      handler: (request, reply) =>
        sendListPage(request, reply, db, definition, request.query as ListQuery),
    },
    {
      operation: 'bulk-create',
      method: 'POST',
      url: '/',
      who: 'write',
      // The document's text/csv body is described in http/openapi.ts (csv-import.ts).
      schema: {
        consumes: ['application/json', CSV_CONTENT_TYPE],
        body: createBodySchema(definition),
        response: responses({ 201: withEtagHeader(createdSchema(definition)) }),
      },
      handler: createRecords,
    },
    {
      // A resource offering bulk create answers POST / with it: this is the one-record POST.
      operation: has('bulk-create') ? undefined : 'create',
      method: 'POST',
      url: '/',
      who: 'write',
      schema: {
        body: withExample(
          fullRecordSchema(definition, definition.createInputs),
          exampleRecord(definition, definition.createInputs),
        ),
        response: responses({
          201: withEtagHeader(Type.Object({ ...record.properties, ...definition.createdFields })),
        }),
      },
      handler: (request, reply) => createOne(request, reply, request.body as Row),
    },
    {
      operation: 'batch-update',
      method: 'PATCH',
      url: '/',
      who: 'write',
      // The document's text/csv body is described in http/openapi.ts (csv-import.ts).
      schema: {
        consumes: ['application/json', CSV_CONTENT_TYPE],
        body: batchUpdateSchema(definition),
        response: responses({ 200: BatchResult, 412: PreconditionFailed }),
      },
      handler: updateRecords,
    },
    {
      operation: 'batch-delete',
      method: 'DELETE',
      url: '/',
      who: 'write',
      schema: { body: BatchDeleteBody, response: responses({ 200: BatchResult }) },
      handler: deleteRecords,
    },
    {
      operation: 'read',
      method: 'GET',
      url: '/:id',
      who: 'read',
      schema: {
        params: IdParams,
        querystring: readQuerySchema(definition),
        headers: conditionalHeaders('If-None-Match'),
        response: responses({
          200: withEtagHeader(recordSchema(definition, true)),
          304: NotModified,
        }),
      },
      handler: readRecord,
    },
    {
      operation: 'replace',
      method: 'PUT',
      url: '/:id',
      who: 'write',
      schema: {
        params: IdParams,
        headers: conditional,
        body: definition.putChangesFieldsSent ? partialRecord : fullRecord,
        response: responses({ 200: withEtagHeader(record), 412: PreconditionFailed }),
      },
      handler: replaceRecord,
    },
    {
      operation: 'update',
      method: 'PATCH',
      url: '/:id',
      who: 'write',
      schema: {
        params: IdParams,
        headers: conditional,
        body: partialRecord,
        response: responses({ 200: withEtagHeader(record), 412: PreconditionFailed }),
      },
      handler: updateRecord,
    },
    {
      operation: 'delete',
      method: 'DELETE',
      url: '/:id',
      who: 'write',
      schema: {
        params: IdParams,
        headers: conditional,
        response: responses({ 204: NoContent, 412: PreconditionFailed }),
      },
      handler: deleteRecord,
    },
    {
      // The record's change history: its audit rows, newest first, paged like every list.
      // Admins only, like the audit log. A deleted record's history stays readable; an id never
      // written has an empty one.
      operation: 'history',
      method: 'GET',
      url: '/:id/history',
      who: ['admin'],
      schema: {
        params: IdParams,
        querystring: listQuerySchema(auditLogs, ['resource_type', 'resource_id']),
        response: responses({ 200: pageSchema(auditLogs) }),
      },
      handler: (request, reply) =>
        sendListPage(request, reply, db, auditLogs, request.query as ListQuery, {
          resource_type: definition.name,
          // Audit rows hold the id as PostgreSQL writes uuids.
          resource_id: (request.params as { id: string }).id.toLowerCase(),
        }),
    },
  ];

  for (const { operation, method, url, who, schema, handler } of endpoints) {
    if (operation === undefined || !has(operation)) continue;
    // Bulk create is the resource's create: its access and summary are create's.
    const named = operation === 'bulk-create' ? 'create' : operation;
    const { config, summary } =
      who === 'read' ? reading(named) : who === 'write' ? writing(named) : route(named, who);
    app.route({ method, url, config, schema: { ...summary, ...schema }, handler });
  }

  for (const child of definition.children ?? []) {
    const childDefinition = resourceByName(child.resource);
    const parentMustExist = async (id: string) => {
      if (!(await rowExists(db, definition, id))) throw notFound(definition.notFoundMessage);
    };

    app.get(
      `/:id/${child.listPath}`,
      {
        config: reading('list').config,
        schema: {
          summary: `List the ${child.resource} of one of ${definition.name}`,
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
      {
        config: reading('list').config,
        schema: {
          summary: `Count the ${child.resource} of one of ${definition.name}`,
          params: IdParams,
          // The nested list's filters: the count is that list's total_count (the parent in
          // the path, as there).
          querystring: countQuerySchema(childDefinition, [child.foreignKey]),
          response: responses({ 200: CountResult }),
        },
      },
      async (request) => {
        const { id } = request.params;
        await parentMustExist(id);
        const conditions = parseConditions(childDefinition, {
          ...(request.query as Row),
          [child.foreignKey]: id,
        });
        const count = await countMatching(db, app.listCache, childDefinition, conditions);
        return { status: 'success' as const, count };
      },
    );
  }
};
