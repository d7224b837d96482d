import { Type } from 'typebox';
import { codeParameters, requestTokens } from './code-flow.js';
import { inParallel, type ProviderHttp } from './http.js';
import {
  given,
  hostOf,
  httpsUrl,
  type IdentityProvider,
  providerType,
  type ServiceOf,
  ServiceUrl,
  serviceSchema,
} from './types.js';

const DEFAULT_API_URL = 'https://api.github.com';
/** Where the web flow's pages are: github.com, or the GitHub Enterprise host. */
const DEFAULT_WEB_URL = 'https://github.com';
const GithubServiceSchema = serviceSchema('github', {
  apiUrl: Type.Optional(ServiceUrl),
  webUrl: Type.Optional(ServiceUrl),
});
export type GithubService = ServiceOf<typeof GithubServiceSchema>;

const User = Type.Object({
  id: Type.Integer({ minimum: 0 }),
  login: Type.String(),
  name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  email: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  avatar_url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

const Emails = Type.Array(
  Type.Object({ email: Type.String(), verified: Type.Boolean(), primary: Type.Boolean() }),
  { maxItems: 1000 },
);

/** `POST /applications/{client_id}/token` answers 200 with the token's application. */
const TokenCheck = Type.Object({ app: Type.Object({ client_id: Type.String() }) });

/**
 * GitHub: `/user` and `/user/emails` with the Bearer token, and GitHub's token check for OAuth
 * apps (`POST /applications/{client_id}/token`, authenticated with the app's id and secret),
 * which answers 404 for a token issued to another application. The three run in parallel.
 */
export function verifyWithGithub(service: GithubService, http: ProviderHttp): IdentityProvider {
  const base = `${service.apiUrl ?? DEFAULT_API_URL}/`;
  const userHeaders = (token: string) => ({
    authorization: `Bearer ${token}`,
    accept: 'application/vnd.github+json',
  });
  const appAuthorization = `Basic ${Buffer.from(`${service.appId}:${service.appSecret}`).toString('base64')}`;
  const web = service.webUrl ?? DEFAULT_WEB_URL;

  return {
    // GitHub's web flow (github.com, or a GitHub Enterprise host as `webUrl`), PKCE included.
    codeFlow: {
      pkce: true,
      scopes: service.scopes ?? ['read:user', 'user:email'],
      authorizationEndpoint: async () => ({ url: `${web}/login/oauth/authorize` }),
      async exchange(exchange, signal) {
        const tokens = await requestTokens(
          http,
          service.name,
          {
            url: `${web}/login/oauth/access_token`,
            method: 'POST',
            body: new URLSearchParams({
              client_id: service.appId,
              client_secret: service.appSecret,
              ...codeParameters(exchange),
            }),
          },
          signal,
        );
        return { accessToken: tokens.access_token ?? '', accessTokenSecret: '' };
      },
    },
    async verify({ accessToken }, signal) {
      const [user, emails] = await inParallel(signal, (shared) => [
        http.json(
          service.name,
          { url: new URL('user', base), headers: userHeaders(accessToken), schema: User },
          shared,
        ),
        // Without the user:email scope GitHub answers 403 or 404: the public address is used.
        http.optionalJson(
          service.name,
          {
            url: new URL('user/emails', base),
            headers: userHeaders(accessToken),
            schema: Emails,
            isRefusal: (status) => status === 401,
          },
          [403, 404],
          shared,
        ),
        http.json(
          service.name,
          {
            url: new URL(`applications/${encodeURIComponent(service.appId)}/token`, base),
            method: 'POST',
            headers: {
              authorization: appAuthorization,
              accept: 'application/vnd.github+json',
              'content-type': 'application/json',
            },
            body: JSON.stringify({ access_token: accessToken }),
            schema: TokenCheck,
            // 404: a token of another application (or none); 422: not a token at all.
            isRefusal: (status) => status === 404 || status === 422,
          },
          shared,
        ),
      ]);
      const list = emails ?? [];
      const verified =
        list.find((entry) => entry.primary && entry.verified) ?? list.find((e) => e.verified);
      return {
        provider: service.name,
        id: String(user.id),
        name: given(user.name),
        username: given(user.login),
        email: verified?.email ?? given(user.email),
        emailVerified: verified !== undefined,
        avatarUrl: httpsUrl(user.avatar_url),
      };
    },
  };
}

export const github = providerType({
  schema: GithubServiceSchema,
  baseUrlKeys: ['apiUrl', 'webUrl'],
  // A GitHub Enterprise server serves its users' pictures itself.
  defaultAvatarHosts: (service) => {
    const enterprise =
      service.apiUrl && service.apiUrl !== DEFAULT_API_URL ? hostOf(service.apiUrl) : undefined;
    return ['avatars.githubusercontent.com', ...(enterprise ? [enterprise] : [])];
  },
  create: verifyWithGithub,
});
