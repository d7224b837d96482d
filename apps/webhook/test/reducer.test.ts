import { describe, expect, it } from 'vitest';
import type { CapturedRequest } from '../src/capture/record.js';
import type { UiCommand } from '../src/ui/commands.js';
import { COLLAPSED_BODY_LINES } from '../src/ui/detail.js';
import { layoutFor } from '../src/ui/layout.js';
import {
  initialState,
  reduce,
  selectedIndex,
  selectedRecord,
  step,
  type UiEvent,
  type UiState,
} from '../src/ui/reducer.js';
import { makeRecord, snapshotOf } from './helpers.js';

const COLUMNS = 100;
const ROWS = 20;
const visibleRows = layoutFor(COLUMNS, ROWS).listRows;

function run(state: UiState, ...events: UiEvent[]): UiState {
  return events.reduce(reduce, state);
}
const key = (name: Extract<UiEvent, { type: 'key' }>['key']): UiEvent => ({
  type: 'key',
  key: name,
});
const sync = (records: readonly CapturedRequest[], seen?: number): UiEvent => ({
  type: 'sync',
  snapshot: snapshotOf(records, seen),
});
function seqAt(list: readonly CapturedRequest[], index: number): number {
  const record = list[index];
  if (!record) throw new Error(`no record at ${index}`);
  return record.seq;
}
function indexOf(state: UiState): number {
  const index = selectedIndex(state);
  if (index === null) throw new Error('nothing selected');
  return index;
}
function records(count: number, body?: Buffer): CapturedRequest[] {
  return Array.from({ length: count }, (_, i) => makeRecord({ path: `/r${i}`, body }));
}
/** A state holding `list`, selection on the newest. */
function withRecords(list: CapturedRequest[]): UiState {
  return run(initialState(COLUMNS, ROWS), sync(list));
}
const longBody = Buffer.from(
  JSON.stringify(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`key${i}`, i]))),
);

describe('arrivals', () => {
  it('selects the first request that arrives, and nothing while empty', () => {
    const empty = initialState(COLUMNS, ROWS);
    expect(run(empty, sync([])).selectedSeq).toBeNull();
    const list = records(1);
    expect(run(empty, sync(list)).selectedSeq).toBe(seqAt(list, 0));
  });

  it('follows new arrivals while the newest request is selected', () => {
    const list = records(3);
    const state = withRecords(list.slice(0, 2));
    expect(state.selectedSeq).toBe(seqAt(list, 1));
    const next = run(state, sync(list));
    expect(next.selectedSeq).toBe(seqAt(list, 2));
    expect(selectedIndex(next)).toBe(0);
    expect(next.listTop).toBe(0);
  });

  it('stays on an older request the user chose, at the same place on screen', () => {
    const list = records(40);
    let state = run(withRecords(list.slice(0, 25)), key('down'), key('down'));
    const chosen = state.selectedSeq;
    expect(chosen).toBe(seqAt(list, 22));
    state = run(state, sync(list.slice(0, 28)));
    expect(state.selectedSeq).toBe(chosen);
    expect(selectedIndex(state)).toBe(5);
    expect(state.listTop).toBe(3); // three new rows above, so the list scrolled by three
    state = run(state, sync(list));
    expect(state.selectedSeq).toBe(chosen);
    expect(indexOf(state) - state.listTop).toBe(2);
  });

  it('shows the top of a list that fits, whatever arrives', () => {
    const list = records(6);
    const state = run(withRecords(list.slice(0, 3)), key('down'), sync(list));
    expect(state.selectedSeq).toBe(seqAt(list, 1));
    expect(state.listTop).toBe(0);
  });

  it('moves to the oldest request left when retention drops the selected one', () => {
    const list = records(10);
    let state = run(withRecords(list.slice(0, 5)), key('oldest'));
    expect(state.selectedSeq).toBe(seqAt(list, 0));
    state = run(state, sync(list.slice(3)));
    expect(state.selectedSeq).toBe(seqAt(list, 3));
  });

  it('keeps the counts of seen and kept requests', () => {
    const list = records(4);
    const state = run(initialState(COLUMNS, ROWS), sync(list.slice(2), 4));
    expect(state.seen).toBe(4);
    expect(state.records).toHaveLength(2);
  });

  it('empties the selection when the store is emptied', () => {
    const state = run(withRecords(records(3)), sync([]));
    expect(state.selectedSeq).toBeNull();
    expect(state.listTop).toBe(0);
  });
});

