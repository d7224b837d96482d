/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text, useInput, useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { CapturedRequest } from '../capture/record.js';
import type { RequestStore } from '../capture/store.js';
import { printable, STAND_IN } from '../format/printable.js';
import { clock } from '../format/time.js';
import type { Notice, UiCommand } from './commands.js';
import { buildDetail, type Tone, visibleLines } from './detail.js';
import { forEachKeyEvent } from './keys.js';
import type { Layout } from './layout.js';
import {
  initialState,
  layoutOf,
  recordAt,
  reduce,
  selectedRecord,
  step,
  type UiEvent,
  type UiState,
} from './reducer.js';
import { columnsOf, fit } from './text-width.js';

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

/**
 * The effects behind the reducer's commands that need more than the store: the network, the
 * clipboard, files, $EDITOR. Each resolves to the notice the status bar shows; run.tsx provides
 * the real ones, tests their own.
 */
export interface UiEffects {
  /** Where `record` is replayed without asking; null when nothing is configured. */
  replayTarget(record: CapturedRequest): string | null;
  /** `target` null: the record's own target (its route keeps its say in the URL's path). */
  replay(record: CapturedRequest, target: string | null, edit: boolean): Promise<Notice>;
  copyCurl(record: CapturedRequest): Promise<Notice>;
  exportHar(records: readonly CapturedRequest[], filter: string | null): Promise<Notice>;
}

export interface AppProps {
  readonly store: RequestStore;
  /** `http://127.0.0.1:9080`, for the status bar. */
  readonly address: string;
  readonly onQuit: () => void;
  readonly effects?: UiEffects;
  /** Shown above the panes for the whole run (`UiState.warnings`): listening beyond loopback. */
  readonly warnings?: readonly string[];
  /** The state to start from (the UI is remounted after $EDITOR with the state it had). */
  readonly initial?: UiState;
  /** Told of every new state, so a remount can start from it. */
  readonly onState?: (state: UiState) => void;
  /**
   * Set to the mounted UI's dispatcher: an effect that outlives a mount (a replay after $EDITOR,
   * which takes the UI down and puts up a new one) reports to the UI on screen when it ends.
   */
  readonly channel?: { current: ((event: UiEvent) => void) | null };
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

const failed = (error: unknown): Notice => ({
  text: printable(error instanceof Error ? error.message : String(error)),
  tone: 'bad',
});

/** Performs one command of the reducer's; effects report back with a `notice` event. */
function perform(command: UiCommand, props: AppProps, dispatch: (event: UiEvent) => void): void {
  const report = (work: Promise<Notice> | undefined) => {
    if (!work) {
      dispatch({ type: 'notice', notice: { text: 'Not available here', tone: 'bad' } });
      return;
    }
    const deliver = (event: UiEvent) => (props.channel?.current ?? dispatch)(event);
    work.then(
      (notice) => deliver({ type: 'notice', notice }),
      (error: unknown) => deliver({ type: 'notice', notice: failed(error) }),
    );
  };
  const { effects } = props;
  switch (command.type) {
    case 'quit':
      props.onQuit();
      return;
    case 'clear':
      props.store.clear();
      return;
    case 'replay': {
      // The record's own target first: sent without a URL, so its route still shapes the path.
      if (!effects) report(undefined);
      else if (effects.replayTarget(command.record) !== null) {
        report(effects.replay(command.record, null, command.edit));
      } else if (command.target === null) {
        dispatch({ type: 'askReplayTarget', edit: command.edit });
      } else {
        report(effects.replay(command.record, command.target, command.edit));
      }
      return;
    }
    case 'copyCurl':
      report(effects?.copyCurl(command.record));
      return;
    case 'exportHar':
      report(effects?.exportHar(command.records, command.filter));
      return;
  }
}

export function App(props: AppProps) {
  const { store, address, fallbackSize, lastRenderMs } = props;
  const { stdout } = useStdout();
  const [state, setState] = useState(() => {
    const { columns, rows } = terminalSize(stdout, fallbackSize);
    const start = props.initial
      ? { ...props.initial, columns, rows }
      : initialState(columns, rows, props.warnings);
    return reduce(start, { type: 'sync', snapshot: store.snapshot() });
  });
  // The latest state, read and written synchronously: keys typed in one chunk are each applied to
  // the state the previous one left, and commands run right after the step that asked for them.
  const current = useRef(state);

  // Props change only in tests; the dispatcher reads the latest through this ref, so it can be
  // created once and stay stable for the effects below.
  const latest = useRef(props);
  latest.current = props;
  const [dispatch] = useState(() => {
    const dispatch = (event: UiEvent) => {
      const next = step(current.current, event);
      if (next.state !== current.current) {
        current.current = next.state;
        setState(next.state);
        latest.current.onState?.(next.state);
      }
      for (const command of next.commands) perform(command, latest.current, dispatch);
    };
    return dispatch;
  });

  useEffect(() => {
    const channel = latest.current.channel;
    if (!channel) return;
    channel.current = dispatch;
    return () => {
      if (channel.current === dispatch) channel.current = null;
    };
  }, [dispatch]);

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
  }, [store, lastRenderMs, dispatch]);

  useEffect(() => {
    const onResize = () => dispatch({ type: 'resize', ...terminalSize(stdout, fallbackSize) });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fallbackSize, dispatch]);

  useInput((input, key) => {
    forEachKeyEvent(input, key, () => current.current.prompt !== null, dispatch);
  });

  return <Screen state={state} address={address} />;
}

