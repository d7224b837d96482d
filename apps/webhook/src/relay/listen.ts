import type { RunningCapture } from '../app.js';
import { splitTarget } from '../capture/record.js';
import type { RelaySettings } from '../config/types.js';
import { type RelayClient as Client, fileCursor, RelayClient, type RelayState } from './client.js';
import { type GapWire, parseSendUrl } from './protocol.js';

/**
 * Receives a relay channel into a running capture: each relayed request becomes a draft exactly
 * as the relay recorded it (method, target, headers in order and case, body bytes), marked with
 * the send URL and the sender's address, and goes through the same pipeline as a local request;
 * its answer goes back to a sender the relay holds (wait-for-local).
 */
export function startRelayListener(
  settings: RelaySettings,
  capture: Pick<RunningCapture, 'inject'>,
  maxBody: number,
  onState: (state: RelayState) => void,
  onGap: (gap: GapWire) => void = () => {},
  onRefusedEvent: (id: string, reason: string) => void = () => {},
  onWarning: (warning: string) => void = () => {},
  onAnswerFailed: (id: string, reason: string) => void = () => {},
): Client {
  const sendUrl = parseSendUrl(settings.sendUrl);
  if (!sendUrl) throw new Error(`not a relay send URL: ${settings.sendUrl}`);
  const client = new RelayClient({
    sendUrl,
    token: settings.token,
    cursor: fileCursor(settings.cursorFile, undefined, (code) =>
      onWarning(
        `cannot write the cursor file ${settings.cursorFile} (${code}): a restart delivers ` +
          'every event the relay still buffers again (and forwards it again); make its folder ' +
          'writable or set XDG_STATE_HOME',
      ),
    ),
    onState,
    onGap,
    onRefusedEvent,
    onAnswerFailed,
    async deliver({ wire, body }) {
      const { path, query } = splitTarget(wire.target);
      const kept = body.length > maxBody ? body.subarray(0, maxBody) : body;
      const { answer, recorded } = await capture.inject({
        receivedAt: wire.receivedAt,
        method: wire.method,
        target: wire.target,
        path,
        url: `${sendUrl.href}${wire.target}`,
        query,
        headers: wire.headers,
        body: kept,
        size: body.length,
        truncated: kept.length < body.length,
        remote: wire.remote,
        httpVersion: wire.httpVersion,
        relayedVia: sendUrl.href,
      });
      return { answer, recorded: recorded.then(() => undefined) };
    },
  });
  client.start();
  return client;
}

/** `relay: connected`, `relay: reconnecting in 4 s (ECONNREFUSED)`, `relay: refused (401 …)`. */
export function relayStateText(state: RelayState): string {
  switch (state.kind) {
    case 'connecting':
      return 'relay: connecting';
    case 'connected':
      return 'relay: connected';
    case 'reconnecting':
      return `relay: reconnecting in ${Math.ceil(state.retryInMs / 1000)} s (${state.reason})`;
    case 'refused':
      return `relay: refused (${state.reason})`;
    case 'stopped':
      return 'relay: stopped';
  }
}
