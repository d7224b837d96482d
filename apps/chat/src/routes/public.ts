import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { RouteOptions } from '../context.js';
import type { ConfiguredService } from '../providers/registry.js';
import { authorizePath, callbackUrl } from './oauth-redirect.js';

/**
 * The Rocket.Chat release whose REST shapes this service answers in (checked against that
 * release's `@rocket.chat/rest-typings` in the tests). Like Rocket.Chat to a caller without the
 * `view-statistics` permission, `GET /api/info` tells major.minor only.
 */
export const ROCKETCHAT_COMPATIBLE_VERSION = '8.8.1';
const PUBLIC_VERSION = ROCKETCHAT_COMPATIBLE_VERSION.replace(/^(\d+\.\d+).*$/, '$1');

const InfoResponse = Type.Object(
  { version: Type.String(), success: Type.Literal(true) },
  { additionalProperties: false },
);

/**
 * One entry of `settings.oauth`, in the shape Rocket.Chat gives its built-in services (`name`,
 * `clientId`, the button's texts and colours, `custom: false`), plus `service` (the name clients
 * send as `serviceName`) and `type` (which provider module verifies it). OIDC services are
 * Rocket.Chat's custom OAuth services (`custom: true`) and carry a `serverURL` (see below).
 * Never a secret: the client id is public by design (it appears in every authorization URL).
 */
const OAuthService = Type.Object(
  {
    _id: Type.String(),
    name: Type.String(),
    service: Type.String(),
    type: Type.String(),
    clientId: Type.String(),
    custom: Type.Boolean(),
    serverURL: Type.Optional(Type.String()),
    /** The redirect flow, for services that offer it (see README, "The OAuth redirect flow"). */
    authorizePath: Type.Optional(Type.String()),
    redirectUri: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
    loginStyle: Type.Optional(Type.Literal('popup')),
    buttonLabelText: Type.String(),
    buttonLabelColor: Type.String(),
    buttonColor: Type.String(),
  },
  { additionalProperties: false },
);
const OAuthSettingsResponse = Type.Object(
  { services: Type.Array(OAuthService), success: Type.Literal(true) },
  { additionalProperties: false },
);

/**
 * `authorizePath` is relative, as Rocket.Chat's custom OAuth services give it: clients start the
 * flow at `serverURL + authorizePath`, so a custom service with the redirect flow names this
 * server as its `serverURL` (the service's start, which adds PKCE and sends the browser on to the
 * provider), not the issuer the app would send to a path it does not serve. `redirectUri` is the
 * callback registered at the provider.
 */
export function oauthService(service: ConfiguredService, rootUrl: string) {
  const codeFlow = service.provider.codeFlow;
  const serverURL =
    service.customServerUrl !== undefined && codeFlow ? rootUrl : service.customServerUrl;
  const flow = codeFlow
    ? {
        authorizePath: authorizePath(service.name),
        redirectUri: callbackUrl(rootUrl, service.name),
        scope: codeFlow.scopes.join(' '),
        loginStyle: 'popup' as const,
      }
    : {};
  return {
    _id: service.name,
    name: service.name,
    service: service.name,
    type: service.type,
    clientId: service.appId,
    custom: serverURL !== undefined,
    ...(serverURL !== undefined ? { serverURL } : {}),
    buttonLabelText: '',
    buttonLabelColor: '',
    buttonColor: '',
    ...flow,
  };
}

/** What clients read before anyone signs in; public, as in Rocket.Chat. */
const publicRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { context }) => {
  const services = [...context.services.values()].map((service) =>
    oauthService(service, context.config.siteUrl),
  );
  const config = {
    auth: 'public' as const,
    rateLimit: { max: context.config.apiRateLimit, timeWindow: 60_000 },
  };

  app.get('/api/info', { schema: { response: { 200: InfoResponse } }, config }, async () => ({
    version: PUBLIC_VERSION,
    success: true as const,
  }));

  app.get(
    '/api/v1/settings.oauth',
    { schema: { response: { 200: OAuthSettingsResponse } }, config },
    async () => ({ services, success: true as const }),
  );
};

export default publicRoutes;
