/**
 * Request bodies built to make the content check (src/protections/content-check.ts) work as hard
 * as it can, each just under the default BODY_LIMIT (1 MiB) once serialised. Used by the
 * reliability test (reliability/hostile-bodies.test.ts) and the benchmark
 * (bench/hostile-bodies.ts). A hostile review named the first two: one string of `<` ending in a letter
 * cost sanitize-html 0.6-0.74 s of CPU, repeated `R&D` 0.2 s per MB.
 */

/** Room left for the JSON punctuation around the payload. */
const SIZE = 1024 * 1024 - 64;

const repeatTo = (unit: string, size = SIZE) => unit.repeat(Math.floor(size / unit.length));

/** One string per body, or many small ones: what the walk and each string's check cost. */
export const HOSTILE_BODIES: Record<string, () => string> = {
  // One `<` run closed by a letter: a tag opens only at the very end.
  'lt-run-then-letter': () => JSON.stringify({ username: `${repeatTo('<', SIZE - 1)}a` }),
  // Text that never holds markup, every `&` a possible character reference.
  'r-and-d-string': () => JSON.stringify({ username: repeatTo('R&D ') }),
  'r-and-d-array': () => JSON.stringify(Array.from({ length: SIZE / 6 }, () => 'R&D')),
  // The longest named-reference prefix without its `;`: the decoder walks 31 characters each time.
  'entity-prefixes': () =>
    JSON.stringify({ username: repeatTo('&CounterClockwiseContourIntegra ') }),
  // `</>` and `</ >` are plain text to HTML's tokenizer (sanitize-html keeps them).
  'empty-end-tags': () => JSON.stringify({ username: repeatTo('</> </  > ') }),
  // Numeric references without digits: never decoded.
  'numeric-prefixes': () => JSON.stringify({ username: repeatTo('&#x&#') }),
  // Many object keys, each with a `&`.
  'many-keys': () =>
    JSON.stringify(Object.fromEntries(Array.from({ length: SIZE / 14 }, (_, i) => [`k&${i}`, 1]))),
  // Deep nesting around one clean string.
  'deep-nesting': () => `${'['.repeat(SIZE / 2 - 8)}"R&D"${']'.repeat(SIZE / 2 - 8)}`,
};
