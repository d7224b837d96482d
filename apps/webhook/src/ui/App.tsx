/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text, useInput, useStdout } from 'ink';
import { useEffect, useReducer } from 'react';
import type { RequestStore } from '../capture/store.js';
import { printable, STAND_IN } from '../format/printable.js';
import { clock } from '../format/time.js';
import { buildDetail, type Tone, visibleLines } from './detail.js';
import { keyActions } from './keys.js';
import { type Layout, layoutFor } from './layout.js';
import { initialState, recordAt, reduce, selectedRecord, type UiState } from './reducer.js';
import { fit } from './text-width.js';

/** Store changes are applied at most this often (about 30 a second), however fast they come. */
export const FRAME_MS = 33;
/**
 * Drawing a full screen costs Ink tens of milliseconds. Under a flood of arrivals the UI waits
 * this many times the last frame's cost between updates, so drawing takes at most about a fifth
 * of the CPU and capturing keeps the rest. Keys are still answered at once.
 */
const RENDER_SHARE = 5;
const MAX_SYNC_MS = 500;

/** How long to wait before applying the next store change, given the last frame's cost. */
export function syncDelay(lastRenderMs: number): number {
  return Math.min(MAX_SYNC_MS, Math.max(FRAME_MS, lastRenderMs * RENDER_SHARE));
}

export interface AppProps {
  readonly store: RequestStore;
  /** `http://127.0.0.1:9080`, for the status bar. */
  readonly address: string;
  readonly onQuit: () => void;
  /** Terminal size when stdout does not report one (tests). */
  readonly fallbackSize?: { columns: number; rows: number };
  /** How long Ink took to draw the last frame, in ms (see `syncDelay`). */
  readonly lastRenderMs?: () => number;
}

/** The terminal's size, or the fallback when the stream does not know it. */
function terminalSize(stdout: NodeJS.WriteStream, fallback: AppProps['fallbackSize']) {
  return {
    columns: stdout.columns || fallback?.columns || 80,
    rows: stdout.rows || fallback?.rows || 24,
  };
}

export function App({ store, address, onQuit, fallbackSize, lastRenderMs }: AppProps) {
  const { stdout } = useStdout();
  const [state, dispatch] = useReducer(reduce, undefined, () => {
    const { columns, rows } = terminalSize(stdout, fallbackSize);
    return reduce(initialState(columns, rows), { type: 'sync', snapshot: store.snapshot() });
  });

  // The server pushes into the store; the UI takes a snapshot at most once per frame.
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      dispatch({ type: 'sync', snapshot: store.snapshot() });
    };
    const unsubscribe = store.subscribe(() => {
      timer ??= setTimeout(flush, syncDelay(lastRenderMs?.() ?? 0));
    });
    flush();
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [store, lastRenderMs]);

  useEffect(() => {
    const onResize = () => dispatch({ type: 'resize', ...terminalSize(stdout, fallbackSize) });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fallbackSize]);

  useInput((input, key) => {
    for (const action of keyActions(input, key)) {
      if (action === 'quit') {
        onQuit();
        return;
      }
      if (action === 'clear') store.clear();
      dispatch({ type: 'key', key: action });
    }
  });

  return <Screen state={state} address={address} />;
}

/** The whole screen as a function of the state. */
export function Screen({ state, address }: { state: UiState; address: string }) {
  const layout = layoutFor(state.columns, state.rows);
  return (
    <Box flexDirection="column" width={layout.columns} height={layout.rows}>
      <Box flexDirection="row" height={layout.paneHeight}>
        <RequestList state={state} layout={layout} />
        <DetailPane state={state} layout={layout} address={address} />
      </Box>
      <StatusBar state={state} layout={layout} address={address} />
    </Box>
  );
}

function Pane({ width, children }: { width: number; children: React.ReactNode }) {
  return (
    <Box
      flexDirection="column"
      width={width}
      flexShrink={0}
      borderStyle="round"
      borderColor="gray"
      paddingX={1}
    >
      {children}
    </Box>
  );
}

function RequestList({ state, layout }: { state: UiState; layout: Layout }) {
  const rows = [];
  const end = Math.min(state.records.length, state.listTop + layout.listRows);
  for (let index = state.listTop; index < end; index += 1) {
    const record = recordAt(state, index);
    if (!record) continue;
    const selected = record.seq === state.selectedSeq;
    const text = fit(
      `${clock(record.receivedAt)} ${printable(record.method)} ${printable(record.path)}`,
      layout.listTextWidth,
    );
    rows.push(
      <Text
        key={record.seq}
        inverse={selected}
        color={selected ? 'cyan' : undefined}
        wrap="truncate"
      >
        {text}
      </Text>,
    );
  }
  return (
    <Pane width={layout.listWidth}>
      {rows.length > 0 ? rows : <Text dimColor>Waiting for requests…</Text>}
    </Pane>
  );
}

const TONES: Record<Tone, { color?: string; bold?: boolean; dimColor?: boolean }> = {
  title: { bold: true, color: 'cyan' },
  heading: { bold: true },
  meta: { dimColor: true },
  plain: {},
  hint: { color: 'yellow' },
  good: { color: 'green' },
  bad: { color: 'red' },
};

function DetailPane({
  state,
  layout,
  address,
}: {
  state: UiState;
  layout: Layout;
  address: string;
}) {
  const record = selectedRecord(state);
  if (!record) {
    return (
      <Pane width={layout.detailWidth}>
        <Text dimColor wrap="truncate">
          Send a request, for example:
        </Text>
        <Text wrap="truncate">{`curl -d '{"hello":"world"}' ${address}/hooks/test`}</Text>
      </Pane>
    );
  }
  const document = buildDetail(record, layout.detailTextWidth, state.expanded, state.bodyMode);
  const lines = visibleLines(document, state.detailTop, layout.detailRows).map((line, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions on screen
    <Text key={index} wrap="truncate" {...TONES[line.tone]}>
      <StyledText text={line.text === '' ? ' ' : line.text} />
    </Text>
  ));
  return <Pane width={layout.detailWidth}>{lines}</Pane>;
}

/** Shortcut hints, longest first: the status bar shows the longest that fits. */
const HINTS = [
  'jk/↑↓ select  Enter body  PgUp/PgDn scroll  c clear  q quit',
  'jk select  ⏎ body  PgUp/PgDn  c clear  q quit',
  'q quit',
  '',
];

function StatusBar({
  state,
  layout,
  address,
}: {
  state: UiState;
  layout: Layout;
  address: string;
}) {
  const left = ` ${address} · ${state.records.length} kept / ${state.seen} seen`;
  const room = layout.columns - Array.from(left).length - 1;
  const hint = HINTS.find((candidate) => Array.from(candidate).length <= room) ?? '';
  const gap = ' '.repeat(Math.max(1, room - Array.from(hint).length));
  return (
    <Text wrap="truncate" inverse>
      {fit(`${left}${gap}${hint}`, layout.columns)}
    </Text>
  );
}

/**
 * Text with the stand-ins `printable` wrote (`␛`, `<U+202E>`) shown in reverse video, so they
 * cannot be mistaken for the text around them.
 */
function StyledText({ text }: { text: string }) {
  STAND_IN.lastIndex = 0;
  if (!STAND_IN.test(text)) return <>{text}</>;
  const pieces: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(STAND_IN)) {
    const at = match.index ?? 0;
    if (at > last) pieces.push(text.slice(last, at));
    pieces.push(
      <Text key={at} inverse dimColor>
        {match[0]}
      </Text>,
    );
    last = at + match[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return <>{pieces}</>;
}
