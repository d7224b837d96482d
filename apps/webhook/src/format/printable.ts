/**
 * Characters a terminal would act on rather than show: C0 controls (ESC starts every escape
 * sequence), DEL, C1 controls (0x9B is a one-byte CSI on some terminals) and the bidirectional
 * overrides that can reorder what is shown.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // ␀ ... ␟ (ESC shows as ␛)
  if (code === 0x7f) return '\u2421'; // ␡
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Text that is safe to write to a terminal on one line: every control character is replaced by a
 * visible stand-in and tabs by spaces. All text from requests goes through here before display, so
 * a request cannot move the cursor, change colours or retitle the window.
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, visible).replaceAll('\t', '    ');
}

/** Multi-line text as printable lines (`\n` and `\r\n` end lines; other controls are shown). */
export function printableLines(text: string): string[] {
  return text.split(/\r?\n/).map(printable);
}
