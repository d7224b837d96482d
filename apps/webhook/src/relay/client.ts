import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { headerProblem } from '../capture/record.js';
import { formatSize } from '../config/size.js';
import { printable } from '../format/printable.js';
import {
  answerUrl,
  EVENT_ID,
  eventsUrl,
  type GapWire,
  MAX_EVENT_BYTES,
  type RelayAnswerWire,
  type RelayedRequestWire,
  type SendUrl,
} from './protocol.js';

/** What the status bar shows. */
export type RelayState =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'connected' }
  | {
      readonly kind: 'reconnecting';
      readonly attempt: number;
      readonly retryInMs: number;
      readonly reason: string;
    }
  /** The relay said no (wrong or revoked token, deleted channel): retrying would not help. */
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'stopped' };

/** One relayed request, as the relay recorded it. */
export interface RelayedRequest {
  /** Its event id in the channel. */
  readonly id: string;
  readonly wire: RelayedRequestWire;
  readonly body: Buffer;
}

/** The local result posted back for a sender held by a wait-for-local channel. */
export interface RelayAnswer {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

export interface Delivery {
  readonly answer: RelayAnswer;
  readonly recorded: Promise<void>;
}

/** Where the last handled event id is kept, so a restarted client resumes after it. */
export interface CursorStore {
  load(): string | null;
  save(id: string): void;
  flush(): void;
}

export interface RelayClientOptions {
  readonly sendUrl: SendUrl;
  readonly token: string;
  /**
   * Puts the request into the local capture pipeline; resolves with the local answer, and a
   * promise of its record being complete (its forward finished, --save written).
   */
  readonly deliver: (request: RelayedRequest) => Promise<Delivery>;
  readonly onState: (state: RelayState) => void;
  /** The relay dropped events this client had not read (its buffer bounds). */
  readonly onGap?: (gap: GapWire) => void;
  /** A request event not delivered: a field is not what a request can hold (`reason` says which). */
  readonly onRefusedEvent?: (id: string, reason: string) => void;
  /** The local answer for a held sender did not reach the relay (`reason` says why). */
  readonly onAnswerFailed?: (id: string, reason: string) => void;
  readonly cursor?: CursorStore;
  /** First retry after this many ms, doubling up to `maxBackoffMs` (with jitter). */
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** No byte from the relay for this long (it sends a comment every 15 s): reconnect. */
  readonly idleTimeoutMs?: number;
  /** Bytes of one event; a larger one is refused and passed over (a client trusts no server blindly). */
  readonly maxEventBytes?: number;
}

const REFUSED_STATUSES = new Set([401, 403, 404, 410]);

/** A connection up this long was useful: the next failure is retried soon again. */
const STABLE_CONNECTION_MS = 30_000;

/** Characters kept of an event's start, enough for its `id:` and `event:` lines. */
const EVENT_HEAD_CHARS = 256;

/**
 * Where an event ends in `text` (just after its blank line), the first or last such place, or -1;
 * `previous` is the character before `text` (a blank line may straddle two chunks).
 */
function eventEnd(previous: string, text: string, which: 'first' | 'last'): number {
  const joined = previous + text;
  const at = which === 'first' ? joined.indexOf('\n\n') : joined.lastIndexOf('\n\n');
  return at < 0 ? -1 : at + 2 - previous.length;
}

function readyWaitsForLocal(data: string): boolean {
  try {
    return (JSON.parse(data) as { waitForLocal?: unknown }).waitForLocal === true;
  } catch {
    return false;
  }
}

/**
 * The relay's 404 `no such channel`: deleted, or gone with a restart of a relay without Redis (its
 * in-memory store loses every channel). Retrying would not bring it back.
 */
export const CHANNEL_GONE =
  '404: this channel no longer exists on the relay; it may have restarted without REDIS_URL, ' +
  'which loses every channel: ask its operator for a new one, webhook relay create, and use its ' +
  'send URL and token';

/**
 * Listens to one channel: holds a Server-Sent Events connection, hands each request to `deliver`
 * in order, acknowledges it by remembering its id (sent as Last-Event-ID on reconnection), posts
 * answers back when the sender waits, and reconnects with exponential backoff.
 */
export class RelayClient {
  #state: RelayState = { kind: 'connecting' };
  #stopped = false;
  #abort: AbortController | null = null;
  #sleepAbort: AbortController | null = null;
  /** The last event whose record is complete, and all before it: what a restart resumes after. */
  #cursor: string | null;
  /**
   * The last event handed to the pipeline: what a reconnection of this run resumes after (the
   * records under way are still in the pipeline).
   */
  #handled: string | null;
  /** Events handed on in order whose records may not be complete yet. */
  readonly #unacknowledged: { readonly id: string; done: boolean }[] = [];
  /** From the `ready` event: the relay holds every sender until this client answers. */
  #waitForLocal = false;
  #done: Promise<void> | null = null;
  readonly #answers = new Set<Promise<void>>();

