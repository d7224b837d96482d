import { type TSchema, Type } from 'typebox';
import { ONE_OR_MANY } from '../http/serialization.js';
import { MAX_CURSOR_LENGTH } from './cursor.js';
import {
  EXPECTED,
  filterableColumns,
  MAX_TAGS_PER_RECORD,
  RECORD_ID,
  type ResourceDefinition,
  secretColumns,
  sortableColumns,
  systemColumnsOf,
  TagSchema,
  tagColumns,
  writableColumns,
  writtenValueSchema,
} from './definition.js';
import { ENTITY_TAG_PATTERN, MAX_CONDITION_TAGS, TAG_CONDITION_PATTERN } from './etags.js';
import {
  filterValueSchema,
  IN_MAX_VALUES,
  lookupParameters,
  lookupSchema,
  MatchText,
} from './lookups.js';

/**
 * HTTP schemas derived from a resource definition. One schema validates a request part, types
 * it, and (part 2) documents it in OpenAPI. Unknown fields are rejected, never silently dropped.
 */

/** Batches beyond this are refused: one transaction should not hold its locks for minutes. */
export const MAX_BATCH_ITEMS = 1000;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE = 1_000_000;

/**
 * `limit` of every paged list: 1 to MAX_PAGE_SIZE, anything else refused with 400 naming it (the
 * document's maximum is the server's).
 */
export const PageSize = Type.Integer({
  minimum: 1,
  maximum: MAX_PAGE_SIZE,
  default: DEFAULT_PAGE_SIZE,
  description: `Items per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`,
});

/**
 * One sort key, `<field>:asc` or `<field>:desc`, over the fields a list sorts by: the pattern
 * documents them and the validator enforces it (a bad key is a 400 naming it).
 */
export function sortKeySchema(fields: readonly string[]) {
  const grammar = `\`<field>:asc\` or \`<field>:desc\`, where <field> is one of ${fields.join(', ')}`;
  return Type.String({
    pattern: `^(${fields.join('|')}):(asc|desc)$`,
    description: grammar,
    [EXPECTED]: grammar,
  });
}

