import fastifyFormbody from '@fastify/formbody';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import sanitizeHtml from 'sanitize-html';
import { ApiError } from '../errors.js';

/** Nothing survives: every tag is dropped (script and style with their content). */
const NO_MARKUP: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };

/** The only entities sanitize-html writes: it decodes the input's, then escapes these. */
const SANITIZER_ESCAPES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };
const SANITIZER_ESCAPE = /&(amp|lt|gt|quot);/g;

/**
 * Whether sanitising `text` as HTML would change it, ignoring the escaping the sanitiser adds
 * (so `R&D`, `a < b` and `x > 3` are unchanged while `<b>x</b>` loses its tags). Strict about
 * entities: `&lt;script&gt;` or `&amp;` in the input read differently once decoded, so they
 * count as changed too: a value is accepted only if its text is what a browser would show.
 */
export function sanitizerAltersText(text: string): boolean {
  const sanitized = sanitizeHtml(text, NO_MARKUP);
  return (
    sanitized.replace(SANITIZER_ESCAPE, (_, name: string) => SANITIZER_ESCAPES[name] ?? '') !== text
  );
}

/**
 * Where HTML's tokenizer leaves plain text: `<` followed by a letter, `/`, `!` or `?` (a tag,
 * end tag, comment, declaration or processing instruction) or `&` followed by a letter, digit or
 * `#` (a character reference). Anywhere else `<` and `&` are just characters, so text without
 * these pairs (`a < b`, `1<2`, `AT & T`) cannot be changed by the sanitiser: the property tests in
 * test/protections check this over arbitrary strings. Only strings with such a pair pay for
 * sanitize-html, whose cost (a parser per call, ~2 µs per `<`/`&`) would otherwise let a 1 MB
 * body of `a < b` strings take a second of CPU.
 */
const MARKUP_START = /<[A-Za-z/!?]|&[A-Za-z0-9#]/;

export const mayHoldMarkup = (text: string): boolean => MARKUP_START.test(text);

/** Whether `text` holds HTML or script content: the sanitiser would change it. */
export const holdsMarkup = (text: string): boolean =>
  mayHoldMarkup(text) && sanitizerAltersText(text);

/** Where markup was found: the path of the value, or of the object whose key holds it. */
export interface MarkupLocation {
  path: ReadonlyArray<string | number>;
  inKey: boolean;
}

/** A step from a parent container; built as a chain so paths cost nothing until reported. */
interface Step {
  parent: Step | undefined;
  key: string | number;
}

/**
 * A UTF-16 surrogate without its other half: valid in a JavaScript string (JSON may escape one)
 * but without a UTF-8 form, so PostgreSQL cannot store it; one driver refuses it, another
 * silently writes U+FFFD instead. Refused like markup, so every route treats it the same way.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasUnpairedSurrogate = (text: string): boolean => UNPAIRED_SURROGATE.test(text);

/**
 * The first string (value or object key) holding markup in a parsed JSON, form or query value,
 * in document order. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findMarkup(root: unknown): MarkupLocation | undefined {
  return findText(root, holdsMarkup);
}

/** Likewise, the first string that is not valid Unicode. */
export function findUnpairedSurrogate(root: unknown): MarkupLocation | undefined {
  return findText(root, hasUnpairedSurrogate);
}

/** The first string (value or key) for which `refused` holds, in document order. */
function findText(root: unknown, refused: (text: string) => boolean): MarkupLocation | undefined {
  const pending: Array<{ value: unknown; at: Step | undefined }> = [{ value: root, at: undefined }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value, at } = item;
    if (typeof value === 'string') {
      if (refused(value)) return { path: pathOf(at), inKey: false };
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        pending.push({ value: value[index], at: { parent: at, key: index } });
      }
    } else if (isPlainObject(value)) {
      const keys = Object.keys(value);
      for (const key of keys) {
        if (refused(key)) return { path: pathOf(at), inKey: true };
      }
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        pending.push({ value: value[key], at: { parent: at, key } });
      }
    }
    // Numbers, booleans, null, Buffers and streams hold no text to check.
  }
  return undefined;
}

/**
 * Objects that parsers build: plain, null-prototype (formbody) or with a prototype that itself
 * has none (fast-querystring's query objects). Class instances (Buffers, streams) hold no text.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return (
    prototype === null ||
    prototype === Object.prototype ||
    Object.getPrototypeOf(prototype) === null
  );
}

function pathOf(step: Step | undefined): Array<string | number> {
  const path: Array<string | number> = [];
  for (let at = step; at !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Keys are the client's text: long ones are cut so that an error message stays short. */
const MAX_KEY_IN_PATH = 64;

/** `items[2].name`, `["odd key"].x`: how a client would write the path in JavaScript. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  return path
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      const shown = key.length > MAX_KEY_IN_PATH ? `${key.slice(0, MAX_KEY_IN_PATH)}…` : key;
      if (!IDENTIFIER.test(shown)) return `[${JSON.stringify(shown)}]`;
      return index === 0 ? shown : `.${shown}`;
    })
    .join('');
}

const MARKUP = 'contains HTML or script content';
const NOT_UNICODE = 'contains text that is not valid Unicode (an unpaired surrogate)';

/** The 400 message; the offending key itself is not echoed back. */
function describe(
  source: 'body' | 'query',
  { path, inKey }: MarkupLocation,
  problem: string = MARKUP,
): string {
  const where = formatPath(path);
  if (source === 'query') {
    return inKey ? `A query parameter name ${problem}` : `Query parameter "${where}" ${problem}`;
  }
  if (inKey)
    return where === '' ? `A field name ${problem}` : `A field name in "${where}" ${problem}`;
  return where === '' ? `Request body ${problem}` : `Field "${where}" ${problem}`;
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * Refuses (400) a request whose query or JSON/form body holds markup anywhere, keys included.
 * A preValidation hook: bodies are parsed by then, and the check runs before schema validation
 * and handlers, whatever the route. Registers @fastify/formbody unless a form parser exists.
 */
export const contentCheck: FastifyPluginAsync = fp(
  async (app) => {
    if (!app.hasContentTypeParser(FORM)) await app.register(fastifyFormbody);
    app.addHook('preValidation', (request, _reply, done) => {
      const inQuery = findMarkup(request.query);
      if (inQuery !== undefined) return done(new ApiError(400, describe('query', inQuery)));
      const inBody = findMarkup(request.body);
      if (inBody !== undefined) return done(new ApiError(400, describe('body', inBody)));
      const brokenQuery = findUnpairedSurrogate(request.query);
      if (brokenQuery) return done(new ApiError(400, describe('query', brokenQuery, NOT_UNICODE)));
      const brokenBody = findUnpairedSurrogate(request.body);
      if (brokenBody) return done(new ApiError(400, describe('body', brokenBody, NOT_UNICODE)));
      done();
    });
  },
  { name: 'inventory-protections/content-check', fastify: '5.x' },
);
