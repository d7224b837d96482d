import { type UiColumn, type UiResource, uiResource } from './catalogue.js';
import { cutToStart } from './characters.js';
import { type Html, html, isolate, safeHref } from './html.js';
import { isEnumeration, LOOKUP_WORDS } from './lists.js';

export type Row = Record<string, unknown>;

/** Names of referenced records, by resource and id (resolved before rendering). */
export type ReferenceNames = Map<string, string>;

export const referenceKey = (resource: string, id: string) => `${resource}/${id.toLowerCase()}`;

/** Characters of a free text (an event's message) in a record's title. */
const TITLE_TEXT_CHARS = 60;

/**
 * The text naming a record (UiResource.titleFields): `sw-01` for a device, `sw-01 · xe-0/0/0`
 * for an interface, `sw-01 · xe-0/0/0 ↔ sw-02 · xe-0/0/0` for a link, an event by its severity,
 * message and time. References are named from `names` (their records' titles, see
 * `titleReferences`), else by the start of their id; a record with no title is named by its id.
 */
export function titleOf(resource: UiResource, row: Row, names: ReferenceNames = new Map()): string {
  const part = (field: string) => {
    const value = row[field];
    if (value === null || value === undefined || value === '') return '';
    const column = resource.columns.find((candidate) => candidate.name === field);
    if (column?.references && typeof value === 'string') {
      return names.get(referenceKey(column.references, value)) ?? value.slice(0, 8);
    }
    const text = textOf(value);
    return resource.definition.columns[field]?.multiline
      ? cutToStart(text, TITLE_TEXT_CHARS)
      : text;
  };
  const parts = resource.titleFields.map(part).filter(Boolean);
  const relation = resource.titleFields.every(
    (field) => resource.columns.find((column) => column.name === field)?.references,
  );
  const qualifier = resource.titleQualifier ? part(resource.titleQualifier) : '';
  const all = qualifier ? [qualifier, ...parts] : parts;
  if (all.length === 0) return `${resource.singular} ${String(row.id ?? '').slice(0, 8)}`;
  // Parts isolated from each other: a right-to-left override in one end of a link must not
  // turn the other around (a title of one part is isolated where it is shown).
  const shown = all.length === 1 ? all : all.map(isolate);
  const title = shown.slice(qualifier ? 1 : 0).join(relation && parts.length === 2 ? ' ↔ ' : ' · ');
  return qualifier ? `${shown[0]} · ${title}` : title;
}

/** The reference columns a record's title names (its records' titles are read for it). */
export const titleReferences = (resource: UiResource): UiColumn[] =>
  resource.columns.filter(
    (column) =>
      column.references &&
      (resource.titleFields.includes(column.name) || resource.titleQualifier === column.name),
  );

export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** One value as shown in a list or on an object page: always escaped, links only when safe. */
export function valueCell(column: UiColumn, value: unknown, names: ReferenceNames): Html {
  if (
    value === null ||
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  )
    return html`<span class="none">—</span>`;
  if (column.kind === 'tags' && Array.isArray(value)) {
    return html`${value.map((tag) => html`<span class="tag">${String(tag)}</span> `)}`;
  }
  if (column.references && typeof value === 'string') {
    const target = uiResource(column.references);
    const name = names.get(referenceKey(column.references, value)) ?? value.slice(0, 8);
    return target?.recordPages
      ? html`<a href="/ui/${target.name}/${value}">${name}</a>`
      : html`${name}`;
  }
  if (column.name === 'status' || column.name.endsWith('_status') || column.name === 'severity') {
    return html`<span class="badge badge-${textOf(value).replace(/[^a-z0-9-]/g, '')}">${textOf(value)}</span>`;
  }
  if (column.kind === 'url' && typeof value === 'string') {
    const href = safeHref(value);
    return href ? html`<a href="${href}" rel="noreferrer noopener">${value}</a>` : html`${value}`;
  }
  if (column.kind === 'json') return html`<code>${textOf(value)}</code>`;
  return column.multiline ? lines(textOf(value)) : html`${textOf(value)}`;
}

/** Text of several lines, shown on them (`white-space: pre-line`), escaped. */
const lines = (text: string) => html`<span class="lines">${text}</span>`;

/** Characters of a long value a list's cell shows (the object page shows it whole). */
const LIST_CELL_CHARS = 120;

