import {
  formatAddress,
  type LogOutput,
  type ServiceDefinition,
  StartRefusal,
} from '@netops/service-runtime';
import {
  embeddedUpkeepNotes,
  migrate,
  openStore,
  readServerUpkeepWarning,
  type Store,
  StoreOpenError,
} from '@netops/store';
import type { FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { type AppConfig, CHAT_VARIABLES, loadConfig, withChosenPort } from './config.js';
import { type Database, MIGRATIONS } from './db/schema.js';

/**
 * A request URL as logged: the path, and each query parameter's name without its value. The
 * OAuth redirect's return carries the provider's authorization code and the flow's state (whose
 * credentialToken is half of a pending credential); no query parameter of this service is worth
 * a secret in the log.
 */
export function loggedUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const names = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => (pair.includes('=') ? `${pair.slice(0, pair.indexOf('='))}=…` : pair));
  return `${url.slice(0, mark)}?${names.join('&')}`;
}

/** The service's logger: Fastify's request fields, with the URL's query values left out. */
export function chatLogger(level: string, stream: LogOutput['stream']) {
  return {
    level,
    redact: ['req.headers["x-auth-token"]', 'req.headers.authorization'],
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggedUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    stream,
  };
}

/**
 * The chat login service as the platform's runService starts it (main.ts): its --help, its
 * configuration, and what it opens (the store, Redis when REDIS_URL is set) and closes again.
 */
export const chatService: ServiceDefinition<AppConfig> = {
  usage: {
    summary:
      "Chat login service: the chat platform's OAuth login (POST /api/v1/login) and sessions.",
    command: 'npm run chat   (node apps/chat/dist/main.js once built)',
    docs: ['README: apps/chat/README.md (every variable, the services file, the demo provider)'],
  },
  variables: CHAT_VARIABLES,
  // PORT=0 without ROOT_URL: the free port is chosen now, so the default ROOT_URL names it.
  configure: (env, logLevel) => withChosenPort(loadConfig(env, process.cwd(), { logLevel }), env),

  async start(config, { output, note, fail }) {
    const services = config.services.map((service) => `${service.name} (${service.type})`);
    note(
      services.length > 0
        ? `services from ${config.servicesSource}: ${services.join(', ')}`
        : `no services configured (${config.servicesSource})`,
    );
    const store = await openStore<Database>({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      durable: config.embeddedDurability ?? true,
      sharedBuffersMb: config.embeddedSharedBuffersMb,
      onPoolError: (error) => note(`database connection lost: ${error.message}`, 50),
      ...embeddedUpkeepNotes(note),
      // The embedded PostgreSQL failed past recovery (a PANIC: a WAL write on a full disk):
      // exit 1 to be restarted, which recovers every committed write, instead of going on.
      onFailure: (error) => fail(error.message),
      onCreate: () =>
        note(`creating the embedded database in ${config.dataDir} (first start only)…`),
    }).catch((error: unknown) => {
      // DATA_DIR held by another process, or not a database: one line, without a stack.
      throw error instanceof StoreOpenError ? new StartRefusal(error.message) : error;
    });
    // A database a newer release migrated is refused in one line (NewerSchemaError); an
    // upgrade says what it applies, and how long it took.
    // The store is closed before the refusal: its embedded PostgreSQL, its folder's lock and its
    // maintenance timers would otherwise outlive a start that goes no further.
    await migrate(store as Store<unknown>, MIGRATIONS, { announce: (line) => note(line) }).catch(
      async (error: unknown) => {
        await store.close().catch(() => {});
        throw error instanceof StoreOpenError ? new StartRefusal(error.message) : error;
      },
    );
    const upkeepWarning = await readServerUpkeepWarning(store.db, store.kind);
    if (upkeepWarning) note(upkeepWarning, 40);
    const redis = config.redisUrl
      ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
      : undefined;
    redis?.on('error', (error) => note(`redis: ${error.message}`, 50));
    const closeConnections = async () => {
      redis?.disconnect();
      await store.close();
    };
    try {
      const app = await buildApp(config, {
        store,
        ...(redis ? { redis } : {}),
        logger: chatLogger(config.logLevel, output.stream),
      });
      return {
        app,
        close: closeConnections,
        announce({ port }) {
          note(`chat login service on http://${formatAddress(config.host, port)}`);
          note(`storage: ${store.description}${redis ? '; rate limits in Redis' : ''}`);
        },
      };
    } catch (error) {
      await closeConnections();
      throw error;
    }
  },
};
