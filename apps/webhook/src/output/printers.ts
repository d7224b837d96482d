import type { CapturedRequest } from '../capture/record.js';
import { printable } from '../format/printable.js';
import { clock } from '../format/time.js';

/** `HH:MM:SS METHOD path bytes`: one line per request, safe to print to a terminal. */
export function requestLine(record: CapturedRequest): string {
  const size = record.truncated ? `${record.size} (truncated)` : String(record.size);
  const via = record.relayedVia === undefined ? '' : ` (relayed from ${printable(record.remote)})`;
  return `${clock(record.receivedAt)} ${printable(record.method)} ${printable(record.path)} ${size}${via}`;
}

/** One record as a JSON line: see `output/json.ts`. */
export { requestJson, requestJsonPieces } from './json.js';

/** Characters of lines gathered into one write; beyond it each line is written as it is. */
const BATCH_CHARS = 256 * 1024;

/**
 * Writes one line per record to `stream`, gathering the lines of one event-loop turn into a single
 * write: under a flood, one system call per request would cost more than capturing it. Long lines
 * (`--json` with large bodies) are written one by one instead: joining them would copy each body
 * once more, and a system call per 512 KiB line costs nothing next to the line.
 */
export function createPrinter(
  stream: NodeJS.WritableStream,
  format: (record: CapturedRequest) => string | readonly (string | Buffer)[],
): { print(record: CapturedRequest): void; flush(): void } {
  let pending: (string | Buffer)[] = [];
  let pendingChars = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const lines = pending;
    const chars = pendingChars;
    pending = [];
    pendingChars = 0;
    // Only long lines have Buffer pieces (VERBATIM_BODY_BYTES > BATCH_CHARS is not required:
    // a batch holding one is long, so it is written piece by piece).
    if (chars <= BATCH_CHARS && lines.every((piece) => typeof piece === 'string')) {
      stream.write(lines.join(''));
      return;
    }
    for (const piece of lines) stream.write(piece);
  };
  return {
    print(record) {
      if (pending.length === 0) setImmediate(flush);
      const line = format(record);
      // The newline apart: appending it would make a second copy of a long line.
      for (const piece of typeof line === 'string' ? [line] : line) {
        pending.push(piece);
        pendingChars += piece.length;
      }
      pending.push('\n');
      pendingChars += 1;
    },
    flush,
  };
}

/**
 * Makes writes to a piped stdout wait for the reader. Node writes to pipes asynchronously on Linux
 * and queues whatever the reader has not taken yet, without limit: a flood read by a slow consumer
 * (`webhook --json | slow-script`) piled up far beyond --max-memory (800 MiB for 300 MiB of bodies
 * in the reliability suite). A blocking write holds the event loop instead, so the server stops
 * reading its sockets and the senders feel TCP backpressure; nothing is lost. Node makes the same
 * choice for terminals and files everywhere, and for pipes on Windows. Terminals and files are left
 * as they are.
 */
export function blockOnSlowReader(stream: NodeJS.WriteStream): void {
  const handle = (stream as { _handle?: { setBlocking?: (blocking: boolean) => number } })._handle;
  if (!stream.isTTY) handle?.setBlocking?.(true);
}