/** A value in a list's cell: long text and structured values cut to their start. */
export function listCell(
  column: UiColumn,
  value: unknown,
  names: ReferenceNames,
  /** Where the value links to, when it is not a reference (the rows sharing it). */
  href?: string,
): Html {
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value);
  const text = structured || typeof value === 'string' ? textOf(value) : '';
  const start = cutToStart(text, LIST_CELL_CHARS);
  if (href) return html`<a href="${href}">${start}</a>`;
  if (start === text) return valueCell(column, value, names);
  return structured
    ? html`<code>${start}</code>`
    : column.multiline
      ? lines(start)
      : html`${start}`;
}

/** A value's start as a list's cell shows it: the first 120 characters. */
const cutForList = (text: string) => cutToStart(text, LIST_CELL_CHARS);

/**
 * The text of a list's first cell, inside the link that opens its row: the value as `listCell`
 * shows it, but a reference by its record's name and a URL as text (a link inside the row's
 * link would not work). An empty value is the row's title.
 */
export function rowLinkText(
  resource: UiResource,
  column: UiColumn,
  row: Row,
  names: ReferenceNames,
): Html {
  const value = row[column.name];
  if (textOf(value) === '') return html`${cutForList(titleOf(resource, row))}`;
  if (column.references && typeof value === 'string') {
    return html`${cutForList(names.get(referenceKey(column.references, value)) ?? value.slice(0, 8))}`;
  }
  if (column.kind === 'url') return html`${cutForList(textOf(value))}`;
  return listCell(column, value, names);
}

/** A form control for one column, with its label, the user's value and the API's error. */
export function fieldControl(
  column: UiColumn,
  value: string,
  error: string | undefined,
  options: {
    /**
     * The records a reference may name: a select of them, or, when the resource holds `more`,
     * a text box taking a record's title, these suggested.
     */
    referenceChoices?: readonly { id: string; name: string }[] & { more?: boolean };
    /** The title of the record the reference names now (it may be past the choices). */
    referenceName?: string | undefined;
    listValues?: readonly string[];
    /** An edit of a stored record (a secret left empty keeps the stored one). */
    editing?: boolean;
  } = {},
): Html {
  const id = `field-${column.name}`;
  if (column.secret) return secretControl(column, error, options.editing === true);
  const describedBy = error ? `${id}-error` : column.kind === 'tags' ? `${id}-hint` : '';
  const common = html`id="${id}" name="${column.name}"${column.required ? html` required aria-required="true"` : ''}${
    error ? html` aria-invalid="true"` : ''
  }${describedBy ? html` aria-describedby="${describedBy}"` : ''}`;
  let control: Html;
  if (column.kind === 'list') {
    return checkboxGroup({
      id,
      name: column.name,
      legend: column.label,
      choices: listChoices(column) ?? [],
      chosen: options.listValues ?? value.split(',').filter(Boolean),
      error,
    });
  } else if (column.choices) {
    // No empty choice where the field cannot be empty (required, or never null: a status).
    control = html`<select ${common}>
      ${column.required || column.notNull ? '' : html`<option value="">—</option>`}
      ${column.choices.map(
        (choice) =>
          html`<option value="${choice}"${choice === value ? ' selected' : ''}>${choice}</option>`,
      )}</select>`;
  } else if (column.kind === 'boolean') {
    control = html`<select ${common}>
      ${column.notNull ? '' : html`<option value="">—</option>`}
      <option value="true"${value === 'true' ? ' selected' : ''}>yes</option>
      <option value="false"${value === 'false' ? ' selected' : ''}>no</option></select>`;
  } else if (column.references && options.referenceChoices?.more) {
    // More records than a select holds: the record's title is typed (the server looks it up),
    // the first ones suggested; the record named now is shown by its title.
    const hintId = `${id}-hint`;
    control = html`${typedChoice({
      id,
      name: column.name,
      value: options.referenceName ?? value,
      choices: options.referenceChoices,
      attributes: html`${column.required ? html` required aria-required="true"` : ''}${
        error ? html` aria-invalid="true"` : ''
      } aria-describedby="${error ? `${hintId} ${id}-error` : hintId}"`,
    })}
      <p class="hint" id="${hintId}">${referenceHint(column)}</p>`;
  } else if (column.references && options.referenceChoices) {
    const known = options.referenceChoices.some((choice) => choice.id === value);
    control = html`<select ${common}>
      <option value="">—</option>
      ${value && !known ? html`<option value="${value}" selected>${options.referenceName ?? value}</option>` : ''}
      ${options.referenceChoices.map(
        (choice) =>
          html`<option value="${choice.id}"${choice.id === value ? ' selected' : ''}>${choice.name}</option>`,
      )}</select>`;
  } else if (column.kind === 'json' || column.multiline) {
    // A line break after the tag: the parser drops a first one, which would be the value's own.
    control = html`<textarea ${common} rows="3">
${value}</textarea>`;
  } else {
    const mode = column.kind === 'integer' ? html` inputmode="numeric"` : '';
    control = html`<input type="text" ${common} value="${value}"${mode} autocomplete="off">`;
  }
  return html`<div class="field${error ? ' invalid' : ''}">
    <label for="${id}">${column.label}${column.required ? html` <span aria-hidden="true">*</span>` : ''}</label>
    ${control}
    ${column.kind === 'tags' ? html`<p class="hint" id="${id}-hint">Comma-separated, e.g. core, lab</p>` : ''}
    ${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
  </div>`;
}

