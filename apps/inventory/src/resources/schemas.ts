import { type TSchema, Type } from 'typebox';
import { filterableColumns, type ResourceDefinition, systemColumnsOf } from './definition.js';

/**
 * HTTP schemas derived from a resource definition. One schema validates a request part, types
 * it, and (part 2) documents it in OpenAPI. Unknown fields are rejected, never silently dropped.
 */

/** Batches beyond this are refused: one transaction should not hold its locks for minutes. */
export const MAX_BATCH_ITEMS = 1000;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE = 1_000_000;

export const IdParams = Type.Object(
  { id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);

/** An optional column accepts null too: that is how a client clears it. */
function fieldSchema(definition: ResourceDefinition, name: string, optional: boolean): TSchema {
  const column = definition.columns[name];
  if (!column) throw new Error(`${definition.name} has no column ${name}`);
  const value = column.required ? column.schema : Type.Union([column.schema, Type.Null()]);
  return optional ? Type.Optional(value) : value;
}

/** POST and PUT: a whole record; required columns must be there. */
export function fullRecordSchema(
  definition: ResourceDefinition,
  extraProperties: Record<string, TSchema> = {},
) {
  const properties: Record<string, TSchema> = { ...extraProperties };
  for (const [name, column] of Object.entries(definition.columns)) {
    properties[name] = fieldSchema(definition, name, !column.required);
  }
  return Type.Object(properties, { additionalProperties: false });
}

/** PATCH: any non-empty subset of the columns. */
export function partialRecordSchema(definition: ResourceDefinition) {
  const properties: Record<string, TSchema> = {};
  for (const name of Object.keys(definition.columns)) {
    properties[name] = fieldSchema(definition, name, true);
  }
  return Type.Object(properties, { additionalProperties: false, minProperties: 1 });
}

/** Batch PATCH: `[{id, ...fields}]`. */
export function batchUpdateSchema(definition: ResourceDefinition) {
  const properties: Record<string, TSchema> = { id: Type.String({ format: 'uuid' }) };
  for (const name of Object.keys(definition.columns)) {
    properties[name] = fieldSchema(definition, name, true);
  }
  return Type.Array(Type.Object(properties, { additionalProperties: false, minProperties: 2 }), {
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
  });
}

/** Batch DELETE: `[uuid, ...]`, each at most once. */
export const BatchDeleteBody = Type.Array(Type.String({ format: 'uuid' }), {
  minItems: 1,
  maxItems: MAX_BATCH_ITEMS,
  uniqueItems: true,
});

/** List query: paging, sorting, and one exact-match filter per filterable column. */
export function listQuerySchema(definition: ResourceDefinition, exclude: readonly string[] = []) {
  const properties: Record<string, TSchema> = {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 })),
    // No maximum: larger sizes are clamped to MAX_PAGE_SIZE, and meta.limit says so.
    limit: Type.Optional(Type.Integer({ minimum: 1, default: DEFAULT_PAGE_SIZE })),
    // Repeatable; the validator turns a single value into a one-item array. The grammar
    // (field:asc|desc over the allow-list) is checked by parseSortKeys for a clearer message.
    sortby: Type.Optional(Type.Array(Type.String(), { maxItems: 10 })),
  };
  for (const name of filterableColumns(definition)) {
    if (exclude.includes(name)) continue;
    const column = definition.columns[name];
    if (column) properties[name] = Type.Optional(column.schema);
  }
  if (definition.timeRange !== undefined) {
    properties.from = Type.Optional(Type.String({ format: 'date-time' }));
    properties.to = Type.Optional(Type.String({ format: 'date-time' }));
  }
  return Type.Object(properties, { additionalProperties: false });
}

/** A record as the API returns it: every visible column, always present. */
export function recordSchema(definition: ResourceDefinition) {
  const properties: Record<string, TSchema> = { id: Type.String({ format: 'uuid' }) };
  for (const name of Object.keys(definition.columns)) {
    properties[name] = fieldSchema(definition, name, false);
  }
  for (const column of systemColumnsOf(definition)) {
    if (column !== 'id') properties[column] = Type.String({ format: 'date-time' });
  }
  return Type.Object(properties);
}

export function pageSchema(definition: ResourceDefinition) {
  return Type.Object({
    meta: Type.Object({
      current_page: Type.Integer(),
      limit: Type.Integer(),
      total_pages: Type.Integer(),
      total_count: Type.Integer(),
    }),
    data: Type.Array(recordSchema(definition)),
  });
}

/** 204: no body at all. */
export const NoContent = Type.Null();

export const ErrorResponse = Type.Object({
  status: Type.Literal('error'),
  message: Type.String(),
});

export const BatchResult = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  count: Type.Integer(),
});

export const CountResult = Type.Object({
  status: Type.Literal('success'),
  count: Type.Integer(),
});

export const SuccessMessage = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
});

/** A route's response schemas: its success shapes plus the error shape for every failure. */
export function responses<Success extends Record<number, TSchema>>(success: Success) {
  return { ...success, '4xx': ErrorResponse, '5xx': ErrorResponse } as const;
}
