import { describe, expect, it } from 'vitest';
import type { UiColumn } from '../../src/ui/catalogue.js';
import { topologySvg } from '../../src/ui/svg.js';
import { listCell } from '../../src/ui/views.js';

/** The labels drawn under the nodes (the whole names are in each node's <title>). */
function drawnLabels(labels: readonly string[]): string[] {
  const svg = topologySvg(
    labels.map((label, index) => ({ id: String(index), label, href: `/ui/devices/${index}` })),
    [],
  ).text;
  return [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((match) => match[1] ?? '');
}

describe('topology labels', () => {
  it('keep the end of a long name, where names of one site differ', () => {
    const drawn = drawnLabels(['core-router-paris-01', 'core-router-paris-02', 'edge-1']);
    expect(drawn[0]).not.toBe(drawn[1]);
    expect(drawn[0]?.endsWith('-01')).toBe(true);
    expect(drawn[0]?.startsWith('core')).toBe(true);
    expect(drawn[0]).toContain('…');
    expect(drawn[2]).toBe('edge-1');
    expect([...(drawn[0] ?? '')].length).toBeLessThanOrEqual(14);
  });

  it('never cut a character in two', () => {
    // Emoji and flags are several UTF-16 units (a flag two code points): no half of one is drawn.
    const [drawn] = drawnLabels(['🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷']);
    expect(drawn).toBeDefined();
    expect(drawn).toMatch(/^(🇫🇷)+…(🇫🇷)+$/u);
  });
});

describe('a long value in a list cell', () => {
  const column: UiColumn = {
    name: 'description',
    label: 'Description',
    kind: 'text',
    filterable: false,
    sortable: false,
    writable: true,
    required: false,
    lookups: [],
    secret: false,
  };

  it('is cut after 120 characters, between graphemes', () => {
    // 119 letters then flags: the 120th character is a flag of four UTF-16 units.
    const cell = listCell(column, `${'a'.repeat(119)}${'🇫🇷'.repeat(10)}`, new Map()).text;
    expect(cell).toBe(`${'a'.repeat(119)}🇫🇷…`);
    expect(listCell(column, 'short', new Map()).text).toBe('short');
  });
});
