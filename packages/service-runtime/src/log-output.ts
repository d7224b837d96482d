import { write } from 'node:fs';
import { isatty } from 'node:tty';

/**
 * Where a service's logs (and its own start-up lines) go: a file descriptor, stdout by default.
 *
 * pino's own destination (sonic-boom) flushes synchronously when the process exits and retries a
 * failed write forever, sleeping 100 ms between tries: once the reader of stdout is gone (EPIPE)
 * or stuck (a full pipe), a process that calls `process.exit` with lines still queued never ends.
 * This one never blocks the process and never retries a broken destination:
 * - lines are written asynchronously, one write in flight at a time, so a reader that stopped
 *   reading holds at most one thread of libuv's pool, never the event loop;
 * - at most `maxQueuedBytes` wait; past that new lines are dropped (and counted);
 * - any error but EAGAIN (EPIPE, EBADF, EIO...) marks the destination broken: everything queued
 *   and everything later is dropped;
 * - `flush` waits for the queue to drain, but never longer than its deadline, so a shutdown
 *   ends on time whatever the reader does.
 */
export interface LogOutput {
  /** A pino destination: JSON lines in, written as they are or pretty-printed. */
  readonly stream: { write(line: string): boolean };
  /** Whether lines are pretty-printed (stdout is a terminal) rather than JSON. */
  readonly pretty: boolean;
  /** Writes text as it is (start-up banner, messages meant for a person). */
  print(text: string): void;
  /** Resolves once everything queued is written, the output broke, or `timeoutMs` passed. */
  flush(timeoutMs: number): Promise<void>;
  /** Lines dropped because the queue was full or the output broken. */
  readonly dropped: number;
  /** Whether a write failed for good (reader gone). */
  readonly broken: boolean;
}

export interface LogOutputOptions {
  /** Default 1 (stdout). */
  fd?: number;
  /** Pretty-print JSON lines; by default when `fd` is a terminal. */
  pretty?: boolean;
  /** Bytes waiting to be written before new lines are dropped (default 4 MiB). */
  maxQueuedBytes?: number;
}

export const DEFAULT_MAX_QUEUED_LOG_BYTES = 4 * 1024 * 1024;
/** A non-blocking descriptor whose pipe is full answers EAGAIN: try again a little later. */
const RETRY_AFTER_EAGAIN_MS = 50;

export async function openLogOutput(options: LogOutputOptions = {}): Promise<LogOutput> {
  const fd = options.fd ?? 1;
  const pretty = options.pretty ?? isatty(fd);
  // pino-pretty is loaded only for a terminal: a server writing JSON lines never pays for it.
  const format = pretty ? await prettyFormatter() : (line: string) => line;
  return new QueuedOutput(
    fd,
    pretty,
    format,
    options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_LOG_BYTES,
  );
}

async function prettyFormatter(): Promise<(line: string) => string> {
  const { prettyFactory } = await import('pino-pretty');
  const prettify = prettyFactory({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: false,
  });
  return (line) => prettify(line);
}

class QueuedOutput implements LogOutput {
  readonly stream: { write(line: string): boolean };
  #queue: Buffer[] = [];
  #queuedBytes = 0;
  #writing = false;
  #broken = false;
  #dropped = 0;
  #drained: Array<() => void> = [];

  constructor(
    private readonly fd: number,
    readonly pretty: boolean,
    format: (line: string) => string,
    private readonly maxQueuedBytes: number,
  ) {
    this.stream = {
      write: (line: string) => {
        let text: string;
        try {
          text = format(line);
        } catch {
          text = line;
        }
        this.#enqueue(text);
        // pino ignores back-pressure from a destination; the queue bound is the back-pressure.
        return true;
      },
    };
  }

  get dropped(): number {
    return this.#dropped;
  }

  get broken(): boolean {
    return this.#broken;
  }

  print(text: string): void {
    this.#enqueue(text.endsWith('\n') ? text : `${text}\n`);
  }

  flush(timeoutMs: number): Promise<void> {
    if (!this.#writing || this.#broken) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#drained.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #enqueue(text: string): void {
    if (this.#broken || text.length === 0) {
      this.#dropped++;
      return;
    }
    const bytes = Buffer.from(text);
    if (this.#queuedBytes + bytes.length > this.maxQueuedBytes) {
      this.#dropped++;
      return;
    }
    this.#queue.push(bytes);
    this.#queuedBytes += bytes.length;
    if (!this.#writing) this.#writeNext();
  }

  #writeNext(): void {
    if (this.#queue.length === 0) {
      this.#writing = false;
      for (const resolve of this.#drained.splice(0)) resolve();
      return;
    }
    this.#writing = true;
    const chunk =
      this.#queue.length === 1 ? (this.#queue[0] as Buffer) : Buffer.concat(this.#queue);
    this.#queue = [chunk];
    write(this.fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          setTimeout(() => this.#writeNext(), RETRY_AFTER_EAGAIN_MS).unref();
          return;
        }
        this.#breakDown();
        return;
      }
      this.#queuedBytes -= written;
      this.#queue[0] = chunk.subarray(written);
      if (this.#queue[0].length === 0) this.#queue.shift();
      this.#writeNext();
    });
  }

  /** The reader is gone: nothing queued or logged later can ever be written. */
  #breakDown(): void {
    this.#broken = true;
    this.#dropped += this.#queue.length;
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#writing = false;
    for (const resolve of this.#drained.splice(0)) resolve();
  }
}
