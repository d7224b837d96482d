/** @jsxRuntime automatic @jsxImportSource react */
// The mounted UI: keeps the reducer's state, feeds it keys, store changes and resizes, hands its
// commands to the runner (`perform.ts`) and draws the screen (`screen.tsx`).
import { useInput, useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { RequestStore } from '../capture/store.js';
import { forEachKeyEvent } from './keys.js';
import { perform, type UiEffects } from './perform.js';
import {
  initialState,
  type RelayView,
  type ReplayTargetOf,
  reduce,
  step,
  type UiEvent,
  type UiState,
} from './reducer.js';
import { Screen } from './screen.js';

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
  readonly effects?: UiEffects;
  /**
   * Where `r` sends a record without asking (its route's forward, --forward-to, --replay-to), or
   * null; the reducer asks for a URL when there is none. Default: never a target of its own.
   */
  readonly replayTargetOf?: ReplayTargetOf;
  /** Shown above the panes for the whole run (`UiState.warnings`): listening beyond loopback. */
  readonly warnings?: readonly string[];
  /** `--relay`: the send URL and the connection's state at start (`relay` events follow). */
  readonly relay?: RelayView;
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

export function App(props: AppProps) {
  const { store, address, fallbackSize, lastRenderMs } = props;
  const { stdout } = useStdout();
  const [state, setState] = useState(() => {
    const { columns, rows } = terminalSize(stdout, fallbackSize);
    const start = props.initial
      ? { ...props.initial, columns, rows }
      : initialState(columns, rows, props.warnings, props.replayTargetOf, props.relay ?? null);
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
