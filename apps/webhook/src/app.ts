import type { Server } from 'node:http';
import type { CapturedRequest } from './capture/record.js';
import { createCaptureServer, formatAddress, listen } from './capture/server.js';
import { RequestStore } from './capture/store.js';
import type { AppConfig } from './config/types.js';
import type { ReplayEdits } from './replay/replay.js';
import { createResponder } from './respond/routes.js';

/** What the UI asks for a replay (`r`, or `e` with edits). */
export interface ReplayRequest {
  /** A base URL typed by the user; absent: the record's forward target, else `--replay-to`. */
  readonly to?: string;
  readonly edits?: ReplayEdits;
  /** Re-sign when the record's route (or the config) names a scheme and secret; default true. */
  readonly resign?: boolean;
}

export interface RunningCapture {
  readonly store: RequestStore;
  readonly server: Server;
  /** `http://127.0.0.1:9080`, with the real port when 0 was asked for. */
  readonly address: string;
  /**
   * Where `r` sends `record` without asking: its route's forward target, else `--forward-to`,
   * else `--replay-to`; null when none is set (the UI then asks for a URL).
   */
  replayTarget(record: CapturedRequest): string | null;
  /**
   * Replays `record` (to `request.to`, else `replayTarget`), re-signed when a scheme applies, and
   * adds the new record, linked by `replayOf`, to the store; resolves with it once the target has
   * answered or failed. Rejects only when there is nowhere to send it.
   */
  replay(record: CapturedRequest, request?: ReplayRequest): Promise<CapturedRequest>;
  close(): Promise<void>;
}

/** Starts capturing: the store, the responder and a listening server. */
export async function startCapture(config: AppConfig): Promise<RunningCapture> {
  const store = new RequestStore(config.limits);
  const server = createCaptureServer({
    store,
    respond: createResponder(config.defaultResponse, config.routes),
    maxBody: config.limits.maxBody,
    timeouts: config.timeouts,
  });
  const address = await listen(server, config.host, config.port);
  return {
    store,
    server,
    address: `http://${formatAddress(address.address, address.port)}`,
    replayTarget: () => {
      throw new Error('not implemented');
    },
    replay: () => Promise.reject(new Error('not implemented')),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
