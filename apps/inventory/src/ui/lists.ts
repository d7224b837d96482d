import { parse } from 'csv-parse/sync';
import type { UiColumn, UiResource } from './catalogue.js';

/** Rows per list page: the API's maximum is 100. */
export const UI_PAGE_SIZES = [25, 50, 100] as const;
export const UI_DEFAULT_PAGE_SIZE = 50;
/** Columns a list sorts by at once (a header's "then by" adds one). */
export const MAX_SORTS = 3;
/** Earlier cursors kept for "Previous" (older pages are reached from the first one). */
const MAX_TRAIL = 20;

/** A list page's state, read from its URL: the API's own filter names, plus paging. */
export interface ListState {
  /** The API query for the rows (filters, lookups, tags, q, sortby), without paging. */
  filters: URLSearchParams;
  /** The sorts, first to last (`vendor:asc`, then `hostname:desc`): each of a sortable column. */
  sortby: string[];
  limit: number;
  cursor: string | undefined;
  /** The cursors of the pages before this one, oldest first ('' is the first page). */
  trail: string[];
}

const lookupParameter = (column: UiColumn, lookup: string) =>
  lookup === 'exact' ? column.name : `${column.name}__${lookup}`;

/** Parameters the page itself reads or sets: never passed on as filters. */
const PAGE_PARAMETERS = new Set(['limit', 'cursor', 'trail', 'sortby', 'fields', 'format']);

/**
 * The list's state from the page's query. Filters arrive either as the API's parameters
 * (`hostname__ic=core`, what links carry) or from the filter form, a value per column with its
 * lookup chosen beside it (`hostname=core&hostname__op=ic`); both become the API's parameters.
 * Any other parameter (`hostname__sw`, `tag`, `id__in`) is passed on as it is: the API applies
 * what it knows and refuses the rest (400 "Unknown query parameter"), which the page shows over
 * an empty list. Dropped, the list, its export and its bulk actions would cover rows the
 * address did not ask for.
 */
export function readListState(resource: UiResource, query: Record<string, unknown>): ListState {
  const filters = new URLSearchParams();
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  // A repeated filter is passed on whole: the API refuses it, and the page shows why with the
  // filter form holding the first value (dropped, the list would show rows it was not asked for).
  const texts = (value: unknown) =>
    (Array.isArray(value) ? value : [value]).map(text).filter((item) => item !== '');
  for (const column of resource.columns) {
    if (!column.filterable || column.kind === 'tags') continue;
    const operator = text(query[`${column.name}__op`]) || 'exact';
    const given = texts(query[column.name]);
    if (
      isEnumeration(column) &&
      column.lookups.includes('in') &&
      (operator === 'in' || (operator === 'exact' && given.length > 1))
    ) {
      // Several values chosen of an enumeration's select: "is one of" them.
      if (given.length > 0) filters.append(lookupParameter(column, 'in'), given.join(','));
    } else if (operator === 'exact' || column.lookups.includes(operator as never)) {
      for (const value of given) {
        filters.append(lookupParameter(column, operator), value);
      }
    }
    // Every bound given is kept (a range is two: `ip__gte` and `ip__lt`), the form's own
    // field and the hidden inputs that carry the bounds it cannot show alike.
    // In the address's order: the form's field shows the first one.
    for (const parameter of Object.keys(query)) {
      const lookup = parameter.startsWith(`${column.name}__`)
        ? parameter.slice(column.name.length + 2)
        : '';
      if (!column.lookups.includes(lookup as never)) continue;
      for (const value of texts(query[parameter])) filters.append(parameter, value);
    }
  }
  // Where the resource declares no tags or text search, `tags` and `q` are passed on too.
  const read = new Set<string>();
  if (resource.tagColumn) read.add('tags');
  if (resource.searchable) read.add('q');
  for (const column of resource.columns) {
    if (!column.filterable || column.kind === 'tags') continue;
    read.add(column.name);
    read.add(`${column.name}__op`);
    for (const lookup of column.lookups) read.add(`${column.name}__${lookup}`);
  }
  const passedOn: Array<[string, string]> = [];
  for (const [name, given] of Object.entries(query)) {
    if (read.has(name) || PAGE_PARAMETERS.has(name) || name.endsWith('__op')) continue;
    for (const value of Array.isArray(given) ? given : [given])
      passedOn.push([name, typeof value === 'string' ? value : '']);
  }
  if (resource.tagColumn) {
    // The filter form sends one field (`core, edge`); the list's own links repeat the parameter.
    const given = Array.isArray(query.tags) ? query.tags : [query.tags];
    for (const value of given) {
      for (const tag of text(value)
        .split(/[\s,]+/)
        .filter(Boolean))
        filters.append('tags', tag);
    }
  }
  if (resource.searchable) for (const q of texts(query.q)) filters.append('q', q);
  for (const [name, value] of passedOn) filters.append(name, value);
  // Every sort given, in order (`sortby` repeated): one of a column the list sorts by, the first
  // of each column, at most MAX_SORTS; any other is dropped, as a header link would not make it.
  const sortable = new Set(resource.columns.filter((c) => c.sortable).map((c) => c.name));
  const validSort: string[] = [];
  for (const sort of texts(query.sortby)) {
    const [sortColumn = '', direction] = sort.split(':');
    if (!sortable.has(sortColumn) || (direction !== 'asc' && direction !== 'desc')) continue;
    if (validSort.some((kept) => kept.startsWith(`${sortColumn}:`))) continue;
    if (validSort.length < MAX_SORTS) validSort.push(sort);
  }
  const requestedLimit = Number(text(query.limit));
  const limit = (UI_PAGE_SIZES as readonly number[]).includes(requestedLimit)
    ? requestedLimit
    : UI_DEFAULT_PAGE_SIZE;
  const cursor = text(query.cursor) || undefined;
  const trail = text(query.trail)
    .split(',')
    .slice(-MAX_TRAIL)
    .filter((entry) => entry === '' || /^[A-Za-z0-9_.-]{1,2048}$/.test(entry));
  return {
    filters,
    sortby: validSort,
    limit,
    cursor,
    trail: cursor === undefined ? [] : text(query.trail) === '' ? [''] : trail,
  };
}