export const IdParams = Type.Object(
  { id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);

/**
 * An optional column accepts null too: that is how a client clears it. A value written
 * (`written`: a request body's) is checked as writtenValueSchema says; an answer shows what is
 * stored.
 */
function fieldSchema(
  definition: ResourceDefinition,
  name: string,
  optional: boolean,
  written = true,
): TSchema {
  const column = definition.columns[name];
  if (!column) throw new Error(`${definition.name} has no column ${name}`);
  const schema = written ? writtenValueSchema(column) : column.schema;
  const value = column.required || column.notNull ? schema : Type.Union([schema, Type.Null()]);
  const form = written ? otherFormOf(definition, name) : undefined;
  const described = form
    ? {
        ...value,
        description: `The value of \`${form}\` in another form: a write giving either sets both (null clears both; both given must agree, else 400).`,
      }
    : value;
  return optional ? Type.Optional(described) : described;
}

/** The column that holds the same value as `name` in another form (ColumnDefinition.formOf). */
function otherFormOf(definition: ResourceDefinition, name: string): string | undefined {
  const own = definition.columns[name]?.formOf?.column;
  if (own !== undefined) return own;
  return Object.entries(definition.columns).find(
    ([, column]) => column.formOf?.column === name,
  )?.[0];
}

/** POST and PUT: a whole record; required columns must be there. */
export function fullRecordSchema(
  definition: ResourceDefinition,
  extraProperties: Record<string, TSchema> = {},
) {
  const properties: Record<string, TSchema> = { ...extraProperties };
  for (const [name, column] of Object.entries(definition.columns)) {
    if (column.readOnly) continue;
    properties[name] = fieldSchema(definition, name, !column.required);
  }
  return Type.Object(properties, { additionalProperties: false });
}

/** Documentation addresses (RFC 5737, RFC 3849), times and ids an example can hold. */
const EXAMPLE_BY_FORMAT: Readonly<Record<string, unknown>> = {
  ip: '192.0.2.10',
  uuid: '00000000-0000-4000-8000-000000000000',
  'date-time': '2026-01-01T00:00:00Z',
  email: 'someone@example.com',
};

/**
 * A value `schema` accepts, for the document's examples: the schema's own `examples`, else one
 * made from its type, format and bounds (`example-<name>` for text). Undefined when none can be
 * made without knowing more (a pattern without an example).
 */
export function exampleValue(schema: TSchema, name: string): unknown {
  const given = (schema as { examples?: unknown[] }).examples?.[0];
  if (given !== undefined) return given;
  const shape = schema as {
    anyOf?: TSchema[];
    const?: unknown;
    type?: string;
    format?: string;
    pattern?: string;
    minimum?: number;
    minLength?: number;
    maxLength?: number;
    minItems?: number;
    items?: TSchema;
  };
  if (shape.const !== undefined) return shape.const;
  if (shape.anyOf) return exampleValue(shape.anyOf[0] as TSchema, name);
  switch (shape.type) {
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return Math.max(shape.minimum ?? 1, 1);
    case 'array': {
      if (!shape.minItems) return [];
      const item = shape.items && exampleValue(shape.items, name);
      return item === undefined ? undefined : [item];
    }
    case 'string': {
      if (shape.format) return EXAMPLE_BY_FORMAT[shape.format];
      if (shape.pattern) return undefined;
      const text = `example-${name}`.padEnd(shape.minLength ?? 0, '0');
      return text.slice(0, shape.maxLength ?? text.length);
    }
    default:
      return undefined;
  }
}

/**
 * The example of a create's body: the required fields and those with a default, each with a
 * value it accepts, so that "Try it out" creates a record. A required reference holds a
 * placeholder id: the record it names must exist (the first created of that resource).
 */
export function exampleRecord(
  definition: ResourceDefinition,
  extraProperties: Record<string, TSchema> = {},
): Record<string, unknown> | undefined {
  const example: Record<string, unknown> = {};
  const fields: Array<[string, TSchema, unknown]> = [
    ...Object.entries(extraProperties).map(([name, schema]): [string, TSchema, unknown] => [
      name,
      schema,
      undefined,
    ]),
    ...Object.entries(definition.columns)
      .filter(([, column]) => !column.readOnly && (column.required || column.default !== undefined))
      .map(([name, column]): [string, TSchema, unknown] => [name, column.schema, column.default]),
  ];
  for (const [name, schema, fallback] of fields) {
    const optional = (schema as { '~optional'?: boolean })['~optional'] === true;
    const value = fallback ?? exampleValue(schema, name);
    if (value === undefined) {
      if (optional) continue;
      return undefined;
    }
    example[name] = value;
  }
  return example;
}

/** A schema with the example its document shows, when one can be made. */
export const withExample = <T extends TSchema>(schema: T, example: unknown): T =>
  example === undefined ? schema : { ...schema, examples: [example] };

/** POST: one record, or an array of 1 to MAX_BATCH_ITEMS records created all or none. */
export function createBodySchema(definition: ResourceDefinition) {
  const record = fullRecordSchema(definition);
  const example = exampleRecord(definition);
  return Type.Union([record, Type.Array(record, { minItems: 1, maxItems: MAX_BATCH_ITEMS })], {
    description: `One record, or an array of 1 to ${MAX_BATCH_ITEMS} created all or none.`,
    ...(example ? { examples: [example] } : {}),
  });
}

/** POST's answer: the record, or the records in the order sent. */
export function createdSchema(definition: ResourceDefinition) {
  const record = recordSchema(definition);
  return Type.Union([record, Type.Array(record)], { [ONE_OR_MANY]: true });
}

/** PATCH: any non-empty subset of the columns. */
export function partialRecordSchema(definition: ResourceDefinition) {
  const properties: Record<string, TSchema> = {};
  for (const name of writableColumns(definition)) {
    properties[name] = fieldSchema(definition, name, true);
  }
  return Type.Object(properties, { additionalProperties: false, minProperties: 1 });
}

/** Tags a batch PATCH item adds to or removes from what the record has (write-only). */
export const TAG_CHANGES = ['add_tags', 'remove_tags'] as const;

/**
 * Why a batch PATCH item cannot be applied: it gives tag changes beside the tags they would
 * change (`add_tags cannot be combined with tags`), or undefined.
 */
export function tagChangesConflict(
  definition: ResourceDefinition,
  item: Record<string, unknown>,
): string | undefined {
  const changes = TAG_CHANGES.filter((change) => item[change] !== undefined);
  if (changes.length === 0) return undefined;
  const replaced = tagColumns(definition).filter((column) => item[column] !== undefined);
  return replaced.length > 0
    ? `${changes.join(' and ')} cannot be combined with ${replaced.join(', ')}`
    : undefined;
}

/** Batch PATCH: `[{id, ...fields}]`, and `add_tags`/`remove_tags` where there are tags. */
export function batchUpdateSchema(definition: ResourceDefinition) {
  const properties: Record<string, TSchema> = { id: Type.String({ format: 'uuid' }) };
  for (const name of writableColumns(definition)) {
    properties[name] = fieldSchema(definition, name, true);
  }
  properties.etag = Type.Optional(
    Type.String({
      maxLength: 256,
      pattern: ENTITY_TAG_PATTERN,
      description:
        'The record\'s ETag as last read (`"123"`): the batch is refused with 412, and nothing ' +
        'changed, if the record has changed since.',
    }),
  );
  if (tagColumns(definition).length > 0) {
    for (const change of TAG_CHANGES) {
      properties[change] = Type.Optional(
        Type.Array(TagSchema, {
          maxItems: MAX_TAGS_PER_RECORD,
          description:
            change === 'add_tags'
              ? 'Tags to add to those the record has (instead of `tags`).'
              : 'Tags to remove from those the record has (instead of `tags`).',
        }),
      );
    }
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

/** `?fields=` and `?brief=`, on lists and single reads. */
export function fieldSelectionSchema(definition: ResourceDefinition) {
  const secrets = secretColumns(definition);
  const names = [...systemColumnsOf(definition), ...Object.keys(definition.columns)].filter(
    (name) => !secrets.includes(name),
  );
  return {
    fields: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: `Comma-separated fields to return (others are left out): ${names.join(', ')}.`,
      }),
    ),
    brief: Type.Optional(
      Type.Boolean({ description: "Return only the id and the record's name field." }),
    ),
  };
}

