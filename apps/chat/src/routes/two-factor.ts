import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sessionOf } from '../auth/guard.js';
import type { TwoFactor } from '../auth/totp.js';
import type { RouteOptions } from '../context.js';

/**
 * TOTP management. Rocket.Chat does this with Meteor methods (`2fa:enable`,
 * `2fa:validateTempToken`, `2fa:disable`) that have no REST route of their own; these routes are
 * named after its `users.2fa.*` REST family and answer the methods' results in its REST shape
 * (`success: true` beside the fields).
 */
export interface TwoFactorRouteOptions extends RouteOptions {
  twoFactor: TwoFactor;
}

const CodeBody = Type.Object({
  /** A 6-digit TOTP code or a backup code (`abcde-fghjk`, any case, dash optional). */
  code: Type.String({ minLength: 1, maxLength: 64 }),
});

const Success = Type.Literal(true);

const twoFactorRoutes: FastifyPluginAsyncTypebox<TwoFactorRouteOptions> = async (
  app,
  { context, twoFactor },
) => {
  // Codes are guessed here as at login: the per-IP login rate limit applies to all three (in
  // place of API_RATE_LIMIT, which the guard gives a route that declares none).
  const rateLimit = { max: context.config.loginRateLimit, timeWindow: 60_000 };

  app.post(
    '/api/v1/users.2fa.enableTOTP',
    {
      schema: {
        response: {
          200: Type.Object({ success: Success, secret: Type.String(), url: Type.String() }),
        },
      },
      config: { rateLimit },
    },
    async (request) => {
      const { user } = sessionOf(request);
      const setup = await twoFactor.begin({ id: user.id, username: user.username });
      return { success: true as const, ...setup };
    },
  );

  app.post(
    '/api/v1/users.2fa.confirmTOTP',
    {
      schema: {
        body: CodeBody,
        response: { 200: Type.Object({ success: Success, codes: Type.Array(Type.String()) }) },
      },
      config: { rateLimit },
    },
    async (request) => {
      const { user, tokenHash } = sessionOf(request);
      const codes = await twoFactor.confirm(user.id, request.body.code);
      // Sessions opened without the second factor end; the one that proved it stays.
      await context.sessions.revokeAll(user.id, tokenHash);
      return { success: true as const, codes };
    },
  );

  app.post(
    '/api/v1/users.2fa.disableTOTP',
    {
      schema: { body: CodeBody, response: { 200: Type.Object({ success: Success }) } },
      config: { rateLimit },
    },
    async (request) => {
      const { user } = sessionOf(request);
      await twoFactor.disable(user.id, request.body.code);
      return { success: true as const };
    },
  );
};

export default twoFactorRoutes;
