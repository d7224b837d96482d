import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const lines = readme.split('\n');

describe('README', () => {
  it('has every code fence on a line of its own, opened and closed in pairs', () => {
    const misplaced = lines
      .map((line, index) => ({ line, number: index + 1 }))
      .filter(({ line }) => line.includes('```') && !/^ *```[a-z]*$/.test(line));
    expect(misplaced).toEqual([]);
    let open: number | undefined;
    for (const [index, line] of lines.entries()) {
      if (!line.trimStart().startsWith('```')) continue;
      if (open === undefined) {
        open = index + 1;
      } else {
        // A closing fence carries no info string.
        expect(line, `fence opened on line ${open} closes on line ${index + 1}`).toMatch(/^ *```$/);
        open = undefined;
      }
    }
    expect(open, 'a fence that never closes').toBeUndefined();
  });
});
