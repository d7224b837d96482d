import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { RouteOptions } from '../context.js';
import { notFound } from '../errors.js';
import { initialsSvg } from '../users/avatar-svg.js';

/** The SVG can hold nothing active; the policy makes sure a browser would run nothing anyway. */
const SVG_HEADERS = {
  'content-type': 'image/svg+xml; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'x-content-type-options': 'nosniff',
  'cache-control': 'public, max-age=300',
};

const avatarRoute: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { context }) => {
  app.get(
    '/avatar/:username',
    { schema: { params: Type.Object({ username: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      const user = await context.users.findByUsername(request.params.username.toLowerCase());
      if (!user) throw notFound(`No user "${request.params.username}"`);
      // Only https URLs are ever stored (see providers/types.ts and the users table's CHECK).
      if (user.avatar_url) {
        return reply.header('cache-control', 'public, max-age=300').redirect(user.avatar_url, 302);
      }
      return reply.headers(SVG_HEADERS).send(initialsSvg(user.name, user.username));
    },
  );
};

export default avatarRoute;
