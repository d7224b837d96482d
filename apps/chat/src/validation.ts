import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';

/** The part of a TypeBox (or Ajv-shaped) validation error this module reads. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string | undefined;
}

/** `/services/twitter/appId` -> `services.twitter.appId`; the root is `root`. */
function dotted(instancePath: string, root: string): string {
  if (instancePath === '') return root;
  const path = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
  return root === '' ? path : `${root}.${path}`;
}

const join = (parent: string, child: string) => (parent === '' ? child : `${parent}.${child}`);

/**
 * One message for a list of schema errors, naming the field: `expiresIn: must be integer`,
 * `services.twitter.appSecret: required`. The most useful error is picked: a missing property,
 * then an unexpected one, then the first type or value error; union branches are summarised.
 */
export function describeSchemaErrors(errors: readonly SchemaError[], root = ''): string {
  const required = errors.find((error) => error.keyword === 'required');
  if (required) {
    // Every missing property of that object at once: a client fixes its request in one go.
    const missing = new Set<string>();
    for (const error of errors) {
      if (error.keyword !== 'required' || error.instancePath !== required.instancePath) continue;
      for (const name of (error.params.requiredProperties as string[] | undefined) ?? ['?']) {
        missing.add(join(dotted(required.instancePath, root), name));
      }
    }
    return `${[...missing].join(', ')}: required`;
  }
  const extra = errors.find((error) => error.keyword === 'additionalProperties');
  if (extra) {
    const name = (extra.params.additionalProperties as string[] | undefined)?.[0] ?? '?';
    return `${join(dotted(extra.instancePath, root), name)}: unknown property`;
  }
  const union = errors.find((error) => error.keyword === 'anyOf');
  if (union) {
    const allowed = errors
      .filter((error) => error.keyword === 'const' && error.instancePath === union.instancePath)
      .map((error) => JSON.stringify(error.params.allowedValue));
    const what = allowed.length > 0 ? `must be one of ${allowed.join(', ')}` : 'has a wrong type';
    return `${dotted(union.instancePath, root) || 'value'}: ${what}`;
  }
  const first = errors.find((error) => error.keyword !== 'boolean') ?? errors[0];
  if (!first) return `${root || 'value'}: invalid`;
  return `${dotted(first.instancePath, root) || 'body'}: ${first.message ?? 'invalid'}`;
}

/**
 * One message per field at fault (`describeSchemaErrors` of each field's errors), for a reader
 * that fixes everything in one go: a services file. Each unknown property is a field of its own.
 */
export function describeEachSchemaError(errors: readonly SchemaError[], root = ''): string[] {
  const byField = new Map<string, SchemaError[]>();
  const add = (field: string, error: SchemaError) =>
    byField.set(field, [...(byField.get(field) ?? []), error]);
  for (const error of errors) {
    // `schema is false` at an unknown property repeats its `additionalProperties` error.
    if (error.keyword === 'boolean') continue;
    if (error.keyword === 'additionalProperties') {
      // One error names every unknown property of its object: each becomes a field of its own.
      const names = (error.params.additionalProperties as string[] | undefined) ?? ['?'];
      for (const name of names) {
        add(`${error.instancePath}/${name}`, {
          ...error,
          params: { ...error.params, additionalProperties: [name] },
        });
      }
      continue;
    }
    add(`${error.keyword === 'required' ? 'required' : ''}${error.instancePath}/`, error);
  }
  return [...byField.values()].map((fieldErrors) => describeSchemaErrors(fieldErrors, root));
}

const compiled = new WeakMap<TSchema, Validator>();

/** A compiled validator per schema, built on first use. */
export function validatorFor<T extends TSchema>(schema: T): Validator<Record<never, never>, T> {
  let validator = compiled.get(schema);
  if (!validator) {
    validator = Compile(schema);
    compiled.set(schema, validator);
  }
  return validator as unknown as Validator<Record<never, never>, T>;
}
