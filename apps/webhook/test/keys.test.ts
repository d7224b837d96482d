import { readFileSync } from 'node:fs';
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { BINDINGS, forEachKeyEvent, keyEvent } from '../src/ui/keys.js';
import type { UiEvent } from '../src/ui/reducer.js';

const plain = {} as Key;
const withKey = (flags: Partial<Key>) => ({ ...flags }) as Key;

describe('key table', () => {
  it('binds each key once', () => {
    const chars = 'qkjgGvnNrexXc/';
    for (const char of chars) {
      const bound = BINDINGS.filter((binding) => binding.matches(char, plain));
      expect(
        bound.map((binding) => binding.label),
        char,
      ).toHaveLength(1);
    }
  });

  it('is the table the README shows', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const binding of BINDINGS) {
      const keys = binding.label
        .split(', ')
        .map((key) => `\`${key}\``)
        .join(', ');
      expect(readme).toMatch(
        new RegExp(`\\| ${escapeRegExp(keys)} +\\| ${escapeRegExp(binding.description)} +\\|`),
      );
    }
  });

  it('turns keys into text while a line is typed', () => {
    expect(keyEvent('q', plain, true)).toEqual({ type: 'type', text: 'q' });
    expect(keyEvent('', withKey({ escape: true }), true)).toEqual({ type: 'key', key: 'escape' });
    expect(keyEvent('\r', withKey({ return: true }), true)).toEqual({ type: 'submit' });
    expect(keyEvent('', withKey({ backspace: true }), true)).toEqual({ type: 'erase' });
    expect(keyEvent('', withKey({ delete: true }), true)).toEqual({ type: 'erase' });
    expect(keyEvent('c', withKey({ ctrl: true }), true)).toEqual({ type: 'key', key: 'quit' });
    expect(keyEvent('a\x1b[2Jb', plain, true)).toEqual({ type: 'type', text: 'a[2Jb' });
    expect(keyEvent('', withKey({ upArrow: true }), true)).toBeNull();
  });

  it('reads a fast chunk key by key, asking before each whether a line is being typed', () => {
    const events: UiEvent[] = [];
    let typing = false;
    forEachKeyEvent(
      'j/pu',
      plain,
      () => typing,
      (event) => {
        events.push(event);
        if (event.type === 'key' && event.key === 'filter') typing = true;
      },
    );
    expect(events).toEqual([
      { type: 'key', key: 'down' },
      { type: 'key', key: 'filter' },
      { type: 'type', text: 'p' },
      { type: 'type', text: 'u' },
    ]);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
