import { type Static, Type } from 'typebox';
import { invalidCredentials, providerUnavailable } from '../errors.js';
import { codeParameters, requestTokens } from './code-flow.js';
import { inParallel, type ProviderHttp } from './http.js';
import { claimIsTrue, oneTimeUse, RemoteKeySet, stringClaim, verifyIdToken } from './id-token.js';
import {
  given,
  hostOf,
  httpsUrl,
  type IdentityProvider,
  type NormalisedIdentity,
  type ProviderSettings,
  providerType,
  type ServiceOf,
  ServiceUrl,
  serviceSchema,
} from './types.js';

const OidcServiceSchema = serviceSchema('oidc', {
  issuer: ServiceUrl,
  tokenInfoUrl: Type.Optional(ServiceUrl),
});
export type OidcService = ServiceOf<typeof OidcServiceSchema>;

const HttpsOrHttpUrl = Type.String({ pattern: '^https?://' });
const Discovery = Type.Object({
  issuer: Type.String(),
  authorization_endpoint: Type.Optional(HttpsOrHttpUrl),
  token_endpoint: Type.Optional(HttpsOrHttpUrl),
  userinfo_endpoint: HttpsOrHttpUrl,
  introspection_endpoint: Type.Optional(HttpsOrHttpUrl),
  jwks_uri: Type.Optional(HttpsOrHttpUrl),
});

const Audience = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));
const BooleanLike = Type.Optional(
  Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')]),
);

const UserInfo = Type.Object({
  sub: Type.String({ minLength: 1, maxLength: 255 }),
  name: Type.Optional(Type.String()),
  preferred_username: Type.Optional(Type.String()),
  nickname: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  email_verified: BooleanLike,
  picture: Type.Optional(Type.String()),
});

/** RFC 7662: only `active` is required; the rest says who the token was issued to. */
const Introspection = Type.Object({
  active: Type.Boolean(),
  client_id: Type.Optional(Type.String()),
  aud: Audience,
  sub: Type.Optional(Type.String()),
});

/** A token-info endpoint in the style of Google's `oauth2.googleapis.com/tokeninfo`. */
const TokenInfo = Type.Object({
  aud: Audience,
  azp: Type.Optional(Type.String()),
  sub: Type.Optional(Type.String()),
});

/** How long a discovery document is trusted before it is fetched again. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

interface AudienceClaims {
  client_id?: string | undefined;
  azp?: string | undefined;
  aud?: string | string[] | undefined;
  sub?: string | undefined;
}

/**
 * Any OpenID Connect provider (Google, Keycloak, Auth0...): the userinfo endpoint from the
 * discovery document says who the token belongs to. Userinfo alone would accept a token issued to
 * any other application of the same provider, so the token's audience is checked as well: by RFC
 * 7662 introspection with the client's credentials when the provider offers it, else by the
 * configured `tokenInfoUrl`. Without either the login is refused.
 *
 * A client may send an `idToken` instead of (or with) the access token: it is verified against
 * the keys of the discovery document's `jwks_uri` (id-token.ts) and says who the user is by
 * itself. With both, both are verified and must name the same user.
 */
