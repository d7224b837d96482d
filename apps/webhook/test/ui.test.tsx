/** @jsxRuntime automatic @jsxImportSource react */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestStore } from '../src/capture/store.js';
import { App, FRAME_MS, syncDelay } from '../src/ui/App.js';
import { layoutFor } from '../src/ui/layout.js';
import type { UiEffects } from '../src/ui/perform.js';
import { makeRecord, waitFor } from './helpers.js';

const KEYS = {
  up: '\x1b[A',
  down: '\x1b[B',
  enter: '\r',
  pageDown: '\x1b[6~',
  pageUp: '\x1b[5~',
  escape: '\x1b',
  ctrlC: '\x03',
};
const ROWS = 24;
const COLUMNS = 100; // ink-testing-library's stdout is 100 columns wide

let instance: ReturnType<typeof render> | undefined;
afterEach(() => {
  instance?.unmount();
  instance = undefined;
});

function mount(
  store = new RequestStore({ maxRequests: 1000, maxMemory: 1 << 30 }),
  effects?: UiEffects,
  warnings?: readonly string[],
  replayTarget: string | null = null,
) {
  const onQuit = vi.fn();
  instance = render(
    <App
      store={store}
      address="http://127.0.0.1:9080"
      onQuit={onQuit}
      effects={effects}
      replayTargetOf={() => replayTarget}
      warnings={warnings}
      fallbackSize={{ columns: COLUMNS, rows: ROWS }}
    />,
  );
  const { stdin, lastFrame } = instance;
  const frame = () => lastFrame() ?? '';
  return {
    store,
    onQuit,
    frame,
    /** Waits for a frame that satisfies `check`, so store updates (one per frame) have landed. */
    until: (check: (frame: string) => boolean) => waitFor(() => check(frame()), frame, 3000),
    press: async (key: string) => {
      stdin.write(key);
      await new Promise((resolve) => setTimeout(resolve, 30));
    },
  };
}

function add(store: RequestStore, path: string, extra: Parameters<typeof makeRecord>[0] = {}) {
  const { seq: _seq, ...record } = makeRecord({
    path,
    url: `http://127.0.0.1:9080${path}`,
    ...extra,
  });
  return store.add(record);
}

const bigJson = Buffer.from(
  JSON.stringify(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, i]))),
);

