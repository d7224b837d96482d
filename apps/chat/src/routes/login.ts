import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { applicationMatches } from '../auth/app-credentials.js';
import { Lockout } from '../auth/lockout.js';
import type { RouteOptions } from '../context.js';
import { accountDeactivated, ChatError, invalidCredentials, unknownService } from '../errors.js';
import { Me, toMe } from '../users/profile.js';

/** Bounds on every field keep absurd inputs (a 1 MB "token") away from providers and hashes. */
const Field = Type.String({ minLength: 1, maxLength: 4096 });

const LoginBody = Type.Object({
  serviceName: Type.String({ minLength: 1, maxLength: 64 }),
  accessToken: Field,
  accessTokenSecret: Type.String({ maxLength: 4096 }),
  appSecret: Field,
  appId: Field,
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
      const accountKey = Lockout.loginKey(body.serviceName, body.accessToken);
      await lockout.assertOpen(accountKey);
      const service = services.get(body.serviceName);
      if (!service) throw unknownService(body.serviceName);

      try {
        // Before any provider call: a token minted for another application never gets that far.
        if (!applicationMatches(service, body)) {
          throw invalidCredentials(
            `The application credentials do not match the service "${service.name}"`,
          );
        }
        const identity = await service.provider.verify(
          { accessToken: body.accessToken, accessTokenSecret: body.accessTokenSecret },
          AbortSignal.timeout(config.provider.timeoutMs),
        );
        const issuedAt = now();
        const user = await users.linkOrCreate(identity, issuedAt);
        if (!user.active) throw accountDeactivated();
        const lifetime = Math.min(body.expiresIn, config.loginExpirationSeconds);
        const expiresAt = new Date(issuedAt.getTime() + lifetime * 1000);
        const authToken = await sessions.issue(user.id, issuedAt, expiresAt);
        await lockout.succeeded(accountKey);
        return {
          status: 'success' as const,
          data: { authToken, userId: user.id, me: toMe(user, config.siteUrl) },
        };
      } catch (error) {
        if (error instanceof ChatError && (error.statusCode === 401 || error.statusCode === 403)) {
          await lockout.failed(accountKey);
        }
        throw error;
      }
    },
  );
};

export default loginRoute;
