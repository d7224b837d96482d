import type { Key } from 'ink';
import type { UiEvent, UiKey } from './reducer.js';

/** One key binding: what it is called in the help and README, and when it applies. */
export interface Binding {
  /** As shown to people: `r`, `Enter`, `Page Down`. */
  readonly label: string;
  readonly action: UiKey;
  readonly description: string;
  readonly matches: (input: string, key: Key) => boolean;
}

const char = (wanted: string) => (input: string) => input === wanted;

/**
 * Every key of the list and detail view, in one table (as mitmproxy binds its console's keys):
 * the key handler, the status bar's hints and the README's table come from here.
 */
export const BINDINGS: readonly Binding[] = [
  {
    label: 'q, Ctrl+C',
    action: 'quit',
    description: 'Quit (exit code 0), terminal restored.',
    matches: (input, key) => input === 'q' || (key.ctrl && input === 'c') || input === '\x03',
  },
  {
    label: 'Esc',
    action: 'escape',
    description: 'Clear the filter; without one, quit.',
    matches: (_input, key) => key.escape,
  },
  {
    label: 'Up, k',
    action: 'up',
    description: 'Select the next newer request.',
    matches: (input, key) => key.upArrow || input === 'k',
  },
  {
    label: 'Down, j',
    action: 'down',
    description: 'Select the next older request.',
    matches: (input, key) => key.downArrow || input === 'j',
  },
  {
    label: 'Home, g',
    action: 'newest',
    description: 'Newest request.',
    matches: (input, key) => key.home || input === 'g',
  },
  {
    label: 'End, G',
    action: 'oldest',
    description: 'Oldest request.',
    matches: (input, key) => key.end || input === 'G',
  },
  {
    label: 'Page Up',
    action: 'pageUp',
    description: 'Scroll the detail pane up a page.',
    matches: (_input, key) => key.pageUp,
  },
  {
    label: 'Page Down',
    action: 'pageDown',
    description: 'Scroll the detail pane down a page.',
    matches: (_input, key) => key.pageDown,
  },
  {
    label: 'Enter',
    action: 'toggleBody',
    description: 'Expand or collapse the body.',
    matches: (input, key) => key.return || input === '\r',
  },
  {
    label: 'v',
    action: 'cycleBody',
    description: 'Body view: pretty, raw text, hex (kept while you move).',
    matches: char('v'),
  },
  {
    label: '/',
    action: 'filter',
    description: 'Filter the list as you type (Enter keeps it, Esc clears it).',
    matches: char('/'),
  },
  {
    label: 'n',
    action: 'nextMatch',
    description: 'Next match: the next older request in the (filtered) list, wrapping around.',
    matches: char('n'),
  },
  {
    label: 'N',
    action: 'previousMatch',
    description: 'Previous match: the next newer one, wrapping around.',
    matches: char('N'),
  },
  {
    label: 'r',
    action: 'replay',
    description:
      'Replay the selected request (to the forward target, --replay-to, or a URL asked for).',
    matches: char('r'),
  },
  {
    label: 'e',
    action: 'editReplay',
    description: 'Edit the selected request in $EDITOR, then replay the edited one.',
    matches: char('e'),
  },
  {
    label: 'x',
    action: 'copyCurl',
    description: 'Copy the selected request as a curl command (OSC 52), or write it to a file.',
    matches: char('x'),
  },
  {
    label: 'X',
    action: 'exportHar',
    description: 'Export the list (the filtered part when filtering) as a HAR 1.2 file.',
    matches: char('X'),
  },
  {
    label: 'c',
    action: 'clear',
    description: 'Clear all captured requests (the `seen` count keeps counting).',
    matches: char('c'),
  },
];

/** The event one key press means; null for keys the UI ignores. */
export function keyEvent(input: string, key: Key, typing: boolean): UiEvent | null {
  if (typing) {
    if ((key.ctrl && input === 'c') || input === '\x03') return { type: 'key', key: 'quit' };
    if (key.escape) return { type: 'key', key: 'escape' };
    if (key.return || input === '\r') return { type: 'submit' };
    if (key.backspace || key.delete || input === '\x7f' || input === '\b') return { type: 'erase' };
    if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.tab) return null;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are not text
    const text = input.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
    return text === '' ? null : { type: 'type', text };
  }
  const binding = BINDINGS.find((candidate) => candidate.matches(input, key));
  return binding ? { type: 'key', key: binding.action } : null;
}

const PLAIN: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/**
 * Hands each event of one chunk of input to `handle`, in order. Keys typed faster than the UI
 * reads them (or held down, so they repeat) arrive together, as `jjj` or `/push`: Ink hands such
 * a chunk over whole, as it would a paste, so each character is a key press of its own here.
 * Whether a character is text or a command depends on the state the previous one left (`/` opens
 * the filter, then `push` is typed into it), so `typing` is asked again before each.
 */
export function forEachKeyEvent(
  input: string,
  key: Key,
  typing: () => boolean,
  handle: (event: UiEvent) => void,
): void {
  const chars = Array.from(input);
  if (chars.length <= 1 || key.ctrl || key.meta) {
    const event = keyEvent(input, key, typing());
    if (event) handle(event);
    return;
  }
  for (const char of chars) {
    const event = keyEvent(char, PLAIN, typing());
    if (event) handle(event);
  }
}
