import { describe, expect, it } from 'vitest';
import { printable } from '../src/format/printable.js';

describe('terminal-safe text', () => {
  it.each([
    ['\u200e', '<U+200E>'],
    ['\u200f', '<U+200F>'],
    ['\u061c', '<U+061C>'],
    ['\u2028', '<U+2028>'],
    ['\u2029', '<U+2029>'],
    ['\ufeff', '<U+FEFF>'],
    ['\u200b', '<U+200B>'],
    ['\u2060', '<U+2060>'],
    ['\u200d', '<U+200D>'],
  ])(
    'shows %j (a bidi mark, separator, BOM or zero-width character; once invisible) as %s',
    (char, standIn) => {
      expect(printable(`a${char}b`)).toBe(`a${standIn}b`);
    },
  );
});