export function verifyWithOidc(
  service: OidcService,
  http: ProviderHttp,
  settings: ProviderSettings,
): IdentityProvider {
  const issuer = service.issuer.replace(/\/+$/, '');
  const clientAuthorization = `Basic ${Buffer.from(
    `${encodeURIComponent(service.appId)}:${encodeURIComponent(service.appSecret)}`,
  ).toString('base64')}`;
  let discovery: { value: Promise<Static<typeof Discovery>>; fetchedAt: number } | undefined;

  /** Cached for an hour; a failed fetch is not cached, so the next login tries again. */
  function discover(signal: AbortSignal) {
    if (!discovery || Date.now() - discovery.fetchedAt > DISCOVERY_TTL_MS) {
      const entry = {
        fetchedAt: Date.now(),
        value: http
          .json(
            service.name,
            {
              url: `${issuer}/.well-known/openid-configuration`,
              schema: Discovery,
              isRefusal: () => false,
            },
            signal,
          )
          .then((document) => {
            if (document.issuer.replace(/\/+$/, '') !== issuer) {
              throw providerUnavailable(
                `The identity provider "${service.name}" announces issuer ${document.issuer}, not ${issuer}`,
              );
            }
            return document;
          }),
      };
      entry.value.catch(() => {
        if (discovery === entry) discovery = undefined;
      });
      discovery = entry;
    }
    return discovery.value;
  }

  async function audienceClaims(
    endpoint: string | undefined,
    accessToken: string,
    signal: AbortSignal,
  ): Promise<AudienceClaims> {
    if (endpoint) {
      const answer = await http.json(
        service.name,
        {
          url: endpoint,
          method: 'POST',
          headers: { authorization: clientAuthorization },
          body: new URLSearchParams({ token: accessToken, token_type_hint: 'access_token' }),
          schema: Introspection,
          // A 401 here means the client's own credentials are wrong: a configuration problem.
          isRefusal: () => false,
        },
        signal,
      );
      if (!answer.active)
        throw invalidCredentials(`The identity provider "${service.name}" refused the credentials`);
      return answer;
    }
    if (service.tokenInfoUrl) {
      const url = new URL(service.tokenInfoUrl);
      url.searchParams.set('access_token', accessToken);
      return http.json(
        service.name,
        // Google answers 400 {"error": "invalid_token"} for a token it does not know.
        { url, schema: TokenInfo, isRefusal: (status) => status >= 400 && status < 500 },
        signal,
      );
    }
    throw providerUnavailable(
      `The identity provider "${service.name}" offers no token introspection and no tokenInfoUrl is configured: the token's audience cannot be checked`,
    );
  }

  const keys = new RemoteKeySet(
    service.name,
    async (signal) => {
      const document = await discover(signal);
      if (!document.jwks_uri) {
        throw providerUnavailable(
          `The identity provider "${service.name}" announces no jwks_uri: ID tokens cannot be verified`,
        );
      }
      return document.jwks_uri;
    },
    http,
  );

  async function fromIdToken(
    idToken: string,
    nonce: string | undefined,
    signal: AbortSignal,
  ): Promise<NormalisedIdentity> {
    const claims = await verifyIdToken(
      service.name,
      idToken,
      keys,
      {
        issuer: (await discover(signal)).issuer,
        clientId: service.appId,
        nonce,
        maxAgeSeconds: settings.idTokenMaxAgeSeconds,
      },
      signal,
    );
    const email = stringClaim(claims.email);
    return {
      provider: service.name,
      id: claims.sub,
      name: stringClaim(claims.name),
      username: stringClaim(claims.preferred_username) ?? stringClaim(claims.nickname),
      email,
      emailVerified: email !== undefined && claimIsTrue(claims.email_verified),
      avatarUrl: httpsUrl(stringClaim(claims.picture)),
      oneTimeUse: oneTimeUse(idToken, claims, settings.idTokenMaxAgeSeconds),
    };
  }

  async function fromAccessToken(
    accessToken: string,
    signal: AbortSignal,
  ): Promise<NormalisedIdentity> {
    const document = await discover(signal);
    const [info, claims] = await inParallel(signal, (shared) => [
      http.json(
        service.name,
        {
          url: document.userinfo_endpoint,
          headers: { authorization: `Bearer ${accessToken}` },
          schema: UserInfo,
        },
        shared,
      ),
      audienceClaims(document.introspection_endpoint, accessToken, shared),
    ]);
    const audiences = [claims.client_id, claims.azp, claims.aud].flat();
    if (!audiences.includes(service.appId)) {
      throw invalidCredentials(`The token was not issued to this application`);
    }
    if (claims.sub !== undefined && claims.sub !== info.sub) {
      throw invalidCredentials(`The token was not issued to this user`);
    }
    const email = given(info.email);
    return {
      provider: service.name,
      id: info.sub,
      name: given(info.name),
      username: given(info.preferred_username) ?? given(info.nickname),
      email,
      emailVerified: email !== undefined && String(info.email_verified) === 'true',
      avatarUrl: httpsUrl(info.picture),
    };
  }

  /**
   * An endpoint of the discovery document the redirect flow needs; its absence, or an address
   * that does not parse (`http://bad host/…` passes the schema's `^https?://`), is an outage.
   */
  async function endpoint(name: 'authorization_endpoint' | 'token_endpoint', signal: AbortSignal) {
    const url = (await discover(signal))[name];
    const unusable = (what: string) =>
      providerUnavailable(
        `The identity provider "${service.name}" announces ${what}: the redirect flow cannot be used`,
      );
    if (!url) throw unusable(`no ${name}`);
    if (!URL.canParse(url)) throw unusable(`an ${name} that is not a URL`);
    return url;
  }

  return {
    accepts: 'either',
    // Endpoints from the discovery document; client_secret_basic, PKCE S256 (RFC 7636).
    codeFlow: {
      pkce: true,
      scopes: service.scopes ?? ['openid', 'profile', 'email'],
      authorizationEndpoint: (signal) => endpoint('authorization_endpoint', signal),
      async exchange(exchange, signal) {
        const tokens = await requestTokens(
          http,
          service.name,
          {
            url: await endpoint('token_endpoint', signal),
            method: 'POST',
            headers: { authorization: clientAuthorization },
            body: new URLSearchParams({
              grant_type: 'authorization_code',
              ...codeParameters(exchange),
            }),
          },
          signal,
        );
        return {
          accessToken: tokens.access_token ?? '',
          accessTokenSecret: '',
          idToken: tokens.id_token,
        };
      },
    },
    async verify({ accessToken, idToken, nonce }, signal) {
      if (idToken === undefined) return fromAccessToken(accessToken, signal);
      if (accessToken === '') return fromIdToken(idToken, nonce, signal);
      const [fromId, fromAccess] = await inParallel(signal, (shared) => [
        fromIdToken(idToken, nonce, shared),
        fromAccessToken(accessToken, shared),
      ]);
      if (fromId.id !== fromAccess.id) {
        throw invalidCredentials('The ID token and the access token belong to different users');
      }
      // The userinfo profile is the fuller one; the ID token fills what it lacks.
      return {
        ...fromAccess,
        name: fromAccess.name ?? fromId.name,
        username: fromAccess.username ?? fromId.username,
        email: fromAccess.email ?? fromId.email,
        emailVerified: fromAccess.email ? fromAccess.emailVerified : fromId.emailVerified,
        avatarUrl: fromAccess.avatarUrl ?? fromId.avatarUrl,
        oneTimeUse: fromId.oneTimeUse,
      };
    },
  };
}

export const oidc = providerType({
  schema: OidcServiceSchema,
  baseUrlKeys: ['issuer'],
  // An OpenID Connect server serves its users' pictures itself; Google's come from
  // `*.googleusercontent.com`.
  defaultAvatarHosts: (service) => {
    const own = hostOf(service.issuer);
    if (!own) return [];
    return own === 'accounts.google.com' ? [own, '*.googleusercontent.com'] : [own];
  },
  customServerUrl: (service) => service.issuer,
  create: verifyWithOidc,
});
