const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A text's characters as a reader sees them (grapheme clusters): an emoji, a flag or a letter
 * with its accents is one, though it takes several UTF-16 units. Texts are cut between these,
 * never inside one (half a surrogate pair is drawn as a replacement character).
 */
export const characters = (text: string): string[] =>
  Array.from(graphemes.segment(text), (part) => part.segment);

/** The first `count` characters of a text and an ellipsis, or the text when it is no longer. */
export function cutToStart(text: string, count: number): string {
  if (text.length <= count) return text;
  const all = characters(text);
  return all.length <= count ? text : `${all.slice(0, count).join('')}…`;
}

/**
 * A text cut to `count` characters in its middle, an ellipsis among them: both ends are kept,
 * where names of one kind differ (`core-router-paris-01`, `-02`).
 */
export function cutInMiddle(text: string, count: number): string {
  if (text.length <= count) return text;
  const all = characters(text);
  if (all.length <= count) return text;
  const kept = count - 1;
  const head = Math.ceil(kept / 2);
  return `${all.slice(0, head).join('')}…${all.slice(head - kept).join('')}`;
}

/** The C0 control characters and DEL, which a page would otherwise draw as nothing at all. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it draws
const CONTROLS = /[\u0000-\u001f\u007f]/g;

/**
 * A text with its control characters drawn as their pictures (NUL as ␀, ESC as ␛, DEL as ␡):
 * for repeating what someone typed in a sentence, where an invisible one would hide why a
 * name matched nothing (and NUL is no character of an HTML page at all).
 */
export const visibleControls = (text: string): string =>
  text.replace(CONTROLS, (control) =>
    String.fromCodePoint(control === '\u007f' ? 0x2421 : 0x2400 + control.charCodeAt(0)),
  );
