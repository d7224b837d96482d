/** @jsxRuntime automatic @jsxImportSource react */
import { type Instance, render } from 'ink';
import type { RunningCapture } from '../app.js';
import type { RequestStore } from '../capture/store.js';
import { toCurl } from '../export/curl.js';
import { harPieces } from '../export/har.js';
import { App } from './App.js';
import { createEffects, type UiServices } from './effects.js';
import type { UiEnvironment } from './environment.js';
import type { UiEffects } from './perform.js';
import type { UiEvent, UiState } from './reducer.js';
import { enterFullScreen, type TerminalSession } from './terminal.js';

/**
 * Ink's own frame throttle. Arrivals are already coalesced into at most one store sync per frame
 * by the App (`syncDelay`), so Ink's throttle only delayed what a key changed: at 30 fps a key
 * pressed just after a frame waited up to 33 ms before it was even drawn. At 1000 a key's frame
 * is drawn as soon as React has committed it; the arrival frames stay as few as before.
 */
export const INK_MAX_FPS = 1000;

export interface RunningUi {
  /** Unmounts the UI and restores the terminal; idempotent. */
  close(): void;
}

export interface UiHandlers {
  /** q, Esc or Ctrl+C. */
  readonly onQuit: () => void;
  /** A render error (Ink unmounts the UI and reports it here). */
  readonly onCrash: (error: unknown) => void;
}

export interface UiOptions {
  readonly environment: UiEnvironment;
  /** Replays go through the running capture: it knows the routes, targets and secrets. */
  readonly capture: Pick<RunningCapture, 'replay' | 'replayTarget' | 'resignRefusal'>;
  /** Shown above the panes for the whole run: `RunningCapture.notices`. */
  readonly warnings?: readonly string[];
  /** `--relay`: the send URL and a subscription to the connection's state (as status text). */
  readonly relay?: {
    readonly sendUrl: string;
    readonly status: string;
    subscribe(listener: (status: string) => void): void;
  };
}

/** The services the UI's effects use: the capture's replay, the export formats. */
export function uiServices(capture: UiOptions['capture']): UiServices {
  return {
    replay: (record, request) => capture.replay(record, request),
    resignRefusal: (record, request) => capture.resignRefusal(record, request),
    curl: toCurl,
    har: harPieces,
  };
}

/** Starts the full-screen UI on the process's terminal. */
export function startUi(
  store: RequestStore,
  address: string,
  handlers: UiHandlers,
  options?: UiOptions,
): RunningUi {
  const { stdout, stdin } = process;
  let terminal: TerminalSession | null = null;
  let ink: Instance | null = null;
  let lastRenderMs = 0;
  let lastState: UiState | undefined;
  let closed = false;
  const channel: { current: ((event: UiEvent) => void) | null } = { current: null };

  const effects: UiEffects | undefined = options
    ? createEffects({
        environment: options.environment,
        services: uiServices(options.capture),
        writeTerminal: (text) => stdout.write(text),
        suspend: async (work) => {
          takeDown();
          // Ink stops reading stdin but leaves it flowing; the editor must get every key.
          stdin.pause();
          try {
            return await work();
          } finally {
            if (!closed) mount();
          }
        },
      })
    : undefined;

  function mount(): void {
    terminal = enterFullScreen(stdout, stdin);
    const ui = (
      <App
        store={store}
        address={address}
        onQuit={handlers.onQuit}
        effects={effects}
        replayTargetOf={options ? (record) => options.capture.replayTarget(record) : undefined}
        warnings={options?.warnings}
        relay={relayView}
        initial={lastState}
        channel={channel}
        onState={(state) => {
          lastState = state;
        }}
        lastRenderMs={() => lastRenderMs}
      />
    );
    const instance = render(ui, {
      stdout,
      stdin,
      onRender: ({ renderTime }) => {
        lastRenderMs = renderTime;
      },
      // Ctrl+C is a key like q: the app quits through one path that restores the terminal.
      exitOnCtrlC: false,
      patchConsole: true,
      maxFps: INK_MAX_FPS,
    });
    ink = instance;
    instance.waitUntilExit().catch(handlers.onCrash);
  }

  function takeDown(): void {
    const instance = ink;
    const session = terminal;
    ink = null;
    terminal = null;
    try {
      instance?.unmount();
      // Ink keeps the instance per stdout: a later render would reuse the unmounted one.
      instance?.cleanup();
    } finally {
      session?.restore();
    }
  }

  const relay = options?.relay;
  const relayView = relay ? { sendUrl: relay.sendUrl, status: relay.status } : undefined;
  relay?.subscribe((status) => {
    if (relayView) relayView.status = status;
    channel.current?.({ type: 'relay', status });
  });
  // Ctrl+Z or SIGTSTP: the terminal goes back as it was (as less and vim do), then the process
  // stops; SIGCONT (`fg`) takes it again and redraws from the last state. With the editor open
  // (the UI already down), the editor has the terminal: the process only stops.
  let suspended = false;
  const onStop = () => {
    if (closed) return;
    if (ink) {
      takeDown();
      suspended = true;
    }
    process.kill(process.pid, 'SIGSTOP');
  };
  const onContinue = () => {
    if (!suspended || closed) return;
    suspended = false;
    mount();
  };
  process.on('SIGTSTP', onStop);
  process.on('SIGCONT', onContinue);
  mount();
  return {
    close() {
      if (closed) return;
      closed = true;
      process.off('SIGTSTP', onStop);
      process.off('SIGCONT', onContinue);
      takeDown();
    },
  };
}
