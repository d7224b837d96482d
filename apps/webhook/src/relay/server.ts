import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
  validateHeaderName,
  validateHeaderValue,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { Type } from 'typebox';
import { answerBeforeRefusing, type ClientErrorHandler } from '../capture/client-errors.js';
import { formatAddress } from '../capture/server.js';
import { endToEndHeaders } from '../forward/hop-by-hop.js';
import { withContentTypeFromBody } from '../respond/routes.js';
import type { RelayServerConfig } from './config.js';
import {
  API_PREFIX,
  answerHeaderProblem,
  CHANNEL_ID,
  EVENT_ID,
  type GapWire,
  type ReadyWire,
  type RelayAnswerWire,
  type RelayedRequestWire,
  SEND_PREFIX,
  type WireHeaders,
} from './protocol.js';
import { RateLimiter } from './rate.js';
import { bearerToken, hashToken, newChannelId, newListenToken, tokenMatches } from './secrets.js';
import type { Channel, ChannelResponse, RelayStore } from './store.js';

/** Bytes of a request body to the relay's API but a listener's answer (see `bodyLimit`). */
export const API_BODY_LIMIT = 64 * 1024;

/** Every refusal of the relay's API: a status and a message, rendered by one handler. */
export class RelayError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The store rejected (Redis restarting, failing over, out of reach): see `guardStore`. */
class StoreUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super('store unavailable');
  }
}

/**
 * Anything thrown, as the RelayError rendered: Fastify's 4xx keep their status, the store
 * failing is 503 (try again), the rest is 500.
 */
function toRelayError(error: FastifyError | RelayError | StoreUnavailable): RelayError {
  if (error instanceof RelayError) return error;
  if (error instanceof StoreUnavailable) {
    return new RelayError(503, 'store_unavailable', 'the relay cannot reach its store; try again', {
      'Retry-After': String(STORE_DOWN_RETRY_SECONDS),
    });
  }
  if (error.validation) return new RelayError(400, 'invalid_request', error.message);
  const status = error.statusCode ?? 500;
  if (status < 500) return new RelayError(status, 'invalid_request', error.message);
  return new RelayError(500, 'internal', 'the relay failed; see its log');
}

const errorBody = (error: RelayError) => ({ error: error.code, message: error.message });

/** What a channel answers when its creator said nothing: the capture tool's own default. */
export const DEFAULT_CHANNEL_RESPONSE: ChannelResponse = {
  status: 200,
  headers: [['Content-Type', 'application/json']],
  body: '{"status":"ok"}',
};

/** What a connection past its address's limit gets (plain HTTP), as other busy refusals. */
const BUSY_ANSWER =
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n' +
  'Retry-After: 1\r\nContent-Length: 23\r\nConnection: close\r\n\r\nrelay: busy; try again\n';

/**
 * A connection that has not sent a request yet is not closed to make room for its address's next
 * one until it has been open this long (a client opening several at once is about to use them).
 */
const FIRST_REQUEST_GRACE_MS = 1_000;

/**
 * What a sender gets while the store fails (Redis restarting, failing over, out of reach): its
 * request was not relayed, and trying again shortly is the thing to do.
 */
const STORE_DOWN_MESSAGE = 'relay: store unavailable; try again';
const STORE_DOWN_RETRY_SECONDS = 5;

/** An error as logged: its name and message, any credentials in a URL it quotes masked. */
function loggedError(error: unknown): { type: string; message: string } {
  const type = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  return { type, message: message.replace(/\/\/[^/@\s]*@/g, '//***@') };
}

/**
 * The store as the relay uses it: every call that rejects rejects with StoreUnavailable (told to
 * `failed` first), every call that resolves is told to `answered`.
 */
function guardStore(
  store: RelayStore,
  failed: (error: unknown) => void,
  answered: () => void,
): RelayStore {
  return new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.then(
          (resolved: unknown) => {
            answered();
            return resolved;
          },
          (error: unknown) => {
            failed(error);
            throw new StoreUnavailable(error);
          },
        );
      };
    },
  });
}

/** Events sent to a listener per read of the buffer. */
const READ_BATCH = 64;

