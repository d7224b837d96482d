import type { Key } from 'ink';
import type { UiKey } from './reducer.js';

export type KeyAction = UiKey | 'quit';

/** What a key press means; null for keys the UI ignores. */
export function keyAction(input: string, key: Key): KeyAction | null {
  if (key.escape || (key.ctrl && input === 'c') || input === 'q') return 'quit';
  if (key.upArrow || input === 'k') return 'up';
  if (key.downArrow || input === 'j') return 'down';
  if (key.pageUp) return 'pageUp';
  if (key.pageDown) return 'pageDown';
  if (key.home || input === 'g') return 'newest';
  if (key.end || input === 'G') return 'oldest';
  if (key.return) return 'toggleBody';
  if (input === 'c') return 'clear';
  return null;
}
