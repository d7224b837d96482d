import { auditLogs } from '../audit/definition.js';
import { events } from '../events/definition.js';
import {
  type ColumnDefinition,
  type ColumnKind,
  filterableColumns,
  offers,
  type ResourceDefinition,
  type ResourceLabel,
  resourceLabel,
  secretColumns,
  sortableColumns,
  systemColumnsOf,
} from '../resources/definition.js';
import { RESOURCES } from '../resources/definitions/index.js';
import { kindOf, LOOKUPS_BY_KIND, type Lookup } from '../resources/lookups.js';

/**
 * What the interface knows about a resource, all of it read from the definition that drives the
 * API: labels, kinds, lookups, which columns sort and filter, who writes, and the relations
 * (references out, and the resources that reference it). Adding a resource or a column to a
 * definition adds it here; no page is written per resource.
 */
export interface UiColumn {
  name: string;
  label: string;
  kind: ColumnKind;
  filterable: boolean;
  sortable: boolean;
  writable: boolean;
  required: boolean;
  /** Never null (a status with a default): a form offers no empty choice for it. */
  notNull?: boolean;
  lookups: readonly Lookup[];
  /** The resource a reference column points to. */
  references?: string;
  /** The values of an enumeration (a select in forms and filters). */
  choices?: readonly string[];
  /**
   * An account's id kept without a foreign key (the audit trail's author: the trail outlives
   * deleted accounts). Accounts are no list of this interface: a filter on it is chosen by
   * username (accountChoices in routes.ts), not as a reference.
   */
  account?: boolean;
  secret: boolean;
  /**
   * Text that may run over several lines (ColumnDefinition.multiline: an address, a
   * description): a textarea in forms, shown with its line breaks.
   */
  multiline?: boolean;
}

export interface UiResource {
  definition: ResourceDefinition;
  name: string;
  /** The definition's label as in running text: "2 devices", "Add VLAN". */
  names: ResourceLabel;
  /** As a heading: "Devices", "VLANs". */
  label: string;
  /** As a heading: "Device", "VLAN". */
  singular: string;
  columns: readonly UiColumn[];
  /** Columns shown in a list when the user chose none. */
  defaultColumns: readonly string[];
  /** The field naming a record (hostname, name): the first of `titleFields`. */
  titleField: string | undefined;
  /**
   * The fields a record's title is made of (titleOf): its brief fields (a link: its two ends),
   * else its first column; a log's entry adds its required text (an event's message) and time.
   * A reference among them is shown by its record's title.
   */
  titleFields: readonly string[];
  /**
   * The required reference that makes a title unique (an interface's device: `xe-0/0/0` is one
   * on every device), when the title's one field is not unique by itself.
   */
  titleQualifier: string | undefined;
  tagColumn: string | undefined;
  /** Whether the resource declares fields a text search (`?q=`) looks in. */
  searchable: boolean;
  /** Resources with a column referencing this one: a record's related objects. */
  referencedBy: readonly { resource: string; column: string }[];
  /** Created only by systems (events): no create, edit or import pages. */
  readOnly: boolean;
  /**
   * Whether the API reads one record (`GET /<resource>/<id>`): only then has a record a page of
   * its own, and a list's rows link to it.
   */
  recordPages: boolean;
}

/** Words written differently from a capitalised field name. */
const WORDS: Readonly<Record<string, string>> = {
  ip: 'IP',
  os: 'OS',
  id: 'ID',
  mtu: 'MTU',
  mac: 'MAC',
  vlan: 'VLAN',
  url: 'URL',
  mbps: 'Mbps',
  ifindex: 'ifIndex',
};

/**
 * The name an account's id goes by in a resource (`user_id`): a UUID column of that name that
 * references nothing names an account (UiColumn.account).
 */
const ACCOUNT_ID_COLUMN = 'user_id';

/** `os_version` -> "OS version", `location_id` -> "Location", `a_interface_id` -> "A interface". */
export function labelOf(field: string): string {
  const words = field.replace(/_id$/, field === 'vlan_id' ? '_id' : '').split(/[_-]/);
  return words
    .map((word, index) => {
      const known = WORDS[word];
      if (known) return known;
      return index === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word;
    })
    .join(' ');
}

/** A label as a heading: its first letter in capitals ("VLAN" stays "VLAN"). */
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function choicesOf(column: ColumnDefinition): string[] | undefined {
  const schema = column.schema as {
    anyOf?: Array<{ const?: unknown }>;
    items?: { anyOf?: Array<{ const?: unknown }> };
  };
  // An enumeration, or a set of values of one (a `list` column's items).
  const anyOf = schema.anyOf ?? schema.items?.anyOf;
  if (!Array.isArray(anyOf)) return undefined;
  const values = anyOf.map((option) => option.const).filter((v) => typeof v === 'string');
  return values.length === anyOf.length ? (values as string[]) : undefined;
}