/** The whole screen as a function of the state. */
export function Screen({ state, address }: { state: UiState; address: string }) {
  const layout = layoutOf(state);
  return (
    <Box flexDirection="column" width={layout.columns} height={layout.rows}>
      {state.warnings.slice(0, layout.bannerRows).map((warning) => (
        <Text key={warning} wrap="truncate" bold color="yellow">
          {fit(`⚠ ${printable(warning)}`, layout.columns)}
        </Text>
      ))}
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

/**
 * The mark before a row: the signature check (`✓`, `✗`), a replay (`↻`), a forward that failed or
 * got an error status (`!`); null when there is nothing to say.
 */
export function rowMark(record: CapturedRequest): { text: string; color: string } | null {
  if (record.verification) {
    return record.verification.ok ? { text: '✓', color: 'green' } : { text: '✗', color: 'red' };
  }
  if (record.replayOf !== undefined) return { text: '↻', color: 'cyan' };
  const forward = record.forward;
  if (forward?.kind === 'failure' || (forward?.kind === 'response' && forward.status >= 500)) {
    return { text: '!', color: 'red' };
  }
  return null;
}

function RequestList({ state, layout }: { state: UiState; layout: Layout }) {
  const end = Math.min(state.shown.length, state.listTop + layout.listRows);
  const visible: CapturedRequest[] = [];
  for (let index = state.listTop; index < end; index += 1) {
    const record = recordAt(state, index);
    if (record) visible.push(record);
  }
  // A gutter for marks only when a row on screen has one, so plain captures keep every column.
  const gutter = visible.some((record) => rowMark(record) !== null);
  const rows = visible.map((record) => {
    const selected = record.seq === state.selectedSeq;
    const mark = gutter ? rowMark(record) : null;
    const width = layout.listTextWidth - (gutter ? 2 : 0);
    const text = fit(
      `${clock(record.receivedAt)} ${printable(record.method)} ${printable(record.path)}`,
      Math.max(1, width),
    );
    return (
      <Text key={record.seq} wrap="truncate">
        {gutter ? (
          <Text color={mark?.color} bold>
            {mark ? `${mark.text} ` : '  '}
          </Text>
        ) : null}
        <Text inverse={selected} color={selected ? 'cyan' : undefined}>
          {text}
        </Text>
      </Text>
    );
  });
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
  'jk select  ⏎ body  v view  / filter  r replay  e edit  x curl  X har  c clear  q quit',
  'jk ⏎ body  v view  / filter  r replay  x curl  q quit',
  'jk ⏎ v / r e x X c q',
  'q quit',
  '',
];
const PROMPT_HINTS = ['Enter keep  Esc clear', ''];
const REPLAY_HINTS = ['Enter send  Esc cancel', ''];

/** `12 of 340 match` while a filter is applied. */
export function matchCount(state: UiState): string {
  return `${state.shown.length} of ${state.records.length} match`;
}

function StatusBar({
  state,
  layout,
  address,
}: {
  state: UiState;
  layout: Layout;
  address: string;
}) {
  let left: string;
  let hints = HINTS;
  let tone: Notice['tone'] | null = null;
  const prompt = state.prompt;
  if (prompt?.kind === 'filter') {
    const outcome = state.filter.error ?? matchCount(state);
    left = ` /${printable(state.filter.text)}▏ ${outcome}`;
    hints = PROMPT_HINTS;
    if (state.filter.error) tone = 'bad';
  } else if (prompt?.kind === 'replayTarget') {
    left = ` ${prompt.edit ? 'Edit, then replay' : 'Replay'} to URL: ${printable(prompt.text)}▏`;
    hints = REPLAY_HINTS;
  } else {
    left = ` ${address} · ${state.records.length} kept / ${state.seen} seen`;
    if (state.filter.applied) left += ` · /${printable(state.filter.text)} · ${matchCount(state)}`;
    if (state.bodyMode !== 'pretty') left += ` · body: ${state.bodyMode}`;
  }
  if (state.notice) {
    left += ` · ${state.notice.text}`;
    tone = state.notice.tone;
    hints = [''];
  }
  const room = layout.columns - columnsOf(left) - 1;
  const hint = hints.find((candidate) => columnsOf(candidate) <= room) ?? '';
  const gap = ' '.repeat(Math.max(1, room - columnsOf(hint)));
  const color = tone === 'bad' ? 'red' : tone === 'good' ? 'green' : undefined;
  return (
    <Text wrap="truncate" inverse color={color}>
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
