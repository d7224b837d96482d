import { isIP } from 'node:net';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Two validators instead of Fastify's one. Query strings and path parameters arrive as text, so
 * they are coerced to the schema's types (`?limit=5` -> 5, a single `sortby` -> a one-item
 * array). Bodies are JSON and already typed: coercing them would turn `{"mtu": 0}` into null
 * for a nullable column or `{"vlan_id": true}` into VLAN 1, so a body must match as sent.
 * Unknown fields are reported, never silently removed.
 */
function createAjv(coerceTypes: Options['coerceTypes']) {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    // Fastify's own choice: allErrors makes validation cost grow with hostile input.
    allErrors: false,
    // TypeBox schemas carry no unknown keywords, but stay lenient like Fastify's default.
    strict: false,
  });
  addFormats.default(ajv);
  // Any IPv4 or IPv6 address, as the database's inet type accepts for a host.
  ajv.addFormat('ip', (value: string) => isIP(value) !== 0);
  return ajv;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * A body that is one record or an array of them (bulk create): `anyOf: [object, array]`. Ajv
 * would report both branches' errors, the first of which ("must be object") says nothing about
 * an array's bad item; validated by the branch its JSON type picks, an error names the item
 * and the field (`body/3/hostname ...`).
 */
function oneOrMany(schema: unknown): { one: object; many: object } | undefined {
  const branches = (schema as { anyOf?: Array<{ type?: unknown }> }).anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const one = branches.find((branch) => branch.type === 'object');
  const many = branches.find((branch) => branch.type === 'array');
  return one && many ? { one, many } : undefined;
}

export function createValidatorCompiler(): FastifySchemaCompiler<object> {
  const strict = createAjv(false);
  const coercing = createAjv('array');
  return ({ schema, httpPart }) => {
    const branches = httpPart === 'body' ? oneOrMany(schema) : undefined;
    if (branches) {
      const one = strict.compile(branches.one);
      const many = strict.compile(branches.many);
      const validate: Validate = (data) => {
        const chosen = Array.isArray(data) ? many : one;
        const valid = chosen(data);
        validate.errors = chosen.errors;
        return valid;
      };
      return validate as ReturnType<FastifySchemaCompiler<object>>;
    }
    return (httpPart === 'body' ? strict : coercing).compile(schema) as ReturnType<
      FastifySchemaCompiler<object>
    >;
  };
}

let valueChecker: ReturnType<typeof createAjv> | undefined;
const compiledChecks = new WeakMap<object, (value: unknown) => boolean>();

/**
 * Whether `value` matches `schema` as a body value would (no coercion), with the same formats
 * as requests: for values the schemas cannot see whole, such as the items of a `__in` list.
 */
export function matchesSchema(schema: object, value: unknown): boolean {
  let check = compiledChecks.get(schema);
  if (!check) {
    valueChecker ??= createAjv(false);
    const validate = valueChecker.compile(schema);
    check = (candidate) => validate(candidate) === true;
    compiledChecks.set(schema, check);
  }
  return check(value);
}

const compiledValidators = new WeakMap<
  object,
  ReturnType<ReturnType<typeof createAjv>['compile']>
>();

/**
 * Why `value` does not match `schema` (as a body would be validated), as ` (<field>): <reason>`,
 * or undefined when it matches: for records read from a file, whose errors must name the row.
 */
export function matchingErrors(schema: object, value: unknown): string | undefined {
  let validate = compiledValidators.get(schema);
  if (!validate) {
    valueChecker ??= createAjv(false);
    validate = valueChecker.compile(schema);
    compiledValidators.set(schema, validate);
  }
  if (validate(value)) return undefined;
  const [issue] = validate.errors ?? [];
  if (!issue) return ': invalid';
  const field =
    issue.keyword === 'required'
      ? String(issue.params.missingProperty)
      : issue.keyword === 'additionalProperties'
        ? String(issue.params.additionalProperty)
        : issue.instancePath.replace(/^\//, '');
  return ` (${field}): ${issue.keyword === 'required' ? 'is required' : (issue.message ?? 'is invalid')}`;
}
