import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { applicationMatches } from '../auth/app-credentials.js';
import { Lockout } from '../auth/lockout.js';
import type { RouteOptions } from '../context.js';
import {
  accountDeactivated,
  ChatError,
  invalidCredentials,
  providerTimeout,
  unknownService,
} from '../errors.js';
import { Me, toMe } from '../users/profile.js';

/**
 * Bounds on every field keep absurd inputs (a 1 MB "token") away from providers and hashes.
 * Provider credentials are visible ASCII in every protocol served (RFC 6750's b64token, OAuth
 * 1.0a tokens, client ids and secrets). Anything else cannot be a credential, and would otherwise
 * reach places that cannot carry it (an Authorization header, a signature base string): found by
 * fuzzing (issue 7) as 500s and 502s.
 */
const CREDENTIAL = '^[\\x21-\\x7e]*$';
const Credential = Type.String({ minLength: 1, maxLength: 4096, pattern: CREDENTIAL });

const LoginBody = Type.Object({
  serviceName: Type.String({ minLength: 1, maxLength: 64 }),
  accessToken: Credential,
  accessTokenSecret: Type.String({ maxLength: 4096, pattern: CREDENTIAL }),
  appSecret: Credential,
  appId: Credential,
  expiresIn: Type.Integer({ minimum: 1 }),
});

const LoginResponse = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ authToken: Type.String(), userId: Type.String(), me: Me }),
});

/** Login attempts per client IP: `@fastify/rate-limit`, checked after the body is validated. */
const loginRoute: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { context }) => {
  const { config, services, users, sessions, lockout, now } = context;

  app.post(
    '/api/v1/login',
    {
      schema: { body: LoginBody, response: { 200: LoginResponse } },
      config: {
        rateLimit: { max: config.loginRateLimit, timeWindow: 60_000, hook: 'preHandler' },
      },
    },
    async (request) => {
      const body = request.body;
      const service = services.get(body.serviceName);
      if (!service) throw unknownService(body.serviceName);
      // One budget for the whole wait on the provider, including a wait for a lock-out slot held
      // by earlier attempts with the same credentials (each stuck on a stalled provider): 20 at
      // once would otherwise be answered in waves of 5, the last after 4 timeouts.
      const deadline = AbortSignal.timeout(config.provider.timeoutMs);
      const attempt = await lockout
        .begin(Lockout.loginKey(body.serviceName, body.accessToken), deadline)
        .catch((error: unknown) => {
          if (error !== deadline.reason) throw error;
          throw providerTimeout(
            service.name,
            'earlier logins with these credentials are still waiting for it',
          );
        });
      try {
        // Before any provider call: a token minted for another application never gets that far.
        if (!applicationMatches(service, body)) {
          throw invalidCredentials(
            `The application credentials do not match the service "${service.name}"`,
          );
        }
        const identity = await service.provider.verify(
          { accessToken: body.accessToken, accessTokenSecret: body.accessTokenSecret },
          deadline,
        );
        const issuedAt = now();
        const user = await users.linkOrCreate(identity, issuedAt);
        if (!user.active) throw accountDeactivated();
        const lifetime = Math.min(body.expiresIn, config.loginExpirationSeconds);
        const expiresAt = new Date(issuedAt.getTime() + lifetime * 1000);
        const authToken = await sessions.issue(user.id, issuedAt, expiresAt);
        await attempt.succeeded();
        return {
          status: 'success' as const,
          data: { authToken, userId: user.id, me: toMe(user, config.siteUrl) },
        };
      } catch (error) {
        // Refusals count towards the lock-out; provider outages and database errors do not.
        const refused =
          error instanceof ChatError && (error.statusCode === 401 || error.statusCode === 403);
        await (refused ? attempt.failed() : attempt.release());
        throw error;
      }
    },
  );
};

export default loginRoute;
