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

/** A problem with some fields: the dotted keys it names, and what is wrong with them. */
export interface FieldProblem {
  keys: string[];
  message: string;
}

/** `keys: message`, as error messages write a problem. */
export const formatFieldProblem = ({ keys, message }: FieldProblem) =>
  `${keys.join(', ')}: ${message}`;

/**
 * The problem a list of schema errors reports, naming its fields: `expiresIn` must be integer,
 * `services.twitter.appSecret` is required. The most useful error is picked: a missing property,
 * then an unexpected one, then the first type or value error; union branches are summarised.
 */
export function schemaErrorProblem(errors: readonly SchemaError[], root = ''): FieldProblem {
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
    return { keys: [...missing], message: 'required' };
  }
  const extra = errors.find((error) => error.keyword === 'additionalProperties');
  if (extra) {
    const name = (extra.params.additionalProperties as string[] | undefined)?.[0] ?? '?';
    return { keys: [join(dotted(extra.instancePath, root), name)], message: 'unknown property' };
  }
  const union = errors.find((error) => error.keyword === 'anyOf');
  if (union) {
    const allowed = errors
      .filter((error) => error.keyword === 'const' && error.instancePath === union.instancePath)
      .map((error) => JSON.stringify(error.params.allowedValue));
    const what = allowed.length > 0 ? `must be one of ${allowed.join(', ')}` : 'has a wrong type';
    return { keys: [dotted(union.instancePath, root) || 'value'], message: what };
  }
  const first = errors.find((error) => error.keyword !== 'boolean') ?? errors[0];
  if (!first) return { keys: [root || 'value'], message: 'invalid' };
  return {
    keys: [dotted(first.instancePath, root) || 'body'],
    message: first.message ?? 'invalid',
  };
}

/** `schemaErrorProblem` as one message: `expiresIn: must be integer`. */
export const describeSchemaErrors = (errors: readonly SchemaError[], root = '') =>
  formatFieldProblem(schemaErrorProblem(errors, root));

/**
 * One problem per field at fault (`schemaErrorProblem` of each field's errors), for a reader
 * that fixes everything in one go: a services file. Each unknown property is a field of its own.
 */
export function eachSchemaErrorProblem(errors: readonly SchemaError[], root = ''): FieldProblem[] {
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
  return [...byField.values()].map((fieldErrors) => schemaErrorProblem(fieldErrors, root));
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
