import type { Store } from '@netops/store';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { WebhookConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import { SecretSealer } from '../resources/sealing.js';
import { webhookDeliveryRoutes } from './routes.js';
import { checkTargetUrl } from './targets.js';
import { DEFAULT_WEBHOOK_SETTINGS, WEBHOOK_CHANNEL, WebhookWorker } from './worker.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Other instances hear of new deliveries at most this late (or at their next poll). */
const NOTIFY_DEBOUNCE_MS = 100;

/**
 * Outbound webhooks: the sealing of their secrets and the URL policy the generic
 * resource routes apply to `/webhooks`, the deliveries routes, and this instance's worker
 * (started once the app is ready, stopped when it closes: graceful shutdown waits for the
 * deliveries in flight). Without `config` (tests that do not exercise webhooks) no worker runs.
 */
export function webhookServices(config: WebhookConfig | undefined, jwtSecret: string) {
  const settings = { ...DEFAULT_WEBHOOK_SETTINGS, ...config };
  const sealer = new SecretSealer(config?.secretKey ?? jwtSecret);
  return {
    settings,
    sealer,
    checkOutboundUrl: (url: string) => checkTargetUrl(url, settings),
  };
}

export async function registerWebhooks(
  app: FastifyInstance,
  options: {
    store: Store<Database>;
    config: WebhookConfig | undefined;
    services: ReturnType<typeof webhookServices>;
  },
): Promise<WebhookWorker | undefined> {
  const db = options.store.db;
  const { settings, sealer } = options.services;
  const worker =
    options.config?.workerEnabled === true
      ? new WebhookWorker({ db, sealer, settings, log: app.log })
      : undefined;
  await app.register(webhookDeliveryRoutes, {
    prefix: '/webhooks',
    db,
    wake: () => worker?.wake(),
  });
  // A successful write may have queued deliveries (the trigger cannot say so cheaply, see
  // migration 013): this instance's worker is woken at once, the other instances sharing
  // PostgreSQL by a NOTIFY sent at most every NOTIFY_DEBOUNCE_MS outside any write.
  let notifyTimer: NodeJS.Timeout | undefined;
  const notifyOthers = () => {
    if (options.store.kind !== 'postgres' || notifyTimer !== undefined) return;
    notifyTimer = setTimeout(() => {
      notifyTimer = undefined;
      sql`SELECT pg_notify(${WEBHOOK_CHANNEL}, '')`.execute(db).catch(() => {});
    }, NOTIFY_DEBOUNCE_MS);
    notifyTimer.unref();
  };
  app.addHook('onResponse', async (request, reply) => {
    if (!WRITE_METHODS.has(request.method) || reply.statusCode >= 300) return;
    worker?.wake();
    notifyOthers();
  });
  app.addHook('onClose', async () => clearTimeout(notifyTimer));
  if (worker) {
    app.addHook('onReady', async () => {
      await worker.start(
        (handlers) =>
          options.store.listen(WEBHOOK_CHANNEL, {
            notification: handlers.notification,
            listening: handlers.listening,
            lost: handlers.lost,
          }),
        options.store.kind !== 'postgres',
      );
    });
    app.addHook('onClose', () => worker.stop());
  }
  return worker;
}