describe('layout', () => {
  it('fills the terminal: list at 30%, detail at 70%, status bar at the bottom', async () => {
    const ui = mount();
    await ui.until((frame) => frame.includes('Waiting for requests'));
    const lines = ui.frame().split('\n');
    expect(lines).toHaveLength(ROWS);
    const layout = layoutFor(COLUMNS, ROWS);
    // Each pane draws its own rounded border; the detail pane starts where the list ends.
    expect(lines[0]?.indexOf('╭', 1)).toBe(layout.listWidth);
    expect(lines.at(-1)).toContain(' http://127.0.0.1:9080 · 0 kept / 0 seen ');
    expect(lines.at(-1)).toContain('v view  / filter  r replay  x curl');
    expect(lines.at(-1)).toContain('q quit');
  });

  it('keeps the capture’s warnings (listening beyond loopback) in a header line, escaped', async () => {
    const store = new RequestStore({ maxRequests: 1000, maxMemory: 1 << 30 });
    const warning =
      'warning: listening on 0.0.0.0:9080 (--host 0.0.0.0\x1b]0;pwned\x07), reachable from other machines';
    const ui = mount(store, undefined, [warning]);
    await ui.until((frame) => frame.includes('Waiting for requests'));
    const lines = ui.frame().split('\n');
    expect(lines).toHaveLength(ROWS);
    expect(lines[0]).toContain('⚠ warning: listening on 0.0.0.0:9080 (--host 0.0.0.0␛]0;pwned');
    expect(ui.frame()).not.toContain('\x1b]0;');
    // The panes start below it, one row shorter.
    expect(lines[1]?.startsWith('╭')).toBe(true);
    expect(layoutFor(COLUMNS, ROWS, 1).listRows).toBe(layoutFor(COLUMNS, ROWS).listRows - 1);
    // Still there after keys, requests and a notice: it is not dismissed while it holds.
    for (let index = 0; index < 30; index += 1) add(store, `/hooks/${index}`);
    await ui.press('j');
    await ui.press('x');
    await ui.until((frame) => frame.includes('/hooks/29'));
    expect(ui.frame().split('\n')[0]).toContain('⚠ warning: listening on 0.0.0.0:9080');
    expect(ui.frame().split('\n')).toHaveLength(ROWS);
  });

  it('lists requests newest first as HH:MM:SS METHOD path, detail of the newest', async () => {
    const ui = mount();
    add(ui.store, '/first', { method: 'GET' });
    add(ui.store, '/second', {
      method: 'POST',
      headers: [
        ['X-Z', '1'],
        ['Content-Type', 'application/json'],
        ['accept', '*/*'],
      ],
      target: '/second?a=1',
      query: [['a', '1']],
      body: Buffer.from('{"hello":"world","n":[1,2]}'),
    });
    await ui.until((frame) => frame.includes('2 kept / 2 seen'));
    const frame = ui.frame();
    const second = frame.search(/\d\d:\d\d:\d\d POST \/second/);
    const first = frame.search(/\d\d:\d\d:\d\d GET \/first/);
    expect(second).toBeGreaterThan(-1);
    expect(first).toBeGreaterThan(second);
    expect(frame).toContain('POST http://127.0.0.1:9080/second');
    expect(frame).toContain('a = 1');
    const headerOrder = ['accept: */*', 'Content-Type: application/json', 'X-Z: 1'].map((h) =>
      frame.indexOf(h),
    );
    expect(headerOrder).toEqual([...headerOrder].sort((a, b) => a - b));
    expect(frame).toContain('Body · JSON');
    expect(frame).toContain('  "hello": "world",');
  });

  it('renders only the rows that fit, with a thousand requests held', async () => {
    const ui = mount();
    for (let i = 0; i < 1000; i += 1) add(ui.store, `/r${i}`);
    await ui.until((frame) => frame.includes('1000 kept / 1000 seen'));
    const lines = ui.frame().split('\n');
    expect(lines).toHaveLength(ROWS);
    expect(ui.frame()).toContain('/r999');
    expect(ui.frame()).not.toContain('/r900 ');
  });

  it('shows a hostile body without letting its escape sequences through', async () => {
    const ui = mount();
    add(ui.store, '/evil\x1b[2J', { body: Buffer.from('\x1b]0;owned\x07\x1b[31mred\x1b[?1049l') });
    await ui.until((frame) => frame.includes('1 kept'));
    const frame = ui.frame();
    expect(frame).toContain('␛]0;owned␇␛[31mred␛[?1049l');
    expect(frame).not.toContain('\x1b]0;');
    expect(frame).not.toContain('\x1b[?1049l');
  });
});