  constructor(private readonly options: RelayClientOptions) {
    this.#cursor = options.cursor?.load() ?? null;
    this.#handled = this.#cursor;
  }

  get state(): RelayState {
    return this.#state;
  }

  /** The id of the last event handled. */
  get cursor(): string | null {
    return this.#cursor;
  }

  start(): void {
    this.#done ??= this.#run();
  }

  /** Stops listening. The cursor is written at once (the process may exit right after). */
  async stop(): Promise<void> {
    this.options.cursor?.flush();
    this.#stopped = true;
    this.#abort?.abort();
    this.#sleepAbort?.abort();
    await this.#done;
    await Promise.allSettled([...this.#answers]);
    this.options.cursor?.flush();
    this.#setState({ kind: 'stopped' });
  }

  #setState(state: RelayState): void {
    this.#state = state;
    this.options.onState(state);
  }

  async #run(): Promise<void> {
    const initial = this.options.initialBackoffMs ?? 500;
    const max = this.options.maxBackoffMs ?? 30_000;
    let attempt = 0;
    while (!this.#stopped) {
      let reason: string;
      const connectedAt = Date.now();
      // The backoff starts again only once a connection proved useful: it handled an event, or
      // stayed up. A relay that accepts the connection and then fails it at once (the `ready`
      // event, then an error) is retried ever more slowly, not every second for good.
      let handled = false;
      try {
        const outcome = await this.#connect(() => {
          handled = true;
        });
        if (outcome.kind === 'refused') {
          this.#setState({ kind: 'refused', reason: outcome.reason });
          return;
        }
        reason = outcome.reason;
      } catch (error) {
        reason = describe(error);
      }
      if (this.#stopped) return;
      if (handled || Date.now() - connectedAt >= STABLE_CONNECTION_MS) attempt = 0;
      attempt += 1;
      const ceiling = Math.min(max, initial * 2 ** Math.min(attempt - 1, 20));
      const retryInMs = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
      this.#setState({ kind: 'reconnecting', attempt, retryInMs, reason });
      await this.#sleep(retryInMs);
    }
  }

