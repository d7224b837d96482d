/** @jsxRuntime automatic @jsxImportSource react */
import { render } from 'ink';
import type { RequestStore } from '../capture/store.js';
import { App } from './App.js';
import { enterFullScreen } from './terminal.js';

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

/** Starts the full-screen UI on the process's terminal. */
export function startUi(store: RequestStore, address: string, handlers: UiHandlers): RunningUi {
  const { stdout, stdin } = process;
  const terminal = enterFullScreen(stdout, stdin);
  let lastRenderMs = 0;
  const ui = (
    <App
      store={store}
      address={address}
      onQuit={handlers.onQuit}
      lastRenderMs={() => lastRenderMs}
    />
  );
  const ink = render(ui, {
    stdout,
    stdin,
    onRender: ({ renderTime }) => {
      lastRenderMs = renderTime;
    },
    // Ctrl+C is a key like q: the app quits through one path that restores the terminal.
    exitOnCtrlC: false,
    patchConsole: true,
    maxFps: 30,
  });
  ink.waitUntilExit().catch(handlers.onCrash);
  let closed = false;
  return {
    close() {
      if (closed) return;
      closed = true;
      try {
        ink.unmount();
      } finally {
        terminal.restore();
      }
    },
  };
}
