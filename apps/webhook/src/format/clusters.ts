import stringWidth from 'string-width';

/**
 * Characters that can join the code point before them (or after, for Prepend) into one grapheme
 * cluster: combining and enclosing marks, spacing marks, the zero-width joiner, variation
 * selectors and tags (Grapheme_Extend holds those), emoji modifiers, Hangul jamo vowels and final
 * consonants, regional indicators (flags are pairs), and the few Prepend letters. Text without
 * any is one cluster per code point, so it is measured without Intl.Segmenter (hundreds of times
 * slower: the UI's text path shares the event loop with capture).
 */
const JOINING =
  /\u200d|[\p{Grapheme_Extend}\p{Mc}\u1160-\u11ff\ud7b0-\ud7ff\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}\u0e33\u0eb3\u0d4e\u{111c2}\u{111c3}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}]/u;

/** Whether `text` may hold a grapheme cluster of several code points. */
export function mayJoin(text: string): boolean {
  return JOINING.test(text);
}

export const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Each code point's string-width, measured once (string-width segments whatever it measures). */
const charWidths = new Map<number, number>();

/**
 * Hangul vowel and final jamo (U+1160-U+11FF, U+D7B0-U+D7FF): string-width gives each a column,
 * glibc's wcwidth, xterm and tmux none (they join the syllable before them, or vanish alone).
 */
const ZERO_WIDTH_JAMO = /^[\u1160-\u11ff\ud7b0-\ud7ff]$/u;

/** Columns of one code point: string-width's, but 0 where terminals draw nothing (jamo above). */
export function charColumns(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  let width = charWidths.get(code);
  if (width === undefined) {
    width = ZERO_WIDTH_JAMO.test(char) ? 0 : stringWidth(char);
    charWidths.set(code, width);
  }
  return width;
}

/** The grapheme clusters of `text`: its code points when none can join. */
export function clustersOf(text: string): Iterable<string> {
  if (!mayJoin(text)) return text;
  return Array.from(graphemes.segment(text), ({ segment }) => segment);
}

/** string-width of clusters of several code points, measured once each (up to a bound). */
const clusterWidths = new Map<string, number>();
const CLUSTER_WIDTHS_KEPT = 4096;

/** string-width of one grapheme cluster of several code points. */
export function wholeColumns(cluster: string): number {
  let width = clusterWidths.get(cluster);
  if (width === undefined) {
    width = stringWidth(cluster);
    if (clusterWidths.size >= CLUSTER_WIDTHS_KEPT) clusterWidths.clear();
    clusterWidths.set(cluster, width);
  }
  return width;
}

/**
 * The two measures of one grapheme cluster terminals may disagree on: string-width's of the whole
 * (what Ink lays out) and the sum of its code points' (what a terminal that draws code point by
 * code point, such as tmux, uses). The layout reserves the larger; the UI keeps a cluster as it
 * is only when they agree (see printableInUi).
 */
export function clusterMeasures(cluster: string): { whole: number; sum: number } {
  const first = cluster.codePointAt(0) ?? 0;
  if (cluster.length === (first > 0xffff ? 2 : 1)) {
    const width = charColumns(cluster);
    return { whole: width, sum: width };
  }
  let sum = 0;
  for (const char of cluster) sum += charColumns(char);
  return { whole: wholeColumns(cluster), sum };
}
