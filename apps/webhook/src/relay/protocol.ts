/**
 * What the relay and its clients say to each other. Plain HTTP both ways, so it passes through
 * any reverse proxy and load balancer that can stream (see the README's "Relay protocol"):
 *
 * - senders:   ANY  <base>/c/<channel>/<any path and query>          (no credentials)
 * - listeners: GET  <base>/api/channels/<channel>/events             (Server-Sent Events)
 *              Authorization: Bearer <listen token>, Last-Event-ID: <last event handled>
 * - answers:   POST <base>/api/channels/<channel>/events/<event>/answer   (wait-for-local channels)
 * - admin:     POST <base>/api/channels, POST …/<channel>/rotate, DELETE …/<channel>
 *              Authorization: Bearer <WEBHOOK_RELAY_ADMIN_TOKEN>
 *
 * Each relayed request is one SSE event `request` whose `id` is its place in the channel's buffer
 * and whose data is a `RelayedRequestWire` (JSON, the body in base64, header values as the bytes
 * that arrived). The relay interprets none of it.
 */

import { headerProblem } from '../capture/record.js';
import { HOP_BY_HOP_HEADERS } from '../forward/hop-by-hop.js';

/** Header pairs in arrival order, names as sent, values as binary strings (one char per byte). */
export type WireHeaders = [name: string, value: string][];

/** One request as the relay received it: nothing normalised, decoded or re-serialised. */
export interface RelayedRequestWire {
  /** When its headers arrived at the relay (ms since the epoch). */
  readonly receivedAt: number;
  readonly method: string;
  /** The request target after `/c/<channel>`: path and query exactly as sent (at least `/`). */
  readonly target: string;
  /** Every header in arrival order, names in their case, repeated ones kept (`req.rawHeaders`). */
  readonly headers: WireHeaders;
  /** The body bytes, base64. */
  readonly body: string;
  /** The sender's address and port as the relay saw it (the proxy's client when trusted). */
  readonly remote: string;
  readonly httpVersion: string;
  /** True when the sender is held until a listener posts the local answer (wait-for-local). */
  readonly awaitsAnswer: boolean;
}

/** The local result a listener posts back for a held sender. */
export interface RelayAnswerWire {
  readonly status: number;
  readonly headers: WireHeaders;
  /** base64 */
  readonly body: string;
}

/** The first event of every listener connection. */
export interface ReadyWire {
  readonly channel: string;
  readonly sendUrl: string;
  readonly waitForLocal: boolean;
}

/** Sent instead of events the buffer no longer holds (trimmed by count, bytes or age). */
export interface GapWire {
  /** The last event id the listener had; events after it up to `resumedAt` were dropped. */
  readonly after: string;
  readonly resumedAt: string | null;
}

/** Bytes of one event a client takes; a larger one is refused and passed over. */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;

/**
 * The largest body a relay may take (`relay serve --max-body`): in base64 (a third longer) with the
 * request's headers and target (64 KiB of header bytes, up to 6 characters each once in JSON) the
 * event still fits MAX_EVENT_BYTES.
 */
export const MAX_RELAY_BODY = 11 * 1024 * 1024;

/** A channel id: 16 random bytes, base64url (128 bits). */
export const CHANNEL_ID = /^[A-Za-z0-9_-]{22}$/;
/** Event ids: `17` (one relay) or a Redis stream id `1732550400000-0`. */
export const EVENT_ID = /^\d{1,20}(-\d{1,20})?$/;

export const SEND_PREFIX = '/c/';
export const API_PREFIX = '/api/channels';

/** The pieces of a send URL `https://relay.example[/prefix]/c/<id>`. */
export interface SendUrl {
  /** The relay's base URL, without a trailing slash (`https://relay.example/prefix`). */
  readonly base: string;
  readonly channel: string;
  /** The send URL as given, normalised (no trailing slash). */
  readonly href: string;
}

/** Parses a send URL; null when it is not `http(s)://host[/prefix]/c/<22-char id>`. */
export function parseSendUrl(text: string): SendUrl | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.search || url.hash || url.username || url.password) return null;
  const match = /^(.*)\/c\/([^/]+)\/?$/.exec(url.pathname);
  if (!match || !CHANNEL_ID.test(match[2] ?? '')) return null;
  const base = `${url.origin}${match[1] ?? ''}`;
  const channel = match[2] as string;
  return { base, channel, href: `${base}/c/${channel}` };
}

/**
 * Ports the Fetch standard blocks (its "bad port" list, which Node's fetch applies): a relay on
 * one can never be reached by a client, which would retry without end.
 */
const FETCH_BLOCKED_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/** The send URL's port when fetch refuses to connect to it, else null. */
export function blockedPort(url: SendUrl): number | null {
  const port = Number(new URL(url.base).port || 0);
  return FETCH_BLOCKED_PORTS.has(port) ? port : null;
}

export const eventsUrl = (url: SendUrl) => `${url.base}${API_PREFIX}/${url.channel}/events`;
export const answerUrl = (url: SendUrl, eventId: string) =>
  `${url.base}${API_PREFIX}/${url.channel}/events/${eventId}/answer`;

/**
 * What is wrong with a header of a channel's answer (`Name: what`), or null: a name that is not a
 * token, a value with a control character (Node would refuse to send either), or a header the
 * relay computes.
 */
export function answerHeaderProblem(name: string, value: string): string | null {
  // The relay computes these for every answer it writes.
  if (HOP_BY_HOP_HEADERS.has(name.toLowerCase()))
    return `${name}: is computed by the relay; remove it`;
  const problem = headerProblem(name, value);
  return problem ? `${name}: ${problem}` : null;
}