describe('keys', () => {
  it('Up and Down move the selection, clamped at both ends', () => {
    const list = records(3);
    let state = withRecords(list);
    state = run(state, key('up'));
    expect(state.selectedSeq).toBe(seqAt(list, 2));
    state = run(state, key('down'));
    expect(state.selectedSeq).toBe(seqAt(list, 1));
    state = run(state, key('down'), key('down'), key('down'));
    expect(state.selectedSeq).toBe(seqAt(list, 0));
    state = run(state, key('up'));
    expect(state.selectedSeq).toBe(seqAt(list, 1));
  });

  it('Home and End jump to the newest and the oldest', () => {
    const list = records(5);
    const state = run(withRecords(list), key('oldest'));
    expect(state.selectedSeq).toBe(seqAt(list, 0));
    expect(run(state, key('newest')).selectedSeq).toBe(seqAt(list, 4));
  });

  it('keys on an empty list change nothing', () => {
    const empty = initialState(COLUMNS, ROWS);
    for (const name of ['up', 'down', 'newest', 'oldest', 'toggleBody', 'pageDown'] as const) {
      const next = run(empty, key(name));
      expect(next.selectedSeq).toBeNull();
      expect(next.expanded).toBe(false);
      expect(next.detailTop).toBe(0);
    }
  });

  it('the list scrolls to keep the selection visible', () => {
    const list = records(50);
    let state = withRecords(list);
    for (let i = 0; i < visibleRows + 5; i += 1) state = run(state, key('down'));
    const index = indexOf(state);
    expect(index).toBe(visibleRows + 5);
    expect(index).toBeGreaterThanOrEqual(state.listTop);
    expect(index).toBeLessThan(state.listTop + visibleRows);
    state = run(state, key('newest'));
    expect(state.listTop).toBe(0);
  });

  it('Enter toggles the body between collapsed and expanded, starting collapsed', () => {
    let state = withRecords(records(1, longBody));
    expect(state.expanded).toBe(false);
    state = run(state, key('toggleBody'));
    expect(state.expanded).toBe(true);
    state = run(state, key('toggleBody'));
    expect(state.expanded).toBe(false);
  });

  it('a newly selected request starts collapsed and scrolled to the top', () => {
    const list = records(2, longBody);
    let state = run(withRecords(list), key('toggleBody'), key('pageDown'));
    expect(state.expanded).toBe(true);
    expect(state.detailTop).toBeGreaterThan(0);
    state = run(state, key('down'));
    expect(state.expanded).toBe(false);
    expect(state.detailTop).toBe(0);
  });

  it('Page Down and Page Up scroll the detail pane, clamped to its content', () => {
    let state = run(withRecords(records(1, longBody)), key('toggleBody'));
    const page = layoutFor(COLUMNS, ROWS).detailRows - 1;
    state = run(state, key('pageDown'));
    expect(state.detailTop).toBe(page);
    for (let i = 0; i < 20; i += 1) state = run(state, key('pageDown'));
    const bottom = state.detailTop;
    expect(bottom).toBeGreaterThan(page);
    expect(run(state, key('pageDown')).detailTop).toBe(bottom);
    state = run(state, key('pageUp'));
    expect(state.detailTop).toBe(bottom - page);
    for (let i = 0; i < 20; i += 1) state = run(state, key('pageUp'));
    expect(state.detailTop).toBe(0);
  });

  it('collapsing clamps the scroll to the shorter content', () => {
    let state = run(withRecords(records(1, longBody)), key('toggleBody'));
    for (let i = 0; i < 20; i += 1) state = run(state, key('pageDown'));
    state = run(state, key('toggleBody'));
    expect(state.expanded).toBe(false);
    // Collapsed: about 20 body lines plus the head; less than two pages of 18.
    expect(state.detailTop).toBeLessThanOrEqual(COLLAPSED_BODY_LINES);
  });

  it('a short detail does not scroll', () => {
    const state = run(withRecords(records(1)), key('pageDown'));
    expect(state.detailTop).toBe(0);
  });

  it('c clears every request, keeping the seen count', () => {
    const state = run(withRecords(records(3)), key('clear'));
    expect(state.records).toHaveLength(0);
    expect(state.selectedSeq).toBeNull();
    expect(state.seen).toBe(3);
    expect(selectedRecord(state)).toBeUndefined();
  });

  it('after a clear the next arrival is selected', () => {
    const list = records(4);
    const state = run(
      withRecords(list.slice(0, 3)),
      key('down'),
      key('clear'),
      sync(list.slice(3, 4), 4),
    );
    expect(state.selectedSeq).toBe(seqAt(list, 3));
  });
});