/** A single read's query: field selection only. */
export function readQuerySchema(definition: ResourceDefinition) {
  return Type.Object(fieldSelectionSchema(definition), { additionalProperties: false });
}

/**
 * The filters of a list: one exact match per filterable column (but those in `exclude`), its
 * lookups (lookups.ts), and `q` where the resource declares search.
 */
function filterProperties(definition: ResourceDefinition, exclude: readonly string[]) {
  const properties: Record<string, TSchema> = {};
  const filterable = filterableColumns(definition).filter((name) => !exclude.includes(name));
  for (const name of filterable) {
    const column = definition.columns[name];
    if (column) properties[name] = Type.Optional(filterValueSchema(column));
  }
  for (const [name, schema] of Object.entries(lookupParameters(definition, filterable))) {
    properties[name] = Type.Optional(schema);
  }
  properties.id__in = Type.Optional({
    ...lookupSchema(RECORD_ID, 'in'),
    description: `Records by id: comma-separated ids (at most ${IN_MAX_VALUES}).`,
  });
  if (definition.search && definition.search.length > 0) {
    properties.q = Type.Optional({
      ...MatchText,
      description: `Case-insensitive search in ${definition.search.join(', ')}.`,
    });
  }
  return properties;
}

/**
 * A count's query: the filters of the list it counts (filterProperties), nothing else, so it is
 * the `total_count` that list gives with the same filters; any other parameter is 400.
 */
export function countQuerySchema(definition: ResourceDefinition, exclude: readonly string[] = []) {
  return Type.Object(filterProperties(definition, exclude), { additionalProperties: false });
}

/**
 * List query: paging (page or cursor), sorting, field selection, one exact-match filter per
 * filterable column and its lookups (lookups.ts), and `q` where the resource declares search.
 */
export function listQuerySchema(definition: ResourceDefinition, exclude: readonly string[] = []) {
  const properties: Record<string, TSchema> = {
    // No default here: a page given with a cursor is refused, so its absence must show.
    page: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_PAGE, description: 'Page number (default 1).' }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_CURSOR_LENGTH,
        description:
          "Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for " +
          'the same resource, sort and filters.',
      }),
    ),
    ...fieldSelectionSchema(definition),
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('csv')], {
        description:
          '`csv`: every matching row as text/csv (header row of the selected fields; cells ' +
          "starting with = + - @ are prefixed with '; tags joined by commas). Also " +
          '`Accept: text/csv`. Not with page or cursor.',
      }),
    ),
    limit: Type.Optional(PageSize),
    // Repeatable; the validator turns a single value into a one-item array.
    sortby: Type.Optional(
      Type.Array(sortKeySchema(sortableColumns(definition)), {
        maxItems: 10,
        description:
          'Sort keys applied in the order given (repeat the parameter for more than one); by ' +
          'id last, so the order is total.',
      }),
    ),
  };
  Object.assign(properties, filterProperties(definition, exclude));
  if (definition.timeRange !== undefined) {
    properties.from = Type.Optional(Type.String({ format: 'date-time' }));
    properties.to = Type.Optional(Type.String({ format: 'date-time' }));
  }
  return Type.Object(properties, { additionalProperties: false });
}

