import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

type Schema = Record<string, unknown>;

const JSON_TYPES = ['null', 'boolean', 'integer', 'number', 'string'] as const;
type JsonType = (typeof JSON_TYPES)[number];

/** The JSON type of a `const` value, or undefined when it is not a scalar. */
function typeOfConstant(value: unknown): JsonType | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean' || typeof value === 'string') return typeof value as JsonType;
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return undefined;
}

/**
 * The scalar types a schema admits and the one format it keeps, when it is a scalar or an anyOf
 * of scalars (nullable fields, unions of literals); undefined for anything else.
 */
function scalarTypes(schema: Schema): { types: Set<JsonType>; format?: string } | undefined {
  if ('const' in schema) {
    const type = typeOfConstant(schema.const);
    return type === undefined ? undefined : { types: new Set([type]) };
  }
  if (Array.isArray(schema.anyOf)) {
    const types = new Set<JsonType>();
    let format: string | undefined;
    for (const branch of schema.anyOf as Schema[]) {
      const inner = scalarTypes(branch);
      if (inner === undefined) return undefined;
      for (const type of inner.types) types.add(type);
      if (inner.format !== undefined) {
        if (format !== undefined && format !== inner.format) return undefined;
        format = inner.format;
      }
    }
    return { types, ...(format !== undefined ? { format } : {}) };
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.every((type) => JSON_TYPES.includes(type as JsonType))) return undefined;
  return {
    types: new Set(types as JsonType[]),
    ...(typeof schema.format === 'string' ? { format: schema.format } : {}),
  };
}

/** Marks an `anyOf: [record, array of records]` response whose arrays the route writes. */
export const ONE_OR_MANY = 'x-one-or-many';

const WRITING_FORMATS = new Set(['date-time', 'date', 'time']);

/**
 * The schema a response is written with. Serialising needs only JSON types, and for an `anyOf`
 * fast-json-stringify validates the value against each branch with Ajv to choose one: for a
 * page of 100 devices, more than a thousand validations (every nullable field and every
 * enumeration is an anyOf). An anyOf of scalars (`T | null`, a union of string literals) is
 * written instead as a list of types, which is a typeof check. The route's own schema, which
 * validates nothing on the way out and documents the API (OpenAPI), is left as it is.
 */
export function wireSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(wireSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  let object = schema as Schema;
  // Only the date formats change how a value is written (a Date as ISO text); the others (ip,
  // email, uuid) only validate input, and the serialiser's Ajv would warn about the custom ones.
  if (typeof object.format === 'string' && !WRITING_FORMATS.has(object.format)) {
    const { format: _validationOnly, ...rest } = object;
    object = rest;
  }
  // One record or an array of them (bulk create): the route writes arrays itself, so the
  // serialiser needs the record's branch only and never validates to pick one.
  if (object[ONE_OR_MANY] === true && Array.isArray(object.anyOf)) {
    const record = (object.anyOf as Schema[]).find((branch) => branch.type === 'object');
    if (record) return wireSchema(record);
  }
  if (Array.isArray(object.anyOf)) {
    const scalar = scalarTypes(object);
    if (scalar !== undefined) {
      const { anyOf: _branches, ...rest } = object;
      const types = [...scalar.types];
      return {
        ...rest,
        type: types.length === 1 ? types[0] : types,
        ...(scalar.format !== undefined ? { format: scalar.format } : {}),
      };
    }
  }
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, wireSchema(value)]));
}

/**
 * Fastify's serializer compiler (fast-json-stringify), over the wire schemas, each compiled at
 * its first use rather than when the server starts (as the validators, see validation.ts).
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => {
    serialize ??= fastJson(wireSchema(schema) as Parameters<typeof fastJson>[0]);
    return serialize(data);
  };
};
