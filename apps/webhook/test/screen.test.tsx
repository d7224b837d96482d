/** @jsxRuntime automatic @jsxImportSource react */
// The screen as drawn for one selected request: what stays visible, and what keeps its place.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { layoutFor } from '../src/ui/layout.js';
import { initialState, reduce } from '../src/ui/reducer.js';
import { rowText, Screen } from '../src/ui/screen.js';
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

/** What the tool answered: the status the row shows first. */
const answered = { response: { status: 200, headers: [], body: Buffer.alloc(0) } };

describe('list rows (a developer expects the statuses, and a path they can tell apart)', () => {
  it('shows the response status, and the forward status and duration', () => {
    const plain = makeRecord({ ...answered, path: '/hooks/a' });
    expect(rowText(plain, 40)).toMatch(/^\d\d:\d\d:\d\d POST \/hooks\/a +200$/);
    const forwarded = makeRecord({
      ...answered,
      path: '/hooks/a',
      forward: {
        kind: 'response',
        target: 'http://app',
        status: 201,
        statusText: 'Created',
        headers: [],
        body: Buffer.alloc(0),
        size: 0,
        truncated: false,
        durationMs: 33,
      },
    });
    expect(rowText(forwarded, 40)).toMatch(/POST \/hooks\/a +200 → 201 33ms$/);
    const failed = makeRecord({
      ...answered,
      path: '/hooks/a',
      forward: { kind: 'failure', target: 'x', failure: 'refused', message: '', durationMs: 2 },
    });
    expect(rowText(failed, 40)).toMatch(/200 → refused$/);
  });

  it('keeps the end of a long path at 80 columns, so /hooks/github and /hooks/gzip differ', () => {
    const width = layoutFor(80, 24).listTextWidth;
    const prefix = '/services/production/integrations';
    const github = rowText(makeRecord({ ...answered, path: `${prefix}/hooks/github` }), width);
    const gzip = rowText(makeRecord({ ...answered, path: `${prefix}/hooks/gzip` }), width);
    expect(github).not.toBe(gzip);
    expect(github).toContain('…');
    expect(github.trimEnd()).toMatch(/github 200$/);
    expect(gzip.trimEnd()).toMatch(/gzip 200$/);
  });
});

describe('the replay prompt', () => {
  it('says it takes a base URL the path is appended to', () => {
    const state = reduce(
      reduce(initialState(120, 20), { type: 'sync', snapshot: snapshotOf([makeRecord()]) }),
      { type: 'key', key: 'replay' },
    );
    const screen = render(<Screen state={state} address="http://127.0.0.1:9080" />);
    try {
      expect(screen.lastFrame()).toContain('Replay to base URL (the path is appended): http://');
    } finally {
      screen.unmount();
    }
  });
});

describe('long bodies (the end of a 27,000-line body took about 750 Page Down presses)', () => {
  const body = Buffer.from(Array.from({ length: 27_000 }, (_, i) => `line ${i + 1}`).join('\n'));
  const selected = () =>
    reduce(initialState(120, 30), { type: 'sync', snapshot: snapshotOf([makeRecord({ body })]) });

  it('] jumps to the end of the body and [ back to its start; the status bar says where', () => {
    const atEnd = reduce(selected(), { type: 'key', key: 'bodyEnd' });
    const frame = (state: ReturnType<typeof selected>) => {
      const screen = render(<Screen state={state} address="http://127.0.0.1:9080" />);
      try {
        return screen.lastFrame() ?? '';
      } finally {
        screen.unmount();
      }
    };
    const end = frame(atEnd);
    expect(end).toContain('line 27000');
    expect(end).toMatch(/body line 26,9\d\d of 27,000/);
    const atStart = reduce(atEnd, { type: 'key', key: 'bodyStart' });
    const start = frame(atStart);
    expect(start).toContain('line 1');
    expect(start).toContain('body line 1 of 27,000');
  });
});
