// The UI's text path shares the event loop with capture: text that cannot hold a cluster of
// several code points (CJK, most emoji, Latin) is measured code point by code point, without
// Intl.Segmenter, which costs hundreds of times more.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { printableInUi } from '../src/format/printable.js';
import { columnsOf, fit, rowCount, wrap } from '../src/ui/text-width.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('text without joining characters', () => {
  it('is laid out without the grapheme segmenter', () => {
    const line = '  "项目": "中文字符串，日本語とカタカナ和한국어 😀 Zoë ✓",';
    // Each code point's width is string-width's (which segments), measured once.
    columnsOf(line);
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    expect(printableInUi(line)).toBe(line);
    expect(columnsOf(line)).toBe(58);
    expect(rowCount(line, 10)).toBe(6);
    expect(wrap(line, 10)).toEqual([
      '  "项目": ',
      '"中文字符',
      '串，日本語',
      'とカタカナ',
      '和한국어 ',
      '😀 Zoë ✓",',
    ]);
    expect(fit(line, 20)).toBe('  "项目": "中文字符…');
    expect(segment).not.toHaveBeenCalled();
  });

  it('still segments text that may join (a combining mark, a joiner, a selector, a virama)', () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    for (const text of ['e\u0301', '❤️', 'क्ष', '👍🏽', '🇫🇷']) {
      segment.mockClear();
      columnsOf(`中${text}`);
      expect(segment, text).toHaveBeenCalled();
    }
    expect(columnsOf('中e\u0301')).toBe(3);
    expect(wrap('🇫🇷🇫🇷', 2)).toEqual(['🇫🇷', '🇫🇷']);
  });
});