/**
 * A record chosen by typing its name (its title, an account's username), the first ones
 * suggested by a datalist: where there are more than a select offers. The server looks the
 * name up (an id is taken as it is).
 */
export function typedChoice(box: {
  id: string;
  name: string;
  value: string;
  choices: readonly { name: string }[];
  /** More attributes of the box (required, aria-describedby, …). */
  attributes?: Html;
}): Html {
  return html`<input type="text" id="${box.id}" name="${box.name}"${box.attributes ?? ''} list="${box.id}-choices" value="${box.value}" autocomplete="off">
      <datalist id="${box.id}-choices">${box.choices.map((choice) => html`<option value="${choice.name}"></option>`)}</datalist>`;
}

/** What a typed reference (or account) box takes, in a sentence. */
export function referenceHint(column: UiColumn): string {
  if (column.account) return "Type the account's username, or its ID.";
  const target = column.references ? uiResource(column.references) : undefined;
  return `Type the ${target?.names.singular ?? 'record'}'s name${target?.titleQualifier ? ` as the list shows it (${titleExample(target)})` : ''}, or its ID.`;
}

/** A bulk edit's choice that empties a field (its empty choice leaves the field as it is). */
export const BULK_CLEAR = '__clear__';

/** Whether a bulk edit offers a column as a choice of its values: an enumeration, yes or no. */
export const isChoice = (column: UiColumn) =>
  (column.choices !== undefined && column.kind !== 'list') || column.kind === 'boolean';

/**
 * A bulk edit's control for a field of a few values (isChoice): a select of the values the
 * declaration holds, as the record's own form offers them, after "leave unchanged" (the
 * default: the field is not sent) and, where the field may be empty, a choice emptying it.
 */
export function bulkChoice(column: UiColumn, chosen: string): Html {
  const id = `bulk-${column.name}`;
  const values: Array<[string, string]> =
    column.kind === 'boolean'
      ? [
          ['true', 'yes'],
          ['false', 'no'],
        ]
      : (column.choices ?? []).map((choice) => [choice, choice]);
  const option = (value: string, text: string) =>
    html`<option value="${value}"${value === chosen ? ' selected' : ''}>${text}</option>`;
  return html`<div class="field"><label for="${id}">${column.label}</label><select id="${id}" name="set_${column.name}">
      <option value="">leave unchanged</option>
      ${column.required || column.notNull ? '' : option(BULK_CLEAR, '— (clear)')}
      ${values.map(([value, text]) => option(value, text))}</select></div>`;
}

/** How a title of several parts is typed: `device · name`. */
const titleExample = (resource: UiResource) =>
  [resource.titleQualifier, ...resource.titleFields]
    .map((field) => resource.columns.find((column) => column.name === field)?.label.toLowerCase())
    .join(' · ');

/**
 * A secret (a webhook's signing key): write-only, so never echoed back, not even the text typed
 * into a refused form; on an edit, empty keeps the stored one. `new-password`: a browser offers
 * to generate one rather than filling in the user's own password.
 */