const Header = Type.Tuple([Type.String({ maxLength: 8192 }), Type.String({ maxLength: 65_536 })]);
const ResponseBody = Type.Object(
  {
    status: Type.Optional(Type.Integer({ minimum: 200, maximum: 599 })),
    headers: Type.Optional(Type.Array(Header, { maxItems: 64 })),
    body: Type.Optional(Type.String({ maxLength: 65_536 })),
  },
  { additionalProperties: false },
);
const CreateBody = Type.Union([
  Type.Null(),
  Type.Object(
    { waitForLocal: Type.Optional(Type.Boolean()), response: Type.Optional(ResponseBody) },
    { additionalProperties: false },
  ),
]);
const ChannelParams = Type.Object({ id: Type.String({ pattern: CHANNEL_ID.source }) });
const AnswerParams = Type.Object({
  id: Type.String({ pattern: CHANNEL_ID.source }),
  event: Type.String({ pattern: EVENT_ID.source }),
});

export interface RelayDependencies {
  readonly store: RelayStore;
  /** A pino destination for the JSON log; none: no logging (tests). */
  readonly logStream?: { write(line: string): boolean } | undefined;
}

type RouteAuth = 'admin' | 'listener' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    channel?: Channel;
  }
}

/** The relay, ready to listen: Fastify for its API, a raw handler for what senders send. */
export async function buildRelay(
  config: RelayServerConfig,
  { store: givenStore, logStream }: RelayDependencies,
): Promise<FastifyInstance> {
  const { limits } = config;
  /** A request body carrying a sender's body (base64 in JSON, up to --max-body) and more. */
  const carryingBodyLimit = Math.ceil(limits.maxBody * 1.34) + 256 * 1024;
  const trust = config.trustProxy.length > 0 ? proxyAddr.compile([...config.trustProxy]) : null;
  const addressRate = new RateLimiter(limits.addressRate);
  const channelRate = new RateLimiter(limits.channelRate);
  let inFlightBytes = 0;
  /** Listener streams open on this relay (their connections count against --max-streams only). */
  let streams = 0;
  /** A connection counted against its address: whether a request is being served on it. */
  interface Counted {
    readonly socket: Socket;
    readonly address: string;
    busy: boolean;
    /** Requests it has carried: a new connection gets a moment to send its first. */
    served: number;
    /** When it last started or finished a request (or opened): the longest idle goes first. */
    lastActive: number;
  }
  /** Connections that are not listener streams, per remote address (oldest first), and by key. */
  const perAddress = new Map<string, Set<Counted>>();
  const counted = new Map<string, Counted>();
  const refused = new WeakSet<object>();
  const connectionKey = (socket: Socket) => `${socket.remoteAddress}|${socket.remotePort}`;
  /** Stops counting a connection against its address (closed, or now a listener's stream). */
  const release = (key: string) => {
    const entry = counted.get(key);
    if (!entry) return;
    counted.delete(key);
    const open = perAddress.get(entry.address);
    open?.delete(entry);
    if (open?.size === 0) perAddress.delete(entry.address);
  };
  /** A request is being served on the connection (false again once it is answered). */
  const serving = (socket: Socket, res: ServerResponse) => {
    const entry = counted.get(connectionKey(socket));
    if (!entry) return;
    entry.busy = true;
    entry.served += 1;
    entry.lastActive = Date.now();
    res.once('close', () => {
      entry.busy = false;
      entry.lastActive = Date.now();
    });
  };
  /**
   * Whether the store failed on the last request that used it. Senders get 503 meanwhile; the log
   * says so once when it starts and once when the store answers again, not once per request (a
   * Redis restart under a stream of deliveries would flood it).
   */
  let storeDown = false;
  const storeFailed = (error: unknown) => {
    if (storeDown) return;
    storeDown = true;
    app.log.error(
      { error: loggedError(error) },
      'store unavailable: senders are answered 503 until it is back',
    );
  };
  const storeAnswered = () => {
    if (!storeDown) return;
    storeDown = false;
    app.log.info('store available again');
  };
  /** A sender's body being read, to drop when its request fails. */
  const readings = new WeakMap<IncomingMessage, { cancel(): void }>();
  /**
   * Whatever went wrong while a sender was handled (the store rejecting: it is the only part that
   * can) is answered 503, never left to reject: an unhandled rejection ends the process, and
   * every relay sharing the store would go down at the first request after a Redis restart.
   */
  const senderFailed = (error: unknown, req: IncomingMessage, res: ServerResponse) => {
    readings.get(req)?.cancel();
    // A store failure was logged as it happened (once per outage); anything else is a bug.
    const down = error instanceof StoreUnavailable;
    if (!down) app.log.error({ error: loggedError(error) }, 'sender request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (down) {
      refuseSender(req, res, 503, STORE_DOWN_MESSAGE, [
        ['Retry-After', String(STORE_DOWN_RETRY_SECONDS)],
      ]);
    } else refuseSender(req, res, 500, 'relay: internal error');
  };
  const store = guardStore(givenStore, storeFailed, storeAnswered);
  /** The request under way on each connection, and whether it is a sender's. */
  const underWay = new WeakMap<Socket, { sender: boolean; res: ServerResponse }>();
  /**
   * Half-open connections are allowed for senders only (see serverFactory): any other request
   * whose client half-closes before its answer is finished (a listener's stream, whose client
   * went away) has its connection closed at once, as Node does by default, so a stream nobody
   * reads is not held open and counted until a heartbeat fails.
   */
  const watchHalfClose = (req: IncomingMessage, res: ServerResponse, sender: boolean) => {
    const socket = req.socket;
    const first = !underWay.has(socket);
    underWay.set(socket, { sender, res });
    if (!first) return;
    socket.on('end', () => {
      const current = underWay.get(socket);
      if (current && !current.sender && !current.res.writableFinished) socket.destroy();
    });
  };
  /**
   * One address holds at most --max-address-connections besides its listeners, so idle
   * connections from one place cannot take the room senders and /health need. At the limit, a new
   * connection closes that address's connection idle the longest (no request under way: kept
   * alive since its last answer, or held open a second or more without sending one); when there
   * is none, the new one is refused. Trusted proxies are exempt (every sender
   * behind them shares their address).
   */
  const admit = (socket: Socket) => {
    const address = socket.remoteAddress ?? '?';
    if (trust?.(address, 0)) return;
    let open = perAddress.get(address);
    if (!open) {
      open = new Set();
      perAddress.set(address, open);
    }
    if (open.size >= limits.maxAddressConnections) {
      const now = Date.now();
      let idle: Counted | undefined;
      for (const entry of open) {
        if (entry.busy || (entry.served === 0 && now - entry.lastActive < FIRST_REQUEST_GRACE_MS))
          continue;
        if (!idle || entry.lastActive < idle.lastActive) idle = entry;
      }
      if (idle) {
        release(connectionKey(idle.socket));
        idle.socket.destroy();
      } else {
        refused.add(socket);
        // Plain HTTP gets the same answer as any busy refusal; TLS has not shaken hands yet.
        if (config.tls) socket.destroy();
        else {
          // Closed once written, whether or not the other side reads or closes its own end.
          socket.write(BUSY_ANSWER);
          socket.destroySoon();
        }
        return;
      }
    }
    const key = connectionKey(socket);
    const entry: Counted = { socket, address, busy: false, served: 0, lastActive: Date.now() };
    open.add(entry);
    counted.set(key, entry);
    socket.once('close', () => release(key));
  };

  const serverOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: 1_000,
    maxHeaderSize: 64 * 1024,
  };

  let refuseClientError: ClientErrorHandler | undefined;
  const app = Fastify({
    logger: logStream ? { level: config.logLevel, stream: logStream } : false,
    // The relay logs what an operator acts on (channels, listeners, refusals), not every request.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trust ?? false,
    // Past this a body is refused before it is kept: a path no route has, and every route but
    // the two that set their own limit (a channel's creation and a listener's answer, each read
    // once its caller is authenticated). Unauthenticated bodies, outside the senders' budget,
    // were otherwise held whole, several MiB each.
    bodyLimit: API_BODY_LIMIT,
    serverFactory: (fastifyHandler) => {
      // Senders bypass Fastify: their requests are recorded as raw bytes, whatever the method or
      // content type, and never parsed.
      const dispatch: RequestListener = (req, res) => {
        // A connection refused as its address's one too many: nothing it sends is served.
        if (refused.has(req.socket)) return void req.socket.destroy();
        const sendPath = senderPath(req.url ?? '');
        serving(req.socket, res);
        watchHalfClose(req, res, sendPath !== null);
        if (sendPath !== null)
          relaySend(req, res, sendPath).catch((error: unknown) => senderFailed(error, req, res));
        else fastifyHandler(req, res);
      };
      const server: Server = config.tls
        ? createHttpsServer(
            { ...serverOptions, cert: config.tls.cert, key: config.tls.key },
            dispatch,
          )
        : createHttpServer(serverOptions, dispatch);
      // Every header within maxHeaderSize's bytes, however many: Node's default keeps the first
      // 1,000 or so and drops the rest silently, often a signature, or the Via a forward adds
      // last, which is what stops a forwarding loop through a channel.
      server.maxHeadersCount = 0;
      server.maxConnections = limits.maxConnections;
      // A sender that half-closes once its request is written (FIN) is still relayed and
      // answered, even when the answer waits for the store or the listener; Node would otherwise
      // abort the request and close the connection at once.
      (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
      server.on('connection', admit);
      refuseClientError = answerBeforeRefusing(server);
      return server;
    },
    // A sender's whole request followed by bytes that are not HTTP is relayed and gets its
    // answer before the connection closes (client-errors.ts), where Node would answer 400 first.
    clientErrorHandler: (error, socket) => refuseClientError?.(error, socket),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(TypeBoxValidatorCompiler);

  app.setErrorHandler((error: FastifyError | RelayError | StoreUnavailable, request, reply) => {
    const relayError = toRelayError(error);
    // The store failing is logged once per outage (storeFailed), not once per request.
    if (relayError.statusCode >= 500 && !(error instanceof StoreUnavailable))
      request.log.error({ err: error }, 'request failed');
    return reply
      .status(relayError.statusCode)
      .headers(relayError.headers)
      .send(errorBody(relayError));
  });
  app.setNotFoundHandler((request) => {
    throw new RelayError(
      404,
      'not_found',
      `no route ${request.method} ${request.url.split('?')[0]}`,
    );
  });

  /** One hook authenticates every route, as its `config.auth` says. */
  app.addHook('onRequest', async (request) => {
    const auth = request.routeOptions.config.auth ?? 'none';
    if (auth === 'none') return;
    const token = bearerToken(request.headers.authorization);
    if (auth === 'admin') {
      if (!token || !tokenMatches(token, config.adminTokenHash)) {
        request.log.warn({ remote: request.ip, url: request.url }, 'admin request refused');
        throw new RelayError(401, 'unauthorized', 'the admin token is missing or wrong');
      }
      return;
    }
    const id = (request.params as { id?: string }).id ?? '';
    const channel = CHANNEL_ID.test(id) ? await store.getChannel(id) : null;
    const reason = !channel ? 'no such channel' : !token ? 'missing token' : 'wrong token';
    if (!channel || !token || !tokenMatches(token, channel.tokenHash)) {
      // Logged for the operator (never the token itself); the listener learns only that it is out.
      request.log.warn({ channel: id, remote: request.ip, reason }, 'listener refused');
      throw channel
        ? new RelayError(401, 'unauthorized', 'the listen token is missing or wrong')
        : new RelayError(404, 'not_found', 'no such channel');
    }
    request.channel = channel;
  });

  const sendUrl = (request: FastifyRequest, id: string) =>
    `${config.publicUrl ?? `${request.protocol}://${request.host}`}${SEND_PREFIX}${id}`;

  app.get('/health', async (request, reply) => {
    const storeKind = config.redisUrl ? 'redis' : 'memory';
    try {
      await store.check();
    } catch (error) {
      if (!(error instanceof StoreUnavailable))
        request.log.error({ err: error }, 'health: store unavailable');
      return reply.status(503).send({ status: 'unavailable', store: storeKind });
    }
    return { status: 'ok', store: storeKind };
  });

  app.post(
    API_PREFIX,
    {
      config: { auth: 'admin' },
      // A channel's answer may hold 64 headers of 64 KiB: the admin, authenticated before the
      // body is read, may send more than the API's own limit.
      bodyLimit: carryingBodyLimit,
      schema: { body: Type.Optional(CreateBody) },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      // What the creator left out is as in a config file's `response`: 200, an empty body, and
      // a Content-Type from the body (a status alone once said JSON and sent nothing).
      const given = body.response;
      // Refused, not skipped: a creator whose header was dropped silently never learnt why.
      for (const [name, value] of given?.headers ?? []) {
        const problem = answerHeaderProblem(name, value);
        if (problem) throw new RelayError(400, 'invalid_header', `response.headers: ${problem}`);
      }
      const answerBody = given ? (given.body ?? '') : DEFAULT_CHANNEL_RESPONSE.body;
      const response = {
        status: given?.status ?? DEFAULT_CHANNEL_RESPONSE.status,
        headers: given
          ? validHeaders(withContentTypeFromBody(given.headers ?? [], answerBody))
          : DEFAULT_CHANNEL_RESPONSE.headers,
        body: answerBody,
      };
      const token = newListenToken();
      const channel: Channel = {
        id: newChannelId(),
        tokenHash: hashToken(token),
        createdAt: Date.now(),
        response,
        waitForLocal: body.waitForLocal ?? false,
      };
      if ((await store.createChannel(channel, limits.maxChannels)) === 'full') {
        throw new RelayError(
          507,
          'too_many_channels',
          `this relay holds ${limits.maxChannels} channels already`,
        );
      }
      request.log.info({ channel: channel.id, remote: request.ip }, 'channel created');
      return reply.status(201).send({
        id: channel.id,
        sendUrl: sendUrl(request, channel.id),
        token,
        waitForLocal: channel.waitForLocal,
      });
    },
  );

  app.post(
    `${API_PREFIX}/:id/rotate`,
    { config: { auth: 'admin' }, schema: { params: ChannelParams } },
    async (request) => {
      const token = newListenToken();
      if (!(await store.setTokenHash(request.params.id, hashToken(token)))) {
        throw new RelayError(404, 'not_found', 'no such channel');
      }
      request.log.info({ channel: request.params.id, remote: request.ip }, 'channel token rotated');
      return { id: request.params.id, sendUrl: sendUrl(request, request.params.id), token };
    },
  );

  app.delete(
    `${API_PREFIX}/:id`,
    { config: { auth: 'admin' }, schema: { params: ChannelParams } },
    async (request, reply) => {
      if (!(await store.deleteChannel(request.params.id))) {
        throw new RelayError(404, 'not_found', 'no such channel');
      }
      request.log.info({ channel: request.params.id, remote: request.ip }, 'channel deleted');
      return reply.status(204).send();
    },
  );

  app.post(
    `${API_PREFIX}/:id/events/:event/answer`,
    {
      config: { auth: 'listener' },
      // A sender's answer body, base64 in JSON, up to --max-body.
      bodyLimit: carryingBodyLimit,
      schema: {
        params: AnswerParams,
        body: Type.Object(
          {
            // A final answer: a 1xx left the held sender waiting for one.
            status: Type.Integer({ minimum: 200, maximum: 599 }),
            headers: Type.Array(Header, { maxItems: 1000 }),
            body: Type.String({ maxLength: Math.ceil(limits.maxBody * 1.34) + 4 }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      await store.publishAnswer(
        request.params.id,
        request.params.event,
        JSON.stringify(request.body),
      );
      return reply.status(202).send({ status: 'accepted' });
    },
  );

  app.get(
    `${API_PREFIX}/:id/events`,
    { config: { auth: 'listener' }, schema: { params: ChannelParams } },
    async (request, reply) => {
      const channel = request.channel as Channel;
      const lastEventId = request.headers['last-event-id'];
      if (
        lastEventId !== undefined &&
        (typeof lastEventId !== 'string' || !EVENT_ID.test(lastEventId))
      ) {
        throw new RelayError(
          400,
          'invalid_request',
          'Last-Event-ID must be an event id the relay sent',
        );
      }
      if (streams >= limits.maxStreams) {
        request.log.warn(
          {
            channel: channel.id,
            remote: request.ip,
            reason: `relay full (--max-streams ${limits.maxStreams})`,
          },
          'listener refused',
        );
        throw new RelayError(
          503,
          'busy',
          `this relay holds ${limits.maxStreams} listeners; try again later`,
          { 'Retry-After': '30' },
        );
      }
      streams += 1;
      // Checked and counted in one step (a Lua script with Redis): listeners connecting at once,
      // to this relay or another, never get past the limit together.
      let removeListener: (() => void) | null = null;
      try {
        removeListener = await store.addListener(channel.id, limits.maxListenersPerChannel);
      } finally {
        if (!removeListener) streams -= 1;
      }
      if (!removeListener) {
        request.log.warn(
          {
            channel: channel.id,
            remote: request.ip,
            reason: `too many listeners (--max-listeners ${limits.maxListenersPerChannel})`,
          },
          'listener refused',
        );
        throw new RelayError(
          429,
          'too_many_listeners',
          `a channel takes ${limits.maxListenersPerChannel} listeners`,
          {
            'Retry-After': '30',
          },
        );
      }
      // A stream now: counted against --max-streams, no longer against its address.
      release(connectionKey(request.raw.socket));
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        // nginx: stream this response instead of buffering it.
        'X-Accel-Buffering': 'no',
      });
      request.log.info({ channel: channel.id, remote: request.ip }, 'listener connected');
      try {
        await streamEvents(request, res, channel, lastEventId ?? null, removeListener);
      } catch (error) {
        // The store failed while the stream was open: closed, so the client reconnects (to this
        // relay or another) and resumes from its last event, rather than waiting on a stream
        // nothing will write to again.
        if (!(error instanceof StoreUnavailable))
          request.log.error({ error: loggedError(error) }, 'listener stream failed');
        res.destroy();
      } finally {
        streams -= 1;
      }
    },
  );

  /** Sends the channel's events to one listener until it goes, is revoked or stops reading. */
  async function streamEvents(
    request: FastifyRequest,
    res: ServerResponse,
    channel: Channel,
    lastEventId: string | null,
    removeListener: () => void,
  ): Promise<void> {
    // A listener gone while it was being counted: its 'close' came before anyone listened.
    let closed = request.raw.socket.destroyed;
    let wake: (() => void) | null = null;
    let woken = false;
    const signal = () => {
      woken = true;
      wake?.();
    };
    res.on('close', () => {
      closed = true;
      signal();
    });
    res.on('error', () => {});
    const unsubscribe = store.onAppend(channel.id, signal);
    const heartbeat = setInterval(() => {
      if (res.writableLength < limits.listenerBufferBytes) res.write(': ping\n\n');
    }, limits.heartbeatMs);
    const end = (event: string, message: string) => {
      if (!closed) res.end(`event: ${event}\ndata: ${JSON.stringify({ message })}\n\n`);
    };
    try {
      const ready: ReadyWire = {
        channel: channel.id,
        sendUrl: `${config.publicUrl ?? `${request.protocol}://${request.host}`}${SEND_PREFIX}${channel.id}`,
        waitForLocal: channel.waitForLocal,
      };
      res.write(`retry: 1000\nevent: ready\ndata: ${JSON.stringify(ready)}\n\n`);
      // No Last-Event-ID: a new listener gets everything the buffer still holds, so what was sent
      // before anyone listened (a provider's test delivery) is not lost either.
      let cursor = lastEventId;
      while (!closed) {
        woken = false;
        const current = await store.getChannel(channel.id);
        if (!current) return end('deleted', 'the channel was deleted');
        if (current.tokenHash !== channel.tokenHash) {
          request.log.warn(
            { channel: channel.id, remote: request.ip },
            'listener dropped: token rotated',
          );
          return end('revoked', 'the listen token was rotated');
        }
        const { events, missed, resumeAfter } = await store.readAfter(
          channel.id,
          cursor,
          READ_BATCH,
          Date.now(),
        );
        if (missed && cursor !== null) {
          const gap: GapWire = { after: cursor, resumedAt: events[0]?.id ?? null };
          res.write(`event: gap\ndata: ${JSON.stringify(gap)}\n\n`);
          if (events.length === 0) cursor = resumeAfter ?? cursor;
        }
        for (const event of events) {
          if (closed) return;
          res.write(`id: ${event.id}\nevent: request\ndata: ${event.data}\n\n`);
          cursor = event.id;
          if (res.writableLength > limits.listenerBufferBytes && !(await drained(res))) {
            request.log.warn(
              { channel: channel.id, remote: request.ip },
              'listener dropped: not reading',
            );
            res.destroy();
            return;
          }
        }
        if (events.length < READ_BATCH && !woken && !closed) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = null;
        }
      }
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
      removeListener();
      request.log.info({ channel: channel.id, remote: request.ip }, 'listener disconnected');
    }
  }

  /** Resolves true once the listener took what was written, false after slowListenerMs. */
  function drained(res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), limits.slowListenerMs);
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        res.off('drain', onDrain);
        res.off('close', onClose);
        resolve(ok);
      };
      const onDrain = () => finish(true);
      const onClose = () => finish(false);
      res.on('drain', onDrain);
      res.on('close', onClose);
    });
  }

  /** A sender's request: recorded byte for byte into the channel's buffer, answered. */
  async function relaySend(
    req: IncomingMessage,
    res: ServerResponse,
    sendPath: string,
  ): Promise<void> {
    const receivedAt = Date.now();
    req.on('error', () => {});
    res.on('error', () => {});
    const rest = sendPath.slice(SEND_PREFIX.length);
    const end = rest.search(/[/?]/);
    const id = end === -1 ? rest : rest.slice(0, end);
    const tail = end === -1 ? '' : rest.slice(end);
    const target = tail.startsWith('/') ? tail : `/${tail}`;
    const remoteIp = trust ? proxyAddr(req, trust) : (req.socket.remoteAddress ?? '?');
    const remote =
      remoteIp === req.socket.remoteAddress
        ? formatAddress(remoteIp, req.socket.remotePort ?? 0)
        : remoteIp;

    const refuse = (status: number, message: string, headers: [string, string][] = []) =>
      refuseSender(req, res, status, message, headers);
    let retry = addressRate.take(remoteIp, receivedAt);
    if (retry > 0)
      return refuse(429, 'relay: too many requests from this address', [
        ['Retry-After', String(retry)],
      ]);
    if (!CHANNEL_ID.test(id)) return refuse(404, 'relay: no such channel');
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limits.maxBody)
      return refuse(413, `relay: body larger than ${limits.maxBody} bytes`);
    // The body is read from the start, while the store is asked for the channel: what the sender
    // sent is taken as it comes, whatever its connection does meanwhile.
    const reading = readBody(req);
    readings.set(req, reading);
    const channel = await store.getChannel(id);
    const refuseUnread = (status: number, message: string, headers: [string, string][] = []) => {
      reading.cancel();
      refuse(status, message, headers);
    };
    if (!channel) return refuseUnread(404, 'relay: no such channel');
    retry = channelRate.take(id, receivedAt);
    if (retry > 0)
      return refuseUnread(429, 'relay: too many requests for this channel', [
        ['Retry-After', String(retry)],
      ]);

    const body = await reading.body;
    if (body === 'too-large') return refuse(413, `relay: body larger than ${limits.maxBody} bytes`);
    if (body === 'busy') return refuse(503, 'relay: busy; try again', [['Retry-After', '1']]);
    if (body === 'aborted') {
      // Gone before its request was whole: nothing to relay, nobody to answer.
      app.log.info({ channel: id, remote }, 'sender left before its request was whole');
      return;
    }

    const wire: RelayedRequestWire = {
      receivedAt,
      method: req.method ?? 'GET',
      target,
      headers: pairs(req.rawHeaders),
      body: body.toString('base64'),
      remote,
      httpVersion: req.httpVersion,
      awaitsAnswer: channel.waitForLocal,
    };
    const appended = await store.append(id, JSON.stringify(wire), Date.now());
    if (appended.kind === 'no-channel') return refuse(404, 'relay: no such channel');
    if (appended.kind === 'full') {
      app.log.warn({ channel: id }, 'buffers full: request refused');
      return refuse(503, 'relay: buffers full; try again later', [['Retry-After', '30']]);
    }
    if (!channel.waitForLocal) return answer(res, channel.response);

    if ((await store.countListeners(id)) === 0) {
      return refuse(503, 'relay: no listener connected; the request is buffered for it', [
        ['Retry-After', '10'],
      ]);
    }
    const local = await new Promise<string | null>((resolve) => {
      const timer = setTimeout(() => settle(null), limits.waitTimeoutMs);
      const stop = store.onAnswer(id, appended.id, (text) => settle(text));
      const onClose = () => settle(null);
      res.on('close', onClose);
      function settle(text: string | null) {
        clearTimeout(timer);
        stop();
        res.off('close', onClose);
        resolve(text);
      }
    });
    if (res.destroyed) return;
    if (local === null) {
      return refuse(
        504,
        `relay: no answer from a listener within ${limits.waitTimeoutMs / 1000} s; the request is buffered`,
      );
    }
    const parsed = JSON.parse(local) as RelayAnswerWire;
    answer(res, {
      status: parsed.status,
      headers: parsed.headers,
      body: Buffer.from(parsed.body, 'base64'),
    });
  }

  /**
   * The body, or why not: bounded by --max-body and, over all senders, by the in-flight budget.
   * Read as it arrives; `cancel` drops it (the request is refused) and lets the rest go by.
   */
  function readBody(req: IncomingMessage): {
    body: Promise<Buffer | 'too-large' | 'busy' | 'aborted'>;
    cancel(): void;
  } {
    let finish: (result: Buffer | 'too-large' | 'busy' | 'aborted') => void = () => {};
    const body = new Promise<Buffer | 'too-large' | 'busy' | 'aborted'>((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      finish = (result) => {
        if (settled) return;
        settled = true;
        inFlightBytes -= size;
        chunks.length = 0;
        resolve(result);
      };
      req.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        inFlightBytes += chunk.length;
        if (size > limits.maxBody) return finish('too-large');
        if (inFlightBytes > limits.maxInFlightBytes) return finish('busy');
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (settled) return;
        finish(Buffer.concat(chunks, size));
      });
      // A request whose every byte arrived is whole, even if the connection then went away.
      req.on('close', () => finish(req.complete ? Buffer.concat(chunks, size) : 'aborted'));
    });
    return { body, cancel: () => finish('aborted') };
  }

  return app;
}