describe('keys', () => {
  it('Down/j and Up/k move the selection', async () => {
    const ui = mount();
    for (const path of ['/a', '/b', '/c']) add(ui.store, path);
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/c'));
    await ui.press(KEYS.down);
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/b'));
    await ui.press('j');
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/a'));
    await ui.press('j'); // already the oldest
    await ui.press('k');
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/b'));
    await ui.press(KEYS.up);
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/c'));
  });

  it('takes keys typed faster than a frame one by one', async () => {
    const ui = mount();
    for (const path of ['/a', '/b', '/c', '/d']) add(ui.store, path);
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/d'));
    await ui.press('jjj');
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/a'));
    await ui.press('kq');
    await waitFor(
      () => ui.onQuit.mock.calls.length === 1,
      () => 'onQuit not called',
      2000,
    );
  });

  it('stays on the chosen request while new ones arrive, follows when on the newest', async () => {
    const ui = mount();
    add(ui.store, '/a');
    add(ui.store, '/b');
    await ui.until((frame) => frame.includes('/b'));
    await ui.press('j');
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/a'));
    add(ui.store, '/c');
    await ui.until((frame) => frame.includes('3 kept'));
    expect(ui.frame()).toContain('POST http://127.0.0.1:9080/a');
    await ui.press('g'); // Home: back to the newest
    add(ui.store, '/d');
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/d'));
  });

  it('Enter expands and collapses the body; Page Down/Up scroll the detail', async () => {
    const ui = mount();
    add(ui.store, '/big', { body: bigJson, headers: [['Content-Type', 'application/json']] });
    await ui.until((frame) => frame.includes('"field11": 11'));
    await ui.press(KEYS.pageDown); // collapsed: the body ends after 20 lines
    await ui.until((frame) => frame.includes('... 22 more lines (Enter to expand)'));
    expect(ui.frame()).not.toContain('"field30"');
    await ui.press(KEYS.enter);
    await ui.until((frame) => !frame.includes('more lines'));
    await ui.press(KEYS.pageUp);
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/big'));
    await ui.press(KEYS.pageDown);
    await ui.until((frame) => !frame.includes('POST http://127.0.0.1:9080/big'));
    await ui.press(KEYS.pageDown);
    await ui.press(KEYS.pageDown);
    await ui.until((frame) => frame.includes('"field39": 39'));
    await ui.press(KEYS.pageUp);
    await ui.press(KEYS.pageUp);
    await ui.press(KEYS.pageUp);
    await ui.until((frame) => frame.includes('POST http://127.0.0.1:9080/big'));
    await ui.press(KEYS.enter);
    await ui.press(KEYS.pageDown);
    await ui.until((frame) => frame.includes('... 22 more lines (Enter to expand)'));
  });

  it('c clears the list and the store', async () => {
    const ui = mount();
    add(ui.store, '/a');
    add(ui.store, '/b');
    await ui.until((frame) => frame.includes('2 kept / 2 seen'));
    await ui.press('c');
    await ui.until((frame) => frame.includes('0 kept / 2 seen'));
    expect(ui.store.snapshot().records).toEqual([]);
    expect(ui.frame()).toContain('Waiting for requests');
  });

  it.each([
    ['q', 'q'],
    ['Esc', KEYS.escape],
    ['Ctrl+C', KEYS.ctrlC],
  ])('%s quits', async (_name, key) => {
    const ui = mount();
    await ui.until((frame) => frame.includes('Waiting'));
    await ui.press(key);
    await waitFor(
      () => ui.onQuit.mock.calls.length === 1,
      () => 'onQuit not called',
      2000,
    );
  });

  it('other keys do nothing', async () => {
    const ui = mount();
    add(ui.store, '/a');
    await ui.until((frame) => frame.includes('/a'));
    const before = ui.frame();
    await ui.press('z');
    await ui.press('Q');
    expect(ui.frame()).toBe(before);
    expect(ui.onQuit).not.toHaveBeenCalled();
  });
});

describe('commands and their effects', () => {
  function fakeEffects() {
    const calls: string[] = [];
    const effects: UiEffects = {
      replay: async (record, to, edit) => {
        calls.push(`replay #${record.seq} ${to} ${edit}`);
        return { text: `#9 replay of #${record.seq} → 200 OK in 1 ms`, tone: 'good' };
      },
      copyCurl: async (record) => {
        calls.push(`curl #${record.seq}`);
        return { text: 'copied as curl', tone: 'good' };
      },
      copyText: async (text, what) => {
        calls.push(`copy ${what} ${text}`);
        return { text: `${what} copied`, tone: 'good' };
      },
      exportHar: async (records, filter) => {
        calls.push(`har ${records.length} ${filter}`);
        return { text: 'exported', tone: 'good' };
      },
    };
    return { effects, calls };
  }

  it('r, x and X run their effects and show the outcome in the status bar', async () => {
    const { effects, calls } = fakeEffects();
    const ui = mount(undefined, effects, undefined, 'http://127.0.0.1:3000');
    const first = add(ui.store, '/a');
    add(ui.store, '/b', { method: 'GET' });
    await ui.until((frame) => frame.includes('2 kept / 2 seen'));
    await ui.press('j');
    await ui.press('r');
    await ui.until((frame) => frame.includes(`#9 replay of #${first.seq} → 200 OK in 1 ms`));
    await ui.press('x');
    await ui.until((frame) => frame.includes('copied as curl'));
    await ui.press('/method:GET');
    await ui.until((frame) => frame.includes('1 of 2 match'));
    expect(ui.frame()).not.toMatch(/POST \/a/);
    await ui.press('\r');
    await ui.press('X');
    await ui.until((frame) => frame.includes('exported'));
    expect(calls).toEqual([
      `replay #${first.seq} null false`,
      `curl #${first.seq}`,
      'har 1 method:GET',
    ]);
  });

  it('asks for a URL when the request has no target of its own', async () => {
    const { effects, calls } = fakeEffects();
    const ui = mount(undefined, effects);
    const record = add(ui.store, '/a');
    await ui.until((frame) => frame.includes('1 kept'));
    await ui.press('e');
    await ui.until((frame) =>
      frame.includes('Edit, then replay to base URL (the path is appended): http://'),
    );
    await ui.press('127.0.0.1:4000');
    await ui.press('\r');
    await ui.until((frame) => frame.includes('replay of'));
    expect(calls).toEqual([`replay #${record.seq} http://127.0.0.1:4000/ true`]);
  });

  it('marks verified, failed and replayed requests in the list', async () => {
    const ui = mount();
    add(ui.store, '/good', {
      verification: { scheme: 'github', ok: true, reason: 'signature valid' },
    });
    add(ui.store, '/bad', {
      verification: { scheme: 'github', ok: false, reason: 'signature mismatch' },
    });
    add(ui.store, '/again', { replayOf: 1 });
    await ui.until((frame) => frame.includes('3 kept'));
    const frame = ui.frame();
    expect(frame).toMatch(/│ ↻ \d\d:\d\d:\d\d POST \/again/);
    expect(frame).toMatch(/│ ✗ \d\d:\d\d:\d\d POST \/bad/);
    expect(frame).toMatch(/│ ✓ \d\d:\d\d:\d\d POST \/good/);
    expect(frame).toContain('↻ replay of #1');
  });
});

