import type { Key } from 'ink';
import type { UiKey } from './reducer.js';

export type KeyAction = UiKey | 'quit';

/** What one key press means; null for keys the UI ignores. */
export function keyAction(input: string, key: Key): KeyAction | null {
  if (key.escape || (key.ctrl && input === 'c') || input === 'q' || input === '\x03') return 'quit';
  if (key.upArrow || input === 'k') return 'up';
  if (key.downArrow || input === 'j') return 'down';
  if (key.pageUp) return 'pageUp';
  if (key.pageDown) return 'pageDown';
  if (key.home || input === 'g') return 'newest';
  if (key.end || input === 'G') return 'oldest';
  if (key.return || input === '\r') return 'toggleBody';
  if (input === 'c') return 'clear';
  return null;
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
 * The actions in one chunk of input. Keys typed faster than the UI reads them (or held down, so
 * they repeat) arrive together, as `jjj` or `jq`: Ink hands such a chunk over whole, as it would a
 * paste, so each character is a key press of its own here.
 */
export function keyActions(input: string, key: Key): KeyAction[] {
  const chars = Array.from(input);
  if (chars.length <= 1 || key.ctrl || key.meta) {
    const action = keyAction(input, key);
    return action ? [action] : [];
  }
  const actions: KeyAction[] = [];
  for (const char of chars) {
    const action = keyAction(char, PLAIN);
    if (action) actions.push(action);
  }
  return actions;
}
