import { Type } from 'typebox';
import {
  flag,
  jsonObject,
  listOf,
  outboundUrl,
  propertyNamesSchema,
  type ResourceDefinition,
  secretText,
  text,
} from '../resources/definition.js';
import { nameForm } from '../resources/lookups.js';

/** What a webhook may be told of: an audit action's event (create -> created, ...). */
export const WEBHOOK_EVENTS = ['created', 'updated', 'deleted'] as const;

/**
 * Header names a webhook may not set: hop-by-hop headers (RFC 9110 7.6.1), those the HTTP
 * client owns (host, length, content type, expect), a content coding the JSON body does not have
 * (a receiver would try to decompress it and fail), and the signature headers, which a
 * configured value would otherwise forge or hide.
 */
export const RESERVED_HEADER_NAMES = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'content-type',
  'expect',
  'content-encoding',
  'x-hook-signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
] as const;

/** Why each reserved name is refused, as the refusal of a webhook setting it says. */
const RESERVED_HEADER_REASONS: Record<
  (typeof RESERVED_HEADER_NAMES)[number],
  'hop' | 'own' | 'body' | 'signature'
> = {
  connection: 'hop',
  'keep-alive': 'hop',
  'proxy-authenticate': 'hop',
  'proxy-authorization': 'hop',
  'proxy-connection': 'hop',
  te: 'hop',
  trailer: 'hop',
  trailers: 'hop',
  'transfer-encoding': 'hop',
  upgrade: 'hop',
  host: 'own',
  'content-length': 'own',
  'content-type': 'own',
  expect: 'own',
  'content-encoding': 'body',
  'x-hook-signature': 'signature',
  'webhook-id': 'signature',
  'webhook-timestamp': 'signature',
  'webhook-signature': 'signature',
};
const REASON_WORDS: Record<'hop' | 'own' | 'body' | 'signature', string> = {
  hop: 'a hop-by-hop header, which a proxy would not pass on; remove it',
  own: 'set by the delivery itself; remove it',
  body: 'the delivery sends its JSON body as it is, which this would misdescribe; remove it',
  signature: 'the delivery signs each request with it; remove it',
};

export const MAX_WEBHOOK_HEADERS = 20;
export const MAX_HEADER_VALUE_LENGTH = 1024;
export const MAX_FILTER_FIELDS = 20;

/** `connection` -> `[cC][oO]...`: JSON Schema patterns have no case-insensitive flag. */
const anyCase = (name: string) =>
  [...name].map((char) => (/[a-z]/.test(char) ? `[${char}${char.toUpperCase()}]` : char)).join('');

/** An HTTP token (RFC 9110 5.6.2) that is not a reserved name, in any letter case. */
const HEADER_NAME_PATTERN = `^(?!(?:${RESERVED_HEADER_NAMES.map(anyCase).join('|')})$)[!#$%&'*+.^_\`|~0-9A-Za-z-]{1,64}$`;

/** Extra request headers: a visible value (tab and printable ASCII), no line breaks. */
export const WebhookHeaders = Type.Object(
  {},
  {
    additionalProperties: Type.String({
      minLength: 1,
      maxLength: MAX_HEADER_VALUE_LENGTH,
      pattern: '^[\\t\\x20-\\x7e]+$',
    }),
    propertyNames: propertyNamesSchema(
      HEADER_NAME_PATTERN,
      "a header name (1 to 64 letters, digits and !#$%&'*+.^_`|~-)",
      Object.fromEntries(
        Object.entries(RESERVED_HEADER_REASONS).map(([name, kind]) => [name, REASON_WORDS[kind]]),
      ),
    ),
    maxProperties: MAX_WEBHOOK_HEADERS,
    description: `Extra request headers (at most ${MAX_WEBHOOK_HEADERS}); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused.`,
  },
);

/** A field's wanted value: a scalar, or a list of scalars (contained: `{"tags": ["core"]}`). */
const FilterScalar = Type.Union([
  Type.String({ maxLength: 1000 }),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
]);

/** Matched as JSON containment against the record after the change (before it, for a delete). */
export const WebhookFilter = Type.Object(
  {},
  {
    additionalProperties: Type.Union([FilterScalar, Type.Array(FilterScalar, { maxItems: 50 })]),
    propertyNames: propertyNamesSchema(
      '^[a-z_][a-z0-9_]{0,62}$',
      'a field name (a lower-case letter or _, then up to 62 lower-case letters, digits and _)',
    ),
    maxProperties: MAX_FILTER_FIELDS,
    description:
      'Fields the record must have (JSON containment against the record after the change, before it for a delete), e.g. {"status": "maintenance"}; a list field matches when it holds every given item.',
  },
);

/**
 * A filter's values for the fields that are names (`nameFields`) in the form names are stored
 * in, NFC (nameForm): the filter is matched by JSON containment against the stored record, byte
 * for byte, so a name given decomposed would never match.
 */
function filterInNameForm(filter: unknown, nameFields: ReadonlySet<string>): unknown {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) return filter;
  const compose = (value: unknown) => (typeof value === 'string' ? nameForm(value) : value);
  return Object.fromEntries(
    Object.entries(filter).map(([field, wanted]) => [
      field,
      !nameFields.has(field)
        ? wanted
        : Array.isArray(wanted)
          ? wanted.map(compose)
          : compose(wanted),
    ]),
  );
}

/**
 * Outbound webhooks, declared like any resource. Admin only, reads included: URLs
 * and headers may carry a receiver's credentials. `resourceNames` are the resources a webhook
 * may name (every resource the API declares; the definition index passes them), `nameFields`
 * the fields of those resources that are names (ColumnDefinition.identifier).
 */
export function webhookDefinition(
  resourceNames: readonly string[],
  nameFields: readonly string[] = [],
): ResourceDefinition {
  const names = new Set(nameFields);
  return {
    name: 'webhooks',
    table: 'webhooks',
    notFoundMessage: 'Webhook not found',
    label: { singular: 'webhook', plural: 'webhooks' },
    writeRoles: ['admin'],
    readRoles: ['admin'],
    briefFields: ['name'],
    search: ['name', 'url'],
    columns: {
      name: text({
        identifier: true,
        required: true,
        unique: true,
        filterable: true,
        sortable: true,
      }),
      url: outboundUrl({ required: true }),
      events: {
        ...listOf(WEBHOOK_EVENTS, { default: [...WEBHOOK_EVENTS] }),
        schema: Type.Array(Type.Union(WEBHOOK_EVENTS.map((event) => Type.Literal(event))), {
          minItems: 1,
          uniqueItems: true,
          maxItems: WEBHOOK_EVENTS.length,
          description: 'Which changes are sent (default: all three).',
        }),
      },
      resources: {
        ...listOf(resourceNames),
        schema: Type.Array(Type.Union(resourceNames.map((name) => Type.Literal(name))), {
          uniqueItems: true,
          maxItems: resourceNames.length,
          description: 'Which resources are sent; every one when empty (default).',
        }),
      },
      filter: jsonObject(WebhookFilter),
      headers: jsonObject(WebhookHeaders, { notNull: true, default: {} }),
      enabled: flag({ default: true, filterable: true, sortable: true }),
      secret: secretText({
        minLength: 16,
        maxLength: 256,
      }),
    },
    constraintMessages: {
      webhooks_name_key: 'Webhook name already exists',
    },
    prepareWrite: (values) =>
      values.filter === undefined
        ? values
        : { ...values, filter: filterInNameForm(values.filter, names) },
  };
}
