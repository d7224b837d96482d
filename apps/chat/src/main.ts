import {
  describeListenError,
  findListenProblem,
  formatAddress,
  formatUsage,
  installGracefulShutdown,
  type LogOutput,
  openLogOutput,
  readCommandLine,
} from '@netops/service-runtime';
import { migrate, openStore, type Store } from '@netops/store';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { CHAT_VARIABLES, ConfigError, loadConfig } from './config.js';
import { type Database, MIGRATIONS } from './db/schema.js';

const USAGE = formatUsage({
  summary: "Chat login service: the chat platform's OAuth login (POST /api/v1/login) and sessions.",
  command: 'npm run chat   (node apps/chat/dist/main.js once built)',
  variables: CHAT_VARIABLES.map(({ name, help }) => [name, help] as const),
  docs: ['README: apps/chat/README.md (every variable, the services file, the demo provider)'],
});

async function main() {
  const command = readCommandLine(process.argv.slice(2));
  if (command.action === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command.action === 'refuse') fail(command.message, 2);

  const output = await openLogOutput();
  // Off a terminal every line is JSON (a log collector parses them all), in pino's shape.
  const note = (text: string, level = 30) =>
    output.print(output.pretty ? text : JSON.stringify({ level, time: Date.now(), msg: text }));
  // Quiet on a terminal: warnings and errors, not a line per request (LOG_LEVEL=info shows them).
  const config = loadConfig(process.env, process.cwd(), {
    logLevel: output.pretty ? 'warn' : 'info',
  });
  // A busy port is found before the store is opened, not after a first start's seconds.
  const portProblem = await findListenProblem(config.host, config.port);
  if (portProblem !== undefined) fail(portProblem);
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
    onPoolError: (error) => note(`database connection lost: ${error.message}`, 50),
    onCreate: () => note(`creating the embedded database in ${config.dataDir} (first start only)…`),
  });
  await migrate(store as Store<unknown>, MIGRATIONS);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', (error) => note(`redis: ${error.message}`, 50));

  const app = await buildApp(config, {
    store,
    ...(redis ? { redis } : {}),
    logger: {
      level: config.logLevel,
      redact: ['req.headers["x-auth-token"]', 'req.headers.authorization'],
      stream: output.stream,
    },
  });
  // SIGTERM/SIGINT: stop accepting, finish in-flight requests, close Redis and the database,
  // within a deadline; the log output gets a bounded moment to drain, so a reader that is gone
  // or stuck never holds the exit.
  installGracefulShutdown(app, {
    onClose: async () => {
      redis?.disconnect();
      await store.close();
    },
    exit: (code) => exitAfterFlush(output, code),
  });

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const message = describeListenError(error, config.host, config.port);
    if (message === undefined) throw error;
    await app.close();
    redis?.disconnect();
    await store.close();
    fail(message);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  note(`chat login service on http://${formatAddress(config.host, port)}`);
  note(`storage: ${store.description}${redis ? '; rate limits in Redis' : ''}`);
}

function exitAfterFlush(output: LogOutput, code: number): void {
  void output.flush(1000).then(() => process.exit(code));
}

function fail(message: string, code = 1): never {
  // A refusal to start is one plain line on stderr; stdout (the log stream) stays JSON.
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`configuration error: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
