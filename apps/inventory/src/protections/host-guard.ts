import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

/**
 * Which `Host` values the API answers (ALLOWED_HOSTS, README "Protections"). DNS rebinding
 * works through a name the attacker controls and points at the API's address: the
 * victim's browser then sends `Host: rebind.attacker.example` and, for the page's own origin,
 * an `Origin` that matches it, so the origin guard alone lets the page call the API. Refusing
 * host names nobody configured closes that; IP literals and `localhost` can never be an
 * attacker's name, so they are always served.
 */
export interface AllowedHosts {
  /** `ALLOWED_HOSTS=*`: every Host is served (a proxy in front checks it). */
  any: boolean;
  /** Names (lower case, no trailing dot) and the port they must come with, if any. */
  names: readonly HostPattern[];
}

export interface HostPattern {
  /** `example.com`, or `.example.com` for that domain and every name under it. */
  name: string;
  port: number | undefined;
}

export const HOST_NOT_ALLOWED = 'Misdirected request: unknown Host';

export const DEFAULT_ALLOWED_HOSTS: AllowedHosts = { any: false, names: [] };

/** A host as written in a Host header or a URL's authority: name (or IP) and port. */
interface ParsedHost {
  name: string;
  port: number | undefined;
}

/**
 * `name`, `name:port`, `[IPv6]` or `[IPv6]:port` (RFC 9110 §7.2); lower-cased, one trailing dot
 * (the DNS root: `localhost.` is `localhost`) removed. Undefined when malformed (a bare IPv6
 * address, userinfo, a port that is not a number).
 */
export function parseHost(text: string): ParsedHost | undefined {
  let name: string;
  let portText: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return undefined;
    name = text.slice(1, close);
    if (isIP(name) !== 6) return undefined;
    const rest = text.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return undefined;
    portText = rest === '' ? undefined : rest.slice(1);
  } else {
    const colon = text.indexOf(':');
    if (colon !== text.lastIndexOf(':')) return undefined;
    name = colon < 0 ? text : text.slice(0, colon);
    portText = colon < 0 ? undefined : text.slice(colon + 1);
    if (!/^[A-Za-z0-9._-]+$/.test(name)) return undefined;
  }
  if (portText !== undefined && !/^[0-9]{1,5}$/.test(portText)) return undefined;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && port > 65_535) return undefined;
  name = name.toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '' || name.endsWith('.')) return undefined;
  return { name, port };
}

/** Names that only ever reach this machine or a literal address: never a rebinding name. */
function alwaysServed(name: string): boolean {
  return isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost');
}

function matches(pattern: HostPattern, host: ParsedHost): boolean {
  if (pattern.port !== undefined && pattern.port !== host.port) return false;
  if (pattern.name.startsWith('.')) {
    return host.name === pattern.name.slice(1) || host.name.endsWith(pattern.name);
  }
  return host.name === pattern.name;
}

/** Whether a request naming `hostText` (a Host header or a URL's authority) is served. */
export function isHostAllowed(hostText: string | undefined, allowed: AllowedHosts): boolean {
  // No Host at all: an HTTP/1.0 client (Node requires Host of HTTP/1.1 requests); browsers
  // always send one, so it cannot be a page on a rebinding name.
  if (allowed.any || hostText === undefined || hostText === '') return true;
  const host = parseHost(hostText);
  if (host === undefined) return false;
  return alwaysServed(host.name) || allowed.names.some((pattern) => matches(pattern, host));
}

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/;

/**
 * The host the request is for: the authority of an absolute-form target
 * (`GET http://host/path HTTP/1.1`), which RFC 9112 §3.2.2 says replaces Host, otherwise Host
 * (or X-Forwarded-Host from a proxy named in TRUST_PROXY: Fastify's `request.host`).
 */
function requestedHost(request: FastifyRequest): string | undefined {
  const absolute = ABSOLUTE_FORM.exec(request.raw.url ?? '');
  if (absolute) return absolute[1] ?? '';
  return request.host as string | undefined;
}

/**
 * 421 Misdirected Request for a Host the API does not serve (RFC 9110 §15.5.20: "directed at a
 * server that is unable or unwilling to produce an authoritative response for the target
 * URI"), in the error shape, before the origin guard and anything else that trusts the host.
 */
export const hostGuard = fp<{ allowed: AllowedHosts }>(
  async (app, { allowed }) => {
    app.addHook('onRequest', (request, _reply, done) => {
      if (isHostAllowed(requestedHost(request), allowed)) done();
      else done(new ApiError(421, HOST_NOT_ALLOWED));
    });
  },
  { name: 'inventory-protections/host-guard', fastify: '5.x' },
);
