/** @jsxRuntime automatic @jsxImportSource react */
// The relay in the UI: its state and send URL in the status bar, `y` copying the send URL, and a
// relayed record's marks in the detail pane.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { buildDetail, visibleLines } from '../src/ui/detail.js';
import { type Filter, parseFilter } from '../src/ui/filter.js';
import { initialState, reduce, step } from '../src/ui/reducer.js';
import { Screen } from '../src/ui/screen.js';
import { makeRecord, snapshotOf } from './helpers.js';

const SEND_URL = 'https://relay.example/c/3q2-7wD0m1y8lM5oQ1C0yA';

function statusBar(state: ReturnType<typeof initialState>): string {
  const screen = render(<Screen state={state} address="http://127.0.0.1:9080" />);
  try {
    return (screen.lastFrame() ?? '').split('\n').at(-1) ?? '';
  } finally {
    screen.unmount();
  }
}

describe('the relay in the UI', () => {
  const start = initialState(160, 20, [], undefined, {
    sendUrl: SEND_URL,
    status: 'relay: connecting',
  });

  it('shows the connection state, and the send URL once connected', () => {
    expect(statusBar(start)).toContain('relay: connecting');
    const connected = reduce(start, { type: 'relay', status: 'relay: connected' });
    expect(statusBar(connected)).toContain(`relay: connected ${SEND_URL}`);
    const retrying = reduce(connected, {
      type: 'relay',
      status: 'relay: reconnecting in 4 s (ECONNREFUSED)',
    });
    expect(statusBar(retrying)).toContain('relay: reconnecting in 4 s (ECONNREFUSED)');
    const refused = reduce(retrying, {
      type: 'relay',
      status: 'relay: refused (401 the listen token is missing or wrong)',
    });
    expect(statusBar(refused)).toContain('relay: refused (401');
  });

  it('at 120 columns, a message, the filter’s match count and the refusal’s start get room before the relay segment', () => {
    const narrow = initialState(120, 20, [], undefined, {
      sendUrl: SEND_URL,
      status: 'relay: connected',
    });
    const message = '#3 as curl: ./webhook-3.curl.sh (clipboard not known to work here)';
    const noticed = reduce(narrow, {
      type: 'notice',
      notice: { text: message, tone: 'good' },
    });
    expect(statusBar(noticed)).toContain(message);
    const records = [makeRecord({ target: '/a' }), makeRecord({ target: '/b' })];
    let filtered = reduce(narrow, { type: 'sync', snapshot: snapshotOf(records) });
    filtered = {
      ...filtered,
      filter: {
        text: '/a',
        applied: (parseFilter('/a') as { filter: Filter }).filter,
        error: null,
      },
    };
    filtered = { ...filtered, shown: filtered.records.slice(0, 1) };
    expect(statusBar(filtered)).toContain('1 of 2 match');
    const refused = reduce(narrow, {
      type: 'relay',
      status:
        'relay: refused (404: this channel no longer exists on the relay; it may have restarted without REDIS_URL, which loses every channel: ask its operator for a new one, webhook relay create, and use its send URL and token)',
    });
    const withNotice = reduce(refused, {
      type: 'notice',
      notice: { text: message, tone: 'good' },
    });
    expect(statusBar(withNotice)).toContain(message);
    expect(statusBar(refused)).toContain('relay: refused (404: this channel no longer exists');
  });

  it('y copies the send URL; without --relay it says so', () => {
    const { commands } = step(start, { type: 'key', key: 'copySendUrl' });
    expect(commands).toEqual([{ type: 'copyText', text: SEND_URL, what: 'send URL' }]);
    const local = step(initialState(160, 20), { type: 'key', key: 'copySendUrl' });
    expect(local.commands).toEqual([]);
    expect(local.state.notice).toEqual({
      text: 'No relay: start with --relay <send URL>',
      tone: 'bad',
    });
    // A relay event without --relay changes nothing.
    expect(
      reduce(initialState(160, 20), { type: 'relay', status: 'relay: connected' }).relay,
    ).toBeNull();
  });

  it('marks a relayed record with the send URL and the sender’s address', () => {
    const record = makeRecord({ remote: '203.0.113.7:50412', relayedVia: SEND_URL });
    const state = reduce(start, { type: 'sync', snapshot: snapshotOf([record]) });
    const document = buildDetail(state.records[0] ?? record, 120, false);
    const text = visibleLines(document, 0, 5)
      .map((line) => line.text)
      .join('\n');
    expect(text).toContain(`⇄ relayed via ${SEND_URL} from 203.0.113.7:50412`);
  });
});
