import type { Server } from 'node:http';
import { createCaptureServer, formatAddress, listen } from './capture/server.js';
import { RequestStore } from './capture/store.js';
import type { AppConfig } from './config/types.js';
import { createResponder } from './respond/routes.js';

export interface RunningCapture {
  readonly store: RequestStore;
  readonly server: Server;
  /** `http://127.0.0.1:9080`, with the real port when 0 was asked for. */
  readonly address: string;
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
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
