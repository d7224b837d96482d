import type { HeaderPairs } from '../config/types.js';

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), and `Content-Length`,
 * which each hop computes from the body it sends: never passed from one connection to the next.
 * The forwarder, the answer given back with `--respond-with-forward` and the relay's answers to
 * senders all drop them.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
]);

/** The headers a message's own `Connection` names (`Connection: close, X-Hop`): its hop's too. */
export function namedByConnection(headers: HeaderPairs): Set<string> {
  const named = new Set<string>();
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'connection') continue;
    for (const token of value.split(',')) named.add(token.trim().toLowerCase());
  }
  return named;
}

/** The headers meant for the message's recipient, in order: no header of the connection's. */
export function endToEndHeaders(headers: HeaderPairs): HeaderPairs {
  const named = namedByConnection(headers);
  return headers.filter(([name]) => {
    const lower = name.toLowerCase();
    return !HOP_BY_HOP_HEADERS.has(lower) && !named.has(lower);
  });
}
