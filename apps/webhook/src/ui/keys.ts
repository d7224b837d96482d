import type { Key } from 'ink';
import type { UiEvent, UiKey } from './reducer.js';

/** Where a binding applies: the list and detail view, or a line being typed (`/`, a URL). */
export type KeyMode = 'list' | 'prompt';

/** One key binding: what it is called in the help and README, and when it applies. */
export interface Binding {
  readonly mode: KeyMode;
  /** As shown to people: `r`, `Enter`, `Page Down`. */
  readonly label: string;
  readonly description: string;
  readonly matches: (input: string, key: Key) => boolean;
  /** What the key means; null: ignored. */
  readonly event: UiEvent | null;
}

const char = (wanted: string) => (input: string) => input === wanted;
const command = (name: UiKey): UiEvent => ({ type: 'key', key: name });
const ctrlC = (input: string, key: Key) => (key.ctrl && input === 'c') || input === '\x03';
const ctrlZ = (input: string, key: Key) => (key.ctrl && input === 'z') || input === '\x1a';

/**
 * Every key, in one table (as mitmproxy binds its console's keys), by mode: the key handler and
 * the README's table come from here. In `prompt` mode a key no row matches is typed as text.
 */
export const KEY_TABLE: readonly Binding[] = [
  {
    mode: 'list',
    label: 'q, Ctrl+C',
    description: 'Quit (exit code 0), terminal restored.',
    matches: (input, key) => input === 'q' || ctrlC(input, key),
    event: command('quit'),
  },
  {
    mode: 'list',
    label: 'Ctrl+Z',
    description: 'Suspend to the shell (terminal restored); `fg` comes back. Capturing pauses.',
    matches: ctrlZ,
    event: command('suspend'),
  },
  {
    mode: 'list',
    label: 'Esc',
    description: 'Clear the filter; without one, quit.',
    matches: (_input, key) => key.escape,
    event: command('escape'),
  },
  {
    mode: 'list',
    label: 'Up, k',
    description: 'Select the next newer request.',
    matches: (input, key) => key.upArrow || input === 'k',
    event: command('up'),
  },
  {
    mode: 'list',
    label: 'Down, j',
    description: 'Select the next older request.',
    matches: (input, key) => key.downArrow || input === 'j',
    event: command('down'),
  },
  {
    mode: 'list',
    label: 'Home, g',
    description: 'Newest request.',
    matches: (input, key) => key.home || input === 'g',
    event: command('newest'),
  },
  {
    mode: 'list',
    label: 'End, G',
    description: 'Oldest request.',
    matches: (input, key) => key.end || input === 'G',
    event: command('oldest'),
  },
  {
    mode: 'list',
    label: 'Page Up',
    description: 'Scroll the detail pane up a page.',
    matches: (_input, key) => key.pageUp,
    event: command('pageUp'),
  },
  {
    mode: 'list',
    label: 'Page Down',
    description: 'Scroll the detail pane down a page.',
    matches: (_input, key) => key.pageDown,
    event: command('pageDown'),
  },
  {
    mode: 'list',
    label: '[',
    description: "Scroll the detail pane to the start of the request's body.",
    matches: char('['),
    event: command('bodyStart'),
  },
  {
    mode: 'list',
    label: ']',
    description: "Scroll to the end of the request's body (expanding it).",
    matches: char(']'),
    event: command('bodyEnd'),
  },
  {
    mode: 'list',
    label: 'Enter',
    description: 'Expand or collapse the body.',
    matches: (input, key) => key.return || input === '\r',
    event: command('toggleBody'),
  },
  {
    mode: 'list',
    label: 'v',
    description: 'Body view: pretty, raw text, hex (kept while you move).',
    matches: char('v'),
    event: command('cycleBody'),
  },
  {
    mode: 'list',
    label: '/',
    description: 'Filter the list as you type (Enter keeps it, Esc clears it).',
    matches: char('/'),
    event: command('filter'),
  },
  {
    mode: 'list',
    label: 'n',
    description: 'Next match: the next older request in the (filtered) list, wrapping around.',
    matches: char('n'),
    event: command('nextMatch'),
  },
  {
    mode: 'list',
    label: 'N',
    description: 'Previous match: the next newer one, wrapping around.',
    matches: char('N'),
    event: command('previousMatch'),
  },
  {
    mode: 'list',
    label: 'r',
    description:
      'Replay the selected request (to the forward target, --replay-to, or a URL asked for).',
    matches: char('r'),
    event: command('replay'),
  },
  {
    mode: 'list',
    label: 'e',
    description: 'Edit the selected request in $EDITOR, then replay the edited one.',
    matches: char('e'),
    event: command('editReplay'),
  },
  {
    mode: 'list',
    label: 'x',
    description: 'Copy the selected request as a curl command (OSC 52), or write it to a file.',
    matches: char('x'),
    event: command('copyCurl'),
  },
  {
    mode: 'list',
    label: 'y',
    description: 'Copy the relay send URL (--relay) to the clipboard (OSC 52).',
    matches: char('y'),
    event: command('copySendUrl'),
  },
  {
    mode: 'list',
    label: 'X',
    description: 'Export the list (the filtered part when filtering) as a HAR 1.2 file.',
    matches: char('X'),
    event: command('exportHar'),
  },
  {
    mode: 'list',
    label: 'c',
    description: 'Clear all captured requests (the `seen` count keeps counting).',
    matches: char('c'),
    event: command('clear'),
  },
  {
    mode: 'prompt',
    label: 'Ctrl+C',
    description: 'Quit.',
    matches: ctrlC,
    event: command('quit'),
  },
  {
    mode: 'prompt',
    label: 'Ctrl+Z',
    description: 'Suspend to the shell; the line is kept.',
    matches: ctrlZ,
    event: command('suspend'),
  },
  {
    mode: 'prompt',
    label: 'Esc',
    description: 'Leave the line (the filter: cleared).',
    matches: (_input, key) => key.escape,
    event: command('escape'),
  },
  {
    mode: 'prompt',
    label: 'Enter',
    description: 'Keep the line (the filter) or send it (a replay URL).',
    matches: (input, key) => key.return || input === '\r',
    event: { type: 'submit' },
  },
  {
    mode: 'prompt',
    label: 'Backspace',
    description: 'Erase the last character.',
    matches: (input, key) => key.backspace || key.delete || input === '\x7f' || input === '\b',
    event: { type: 'erase' },
  },
  {
    mode: 'prompt',
    label: 'Ctrl, Alt, arrows, Tab',
    description: 'Ignored while typing.',
    matches: (_input, key) => key.ctrl || key.meta || key.upArrow || key.downArrow || key.tab,
    event: null,
  },
];

/** The list and detail view's keys: the README's key table. */
export const BINDINGS = KEY_TABLE.filter((binding) => binding.mode === 'list');

/** The event one key press means; null for keys the UI ignores. */
export function keyEvent(input: string, key: Key, typing: boolean): UiEvent | null {
  const mode: KeyMode = typing ? 'prompt' : 'list';
  const binding = KEY_TABLE.find(
    (candidate) => candidate.mode === mode && candidate.matches(input, key),
  );
  if (binding || !typing) return binding?.event ?? null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are not text
  const text = input.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  return text === '' ? null : { type: 'type', text };
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
