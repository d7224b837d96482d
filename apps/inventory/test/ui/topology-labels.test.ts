import { describe, expect, it } from 'vitest';
import { topologySvg } from '../../src/ui/svg.js';

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