/** See UiResource.titleFields. */
function titleFieldsOf(definition: ResourceDefinition, visible: readonly UiColumn[]): string[] {
  if (definition.briefFields && definition.briefFields.length > 0)
    return [...definition.briefFields];
  const first = visible.find((column) => column.name in definition.columns)?.name;
  const log = definition.timeRange;
  const text = log
    ? Object.entries(definition.columns).find(
        ([name, column]) => column.multiline && column.required && name !== first,
      )?.[0]
    : undefined;
  return [first, text, log].filter((field): field is string => field !== undefined);
}

function describe(definition: ResourceDefinition, all: readonly ResourceDefinition[]): UiResource {
  const filterable = new Set(filterableColumns(definition));
  const sortable = new Set(sortableColumns(definition));
  const secrets = new Set(secretColumns(definition));
  const system = systemColumnsOf(definition).filter((name) => name !== 'id');
  const columns: UiColumn[] = [
    ...Object.entries(definition.columns).map(([name, column]) => {
      const kind = kindOf(column);
      const choices = choicesOf(column);
      return {
        name,
        label: labelOf(name),
        kind,
        filterable: filterable.has(name),
        sortable: sortable.has(name),
        writable: true,
        required: column.required === true,
        ...(column.notNull ? { notNull: true } : {}),
        lookups: filterable.has(name) ? LOOKUPS_BY_KIND[kind] : [],
        ...(column.references ? { references: column.references } : {}),
        ...(name === ACCOUNT_ID_COLUMN && kind === 'uuid' && !column.references
          ? { account: true }
          : {}),
        ...(choices ? { choices } : {}),
        secret: secrets.has(name),
        ...(column.multiline ? { multiline: true } : {}),
      } satisfies UiColumn;
    }),
    ...system.map(
      (name): UiColumn => ({
        name,
        label: labelOf(name),
        kind: 'timestamp',
        filterable: false,
        sortable: sortable.has(name),
        writable: false,
        required: false,
        lookups: [],
        secret: false,
      }),
    ),
  ];
  // A bare id that names no record of the interface (the audit trail's user_id) tells a reader
  // nothing: a list shows the name beside it instead, unless the user chooses the column.
  const visible = columns.filter(
    (column) =>
      !column.secret && column.kind !== 'json' && !(column.kind === 'uuid' && !column.references),
  );
  // A log (a resource bounded in time: events, the audit trail) shows its time first, so its
  // newest-first order reads as a timeline.
  const time = definition.timeRange;
  const listed = visible.filter((column) => column.kind !== 'list' && column.name !== 'updated_at');
  const inOrder = time
    ? [
        ...listed.filter((column) => column.name === time),
        ...listed.filter((column) => column.name !== time),
      ]
    : listed;
  const names = resourceLabel(definition);
  const titleFields = titleFieldsOf(definition, visible);
  const only = titleFields.length === 1 ? definition.columns[titleFields[0] ?? ''] : undefined;
  const titleQualifier =
    only && !only.unique && !only.references
      ? Object.entries(definition.columns).find(
          ([, column]) => column.references && column.required,
        )?.[0]
      : undefined;
  return {
    definition,
    name: definition.name,
    names,
    label: capitalised(names.plural),
    singular: capitalised(names.singular),
    columns,
    defaultColumns: inOrder.slice(0, 7).map((column) => column.name),
    titleField: titleFields[0],
    titleFields,
    titleQualifier,
    tagColumn: columns.find((column) => column.kind === 'tags')?.name,
    searchable: (definition.search?.length ?? 0) > 0,
    referencedBy: all.flatMap((other) =>
      Object.entries(other.columns)
        .filter(([, column]) => column.references === definition.name)
        .map(([column]) => ({ resource: other.name, column })),
    ),
    readOnly: definition === events || definition === auditLogs,
    recordPages: offers(definition, 'read'),
  };
}

const DEFINITIONS: readonly ResourceDefinition[] = [...RESOURCES, events, auditLogs];

/** Every resource the interface lists, in the API's order, events last. */
export const UI_RESOURCES: readonly UiResource[] = DEFINITIONS.map((definition) =>
  describe(definition, DEFINITIONS),
);

/** "1 device", "2 VLANs": a number of records in running text. */
export const countOf = (resource: UiResource, count: number): string =>
  `${count} ${count === 1 ? resource.names.singular : resource.names.plural}`;

const BY_NAME = new Map(UI_RESOURCES.map((resource) => [resource.name, resource]));

export const uiResource = (name: string): UiResource | undefined => BY_NAME.get(name);

/** Who may write a resource: its definition's roles. */
export const mayWrite = (resource: UiResource, role: string): boolean =>
  !resource.readOnly && (resource.definition.writeRoles as readonly string[]).includes(role);

/** Who may read a resource: its definition's roles, everyone signed in when it names none. */
export function mayRead(resource: UiResource, role: string): boolean {
  // The audit trail is for admins (its routes say so; its definition describes its rows).
  if (resource.definition === auditLogs) return role === 'admin';
  const roles = resource.definition.readRoles as readonly string[] | undefined;
  return roles === undefined || roles.includes(role);
}