/** The query of this list with some parts changed (sort, page), as a URL. */
export function listUrl(
  resource: UiResource,
  state: ListState,
  changes: { sortby?: string[]; cursor?: string | undefined; trail?: string[] } = {},
): string {
  const query = new URLSearchParams(state.filters);
  for (const sort of changes.sortby ?? state.sortby) query.append('sortby', sort);
  if (state.limit !== UI_DEFAULT_PAGE_SIZE) query.set('limit', String(state.limit));
  const cursor = 'cursor' in changes ? changes.cursor : state.cursor;
  if (cursor) {
    query.set('cursor', cursor);
    query.set('trail', (changes.trail ?? state.trail).join(','));
  }
  const search = query.toString();
  return `/ui/${resource.name}${search ? `?${search}` : ''}`;
}

/** The API query of the page: its filters, sort, size, cursor and the fields shown. */
export function apiListQuery(state: ListState, fields: readonly string[]): string {
  const query = new URLSearchParams(state.filters);
  for (const sort of state.sortby) query.append('sortby', sort);
  query.set('limit', String(state.limit));
  if (state.cursor) query.set('cursor', state.cursor);
  query.set('fields', ['id', ...fields].join(','));
  return query.toString();
}

/** The API query of a CSV export of the same filter and order: every matching row. */
export function apiExportQuery(state: ListState, fields: readonly string[]): string {
  const query = new URLSearchParams(state.filters);
  for (const sort of state.sortby) query.append('sortby', sort);
  query.set('format', 'csv');
  query.set('fields', ['id', ...fields].join(','));
  return query.toString();
}

/**
 * The current value and lookup of a column's filter, for the filter form: the first of the
 * column's filters in the address (a range's lower bound when it is written first); the others
 * are kept beside the form (keptFilters).
 */
export function filterOf(state: ListState, column: UiColumn): { value: string; lookup: string } {
  for (const [name, value] of state.filters) {
    if (name === column.name) return { value, lookup: 'exact' };
    const lookup = name.startsWith(`${column.name}__`) ? name.slice(column.name.length + 2) : '';
    if (column.lookups.includes(lookup as never)) return { value, lookup };
  }
  return { value: '', lookup: 'exact' };
}

/** A column of a few declared values (a status): its filter is a select of them. */
export const isEnumeration = (column: UiColumn) =>
  column.choices !== undefined && column.kind !== 'list' && column.kind !== 'boolean';

/**
 * The lookups an enumeration's filter offers, each one its select can say: is, is not, is one
 * of (several chosen). Whether it is empty is a yes/no select of its own (where it may be).
 */
export const ENUMERATION_LOOKUPS = ['exact', 'n', 'in'] as const;

/** Whether an enumeration's field may be empty, so its filter offers "is empty". */
export const mayBeEmpty = (column: UiColumn) =>
  !column.required && !column.notNull && column.lookups.includes('isnull');

/**
 * An enumeration's filter as its controls show it: the first of its filters by value (is, is
 * not, is one of) whose values are all declared ones, and its "is empty" (`true`/`false`). Each
 * is the parameter's position among the filters, for keptFilters.
 */
