import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { guardedLookup, hostOf, refusedAddress, type TargetPolicy } from './targets.js';

/** What one HTTP attempt came to (a row of `GET /webhooks/{id}/deliveries`). */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

/** The part of a receiver's answer kept with the attempt. */
export const RESPONSE_EXCERPT_BYTES = 512;

/** Control characters out of what is stored and shown (a receiver's body is anything). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const printable = (text: string) => text.replace(CONTROL, '?');

/**
 * POSTs one delivery. node:http with a `lookup` that refuses what the policy refuses and a check
 * of the address the socket actually connected to, so neither a name that now resolves to a
 * private address (DNS rebinding) nor an IP literal gets through; one deadline for the whole
 * exchange; at most RESPONSE_EXCERPT_BYTES of the answer read, the rest discarded. Redirects are
 * not followed (a 3xx is a failure): a redirect could point anywhere.
 */
export function postDelivery(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { policy: TargetPolicy; timeoutMs: number; agents: Agents },
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    // Set once the request is under way; a refusal before it has nothing to clear.
    let deadline: NodeJS.Timeout | undefined;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const failure = (error: string) =>
      finish({
        ok: false,
        statusCode: null,
        error: printable(error).slice(0, 500),
        responseExcerpt: null,
      });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      failure('invalid URL');
      return;
    }
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') {
      failure('not an http or https URL');
      return;
    }
    const host = hostOf(url);
    if (isIP(host) !== 0) {
      const problem = refusedAddress(host, options.policy);
      if (problem !== undefined) {
        failure(problem);
        return;
      }
    }
    const request = (secure ? https : http).request(url, {
      method: 'POST',
      agent: secure ? options.agents.https : options.agents.http,
      lookup: guardedLookup(options.policy),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'netops-inventory-webhooks/1',
      },
    });
    deadline = setTimeout(() => {
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('socket', (socket: Socket) => {
      const check = () => {
        const address = socket.remoteAddress;
        const problem = address ? refusedAddress(address, options.policy) : undefined;
        if (problem !== undefined) request.destroy(new Error(problem));
      };
      if (socket.connecting) socket.once('connect', check);
      else check();
    });
    request.on('error', (error) => failure(error.message));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_EXCERPT_BYTES) {
          chunks.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept));
          kept += Math.min(chunk.length, RESPONSE_EXCERPT_BYTES - kept);
        }
      });
      const done = () => {
        const status = response.statusCode ?? 0;
        const excerpt = printable(Buffer.concat(chunks).toString('utf8'));
        const ok = status >= 200 && status < 300;
        finish({
          ok,
          statusCode: status,
          error: ok ? null : `HTTP ${status}`,
          responseExcerpt: excerpt === '' ? null : excerpt,
        });
      };
      response.on('end', done);
      response.on('error', (error) => failure(error.message));
      response.on('aborted', () => failure('the answer was cut off'));
    });
    request.end(body);
  });
}

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

export function createAgents(): Agents {
  const options = { keepAlive: true, maxSockets: 16, timeout: 30_000 };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}