  async #sleep(ms: number): Promise<void> {
    this.#sleepAbort = new AbortController();
    const { signal } = this.#sleepAbort;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** One connection, until it ends; `onHandled` each time an event was handled. */
  async #connect(
    onHandled: () => void,
  ): Promise<{ kind: 'refused'; reason: string } | { kind: 'ended'; reason: string }> {
    const abort = new AbortController();
    this.#abort = abort;
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    let idle = setTimeout(() => abort.abort(new Error('no data from the relay')), idleMs);
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => abort.abort(new Error('no data from the relay')), idleMs);
    };
    try {
      const headers: Record<string, string> = {
        Accept: 'text/event-stream',
        Authorization: `Bearer ${this.options.token}`,
      };
      if (this.#handled) headers['Last-Event-ID'] = this.#handled;
      const response = await fetch(eventsUrl(this.options.sendUrl), {
        headers,
        signal: abort.signal,
        // A redirect elsewhere must not take the token with it.
        redirect: 'error',
      });
      if (REFUSED_STATUSES.has(response.status)) {
        const message = await messageOf(response);
        if (response.status === 404 && message === 'no such channel') {
          return { kind: 'refused', reason: CHANNEL_GONE };
        }
        return { kind: 'refused', reason: `${response.status} ${message}` };
      }
      if (response.status !== 200 || !response.body) {
        return { kind: 'ended', reason: `${response.status} ${await messageOf(response)}` };
      }
      const maxEventBytes = this.options.maxEventBytes ?? MAX_EVENT_BYTES;
      const queue: EventSourceMessage[] = [];
      const parser = createParser({ onEvent: (event) => queue.push(event) });
      const decoder = new TextDecoder();
      const handleQueued = async () => {
        // One batch at a time: the relay waits (TCP) while the pipeline takes what came.
        for (let event = queue.shift(); event; event = queue.shift()) {
          const verdict = await this.#handle(event, onHandled);
          if (verdict) return verdict;
        }
        return undefined;
      };
      // The event being received: its size so far, and its first characters (its `id:` line).
      let eventBytes = 0;
      let eventHead = '';
      let lastChar = '';
      // Set while the rest of an event too large to take is read and thrown away: its id.
      let passingOver: { id: string | null } | null = null;
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        touch();
        let text = decoder.decode(chunk, { stream: true });
        if (passingOver) {
          const end = eventEnd(lastChar, text, 'first');
          lastChar = text.at(-1) ?? lastChar;
          if (end < 0) continue;
          // The relay keeps sending after an event it cannot know is too large for this client:
          // refusing it (and remembering its id) lets the channel go on, where dropping the
          // connection had the relay send the same event again on every reconnection.
          const verdict = this.#passOver(passingOver.id, maxEventBytes, onHandled);
          if (verdict) return verdict;
          passingOver = null;
          text = text.slice(end);
          lastChar = '';
          eventBytes = 0;
          eventHead = '';
        }
        const end = eventEnd(lastChar, text, 'last');
        const current = end < 0 ? text : text.slice(end);
        eventBytes = (end < 0 ? eventBytes : 0) + Buffer.byteLength(current);
        eventHead = (end < 0 ? eventHead : '') + current.slice(0, EVENT_HEAD_CHARS);
        eventHead = eventHead.slice(0, EVENT_HEAD_CHARS);
        lastChar = text.at(-1) ?? lastChar;
        if (eventBytes > maxEventBytes) {
          if (end >= 0) parser.feed(text.slice(0, end));
          parser.reset();
          passingOver = { id: /^id: ?(.*)$/m.exec(eventHead)?.[1] ?? null };
        } else {
          parser.feed(text);
        }
        const verdict = await handleQueued();
        if (verdict) return verdict;
        if (this.#stopped) return { kind: 'ended', reason: 'stopped' };
      }
      return { kind: 'ended', reason: 'the relay closed the stream' };
    } finally {
      clearTimeout(idle);
      abort.abort();
    }
  }

  async #handle(
    event: EventSourceMessage,
    onHandled: () => void,
  ): Promise<{ kind: 'refused'; reason: string } | undefined> {
    switch (event.event) {
      case 'ready':
        this.#waitForLocal = readyWaitsForLocal(event.data);
        this.#setState({ kind: 'connected' });
        return undefined;
      case 'gap':
        this.options.onGap?.(JSON.parse(event.data) as GapWire);
        return undefined;
      case 'revoked':
      case 'deleted':
        return { kind: 'refused', reason: messageText(event.data) };
      case 'request': {
        const request = parseRequest(event);
        if ('refused' in request) {
          // Checked like a sender's request: one the tool could not forward, save or show is
          // refused (never delivered), and the stream goes on.
          this.options.onRefusedEvent?.(
            request.id ?? '?',
            `not a request HTTP can carry: ${request.refused}`,
          );
          onHandled();
          if (request.id) {
            if (request.awaitsAnswer) {
              this.#postAnswer(request.id, {
                status: 502,
                headers: [['Content-Type', 'text/plain; charset=utf-8']],
                body: Buffer.from(`refused by the listener: ${request.refused}\n`),
              });
            }
            this.#acknowledge(request.id);
          }
          return undefined;
        }
        const { answer, recorded } = await this.options.deliver(request);
        if (request.wire.awaitsAnswer) this.#postAnswer(request.id, answer);
        this.#acknowledge(request.id, recorded);
        onHandled();
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /** Refuses the event too large to take whose rest was just read: reported, and its id kept. */
  #passOver(
    id: string | null,
    maxEventBytes: number,
    onHandled: () => void,
  ): { kind: 'ended'; reason: string } | undefined {
    const limit = formatSize(maxEventBytes);
    const valid = id !== null && EVENT_ID.test(id);
    this.options.onRefusedEvent?.(
      valid ? id : '?',
      `larger than the ${limit} this client accepts; passed over`,
    );
    // Without its id the cursor cannot move past it: reconnecting would only fetch it again.
    if (!valid) return { kind: 'ended', reason: `an event without an id larger than ${limit}` };
    if (this.#waitForLocal) {
      this.#postAnswer(id, {
        status: 502,
        headers: [['Content-Type', 'text/plain; charset=utf-8']],
        body: Buffer.from(`refused by the listener: larger than the ${limit} it accepts\n`),
      });
    }
    this.#acknowledge(id);
    onHandled();
    return undefined;
  }

  /**
   * The cursor moves past an event once its record is complete (`recorded`), and past every event
   * before it: a record whose forward is still under way when the tool stops is delivered again
   * after a restart, never skipped (at least once).
   */
  #acknowledge(id: string, recorded: Promise<void> = Promise.resolve()): void {
    this.#handled = id;
    const entry = { id, done: false };
    this.#unacknowledged.push(entry);
    void recorded.then(() => {
      entry.done = true;
      let last: string | null = null;
      while (this.#unacknowledged[0]?.done) last = this.#unacknowledged.shift()?.id ?? last;
      if (last === null) return;
      this.#cursor = last;
      this.options.cursor?.save(last);
    });
  }

  /**
   * Posts the local answer for a held sender. One the relay refuses (larger than it takes, say) is
   * reported, and replaced by a one-line 502 saying why: the sender hears at once, where it waited
   * for the relay's 504 before.
   */
  #postAnswer(id: string, answer: RelayAnswer, replaceIfRefused = true): void {
    const wire: RelayAnswerWire = {
      status: answer.status,
      headers: answer.headers.map(([name, value]) => [name, value]),
      body: answer.body.toString('base64'),
    };
    const sent = fetch(answerUrl(this.options.sendUrl, id), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${this.options.token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(wire),
      redirect: 'error',
      signal: AbortSignal.timeout(15_000),
    }).then(
      async (response) => {
        if (response.ok) {
          void response.body?.cancel();
          return;
        }
        // Printable ASCII only: it goes on a sender's status line as well as to the terminal.
        const why = `${response.status} ${await messageOf(response)}`
          .replace(/[^\x20-\x7e]/g, '?')
          .slice(0, 200);
        this.options.onAnswerFailed?.(id, `refused by the relay (${why})`);
        if (!replaceIfRefused) return;
        this.#postAnswer(
          id,
          {
            status: 502,
            headers: [['Content-Type', 'text/plain; charset=utf-8']],
            body: Buffer.from(`refused by the relay: the listener's answer (${why})\n`),
          },
          false,
        );
      },
      (error) => this.options.onAnswerFailed?.(id, `not delivered (${describe(error)})`),
    );
    this.#answers.add(sent);
    void sent.finally(() => this.#answers.delete(sent));
  }
}