/**
 * A record as the API returns it: every visible column, always present; or, where a read may
 * choose its fields (`selectable`: lists and single reads), each present unless left out.
 */
export function recordSchema(definition: ResourceDefinition, selectable = false) {
  const maybe = (schema: TSchema) => (selectable ? Type.Optional(schema) : schema);
  const properties: Record<string, TSchema> = { id: maybe(Type.String({ format: 'uuid' })) };
  for (const [name, column] of Object.entries(definition.columns)) {
    // Write-only: never part of an answer.
    if (column.secret) continue;
    properties[name] = maybe(fieldSchema(definition, name, false, false));
  }
  for (const column of systemColumnsOf(definition)) {
    if (column !== 'id') properties[column] = maybe(Type.String({ format: 'date-time' }));
  }
  return Type.Object(
    properties,
    selectable
      ? { description: 'Every field, or only those chosen with `fields` or `brief`.' }
      : {},
  );
}

export function pageSchema(definition: ResourceDefinition) {
  return Type.Object({
    meta: Type.Object({
      // null on a page read with a cursor (it has a position, not a number).
      current_page: Type.Union([Type.Integer(), Type.Null()]),
      limit: Type.Integer(),
      total_pages: Type.Integer(),
      total_count: Type.Integer(),
      next_cursor: Type.Union([Type.String(), Type.Null()]),
    }),
    data: Type.Array(recordSchema(definition, true)),
  });
}

/**
 * An answer that carries the record's ETag header (a read, a create, PUT, PATCH): declared on its
 * schema, where @fastify/swagger documents response headers; the serialiser ignores it.
 */
export const withEtagHeader = <T extends TSchema>(schema: T): T => ({
  ...schema,
  headers: {
    ETag: Type.String({
      description:
        'The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or ' +
        '`brief` chose the fields): send it in If-Match to change this version only. A create ' +
        'of several records (an array, a CSV file) sends none.',
    }),
  },
});

/** 204: no body at all. */
export const NoContent = Type.Null();

/** 412: If-Match (or a batch item's `etag`) named a version the record no longer has. */
export const PreconditionFailed = Type.Object(
  { status: Type.Literal('error'), message: Type.String() },
  {
    description:
      'Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry.',
  },
);

/** 304: If-None-Match named the record's current ETag; no body. */
export const NotModified = Type.Null({ description: 'Not modified: the ETag sent is current.' });

/**
 * The conditional request headers a single-record route evaluates, documented (OpenAPI) and
 * bounded; their grammar is checked by etags.ts for an error naming them. Other headers pass. A
 * write route that does not declare one refuses it (http/routing.ts): never ignored.
 */
export function conditionalHeaders(...names: ReadonlyArray<'If-Match' | 'If-None-Match'>) {
  const described = {
    'If-Match':
      'Write only if the record\'s ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes.',
    'If-None-Match':
      "Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2).",
  } as const;
  const grammar = ` Grammar (RFC 9110 §13.1): \`*\`, or a comma-separated list of at most ${MAX_CONDITION_TAGS} entity tags \`"…"\` or \`W/"…"\`; anything else is 400.`;
  return Type.Object(
    Object.fromEntries(
      names.map((name) => [
        name.toLowerCase(),
        Type.Optional(
          Type.String({
            maxLength: 4096,
            pattern: TAG_CONDITION_PATTERN,
            description: described[name] + grammar,
          }),
        ),
      ]),
    ),
  );
}

export const ErrorResponse = Type.Object({
  status: Type.Literal('error'),
  message: Type.String(),
});

/** The error shape as one status of a route's answers, with when the route gives it. */
export const errorAnswer = (description: string) =>
  Type.Object({ status: Type.Literal('error'), message: Type.String() }, { description });

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
