/** @jsxRuntime automatic @jsxImportSource react */
// Regression tests for the UI defects of issue 17 (1, 2, the UI half of 5, 6). Each failed before
// its fix.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { printable } from '../src/format/printable.js';
import { Screen } from '../src/ui/App.js';
import { formatBody } from '../src/ui/body.js';
import { buildDetail } from '../src/ui/detail.js';
import { initialState, reduce } from '../src/ui/reducer.js';
import { makeRecord, snapshotOf } from './helpers.js';

const lines = (view: ReturnType<typeof formatBody>) => ('lines' in view ? view.lines : []);
const detailText = (record: ReturnType<typeof makeRecord>, width = 100) => {
  const document = buildDetail(record, width, false);
  return Array.from({ length: document.length }, (_, i) => document.line(i).text);
};

/** The screen's rows with `record` selected in a `columns` × `rows` terminal. */
function screenRows(record: ReturnType<typeof makeRecord>, columns: number, rows: number) {
  const state = reduce(initialState(columns, rows), {
    type: 'sync',
    snapshot: snapshotOf([record]),
  });
  const screen = render(<Screen state={state} address="http://127.0.0.1:9080" />);
  try {
    return (screen.lastFrame() ?? '').split('\n');
  } finally {
    screen.unmount();
  }
}

describe('defect 1: the collapsed-body marker is always visible', () => {
  it('shows the marker with 11 headers in a 160x40 terminal', () => {
    const headers: [string, string][] = [
      ['Host', '127.0.0.1:9080'],
      ['Content-Type', 'application/json'],
      ['Content-Length', '900'],
      ...Array.from({ length: 8 }, (_, i): [string, string] => [`X-Extra-${i}`, `value ${i}`]),
    ];
    const body = Buffer.from(
      JSON.stringify(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, i]))),
    );
    const rows = screenRows(makeRecord({ headers, body }), 160, 40);
    expect(rows.join('\n')).toMatch(/\.\.\. \d+ more lines \(Enter to expand\)/);
  });
});

describe('defect 2: pretty-printing keeps every literal as sent', () => {
  it('re-indents 12.50, 1.0, 1e3 and -0 without rewriting them', () => {
    const view = formatBody(
      Buffer.from('{"price":12.50,"one":1.0,"k":1e3,"z":-0,"big":9007199254740993}'),
      'application/json',
    );
    expect(view.kind).toBe('json');
    expect(lines(view)).toEqual([
      '{',
      '  "price": 12.50,',
      '  "one": 1.0,',
      '  "k": 1e3,',
      '  "z": -0,',
      '  "big": 9007199254740993',
      '}',
    ]);
  });
});

describe('defect 5: invisible characters are shown', () => {
  it.each([
    ['\u200e', '<U+200E>'],
    ['\u200f', '<U+200F>'],
    ['\u061c', '<U+061C>'],
    ['\u2028', '<U+2028>'],
    ['\u2029', '<U+2029>'],
    ['\ufeff', '<U+FEFF>'],
    ['\u200b', '<U+200B>'],
    ['\u2060', '<U+2060>'],
  ])('shows %j (a bidi mark, separator, BOM or zero-width character) as %s', (char, standIn) => {
    expect(printable(`a${char}b`)).toBe(`a${standIn}b`);
  });

  it('finds JSON after a byte order mark and says the mark is there', () => {
    const view = formatBody(Buffer.from('\ufeff{"a":1}'), 'application/json');
    expect(view.kind).toBe('json');
    expect(view.label).toContain('U+FEFF');
    expect(lines(view)).toEqual(['{', '  "a": 1', '}']);
  });

  it('keeps the list border in place with zero-width characters in a path', () => {
    const rows = screenRows(makeRecord({ path: `/z${'\u200b'.repeat(10)}w` }), 100, 10);
    const border = rows[0]?.indexOf('╮') ?? -1;
    expect(rows[1]).toContain('/z<U+200B>');
    expect(rows[1]?.indexOf('│', 1)).toBe(border);
  });
});

describe('defect 6: UTF-8 header values', () => {
  it.each([
    // Node hands header bytes over as Latin-1: the UTF-8 bytes of "Zoë" arrive as "ZoÃ«".
    ['a UTF-8 value as UTF-8, not Latin-1', Buffer.from('Zoë', 'utf8').toString('latin1'), 'Zoë'],
    ['a value that is not valid UTF-8 as Latin-1', 'caf\u00e9', 'café'],
  ])('shows %s', (_case, raw, shown) => {
    const record = makeRecord({ headers: [['X-Value', raw]] });
    expect(detailText(record)).toContain(`  X-Value: ${shown}`);
  });
});
