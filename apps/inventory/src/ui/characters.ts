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
