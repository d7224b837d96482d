import type { Writable } from 'node:stream';
import { CliError } from '../errors.js';
import { printable } from '../format/printable.js';
import { onExit, onSignalShutdown } from '../lifecycle.js';
import { RELAY_HELP, type RelayCommand, type RelayServerConfig } from './config.js';
import { API_PREFIX, parseSendUrl } from './protocol.js';
import { LISTEN_TOKEN } from './secrets.js';
import { buildRelay } from './server.js';
import { MemoryRelayStore, type RelayStore } from './store.js';

/** `webhook relay …`: serve, or one admin call. */
export async function runRelayCommand(
  command: RelayCommand,
  stdout: Writable,
  stderr: Writable,
): Promise<void> {
  switch (command.kind) {
    case 'relay-help':
      stdout.write(RELAY_HELP);
      return;
    case 'relay-serve':
      await serveRelay(command.config, stdout, stderr);
      return;
    default:
      await adminCall(command, stdout);
  }
}

const MEMORY_STORE_WARNING =
  'in-memory store: a restart loses every channel, token and buffered event (set REDIS_URL to keep them)';

async function openStore(config: RelayServerConfig): Promise<RelayStore> {
  if (!config.redisUrl) {
    return new MemoryRelayStore(config.limits.buffer, config.limits.maxBufferedBytes);
  }
  const { RedisRelayStore } = await import('./redis-store.js');
  return RedisRelayStore.connect(config.redisUrl, config.limits.buffer);
}

async function serveRelay(config: RelayServerConfig, stdout: Writable, stderr: Writable) {
  const store = await openStore(config);
  const app = await buildRelay(config, { store, logStream: stdout });
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await store.close();
    throw new CliError(
      `relay: cannot listen on ${config.host}:${config.port} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      1,
    );
  }
  // Stopped by a signal: this relay's listeners leave Redis at once (they counted against
  // --max-listeners for 30 s more, refusing the same clients reconnecting to another relay).
  onSignalShutdown(() => store.close());
  onExit(() => {
    void app.close().then(() => store.close());
  });
  const address = app.server.address();
  const where = address && typeof address === 'object' ? `${address.address}:${address.port}` : '';
  if (!config.redisUrl) {
    // Said at every start: clients of a restarted relay found their channels gone without a word.
    app.log.warn({ store: 'memory' }, MEMORY_STORE_WARNING);
    stderr.write(`webhook relay: warning: ${MEMORY_STORE_WARNING}\n`);
  }
  stderr.write(
    `webhook relay: listening on ${config.tls ? 'https' : 'http'}://${where} (${config.redisUrl ? 'redis' : 'in-memory'} store)\n`,
  );
}

type AdminCommand = Exclude<RelayCommand, { kind: 'relay-help' | 'relay-serve' }>;

async function adminCall(command: AdminCommand, stdout: Writable): Promise<void> {
  const headers: Record<string, string> = { Authorization: `Bearer ${command.adminToken}` };
  let url = `${command.server}${API_PREFIX}`;
  let method = 'POST';
  let body: string | undefined;
  if (command.kind === 'relay-create') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify({
      waitForLocal: command.waitForLocal,
      ...(Object.keys(command.response).length > 0 ? { response: command.response } : {}),
    });
  } else {
    url += `/${command.channel}${command.kind === 'relay-rotate' ? '/rotate' : ''}`;
    method = command.kind === 'relay-rotate' ? 'POST' : 'DELETE';
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      ...(body ? { body } : {}),
      // The call carries the admin token: a redirect elsewhere must not take it along.
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new CliError(`relay: cannot reach ${command.server} (${cause})`, 1);
  }
  const text = await response.text().catch(() => '');
  if (response.status >= 300 && response.status < 400) {
    const location = (response.headers.get('location') ?? '').slice(0, 200);
    throw new CliError(
      `relay: ${command.server} answered ${response.status}, a redirect${location ? ` to ${location}` : ''}; ` +
        'admin calls never follow one (they carry the admin token): give --server the address the relay answers on',
      1,
    );
  }
  if (!response.ok) {
    let message = text.slice(0, 500);
    try {
      message = (JSON.parse(text) as { message: string }).message ?? message;
    } catch {}
    throw new CliError(`relay: ${response.status} ${message}`, 1);
  }
  if (command.kind === 'relay-delete') {
    if (command.json) stdout.write(`${JSON.stringify({ deleted: command.channel })}\n`);
    else stdout.write(`deleted channel ${command.channel}\n`);
    return;
  }
  const created = channelReply(command.server, response.status, text);
  if (command.json) {
    stdout.write(`${JSON.stringify(created)}\n`);
    return;
  }
  // Checked to be printable ASCII already; printed through the one filter all the same.
  const sendUrl = printable(created.sendUrl);
  stdout.write(
    `send URL:     ${sendUrl}\n` +
      `listen token: ${printable(created.token)}\n\n` +
      'Give the send URL to the sender (GitHub, Stripe…). Keep the token secret; listen with:\n' +
      `  WEBHOOK_RELAY_TOKEN=<token> webhook --relay ${sendUrl}\n` +
      '(or relay: {url: …, token: …} in config.yaml). The relay stores only a hash of it.\n',
  );
}

/**
 * The send URL and token of a `create` or `rotate` reply, checked before anything is printed: the
 * relay is outside data like any other, and what it says goes to a terminal and into shell
 * commands. A send URL is one `--relay` takes, written as it normalises it (printable ASCII only);
 * a token is one the relay makes.
 */
function channelReply(server: string, status: number, text: string) {
  const refuse = (what: string) =>
    new CliError(`relay: ${server} answered ${status}, but ${what}; nothing was printed`, 1);
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    throw refuse('its reply is not JSON');
  }
  const { sendUrl, token } = (typeof reply === 'object' && reply !== null ? reply : {}) as {
    sendUrl?: unknown;
    token?: unknown;
  };
  if (
    typeof sendUrl !== 'string' ||
    !/^[\x21-\x7e]+$/.test(sendUrl) ||
    parseSendUrl(sendUrl)?.href !== sendUrl
  ) {
    throw refuse('the send URL in its reply is not a send URL (http(s)://host/c/<channel id>)');
  }
  if (typeof token !== 'string' || !LISTEN_TOKEN.test(token)) {
    throw refuse('the token in its reply is not a listen token (whr_ and 43 characters)');
  }
  return { sendUrl, token };
}