/** Bounds of a relayed request's short fields (a client trusts the relay no more than a sender). */
const MAX_SHORT_TEXT = 1024;
const MAX_TARGET = 64 * 1024;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the bytes a request line cannot hold
const TARGET_CHARS = /^\/[^\u0000-\u0020\u007f\u0100-\uffff]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/**
 * How far a relay's timestamp may be from this clock: far beyond any clock skew or buffer age, and
 * short of what a Date cannot hold (a time past ±8.64e15 ms crashed --save and the UI).
 */
const MAX_CLOCK_DISTANCE_MS = 10 * 365.25 * 86_400_000;

type Refused = { readonly refused: string; readonly id?: string; readonly awaitsAnswer?: boolean };

/**
 * A `request` event checked field by field, as a sender's request would be: an HTTP token for the
 * method and every header name, header values Node can send (no control character but tab), a
 * target a request line can hold. Anything else is refused with the reason.
 */
function parseRequest(event: EventSourceMessage): RelayedRequest | Refused {
  if (!event.id || !EVENT_ID.test(event.id)) return { refused: 'the event id is not valid' };
  const id = event.id;
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.data);
  } catch {
    return { id, refused: 'the event is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { id, refused: 'the event is not a JSON object' };
  }
  const wire = parsed as RelayedRequestWire;
  const awaitsAnswer = wire.awaitsAnswer === true;
  const refuse = (reason: string): Refused => ({ id, awaitsAnswer, refused: reason });
  if (typeof wire.method !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/.test(wire.method)) {
    return refuse('method: must be an HTTP token');
  }
  if (
    typeof wire.target !== 'string' ||
    wire.target.length > MAX_TARGET ||
    !TARGET_CHARS.test(wire.target)
  ) {
    return refuse('target: must be a path as sent (no spaces or controls)');
  }
  if (!Array.isArray(wire.headers)) return refuse('headers: must be a list of [name, value]');
  for (const [index, pair] of (wire.headers as unknown[]).entries()) {
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      typeof pair[0] !== 'string' ||
      typeof pair[1] !== 'string'
    ) {
      return refuse(`headers[${index}]: must be [name, value]`);
    }
    const problem = headerProblem(pair[0], pair[1]);
    if (problem)
      return refuse(`headers[${index}] (${printable(pair[0].slice(0, 64))}): ${problem}`);
  }
  if (typeof wire.body !== 'string' || !BASE64.test(wire.body)) {
    return refuse('body: must be base64');
  }
  if (
    typeof wire.receivedAt !== 'number' ||
    !Number.isInteger(wire.receivedAt) ||
    Math.abs(wire.receivedAt - Date.now()) > MAX_CLOCK_DISTANCE_MS
  ) {
    return refuse('receivedAt: must be a time in ms within 10 years of this machine’s clock');
  }
  for (const key of ['remote', 'httpVersion'] as const) {
    if (typeof wire[key] !== 'string' || wire[key].length > MAX_SHORT_TEXT) {
      return refuse(`${key}: must be a short string`);
    }
  }
  return { id, wire, body: Buffer.from(wire.body, 'base64') };
}

