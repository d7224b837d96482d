import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * PostgreSQL's LISTEN/NOTIFY, on both backends. What a subscriber needs to keep a cache exact:
 * every notification's payload, and to know when notifications may have been missed (the
 * listening connection is down) so that it stops trusting what it cached, and when they are
 * certain to arrive again.
 */
export interface NotificationHandlers {
  /** A notification on the channel, with its payload. */
  notification(payload: string): void;
  /**
   * The channel is listened to (at start, and again after a reconnection): every notification
   * committed from now on will arrive. Notifications sent while it was not may have been missed.
   */
  listening(): void;
  /** Notifications may be missed from now until the next `listening()`. */
  lost(error: Error): void;
}

export interface Subscription {
  /** Whether notifications are arriving now (between `listening()` and `lost()`). */
  readonly active: boolean;
  close(): Promise<void>;
}

export interface PostgresListenOptions {
  connectionString: string;
  connectTimeoutMs: number;
  /** Sends a notification on the channel through another connection (the pool). */
  notify(channel: string, payload: string): Promise<void>;
  /** How often the path from a NOTIFY to this listener is proven (see below). */
  heartbeatMs?: number;
  /** How long a heartbeat may take to come back before the connection is given up. */
  heartbeatTimeoutMs?: number;
  /** First and longest wait before reconnecting; the wait doubles in between. */
  retryMinMs?: number;
  retryMaxMs?: number;
}

/** Payloads starting with this are the subscriptions' own heartbeats, never handed on. */
const HEARTBEAT_PREFIX = 'heartbeat:';

/** Channel names are plain lower-case identifiers: no quoting, and the same on both backends. */
function checkChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) {
    throw new Error(`invalid notification channel name "${channel}"`);
  }
  return channel;
}

/**
 * One dedicated connection (not from the pool: a pooled connection is handed to other queries
 * and its LISTEN would be lost on release). The subscription counts as active only once a
 * notification sent through the pool has come back on it, and it proves that again every
 * `heartbeatMs`: a connection that ends, fails, or does not hear its heartbeat in time is
 * dropped (`lost()` at once) and replaced. So neither a silently broken network nor a proxy
 * that does not pass notifications on (a transaction-pooling PgBouncer) can leave a subscriber
 * trusting a cache that no longer hears of changes.
 */
export async function listenPostgres(
  channel: string,
  handlers: NotificationHandlers,
  options: PostgresListenOptions,
): Promise<Subscription> {
  checkChannel(channel);
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 2000;
  const retryMinMs = options.retryMinMs ?? 100;
  const retryMaxMs = options.retryMaxMs ?? 5000;
  /** Heartbeats of this subscription; other instances' heartbeats on the channel are ignored. */
  const ownHeartbeat = `${HEARTBEAT_PREFIX}${randomUUID()}:`;
  let client: pg.Client | undefined;
  let active = false;
  let closed = false;
  let retryMs = retryMinMs;
  let heartbeat: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let beat = 0;
  /** The heartbeat being waited for, if any. */
  let awaited: { payload: string; arrived: () => void } | undefined;

  const drop = (error: Error) => {
    const current = client;
    client = undefined;
    clearInterval(heartbeat);
    awaited = undefined;
    if (active) {
      active = false;
      handlers.lost(error);
    }
    current?.removeAllListeners('notification');
    // Errors of a connection being thrown away are of no interest any more.
    current?.on('error', () => {});
    current?.end().catch(() => {});
    if (!closed && retry === undefined) {
      retry = setTimeout(() => {
        retry = undefined;
        connect().catch(() => {});
      }, retryMs);
      retry.unref();
      retryMs = Math.min(retryMs * 2, retryMaxMs);
    }
  };

  /**
   * Sends a heartbeat through the pool and waits for it here; rejects when it does not come.
   * The wait is timed from the NOTIFY's commit: the time a busy pool takes to lend a connection
   * for it says nothing about this listener, and counting it switched the user cache off exactly
   * when the pool was saturated (the pool's own connect timeout bounds that part).
   */
  const proveDelivery = () =>
    new Promise<void>((resolve, reject) => {
      const payload = `${ownHeartbeat}${++beat}`;
      let timer: NodeJS.Timeout | undefined;
      const fail = (error: Error) => {
        clearTimeout(timer);
        if (awaited?.payload === payload) awaited = undefined;
        reject(error);
      };
      awaited = {
        payload,
        arrived: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      options.notify(channel, payload).then(() => {
        // Already here (a notification can overtake the answer to the statement that sent it)?
        if (awaited?.payload !== payload) return;
        timer = setTimeout(
          () =>
            fail(
              new Error(
                `notifications on "${channel}" did not arrive within ${heartbeatTimeoutMs} ms`,
              ),
            ),
          heartbeatTimeoutMs,
        );
      }, fail);
    });

  const connect = async () => {
    const next = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs,
      keepAlive: true,
    });
    client = next;
    next.on('error', (error) => {
      if (client === next) drop(error);
    });
    next.on('end', () => {
      if (client === next) drop(new Error('the notification connection ended'));
    });
    next.on('notification', (message) => {
      if (client !== next || message.channel !== channel) return;
      const payload = message.payload ?? '';
      if (payload.startsWith(HEARTBEAT_PREFIX)) {
        if (awaited?.payload === payload) {
          const { arrived } = awaited;
          awaited = undefined;
          arrived();
        }
        return;
      }
      handlers.notification(payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      await proveDelivery();
    } catch (error) {
      if (client === next) drop(error as Error);
      throw error;
    }
    if (client !== next || closed) return;
    retryMs = retryMinMs;
    active = true;
    handlers.listening();
    heartbeat = setInterval(() => {
      if (awaited !== undefined) return;
      proveDelivery().catch((error: Error) => client === next && drop(error));
    }, heartbeatMs);
    heartbeat.unref();
  };

  // The first connection must work: a start-up with a wrong URL, or through a proxy that does
  // not deliver notifications, fails loudly.
  try {
    await connect();
  } catch (error) {
    closed = true;
    clearTimeout(retry);
    throw error;
  }
  return {
    get active() {
      return active;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const current = client;
      client = undefined;
      active = false;
      await current?.end().catch(() => {});
    },
  };
}

/**
 * PGlite is one connection inside this process: every write goes through it, and it delivers
 * notifications as the statements that raise them complete, so the subscription never lapses.
 * `runOutsideTransactions` runs the LISTEN when no transaction holds the connection, which would
 * otherwise take the LISTEN in (and roll it back with) its own work.
 */
export async function listenPGlite(
  pglite: PGlite,
  channel: string,
  handlers: NotificationHandlers,
  runOutsideTransactions: <T>(work: () => Promise<T>) => Promise<T>,
): Promise<Subscription> {
  const unlisten = await runOutsideTransactions(() =>
    pglite.listen(checkChannel(channel), (payload) => handlers.notification(payload)),
  );
  let active = true;
  handlers.listening();
  return {
    get active() {
      return active;
    },
    async close() {
      if (!active) return;
      active = false;
      if (!pglite.closed) await runOutsideTransactions(() => unlisten());
    },
  };
}
