import type { Static, TSchema } from 'typebox';
import { ChatError, invalidCredentials, providerTimeout, providerUnavailable } from '../errors.js';
import { describeSchemaErrors, validatorFor } from '../validation.js';

export interface ProviderHttpOptions {
  /** Largest answer read, in bytes; a bigger one is cut off and refused. */
  maxBytes: number;
  /** Injected in tests and the benchmark; the global fetch otherwise. */
  fetch?: typeof fetch;
  userAgent?: string;
}

export interface ProviderRequest<T extends TSchema> {
  url: string | URL;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: URLSearchParams | string;
  /** The shape of a successful (2xx) answer. */
  schema: T;
  /** Whether a non-2xx answer means "these credentials are refused" (401); default: 401 and 403. */
  isRefusal?: (status: number, body: unknown) => boolean;
  /** What a refusal refused, as its message says: `the authorization code` (default: `the credentials`). */
  refused?: string;
}

/**
 * Runs provider calls in parallel under one signal; when one fails the others are aborted at once
 * rather than left running until the timeout.
 */
export async function inParallel<T extends readonly unknown[]>(
  signal: AbortSignal,
  calls: (signal: AbortSignal) => { [K in keyof T]: Promise<T[K]> },
): Promise<T> {
  const siblings = new AbortController();
  const shared = AbortSignal.any([signal, siblings.signal]);
  try {
    return (await Promise.all(calls(shared))) as unknown as T;
  } finally {
    siblings.abort();
  }
}

const defaultRefusal = (status: number) => status === 401 || status === 403;

/** A TimeoutError from AbortSignal.timeout, wherever it surfaces (fetch, body stream). */
const isTimeout = (signal: AbortSignal) =>
  signal.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError';

/**
 * The one way provider modules talk HTTP. Whatever the provider does, the outcome is a validated
 * value or a ChatError: refusal -> 401, redirect, 5xx, reset, garbage, wrong shape or oversize
 * body -> 502, the caller's signal timing out -> 504. Redirects are never followed (a provider API
 * does not redirect; following would allow loops and requests to places nobody configured).
 */
export class ProviderHttp {
  readonly #fetch: typeof fetch;
  readonly #maxBytes: number;
  readonly #userAgent: string;

  constructor(options: ProviderHttpOptions) {
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#maxBytes = options.maxBytes;
    this.#userAgent = options.userAgent ?? 'netops-chat-login/1.0';
  }

  /** Sends the request and returns the validated JSON of a 2xx answer. */
  async json<T extends TSchema>(
    provider: string,
    request: ProviderRequest<T>,
    signal: AbortSignal,
  ): Promise<Static<T>> {
    const { status, body } = await this.exchange(provider, request, signal);
    return this.#interpret(provider, request, status, body);
  }

  /** Like `json`, but an answer with a status in `absentOn` means "nothing there": undefined. */
  async optionalJson<T extends TSchema>(
    provider: string,
    request: ProviderRequest<T>,
    absentOn: readonly number[],
    signal: AbortSignal,
  ): Promise<Static<T> | undefined> {
    const { status, body } = await this.exchange(provider, request, signal);
    if (absentOn.includes(status)) return undefined;
    return this.#interpret(provider, request, status, body);
  }

  #interpret<T extends TSchema>(
    provider: string,
    request: ProviderRequest<T>,
    status: number,
    body: unknown,
  ): Static<T> {
    if (status < 200 || status > 299) {
      if ((request.isRefusal ?? defaultRefusal)(status, body)) {
        throw invalidCredentials(
          `The identity provider "${provider}" refused ${request.refused ?? 'the credentials'}`,
        );
      }
      throw providerUnavailable(`The identity provider "${provider}" answered HTTP ${status}`);
    }
    const validator = validatorFor(request.schema);
    if (!validator.Check(body)) {
      const problem = describeSchemaErrors(validator.Errors(body), 'answer');
      throw providerUnavailable(
        `The identity provider "${provider}" sent an unusable answer (${problem})`,
      );
    }
    return body as Static<T>;
  }

  /** Status and parsed JSON body (undefined when the body is empty) of any answer but a redirect. */
  async exchange(
    provider: string,
    request: Omit<ProviderRequest<TSchema>, 'schema'>,
    signal: AbortSignal,
  ): Promise<{ status: number; body: unknown }> {
    try {
      const response = await this.#fetch(request.url, {
        method: request.method ?? 'GET',
        headers: { accept: 'application/json', 'user-agent': this.#userAgent, ...request.headers },
        ...(request.body !== undefined ? { body: request.body } : {}),
        redirect: 'manual',
        signal,
      });
      if (response.status >= 300 && response.status <= 399) {
        await response.body?.cancel().catch(() => {});
        throw providerUnavailable(
          `The identity provider "${provider}" answered with a redirect (HTTP ${response.status})`,
        );
      }
      const text = await this.#readCapped(provider, response);
      if (text.trim() === '') return { status: response.status, body: undefined };
      try {
        return { status: response.status, body: JSON.parse(text) as unknown };
      } catch {
        // A refusal page in HTML is still a refusal; a 2xx that is not JSON is unusable.
        if (response.status >= 400) return { status: response.status, body: undefined };
        throw providerUnavailable(
          `The identity provider "${provider}" sent an answer that is not JSON`,
        );
      }
    } catch (error) {
      if (error instanceof ChatError) throw error;
      if (isTimeout(signal)) throw providerTimeout(provider);
      throw providerUnavailable(`The identity provider "${provider}" cannot be reached`);
    }
  }

  async #readCapped(provider: string, response: Response): Promise<string> {
    const tooBig = () =>
      providerUnavailable(
        `The identity provider "${provider}" sent an answer larger than ${this.#maxBytes} bytes`,
      );
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > this.#maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw tooBig();
    }
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > this.#maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooBig();
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}
