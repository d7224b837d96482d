import { createHmac } from 'node:crypto';
import { Type } from 'typebox';
import { codeParameters, requestTokens } from './code-flow.js';
import type { ProviderHttp } from './http.js';
import {
  given,
  httpsUrl,
  type IdentityProvider,
  providerType,
  type ServiceOf,
  ServiceUrl,
  serviceSchema,
} from './types.js';

const DEFAULT_GRAPH_URL = 'https://graph.facebook.com/v21.0';
/** Where Facebook Login's dialog is (the manual flow). */
const DEFAULT_WEB_URL = 'https://www.facebook.com/v21.0';
const FacebookServiceSchema = serviceSchema('facebook', {
  graphUrl: Type.Optional(ServiceUrl),
  webUrl: Type.Optional(ServiceUrl),
});
export type FacebookService = ServiceOf<typeof FacebookServiceSchema>;

const Me = Type.Object({
  id: Type.String({ pattern: '^[0-9]{1,30}$' }),
  name: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  picture: Type.Optional(
    Type.Object({ data: Type.Optional(Type.Object({ url: Type.Optional(Type.String()) })) }),
  ),
});

/** Graph API errors about the token itself: OAuthException, code 190 (invalid token) or 102 (session). */
function isTokenRefusal(status: number, body: unknown): boolean {
  if (status === 401 || status === 403) return true;
  const error = (body as { error?: { type?: unknown; code?: unknown } } | undefined)?.error;
  return status === 400 && (error?.type === 'OAuthException' || error?.code === 190);
}

/**
 * Facebook: `GET /me` with the user's token and `appsecret_proof`, the hex HMAC-SHA256 of the
 * token keyed with the app secret; Facebook refuses a token issued to another app with it.
 */
export function verifyWithFacebook(service: FacebookService, http: ProviderHttp): IdentityProvider {
  const base = `${service.graphUrl ?? DEFAULT_GRAPH_URL}/`;
  const web = service.webUrl ?? DEFAULT_WEB_URL;
  return {
    // Facebook Login's manual flow: the dialog on `webUrl`, the code exchanged on the Graph API.
    codeFlow: {
      pkce: true,
      scopes: service.scopes ?? ['email', 'public_profile'],
      authorizationEndpoint: async () => ({ url: `${web}/dialog/oauth` }),
      async exchange(exchange, signal) {
        const url = new URL('oauth/access_token', base);
        const parameters = {
          client_id: service.appId,
          client_secret: service.appSecret,
          ...codeParameters(exchange),
        };
        for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
        const tokens = await requestTokens(http, service.name, { url }, signal);
        return { accessToken: tokens.access_token ?? '', accessTokenSecret: '' };
      },
    },
    async verify({ accessToken }, signal) {
      const url = new URL('me', base);
      url.searchParams.set('fields', 'id,name,email,picture');
      url.searchParams.set('access_token', accessToken);
      url.searchParams.set(
        'appsecret_proof',
        createHmac('sha256', service.appSecret).update(accessToken).digest('hex'),
      );
      const me = await http.json(
        service.name,
        { url, schema: Me, isRefusal: isTokenRefusal },
        signal,
      );
      const email = given(me.email);
      return {
        provider: service.name,
        id: me.id,
        name: given(me.name),
        username: undefined,
        email,
        // The Graph API only returns confirmed addresses.
        emailVerified: email !== undefined,
        avatarUrl: httpsUrl(me.picture?.data?.url),
      };
    },
  };
}

export const facebook = providerType({
  schema: FacebookServiceSchema,
  baseUrlKeys: ['graphUrl', 'webUrl'],
  defaultAvatarHosts: () => ['*.fbcdn.net', 'platform-lookaside.fbsbx.com', 'graph.facebook.com'],
  create: verifyWithFacebook,
});