export function enumerationFilterOf(
  state: ListState,
  column: UiColumn,
): { lookup: string; values: string[]; empty: string; shown: number[] } {
  const entries = [...state.filters];
  const choices = column.choices ?? [];
  let chosen: { lookup: string; values: string[]; at: number } | undefined;
  let empty: { value: string; at: number } | undefined;
  entries.forEach(([name, value], at) => {
    for (const lookup of ENUMERATION_LOOKUPS) {
      if (chosen || name !== lookupParameter(column, lookup)) continue;
      const values = lookup === 'in' ? value.split(',') : [value];
      if (values.every((item) => choices.includes(item))) chosen = { lookup, values, at };
    }
    if (
      !empty &&
      mayBeEmpty(column) &&
      name === lookupParameter(column, 'isnull') &&
      (value === 'true' || value === 'false')
    )
      empty = { value, at };
  });
  return {
    lookup: chosen?.lookup ?? 'exact',
    values: chosen?.values ?? [],
    empty: empty?.value ?? '',
    shown: [...(chosen ? [chosen.at] : []), ...(empty ? [empty.at] : [])],
  };
}

/** An active filter the filter form's fields do not hold, kept as a hidden input. */
export interface KeptFilter {
  name: string;
  value: string;
  /** In words: `IP < 10.0.1.0`, or the parameter as given for one the page does not know. */
  label: string;
  /** The list's filters without this one (its "remove" link). */
  without: URLSearchParams;
}

/**
 * The active filters the form's fields cannot show: a second bound of a field (a range), a
 * repeated value, a parameter the page does not know. The form carries them as hidden inputs,
 * so Apply keeps every filter, and the page lists them, each with a link that removes it.
 */
export function keptFilters(resource: UiResource, state: ListState): KeptFilter[] {
  const entries = [...state.filters];
  const shown = new Set<number>();
  for (const column of resource.columns) {
    if (!column.filterable || column.kind === 'tags') continue;
    if (isEnumeration(column)) {
      for (const at of enumerationFilterOf(state, column).shown) shown.add(at);
      continue;
    }
    const current = filterOf(state, column);
    if (current.value === '') continue;
    const name = lookupParameter(column, current.lookup);
    const at = entries.findIndex(([entry]) => entry === name);
    if (at >= 0) shown.add(at);
  }
  if (resource.searchable) {
    const at = entries.findIndex(([entry]) => entry === 'q');
    if (at >= 0) shown.add(at);
  }
  if (resource.tagColumn)
    entries.forEach(([entry], at) => {
      if (entry === 'tags') shown.add(at);
    });
  const labelOf = (name: string, value: string) => {
    const [field = '', lookup = 'exact'] = name.split('__');
    const column = resource.columns.find((candidate) => candidate.name === field);
    if (column?.filterable && (lookup === 'exact' || column.lookups.includes(lookup as never)))
      return `${column.label} ${LOOKUP_WORDS[lookup] ?? lookup} ${value}`;
    if (name === 'q') return `Text ${value}`;
    return `${name} = ${value}`;
  };
  return entries.flatMap(([name, value], at) =>
    shown.has(at)
      ? []
      : [
          {
            name,
            value,
            label: labelOf(name, value),
            without: new URLSearchParams(entries.filter((_, other) => other !== at)),
          },
        ],
  );
}

/** What each lookup means, in a sentence (`Last seen ≥: …`, `IP < 10.0.1.0`). */
export const LOOKUP_WORDS: Readonly<Record<string, string>> = {
  exact: 'is',
  n: 'is not',
  in: 'is one of',
  lt: '<',
  lte: '≤',
  gt: '>',
  gte: '≥',
  ic: 'contains',
  nic: 'does not contain',
  isw: 'starts with',
  iew: 'ends with',
  ie: 'is (any case)',
  isnull: 'is empty',
};

/** What each lookup means, for the filter form's choices: the words, and what to type. */
export const LOOKUP_LABELS: Readonly<Record<string, string>> = {
  ...LOOKUP_WORDS,
  in: 'is one of (a,b)',
  isnull: 'is empty (true/false)',
};

/**
 * The names an "is one of" box gives, as a line of CSV writes them: separated by commas, a name
 * holding a comma or a double quote in double quotes, a quote in it doubled
 * (`"Berlin, DC2", Paris`), spaces around each name left out; a quote inside a name given
 * without quotes is the name's (`Annex "North"`). Text that is not such a line (a quote never
 * closed, text after a closing quote) is split at every comma, as before quotes were read.
 */
export function namesInList(value: string): string[] {
  try {
    const records = parse(value, {
      relax_quotes: true,
      relax_column_count: true,
      trim: true,
    }) as string[][];
    return records.flat();
  } catch {
    return value.split(',').map((name) => name.trim());
  }
}

/** Names as an "is one of" box shows them, each read back by namesInList as it is. */
export const listOfNames = (names: readonly string[]) =>
  names
    .map((name) => (/[",\r\n]|^\s|\s$/.test(name) ? `"${name.replaceAll('"', '""')}"` : name))
    .join(', ');
