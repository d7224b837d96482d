import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { RouteOptions } from '../context.js';
import { notFound } from '../errors.js';
import { initialsSvg } from '../users/avatar-svg.js';
import { USERNAME_PATTERN } from '../users/username.js';

/** The SVG can hold nothing active; the policy makes sure a browser would run nothing anyway. */
const SVG_HEADERS = {
  'content-type': 'image/svg+xml; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'x-content-type-options': 'nosniff',
  'cache-control': 'public, max-age=300',
};

export function hostAllowed(url: string, patterns: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  const host = parsed.hostname.toLowerCase();
  return patterns.some((pattern) =>
    pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern,
  );
}

/**
 * The user's picture: a redirect to the provider's URL only when its host is one of the service's
 * avatar hosts (its `avatarHosts`, else its provider type's: see the registry), else (and for
 * users of a service no longer configured) the initials as SVG. A provider's answer can carry
 * any URL (an OIDC `picture` claim is whatever the account holder typed): redirecting to it
 * would make this an open redirect.
 */
const avatarRoute: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { context }) => {
  app.get(
    '/avatar/:username',
    {
      schema: { params: Type.Object({ username: Type.String({ maxLength: 64 }) }) },
      config: {
        auth: 'public',
        rateLimit: { max: context.config.apiRateLimit, timeWindow: 60_000 },
      },
    },
    async (request, reply) => {
      const username = request.params.username.toLowerCase();
      // What cannot be a username is nobody's, and never reaches the database (a NUL byte there
      // was a 500, found by fuzzing).
      const user = USERNAME_PATTERN.test(username)
        ? await context.users.findByUsername(username)
        : undefined;
      if (!user) throw notFound(`No user "${request.params.username}"`);
      const hosts = context.services.get(user.service)?.avatarHosts ?? [];
      if (user.avatar_url && hostAllowed(user.avatar_url, hosts)) {
        return reply
          .header('cache-control', 'public, max-age=300')
          .header('referrer-policy', 'no-referrer')
          .redirect(user.avatar_url, 302);
      }
      return reply.headers(SVG_HEADERS).send(initialsSvg(user.name, user.username));
    },
  );
};

export default avatarRoute;