describe('resize', () => {
  it('re-lays out, keeping the selection visible in a shorter list', () => {
    const list = records(50);
    let state = withRecords(list);
    for (let i = 0; i < 15; i += 1) state = run(state, key('down'));
    state = run(state, { type: 'resize', columns: 60, rows: 8 });
    const rows = layoutFor(60, 8).listRows;
    const index = indexOf(state);
    expect(state.columns).toBe(60);
    expect(index).toBeGreaterThanOrEqual(state.listTop);
    expect(index).toBeLessThan(state.listTop + rows);
  });

  it('clamps the detail scroll when a taller terminal shows everything', () => {
    let state = run(withRecords(records(1, longBody)), key('toggleBody'), key('pageDown'));
    expect(state.detailTop).toBeGreaterThan(0);
    state = run(state, { type: 'resize', columns: 200, rows: 200 });
    expect(state.detailTop).toBe(0);
  });
});

describe('commands', () => {
  const stepAll = (state: UiState, ...events: UiEvent[]) => {
    const commands: UiCommand[] = [];
    let current = state;
    for (const event of events) {
      const next = step(current, event);
      current = next.state;
      commands.push(...next.commands);
    }
    return { state: current, commands };
  };

  it('q and Ctrl+C quit; Esc quits only without a filter', () => {
    const state = withRecords(records(2));
    expect(step(state, key('quit')).commands).toEqual([{ type: 'quit' }]);
    expect(step(state, key('escape')).commands).toEqual([{ type: 'quit' }]);
    const filtered = run(state, key('filter'), { type: 'type', text: 'r1' });
    expect(step(filtered, key('escape')).commands).toEqual([]);
  });

  it('c empties the list and asks for the store to be cleared', () => {
    expect(step(withRecords(records(2)), key('clear')).commands).toEqual([{ type: 'clear' }]);
  });

  it('r and e ask the caller to replay the selection (to its own target, or the last typed)', () => {
    const list = records(2);
    const state = { ...withRecords(list), replayTargetOf: () => 'http://127.0.0.1:3000' };
    expect(step(state, key('replay')).commands).toEqual([
      { type: 'replay', record: list[1], target: null, edit: false },
    ]);
    expect(step(state, key('editReplay')).commands).toEqual([
      { type: 'replay', record: list[1], target: null, edit: true },
    ]);
  });

  it('a URL typed with a query or fragment is refused as --replay-to refuses it (it was dropped)', () => {
    const list = records(1);
    for (const text of ['127.0.0.1:4162/base?x=1', '127.0.0.1:4162/base#top']) {
      const out = stepAll(
        run(withRecords(list), key('replay')),
        { type: 'type', text },
        { type: 'submit' },
      );
      expect(out.commands).toEqual([]);
      expect(out.state.notice).toMatchObject({
        tone: 'bad',
        text: 'Replay URL must not have a query or fragment (the request brings its own)',
      });
      expect(out.state.prompt).not.toBeNull();
    }
  });

  it('without a target of its own a URL is asked for, checked, then remembered', () => {
    const list = records(1);
    let state = run(withRecords(list), key('replay'));
    expect(state.prompt).toEqual({ kind: 'replayTarget', text: 'http://', edit: false });
    // Keys are text while the prompt is open.
    let out = stepAll(
      state,
      { type: 'type', text: 'not a url' },
      { type: 'erase' },
      { type: 'submit' },
    );
    expect(out.commands).toEqual([]);
    expect(out.state.notice?.tone).toBe('bad');
    expect(out.state.prompt).not.toBeNull();
    state = run(state, key('escape'));
    expect(state.prompt).toBeNull();
    out = stepAll(
      run(state, key('editReplay')),
      { type: 'type', text: '127.0.0.1:4000/x' },
      { type: 'submit' },
    );
    expect(out.commands).toEqual([
      { type: 'replay', record: list[0], target: 'http://127.0.0.1:4000/x', edit: true },
    ]);
    expect(out.state.replayTarget).toBe('http://127.0.0.1:4000/x');
    expect(step(out.state, key('replay')).commands[0]).toMatchObject({
      type: 'replay',
      target: 'http://127.0.0.1:4000/x',
      edit: false,
    });
  });

  it('r, e and x with nothing selected say so', () => {
    const empty = initialState(COLUMNS, ROWS);
    for (const name of ['replay', 'editReplay', 'copyCurl', 'exportHar'] as const) {
      const next = step(empty, key(name));
      expect(next.commands).toEqual([]);
      expect(next.state.notice?.tone).toBe('bad');
    }
  });

  it('x copies the selection; X exports the list, or the filtered part', () => {
    const list = [
      makeRecord({ path: '/a', method: 'GET' }),
      makeRecord({ path: '/b' }),
      makeRecord({ path: '/c', method: 'GET' }),
    ];
    const state = withRecords(list);
    expect(step(state, key('copyCurl')).commands).toEqual([{ type: 'copyCurl', record: list[2] }]);
    expect(step(state, key('exportHar')).commands).toEqual([
      { type: 'exportHar', records: list, filter: null },
    ]);
    const filtered = run(
      state,
      key('filter'),
      { type: 'type', text: 'method:GET' },
      { type: 'submit' },
    );
    expect(step(filtered, key('exportHar')).commands).toEqual([
      { type: 'exportHar', records: [list[0], list[2]], filter: 'method:GET' },
    ]);
  });

  it('a notice shows until the next key', () => {
    let state = run(withRecords(records(1)), {
      type: 'notice',
      notice: { text: 'copied', tone: 'good' },
    });
    expect(state.notice).toEqual({ text: 'copied', tone: 'good' });
    state = run(state, key('down'));
    expect(state.notice).toBeNull();
  });
});

