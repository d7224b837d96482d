// A grapheme cluster some measure as one column and terminals draw as two (Devanagari क्ष: क,
// the virama, ष) in a path: the UI's panes keep their borders, in a real terminal (tmux).
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { printable, printableInUi } from '../src/format/printable.js';
import { columnsOf, fit, middleEllipsis, rowCount, wrap } from '../src/ui/text-width.js';
import { startUiInTmux, waitFor } from './helpers.js';

const KSSA = 'क्ष';
/** Columns a terminal that draws code point by code point uses (the most any does here). */
const perCodePoint = (text: string) => [...text].reduce((sum, char) => sum + stringWidth(char), 0);

describe('text width of a cluster string-width measures as one column', () => {
  it('is measured as the larger of its code points and string-width, everywhere alike', () => {
    expect(columnsOf(KSSA)).toBe(2);
    expect(columnsOf(`/${KSSA}/x`)).toBe(5);
    expect(fit(`/${KSSA}/x`, 8)).toBe(`/${KSSA}/x   `);
    expect(columnsOf(fit(`/${KSSA}${KSSA}${KSSA}/x`, 6))).toBe(6);
    // Never cut inside the cluster (a virama at the start of a row joins nothing).
    expect(wrap(`${KSSA}${KSSA}a`, 3)).toEqual([KSSA, `${KSSA}a`]);
    expect(rowCount(`${KSSA}${KSSA}a`, 3)).toBe(2);
    expect(columnsOf(middleEllipsis(`/${KSSA.repeat(10)}/end`, 9))).toBeLessThanOrEqual(9);
    // A variation selector string-width counts: the wider measure wins.
    expect(columnsOf('\u263a\ufe0f')).toBe(2);
    expect(perCodePoint(KSSA)).toBe(2);
  });

  it('printableInUi keeps such a cluster so that layout and terminal agree', () => {
    // A conjunct is spelt with an explicit virama (a zero-width non-joiner after it): two clusters
    // of one column each, whichever way they are measured.
    expect(printableInUi(`/${KSSA}/x`)).toBe('/क्\u200cष/x');
    expect(columnsOf(printableInUi(KSSA))).toBe(perCodePoint(KSSA));
    expect(printableInUi('नमस्ते')).toBe('नमस्\u200cते');
    expect(printableInUi('हिन्दी')).toBe('हिन्\u200cदी');
    // Emoji clusters terminals draw in one, two or more columns: first character and stand-ins.
    expect(printableInUi('\u2764\ufe0f')).toBe('\u2764<U+FE0F>');
    expect(printableInUi('👍🏽')).toBe('👍<U+1F3FD>');
    // A combining mark with nothing to join is one column to the layout, none to a terminal.
    expect(printableInUi('\u0301')).toBe('<U+0301>');
    // Clusters every measure agrees on are kept.
    for (const text of ['Zoë', 'e\u0301', '日本語', 'café', 'हिन्दी'.slice(0, 1)]) {
      expect(printableInUi(text)).toBe(text);
    }
  });

  it('printable (outside the UI) keeps every cluster as it is', () => {
    for (const text of [KSSA, 'नमस्ते', 'हिन्दी', '❤️', '👍🏽', '👨‍👩‍👧', '1️⃣', '\u0301']) {
      expect(printable(text)).toBe(text);
    }
  });
});

describe('the UI in tmux', { timeout: 60_000 }, () => {
  it('keeps every pane border in place with क्ष or ❤️ in a path', async () => {
    const { pane, address, stop } = await startUiInTmux('webhook-width', 100, 12);
    try {
      await fetch(`${address}/%E0%A4%95%E0%A5%8D%E0%A4%B7/x`);
      await fetch(`${address}/${encodeURIComponent(KSSA.repeat(30))}/x`);
      await fetch(`${address}/${encodeURIComponent('❤️'.repeat(30))}/x`);
      await waitFor(() => /3 kept \/ 3 seen/.test(pane()), pane);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const rows = pane().split('\n').slice(0, 12);
      expect(rows[0], pane()).toMatch(/^╭─+╮╭─+╮$/);
      expect(rows[10], pane()).toMatch(/^╰─+╯╰─+╯$/);
      for (const row of rows.slice(1, 10)) {
        // tmux prints a two-column character once: its columns are what it drew.
        expect(row, pane()).toMatch(/^│.*│$/);
        expect(perCodePoint(row), pane()).toBe(100);
      }
    } finally {
      stop();
    }
  });
});

/** Hangul vowel and final jamo: zero columns to glibc's wcwidth, xterm and tmux. */
const JAMO = /[\u1160-\u11ff\ud7b0-\ud7ff]/u;
/** Columns tmux drew a captured row in: per code point, the jamo it draws in none counting 0. */
const drawn = (text: string) =>
  [...text].reduce((sum, char) => sum + (JAMO.test(char) ? 0 : stringWidth(char)), 0);

describe('Hangul vowel and final jamo (U+1160-U+11FF) in the UI in tmux', {
  timeout: 60_000,
}, () => {
  it('are shown as stand-ins, so a header or a path holding them moves no border', async () => {
    const { pane, address, stop } = await startUiInTmux('webhook-jamo', 120, 16);
    try {
      await fetch(`${address}/a${encodeURIComponent('\u1161\u11a8')}hangul`);
      const value = `A${'\u1161'.repeat(40)}B`;
      await fetch(`${address}/hdr`, {
        // The header's bytes as UTF-8, as a sender on the wire would send them.
        headers: { 'X-Jamo': Buffer.from(value, 'utf8').toString('latin1') },
      });
      await waitFor(() => /2 kept \/ 2 seen/.test(pane()), pane);
      await waitFor(() => pane().includes('X-Jamo'), pane);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const rows = pane().split('\n').slice(0, 16);
      expect(rows[0], pane()).toMatch(/^╭─+╮╭─+╮$/);
      for (const row of rows.slice(1, 14)) {
        expect(row, pane()).toMatch(/^│.*│$/);
        expect(drawn(row), pane()).toBe(120);
      }
      expect(pane()).toContain('X-Jamo: A<U+1161><U+1161>');
      // The path's stand-ins are longer than the list's room: cut in the middle, whole.
      expect(pane()).toMatch(/GET \/a…hangul +200 │/);
    } finally {
      stop();
    }
  });
});