function secretControl(column: UiColumn, error: string | undefined, editing: boolean): Html {
  const id = `field-${column.name}`;
  const describedBy = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${error ? ' invalid' : ''}">
    <label for="${id}">${column.label}</label>
    <input type="password" id="${id}" name="${column.name}"${error ? html` aria-invalid="true"` : ''} aria-describedby="${describedBy}" value="" autocomplete="new-password">
    <p class="hint" id="${id}-hint">${editing ? 'Write-only: leave empty to keep the current value.' : 'Write-only: it is never shown again.'}</p>
    ${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
  </div>`;
}

/**
 * Boxes for a set of values, in a fieldset its legend names. Each box is told of the group's
 * hint and error (aria-describedby) and whether the group was refused (aria-invalid): a screen
 * reader on any box hears why. The first box has the group's id, for an error summary's link.
 */
export function checkboxGroup(group: {
  id: string;
  name: string;
  legend: string;
  choices: readonly string[];
  chosen: readonly string[];
  error?: string | undefined;
  hint?: string;
}): Html {
  const { id, error, hint } = group;
  const chosen = new Set(group.chosen);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const aria = html`${error ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}`;
  return html`<fieldset class="field${error ? ' invalid' : ''}"><legend>${group.legend}</legend>
      ${group.choices.map(
        (choice, index) =>
          html`<label class="inline"><input type="checkbox" name="${group.name}" value="${choice}"${
            chosen.has(choice) ? ' checked' : ''
          }${index === 0 ? html` id="${id}"` : ''}${aria}> ${choice}</label>`,
      )}
      ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
      ${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}</fieldset>`;
}

/** The enumeration behind a `list` column (its items' literals). */
export function listChoices(column: UiColumn): string[] | undefined {
  return column.choices ? [...column.choices] : undefined;
}

/** Text with its line breaks as line feeds (CR LF and CR, as a form sends them, become LF). */
export const lineFeeds = (text: string) => text.replace(/\r\n?/g, '\n');

/** A value as a form field holds it. */
export function formValue(column: UiColumn, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (column.kind === 'json') return JSON.stringify(value);
  // As the form sends a list back (`a,b`, no spaces): its boxes are ticked from it, and an
  // unchanged list compares equal to it and is not sent.
  if (column.kind === 'list' && Array.isArray(value)) return value.map(String).join(',');
  return textOf(value);
}

/**
 * A form's text back into the API's types, per column kind; a value the API would refuse
 * (letters in an integer) is passed on as typed, so the API's own message explains it.
 */
export function parseFormValue(column: UiColumn, text: string | string[]): unknown {
  if (column.kind === 'list') return Array.isArray(text) ? text : text === '' ? [] : [text];
  const sent = Array.isArray(text) ? (text[0] ?? '') : text;
  // A browser sends a textarea's line breaks as CR LF: stored as line feeds.
  const value = column.multiline ? lineFeeds(sent) : sent;
  if (column.kind === 'tags') {
    return value
      .split(/[\s,]+/)
      .map((tag) => tag.trim())
      .filter(Boolean);
  }
  if (value === '') return null;
  if (column.kind === 'integer') return /^-?[0-9]+$/.test(value.trim()) ? Number(value) : value;
  if (column.kind === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  if (column.kind === 'json') {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * The field an API error message is about (`body/ip must match format "ip"`, `Row 3 (ip): …`,
 * `ip: Device not found`, `Invalid IP address format`), or undefined for the form as a whole.
 */
export function fieldOfMessage(resource: UiResource, message: string): string | undefined {
  return fieldNamedIn(
    resource.columns.map((column) => column.name),
    message,
  );
}

/** The field of `fields` an API error message is about, as for `fieldOfMessage`. */
export function fieldNamedIn(fields: readonly string[], message: string): string | undefined {
  const names = [...fields].sort((a, b) => b.length - a.length);
  for (const pattern of [
    /body\/([a-z_]+)/,
    /^Field "([a-z_]+)"/,
    /\(([a-z_]+)\)/,
    /^([a-z_]+):/,
    /property '([a-z_]+)'/,
    /'([a-z_]+)'/,
  ]) {
    const match = pattern.exec(message);
    if (match?.[1] && names.includes(match[1])) return match[1];
  }
  if (/IP address/i.test(message) && names.includes('ip')) return 'ip';
  return names.find((name) => new RegExp(`\\b${name}\\b`, 'i').test(message.replace(/_/g, '_')));
}

/**
 * The API's message about one field as a sentence beside that field: without the field's path
 * (`body/password `, `body/tags/0 `), which the label already says, and the validator's wording
 * in plain words (plainReason).
 */
export function fieldMessage(message: string, field?: string, column?: UiColumn): string {
  const text = plainReason(
    message
      .replace(/^body\/[a-z_]+(\/\d+)? /i, '')
      .replace(field ? new RegExp(`^(Field "${field}" |${field}:? )`) : /^$/, ''),
    column,
  );
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The pattern every tag must match, as the validator quotes it. */
const TAG_PATTERN = '"^[a-z0-9_-]{1,64}$"';

/**
 * A validator's reason in plain words, for the column it is about when known: what to type or
 * choose instead, never a JSON path, a format's or a type's name, or a regular expression.
 */
export function plainReason(reason: string, column?: UiColumn): string {
  const referenced = column?.references ? uiResource(column.references) : undefined;
  const choose = referenced ? `choose a ${referenced.names.singular}` : undefined;
  const rules: Array<[RegExp, string | undefined]> = [
    [/^must NOT have fewer than 1 characters$/i, 'must not be empty'],
    [/^must NOT have fewer than 1 items$/i, 'choose at least one'],
    [/^must NOT have fewer than (\d+) items$/i, 'choose at least $1'],
    [/^must NOT have fewer than (\d+) characters$/i, 'must be at least $1 characters long'],
    [/^must NOT have more than (\d+) characters$/i, 'must be at most $1 characters long'],
    [/^must be a UUID$|^must match format "uuid"$/i, choose ?? 'must be an id (a UUID)'],
    [/^must match format "date-time"$/i, 'must be a date and time, such as 2026-12-06T14:30:00Z'],
    [/^must match format "date"$/i, 'must be a date, such as 2026-12-06'],
    [/^must match format "(ip|ipv4|ipv6)"$/i, 'must be an IP address, such as 192.0.2.10'],
    [/^must be integer$/i, 'must be a whole number'],
    [/^must be number$/i, 'must be a number'],
    [/^must be boolean$/i, 'choose yes or no'],
    [
      /^must be string$/i,
      column?.choices ? `choose one of: ${column.choices.join(', ')}` : (choose ?? 'must be text'),
    ],
    [/^must be one of (.*)$/i, 'must be one of: $1'],
  ];
  // A required field the form sent empty (the API's request check names it).
  if (/^Missing required body field: [a-z_]+$/i.test(reason))
    return (
      choose ??
      (column?.choices ? `choose one of: ${column.choices.join(', ')}` : 'must not be empty')
    );
  if (reason === `must match pattern ${TAG_PATTERN}`)
    return 'each tag is 1–64 lower-case letters, digits, - or _ (no spaces)';
  for (const [pattern, plain] of rules) {
    if (plain !== undefined && pattern.test(reason)) return reason.replace(pattern, plain);
  }
  return reason;
}

/** A filter's name as the filter form says it: `Last seen ≥`, `Location`. */
function filterLabel(resource: UiResource, name: string): { label: string; column?: UiColumn } {
  const [field = '', lookup] = name.split('__');
  const column = resource.columns.find((candidate) => candidate.name === field);
  if (!column) return { label: name };
  return {
    label: lookup ? `${column.label} ${LOOKUP_WORDS[lookup] ?? lookup}` : column.label,
    column,
  };
}

/**
 * An API refusal of a list's filters or of a batch, in plain words: the field by its label
 * (`querystring/last_seen__gte must match format "date-time"` -> `Last seen ≥: must be a date
 * and time, such as …`), a batch's item by its number from 1, or by its record's name when
 * `itemName` knows it (`Item 0 (status): must be string` -> `sw-01 (Status): choose one of: …`).
 */
export function plainMessage(
  resource: UiResource,
  message: string,
  itemName?: (index: number) => string | undefined,
): string {
  const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  const path = /^(?:querystring|body)\/([a-z_]+)(?:\/\d+)? (.*)$/i.exec(message);
  if (path?.[1] && path[2]) {
    const { label, column } = filterLabel(resource, path[1]);
    return `${label}: ${sentence(plainReason(path[2], column))}`;
  }
  const invalid = /^Invalid value in query parameter ([a-z_]+): (.*)$/.exec(message);
  if (invalid?.[1] && invalid[2] !== undefined) {
    const { label, column } = filterLabel(resource, invalid[1]);
    const what = column?.references
      ? ` (each value must be a ${uiResource(column.references)?.names.singular ?? 'record'}'s id)`
      : '';
    return `${label}: ${invalid[2]} is not a valid value${what}`;
  }
  // The API has no "is none of": "is not" takes one value, so several chosen of an
  // enumeration's select under "is not" are refused as a repeated parameter.
  const repeatedNot = /^Duplicate query parameter forbidden: ([a-z_]+)__n$/.exec(message);
  const notColumn = resource.columns.find((column) => column.name === repeatedNot?.[1]);
  if (notColumn) {
    const others = isEnumeration(notColumn)
      ? '; to leave out several, choose “is one of” the others'
      : '';
    return `${notColumn.label}: “is not” takes one value${others}.`;
  }
  const item = /^Item (\d+) \(([a-z_]+)(?:\/\d+)?\): (.*)$/.exec(message);
  if (item?.[1] && item[2] && item[3] !== undefined) {
    const index = Number(item[1]);
    const { label, column } = filterLabel(resource, item[2]);
    const name = itemName?.(index) ?? `Item ${index + 1}`;
    return `${name} (${label}): ${plainReason(item[3], column)}`;
  }
  return message;
}