/**
 * Bytes read of an answer that is not the event stream (a refusal, an error): enough for any
 * message the relay writes. The rest is not read: a hostile relay, or a proxy or a man in the
 * middle of an `http://` send URL, could send one without end.
 */
const ERROR_ANSWER_MAX_BYTES = 4096;

async function messageOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ERROR_ANSWER_MAX_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // An answer cut off says what it said so far.
  } finally {
    reader.cancel().catch(() => {});
  }
  const text = Buffer.concat(chunks).subarray(0, ERROR_ANSWER_MAX_BYTES).toString('utf8');
  return messageText(text);
}

function messageText(text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message.slice(0, 200);
  } catch {}
  return text.slice(0, 200);
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The cursor in a small file (one per channel), written at most every `intervalMs` and on `flush`:
 * after a crash at most that much is delivered twice, never lost. `onWriteFailure` hears of the
 * first write that fails (with its error code), once.
 */
export function fileCursor(
  path: string,
  intervalMs = 250,
  onWriteFailure: (code: string) => void = () => {},
): CursorStore {
  let latest: string | null = null;
  let written: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let failed = false;
  const write = () => {
    timer = null;
    if (latest === null || latest === written) return;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(`${path}.tmp`, `${latest}\n`, { mode: 0o600 });
      renameSync(`${path}.tmp`, path);
      written = latest;
    } catch (error) {
      // Capturing goes on, but without the file a restart sends no Last-Event-ID: the relay then
      // delivers everything its buffer still holds again (and it is forwarded again).
      if (!failed) {
        failed = true;
        onWriteFailure((error as NodeJS.ErrnoException).code ?? String(error));
      }
    }
  };
  return {
    load() {
      try {
        const text = readFileSync(path, 'utf8').trim();
        written = EVENT_ID.test(text) ? text : null;
        return written;
      } catch {
        return null;
      }
    },
    save(id) {
      latest = id;
      timer ??= setTimeout(write, intervalMs);
      timer.unref();
    },
    flush() {
      if (timer) clearTimeout(timer);
      write();
    },
  };
}
