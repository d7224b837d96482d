/** @jsxRuntime automatic @jsxImportSource react */
// The screen as drawn for one selected request: what stays visible, and what keeps its place.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { initialState, reduce } from '../src/ui/reducer.js';
import { Screen } from '../src/ui/screen.js';
import { makeRecord, snapshotOf } from './helpers.js';

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

describe('the detail pane', () => {
  it('shows the collapsed-body marker with 11 headers in a 160x40 terminal (it fell below the pane)', () => {
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

describe('the request list', () => {
  it('keeps its border in place with zero-width characters in a path (they were drawn raw)', () => {
    const rows = screenRows(makeRecord({ path: `/z${'\u200b'.repeat(10)}w` }), 100, 10);
    const border = rows[0]?.indexOf('╮') ?? -1;
    expect(rows[1]).toContain('/z<U+200B>');
    expect(rows[1]?.indexOf('│', 1)).toBe(border);
  });
});