describe('resize', () => {
  it('re-lays everything out when the terminal changes size', async () => {
    const ui = mount();
    add(ui.store, '/a');
    await ui.until((frame) => frame.includes('/a'));
    const stdout = instance?.stdout;
    if (!stdout) throw new Error('no stdout');
    Object.defineProperty(stdout, 'columns', { get: () => 60, configurable: true });
    Object.defineProperty(stdout, 'rows', { get: () => 12, configurable: true });
    stdout.emit('resize');
    await ui.until((frame) => frame.split('\n').length === 12);
    const lines = ui.frame().split('\n');
    expect(lines[0]?.indexOf('╭', 1)).toBe(layoutFor(60, 12).listWidth);
  });
});

describe('tiny terminals', () => {
  it('still draws, without throwing, in a terminal smaller than the layout needs', async () => {
    const ui = mount();
    add(ui.store, '/a', { body: Buffer.from('{"a":1}') });
    await ui.until((frame) => frame.includes('/a'));
    const stdout = instance?.stdout;
    if (!stdout) throw new Error('no stdout');
    Object.defineProperty(stdout, 'columns', { get: () => 12, configurable: true });
    Object.defineProperty(stdout, 'rows', { get: () => 3, configurable: true });
    stdout.emit('resize');
    await ui.press('j');
    await ui.press(KEYS.pageDown);
    await ui.press(KEYS.enter);
    await ui.until((frame) => frame.split('\n').length === layoutFor(12, 3).rows);
  });
});

/** Lets `count` event-loop turns pass (real ones: only setTimeout is faked below). */
async function turns(count: number) {
  for (let turn = 0; turn < count; turn += 1) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('frame pacing', () => {
  it('applies arrivals at most ~30 times a second, less when frames are costly', () => {
    expect(syncDelay(0)).toBe(FRAME_MS);
    expect(syncDelay(4)).toBe(FRAME_MS);
    expect(syncDelay(20)).toBe(100);
    expect(syncDelay(10_000)).toBe(500);
  });

  // The UI must not redraw more than the screen shows. Counted, not timed: the frame
  // timer only fires when the test advances it, so the count cannot depend on the machine.
  it('draws one frame for a thousand arrivals spread over a thousand event-loop turns', async () => {
    const ui = mount();
    await ui.until((frame) => frame.includes('0 kept / 0 seen'));
    const frames = instance?.frames;
    if (!frames) throw new Error('no frames');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const before = frames.length;
      for (let arrival = 1; arrival <= 1000; arrival += 1) {
        add(ui.store, `/flood/${arrival}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(frames.length - before).toBe(0); // nothing drawn between frames
      vi.advanceTimersByTime(FRAME_MS);
      await turns(20); // React commits, Ink draws
      expect(frames.length - before).toBe(1);
      expect(ui.frame()).toContain('1000 kept / 1000 seen');
      expect(ui.frame()).toContain('/flood/1000');
      // A key is drawn at once, without waiting for the frame timer.
      instance?.stdin.write('v');
      await turns(20);
      expect(frames.length - before).toBe(2);
      expect(ui.frame()).toContain('body: raw');
    } finally {
      vi.useRealTimers();
    }
  });
});