describe('filter', () => {
  const list = [
    makeRecord({ path: '/hooks/a', target: '/hooks/a', method: 'POST' }),
    makeRecord({ path: '/health', target: '/health', method: 'GET' }),
    makeRecord({ path: '/hooks/b', target: '/hooks/b', method: 'POST' }),
    makeRecord({ path: '/hooks/c', target: '/hooks/c', method: 'PUT' }),
  ];
  const typed = (state: UiState, text: string) =>
    run(
      state,
      key('filter'),
      ...Array.from(text, (char): UiEvent => ({ type: 'type', text: char })),
    );

  it('filters the list as you type, keeping the filter on Enter', () => {
    let state = typed(withRecords(list), 'hooks');
    expect(state.prompt).toEqual({ kind: 'filter' });
    expect(state.shown.map((r) => r.path)).toEqual(['/hooks/a', '/hooks/b', '/hooks/c']);
    state = run(state, { type: 'type', text: ' method:POST' }, { type: 'submit' });
    expect(state.prompt).toBeNull();
    expect(state.shown.map((r) => r.path)).toEqual(['/hooks/a', '/hooks/b']);
    expect(state.records).toHaveLength(4);
    expect(state.filter.text).toBe('hooks method:POST');
  });

  it('moves the selection to the newest match when the selected request is filtered out', () => {
    const state = typed(run(withRecords(list), key('newest')), 'method:GET');
    expect(state.selectedSeq).toBe(list[1]?.seq);
  });

  it('keeps the last filter that parsed while the text does not, and says why', () => {
    let state = typed(withRecords(list), 'method:PUT');
    expect(state.shown).toHaveLength(1);
    state = run(state, { type: 'type', text: ' status:4' });
    expect(state.filter.error).toMatch(/status:/);
    expect(state.shown).toHaveLength(1);
    state = run(state, { type: 'erase' }, { type: 'erase' }, { type: 'erase' });
    expect(state.filter.error).toBeNull();
  });

  it('Backspace widens the filter again', () => {
    let state = typed(withRecords(list), 'hooks/a');
    expect(state.shown).toHaveLength(1);
    state = run(state, { type: 'erase' });
    expect(state.shown).toHaveLength(3);
  });

  it('Esc clears the filter, while typing or after', () => {
    let state = typed(withRecords(list), 'hooks/b');
    state = run(state, key('escape'));
    expect(state.prompt).toBeNull();
    expect(state.filter.text).toBe('');
    expect(state.shown).toHaveLength(4);
    state = run(typed(state, 'health'), { type: 'submit' }, key('escape'));
    expect(state.shown).toHaveLength(4);
  });

  it('matches only new arrivals, and forgets what retention dropped', () => {
    const more = [
      ...list,
      makeRecord({ path: '/hooks/d', target: '/hooks/d' }),
      makeRecord({ path: '/other', target: '/other' }),
    ];
    let state = typed(withRecords(list), 'hooks');
    const before = state.shown;
    state = run(state, sync(more));
    expect(state.shown.slice(0, 3)).toEqual(before);
    expect(state.shown.map((r) => r.path)).toEqual([
      '/hooks/a',
      '/hooks/b',
      '/hooks/c',
      '/hooks/d',
    ]);
    state = run(state, sync(more.slice(2)));
    expect(state.shown.map((r) => r.path)).toEqual(['/hooks/b', '/hooks/c', '/hooks/d']);
    state = run(state, sync([]));
    expect(state.shown).toEqual([]);
  });

  it('n and N move to the next and previous match, wrapping around', () => {
    let state = run(typed(withRecords(list), 'hooks'), { type: 'submit' });
    expect(state.selectedSeq).toBe(list[3]?.seq);
    state = run(state, key('nextMatch'));
    expect(state.selectedSeq).toBe(list[2]?.seq);
    state = run(state, key('nextMatch'), key('nextMatch'));
    expect(state.selectedSeq).toBe(list[3]?.seq);
    state = run(state, key('previousMatch'));
    expect(state.selectedSeq).toBe(list[0]?.seq);
  });

  it('keys are text while the filter is typed', () => {
    const state = typed(withRecords(list), 'q');
    expect(state.filter.text).toBe('q');
  });
});

describe('body view', () => {
  it('v cycles pretty, raw, hex, and the choice stays when the selection moves', () => {
    let state = withRecords(records(2, Buffer.from('{"a":1}')));
    expect(state.bodyMode).toBe('pretty');
    state = run(state, key('cycleBody'));
    expect(state.bodyMode).toBe('raw');
    state = run(state, key('down'), key('cycleBody'));
    expect(state.bodyMode).toBe('hex');
    state = run(state, key('cycleBody'));
    expect(state.bodyMode).toBe('pretty');
  });
});
