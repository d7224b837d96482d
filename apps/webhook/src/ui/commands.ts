import type { CapturedRequest } from '../capture/record.js';

/**
 * What the reducer asks its caller to do: every effect (the store, the network, the clipboard,
 * files, $EDITOR, quitting, decoding a body) happens at the edge, in the command runner (`perform.ts`), never in the
 * reducer. Results come back as `notice` events.
 */
export type UiCommand =
  | { readonly type: 'quit' }
  /** Ctrl+Z: hand the terminal back to the shell and stop, as SIGTSTP does (run.tsx). */
  | { readonly type: 'suspend' }
  /** Empty the store (the `seen` count keeps counting). */
  | { readonly type: 'clear' }
  /**
   * Send `record` again: to `target` (a URL typed in the prompt) or, when null, to its own target
   * (its route's forward, --forward-to, --replay-to). With `edit`, open it in $EDITOR first and
   * send what was saved (ngrok's replay with modifications). The replay is recorded as a new entry
   * linked to `record`.
   */
  | {
      readonly type: 'replay';
      readonly record: CapturedRequest;
      readonly target: string | null;
      readonly edit: boolean;
    }
  /**
   * Undo `contentEncoding` on `body` for display, off the event loop (zlib on the thread pool);
   * the result comes back as a `decoded` event.
   */
  | {
      readonly type: 'decode';
      readonly body: Buffer;
      readonly contentEncoding: string;
      readonly truncated: boolean;
    }
  /** `record` as a curl command, to the clipboard (OSC 52) or, failing that, a file. */
  | { readonly type: 'copyCurl'; readonly record: CapturedRequest }
  /** `text` (the relay's send URL, named by `what`) to the clipboard (OSC 52). */
  | { readonly type: 'copyText'; readonly text: string; readonly what: string }
  /** `records` (oldest first) as a HAR 1.2 file; `filter` is the filter that chose them, if any. */
  | {
      readonly type: 'exportHar';
      readonly records: readonly CapturedRequest[];
      readonly filter: string | null;
    };

/** A message for the status bar: what a command did, or why it could not. */
export interface Notice {
  readonly text: string;
  readonly tone: 'info' | 'good' | 'bad';
}
