import { charColumns, clusterMeasures, graphemes, mayJoin } from './clusters.js';

/**
 * Characters a terminal would act on, or show as nothing, rather than show: C0 controls (ESC
 * starts every escape sequence), DEL, C1 controls (0x9B is a one-byte CSI on some terminals), every
 * format character (bidirectional marks and overrides that reorder what is shown, zero-width
 * spaces and joiners that terminals and layout libraries measure differently, the byte order
 * mark), the line and paragraph separators, and lone surrogates.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * The invisible characters in `UNSAFE`, for the other outputs that must not write them raw (curl
 * commands, --json lines): every format character (U+00AD, U+061C, U+180E, U+200B–U+200F,
 * U+202A–U+202E, U+2060–U+2064, U+2066–U+2069, U+FEFF, U+FFF9–U+FFFB, the tag characters
 * U+E0001–U+E007F, and the rest), and the line and paragraph separators. Needs the `u` flag: tag
 * characters lie beyond U+FFFF.
 */
export const INVISIBLE_CLASS = '\\p{Cf}\\p{Zl}\\p{Zp}';

const PLAIN = /^[\x20-\x7e]*$/;

/** The stand-in shown for a character `printable` replaces. */
function visible(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // ␀ ... ␟ (ESC shows as ␛)
  if (code === 0x7f) return '\u2421'; // ␡
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Finds the stand-ins `printable` writes, so views can style them apart from the text. */
export const STAND_IN = /<U\+[0-9A-F]{4,6}>|[\u2400-\u2421]/g;

/**
 * Text that is safe to write to a terminal on one line: every control or invisible character is
 * replaced by a visible stand-in and tabs by spaces. All text from requests goes through here
 * before display, so a request cannot move the cursor, change colours, retitle the window or
 * hide part of itself. Everything else (Hindi, emoji with selectors, modifiers or joiners) is
 * kept as it is: outside the UI nothing is laid out by width. The UI uses `printableInUi`.
 */
export function printable(text: string): string {
  // Plain printable ASCII (nearly every method and path) has nothing to replace.
  if (PLAIN.test(text)) return text;
  return text
    .replace(UNSAFE, (char, offset: number) =>
      char === '\u200d' &&
      EMOJI_BEFORE.test(text.slice(Math.max(0, offset - 4), offset)) &&
      EMOJI_AFTER.test(text.slice(offset + 1, offset + 3))
        ? char
        : visible(char),
    )
    .replaceAll('\t', '    ');
}

/** A zero-width joiner inside an emoji sequence (👨‍👩‍👧): part of the emoji, not hidden text. */
const EMOJI_BEFORE = /\p{Extended_Pictographic}[\u{fe0f}\u{1f3fb}-\u{1f3ff}]?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/**
 * `printable`, and also laid out the same by the UI and the terminal: see `ambiguousClusters`.
 * For the UI's panes only, where a column too many or too few moves every border after it.
 */
export function printableInUi(text: string): string {
  if (PLAIN.test(text)) return text;
  return ambiguousClusters(printable(text));
}

/** Text in which a grapheme cluster can join several code points: beyond Latin, Greek, Cyrillic. */
const MAY_JOIN = /[^\u0020-\u02ff\u0370-\u052f]/u; // controls are stand-ins by now

/** Viramas (Indic scripts' vowel killers) that join the consonant after them into a conjunct. */
const VIRAMA_BEFORE_LETTER =
  /([\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d4d\u0dca\u1039\u17d2\u1a60\ua8c4\ua953\u{11046}\u{110b9}\u{11133}])(?=\p{L})/gu;
const ZWNJ = '\u200c';

/** True when string-width (the layout's measure) and a code point by code point count agree. */
function agreed(cluster: string): boolean {
  const { whole, sum } = clusterMeasures(cluster);
  return sum === whole && whole > 0;
}

/**
 * Grapheme clusters whose width terminals disagree on, made unambiguous with as little change as
 * possible. string-width (and so Ink's layout, which puts each cluster in cells of its own)
 * measures Devanagari क्ष (क, virama, ष) as one column where tmux draws two, and ❤️ (with a
 * variation selector) as two where tmux draws one; either way every border after it on the row
 * moves, and no padding can help: Ink writes the row cell by cell by its own measure.
 *
 * - An Indic conjunct is kept, with a zero-width non-joiner after each virama (स्‌ते for स्ते):
 *   the explicit-virama spelling of the same word, which splits the cluster into parts every
 *   measure agrees on (tmux draws conjuncts that way anyway).
 * - Any other such cluster (an emoji with a variation selector, a skin tone or joiners, a keycap)
 *   is drawn in one, two or more columns depending on the terminal: it is shown as its first
 *   character then stand-ins (❤<U+FE0F>).
 * - A cluster is kept when its width is the sum of its characters' (the same whichever way a
 *   terminal counts), and a lone zero-width character is shown as a stand-in (the layout gives it
 *   a column the terminal does not).
 */
function ambiguousClusters(text: string): string {
  if (!MAY_JOIN.test(text)) return text;
  if (!mayJoin(text)) return zeroWidthChars(text);
  let result = '';
  let changed = false;
  for (const { segment } of graphemes.segment(text)) {
    if (agreed(segment)) {
      result += segment;
      continue;
    }
    changed = true;
    const split = segment.replace(VIRAMA_BEFORE_LETTER, `$1${ZWNJ}`);
    if (split !== segment) {
      const parts = Array.from(graphemes.segment(split), (part) => part.segment);
      if (parts.length > 1 && parts.every(agreed)) {
        result += split;
        continue;
      }
    }
    const chars = [...segment];
    result += charColumns(chars[0] ?? '') === 0 ? visible(chars[0] ?? '') : (chars[0] ?? '');
    for (const char of chars.slice(1)) result += visible(char);
  }
  return changed ? result : text;
}

/** `text` (one cluster per code point) with each zero-width code point as a stand-in. */
function zeroWidthChars(text: string): string {
  let result = '';
  let changed = false;
  for (const char of text) {
    if (charColumns(char) === 0) {
      result += visible(char);
      changed = true;
    } else result += char;
  }
  return changed ? result : text;
}

/** Multi-line text as printable lines (`\n` and `\r\n` end lines; other controls are shown). */
export function printableLines(text: string): string[] {
  return text.split(/\r?\n/).map(printable);
}

/** `printableLines` for the UI's panes: see `printableInUi`. */
export function printableLinesInUi(text: string): string[] {
  return text.split(/\r?\n/).map(printableInUi);
}
