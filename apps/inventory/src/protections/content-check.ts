import fastifyFormbody from '@fastify/formbody';
import { DecodingMode, EntityDecoder, htmlDecodeTree } from 'entities/decode';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

/*
 * The question the check answers: would sanitising this text as HTML (sanitize-html with no
 * allowed tags, i.e. htmlparser2's tokenizer, whose text it then escapes again) change it,
 * leaving aside that escaping? It once ran sanitize-html over every value to find out, which costs
 * about 1 µs per `<` or `&` (a text event each) and let one 1 MB value take 0.9 s of CPU before
 * authentication. The answer needs no parser: text comes out unchanged exactly when
 * the tokenizer never leaves its text state (nothing is dropped) and decodes no character
 * reference (a decoded reference is shorter than its source). Both are decided here in one pass
 * each; test/protections/content-check.test.ts compares this with sanitize-html itself over
 * random strings of HTML's punctuation, references and tags.
 */

/**
 * Where htmlparser2 leaves its text state: `<` followed by a letter (a tag), `!` (comment,
 * declaration, CDATA) or `?` (processing instruction), or `</` followed, after any whitespace,
 * by anything but `>` (an end tag or a bogus comment). Everything it reads there is dropped. `</>`
 * and a `</` at the very end, spaces allowed, stay text, as does every other `<`. Linear: the
 * only repetition is a whitespace run, which the character after it ends.
 */
const LEAVES_TEXT = /<[A-Za-z!?]|<\/[\t\n\f\r ]*[^\t\n\f\r >]/;

/** Set by the decoder's callback: a character reference was read. */
let referenceDecoded = false;
/**
 * The decoder htmlparser2 uses for text (`entities`, the version sanitize-html's parser uses), so
 * that what counts as a reference (2,231 names, legacy ones without `;`, numeric ones) is the
 * parser's own. Synchronous and reset before each use, so one instance serves every request.
 */
const referenceDecoder = new EntityDecoder(htmlDecodeTree, () => {
  referenceDecoded = true;
});

const HASH = 0x23;
const isAsciiLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/**
 * Whether HTML reads a character reference somewhere in `text` (`&amp;`, `&lt`, `&#60;`...),
 * trying each `&` as the tokenizer does in text: a reference starts with a letter or `#`, and
 * after one that does not decode, reading resumes right after its `&`. Each attempt reads at
 * most the longest name (32 characters) or one run of digits, then stops at the next `&`.
 */
function decodesCharacterReference(text: string): boolean {
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    const next = text.charCodeAt(at + 1);
    // No name is one letter long and `&#` needs a digit: `&` + one character never decodes.
    if ((next !== HASH && !isAsciiLetter(next)) || at + 2 >= text.length) continue;
    referenceDecoded = false;
    referenceDecoder.startEntity(DecodingMode.Legacy);
    // -1: the text ended inside a possible reference; end() decodes what it holds (`&amp`).
    if (referenceDecoder.write(text, at + 1) < 0) referenceDecoder.end();
    if (referenceDecoded) return true;
  }
  return false;
}

/**
 * Whether sanitising `text` as HTML would change it, ignoring the escaping the sanitiser adds
 * (so `R&D`, `a < b` and `x > 3` are unchanged while `<b>x</b>` loses its tags). Strict about
 * entities: `&lt;script&gt;` or `&amp;` in the input read differently once decoded, so they
 * count as changed too: a value is accepted only if its text is what a browser would show.
 * Linear in the length of `text`, with a small constant (bench/hostile-bodies.ts).
 */
export const holdsMarkup = (text: string): boolean =>
  (text.includes('<') && LEAVES_TEXT.test(text)) || decodesCharacterReference(text);

/**
 * A cheap over-approximation, kept for callers that filter before checking: `<` followed by a
 * letter, `/`, `!` or `?`, or `&` followed by a letter, digit or `#`. Text without one of these
 * pairs never holds markup.
 */
const MARKUP_START = /<[A-Za-z/!?]|&[A-Za-z0-9#]/;

export const mayHoldMarkup = (text: string): boolean => MARKUP_START.test(text);

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
export const hasUnpairedSurrogate = (text: string): boolean =>
  // String.prototype.isWellFormed (Node 20+, native: 3x faster than a regex), not in ES2023's types.
  !(text as string & { isWellFormed(): boolean }).isWellFormed();

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

/** Text the check refuses: markup, or not valid Unicode. */
const refusedText = (text: string): boolean => holdsMarkup(text) || hasUnpairedSurrogate(text);

/**
 * Whether any string (value or key) in `root` holds markup or is not valid Unicode: the check of
 * every request, in no particular order and without paths, so that a body of 170,000 short
 * strings costs a few milliseconds. Only when it finds something does the ordered walk below
 * name the first offender for the message.
 */
export function holdsRefusedText(root: unknown): boolean {
  if (typeof root === 'string') return refusedText(root);
  const containers: unknown[] = [root];
  for (let value = containers.pop(); value !== undefined; value = containers.pop()) {
    if (Array.isArray(value)) {
      for (const item of value) {
        if (typeof item === 'string') {
          if (refusedText(item)) return true;
        } else if (typeof item === 'object' && item !== null) containers.push(item);
      }
    } else if (isPlainObject(value)) {
      for (const key of Object.keys(value)) {
        if (refusedText(key)) return true;
        const item = value[key];
        if (typeof item === 'string') {
          if (refusedText(item)) return true;
        } else if (typeof item === 'object' && item !== null) containers.push(item);
      }
    }
  }
  return false;
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

export const MARKUP = 'contains HTML or script content';
export const NOT_UNICODE = 'contains text that is not valid Unicode (an unpaired surrogate)';

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

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route only hands its query and body on to the API's own routes, where this check and
     * the rule of one value per query parameter refuse them, and shows that refusal itself (the
     * web interface's pages: beside the field, the typed values kept). Refused here, before the
     * route runs, the request would get a bare error instead.
     */
    inputCheckedByApi?: boolean;
  }
}

/**
 * Refuses (400) a request whose query or JSON/form body holds markup anywhere, keys included.
 * A preValidation hook: bodies are parsed by then, and the check runs before schema validation
 * and handlers, whatever the route (but one whose input is checked by the API it calls, see
 * `inputCheckedByApi`). Registers @fastify/formbody unless a form parser exists.
 */
export const contentCheck: FastifyPluginAsync = fp(
  async (app) => {
    if (!app.hasContentTypeParser(FORM)) await app.register(fastifyFormbody);
    app.addHook('preValidation', (request, _reply, done) => {
      if (request.routeOptions.config.inputCheckedByApi) return done();
      if (!holdsRefusedText(request.query) && !holdsRefusedText(request.body)) return done();
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
