import stringWidth from 'string-width';

/**
 * Characters a terminal would act on, or show as nothing, rather than show: C0 controls (ESC
 * starts every escape sequence), DEL, C1 controls (0x9B is a one-byte CSI on some terminals), every
 * format character (bidirectional marks and overrides that reorder what is shown, zero-width
 * spaces and joiners that terminals and layout libraries measure differently, the byte order
 * mark), the line and paragraph separators, and lone surrogates.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

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
 * hide part of itself.
 */
export function printable(text: string): string {
  // Plain printable ASCII (nearly every method and path) has nothing to replace.
  if (PLAIN.test(text)) return text;
  return ambiguousClusters(text.replace(UNSAFE, visible).replaceAll('\t', '    '));
}

/** Text in which a grapheme cluster can join several code points: beyond Latin, Greek, Cyrillic. */
const MAY_JOIN = /[^\u0020-\u02ff\u0370-\u052f]/u; // controls are stand-ins by now
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Grapheme clusters whose width terminals disagree on, as their first character then stand-ins:
 * string-width (and so Ink's layout) measures Devanagari क्ष (क, virama, ष) as one column where
 * tmux draws two, and ❤️ (with a variation selector) as two where tmux draws one; either way every
 * border after it on the row moves. A cluster is kept when its width is the sum of its characters'
 * (the same whichever way a terminal counts), and a lone zero-width character is shown as a
 * stand-in (the layout gives it a column the terminal does not).
 */
function ambiguousClusters(text: string): string {
  if (!MAY_JOIN.test(text)) return text;
  let result = '';
  let changed = false;
  for (const { segment } of graphemes.segment(text)) {
    const first = segment.codePointAt(0) ?? 0;
    const firstLength = first > 0xffff ? 2 : 1;
    const whole = stringWidth(segment);
    if (segment.length === firstLength) {
      if (whole === 0) {
        result += visible(segment);
        changed = true;
      } else result += segment;
      continue;
    }
    let sum = 0;
    for (const char of segment) sum += stringWidth(char);
    if (sum === whole && whole > 0) {
      result += segment;
      continue;
    }
    changed = true;
    const chars = [...segment];
    result += stringWidth(chars[0] ?? '') === 0 ? visible(chars[0] ?? '') : (chars[0] ?? '');
    for (const char of chars.slice(1)) result += visible(char);
  }
  return changed ? result : text;
}

/** Multi-line text as printable lines (`\n` and `\r\n` end lines; other controls are shown). */
export function printableLines(text: string): string[] {
  return text.split(/\r?\n/).map(printable);
}