/**
 * The path and query of a sender's request (`/c/<id>…`), or null for any other request. A target
 * in absolute form (`http://relay.example/c/<id>/x`, which HTTP/1.1 servers must accept) is a
 * sender's too when its path is: it was answered by the API's JSON 404 instead of relayed.
 */
export function senderPath(url: string): string | null {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  const path = origin ? url.slice(origin[0].length) : url;
  return path.startsWith(SEND_PREFIX) ? path : null;
}

/** Header pairs from Node's flat `rawHeaders`: order, case and repeats as they arrived. */
function pairs(raw: readonly string[]): WireHeaders {
  const result: WireHeaders = [];
  for (let i = 0; i + 1 < raw.length; i += 2) result.push([raw[i] as string, raw[i + 1] as string]);
  return result;
}

/** Headers safe to send: no hop-by-hop ones (nor those Connection names), only valid names and values. */
function validHeaders(headers: readonly (readonly [string, string])[]): WireHeaders {
  const valid: WireHeaders = [];
  for (const [name, value] of endToEndHeaders(headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      continue;
    }
    valid.push([name, value]);
  }
  return valid;
}

/** A sender's request refused: a plain-text line, and the connection closed after it. */
function refuseSender(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: [string, string][] = [],
): void {
  // The body may still be arriving: close rather than read what will not be relayed.
  res.shouldKeepAlive = false;
  answer(res, {
    status,
    headers: [['Content-Type', 'text/plain; charset=utf-8'], ...headers],
    body: `${message}\n`,
  });
  req.resume();
}

/** Writes an answer to a sender: the headers in order and case, the body as given. */
function answer(
  res: ServerResponse,
  response: {
    status: number;
    headers: readonly (readonly [string, string])[];
    body: string | Buffer;
  },
): void {
  if (res.headersSent || res.destroyed) return;
  const body = typeof response.body === 'string' ? Buffer.from(response.body) : response.body;
  const flat: string[] = [];
  for (const [name, value] of validHeaders(response.headers)) flat.push(name, value);
  flat.push('Content-Length', String(body.length));
  res.writeHead(response.status, flat);
  res.end(body);
}
