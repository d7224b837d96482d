import { migrate, openStore, type Store } from '@netops/store';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { type Database, MIGRATIONS } from './db/schema.js';

async function main() {
  const config = loadConfig();
  const services = config.services.map((service) => `${service.name} (${service.type})`);
  console.log(
    services.length > 0
      ? `services from ${config.servicesSource}: ${services.join(', ')}`
      : `no services configured (${config.servicesSource})`,
  );
  const store = await openStore<Database>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onPoolError: (error) => console.error(`database connection lost: ${error.message}`),
  });
  await migrate(store as Store<unknown>, MIGRATIONS);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', (error) => console.error(`redis: ${error.message}`));

  const app = await buildApp(config, {
    store,
    ...(redis ? { redis } : {}),
    logger: {
      level: config.logLevel,
      redact: ['req.headers["x-auth-token"]', 'req.headers.authorization'],
    },
  });
  const shutdown = async () => {
    await app.close();
    redis?.disconnect();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(
    `chat login service on http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
  );
  console.log(`storage: ${store.description}${redis ? '; rate limits in Redis' : ''}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`configuration error: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
