/** Most bytes sent through OSC 52: xterm and others drop longer sequences (about 100 KB). */
export const OSC52_LIMIT = 74_994;

/** The escape sequence that asks the terminal to put `text` on the clipboard (OSC 52). */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}
