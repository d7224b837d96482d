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
  secureOrLoopback,
  serviceSchema,
  type UserCredentials,
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
  /** RFC 8414: read leniently (anything but a list of names counts as not announced). */
  code_challenge_methods_supported: Type.Optional(Type.Unknown()),
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

/** The discovery document's endpoints the service calls or sends the browser to. */
const ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'introspection_endpoint',
  'jwks_uri',
] as const;

/**
 * The first endpoint less secure than the issuer: an http one when the issuer is https, or an http
 * one not on a loopback host (where nothing crosses a network). An endpoint that is no URL is left
 * to the step that needs it, which says so.
 */
function insecureEndpoint(
  issuer: URL,
  document: Static<typeof Discovery>,
): { name: string; url: URL } | undefined {
  for (const name of ENDPOINTS) {
    const value = document[name];
    if (value === undefined || !URL.canParse(value)) continue;
    const url = new URL(value);
    if (url.protocol === 'https:') continue;
    if (issuer.protocol === 'https:' || !secureOrLoopback(url)) return { name, url };
  }
  return undefined;
}

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
 *
 * The redirect flow (code-flow.ts) needs no audience proof: the service redeemed the code itself,
 * with its own client secret, at the discovery document's token endpoint. The ID token of that
 * exchange says who the user is once verified (signature by the provider's keys, issuer, audience
 * this client, expiry) and once its `nonce` is the one the flow's authorization request carried,
 * which binds it to that flow even at a provider that ignores PKCE; userinfo, called with the
 * exchange's access token, adds the profile and must name the same `sub`. Introspection and
 * `tokenInfoUrl` are not called, so providers without either (Microsoft Entra ID, Auth0) work.
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
  let discovery:
    | { value: Promise<Static<typeof Discovery>>; fetchedAt: number; warned: boolean }
    | undefined;

  /** Cached for an hour; a failed fetch is not cached, so the next login tries again. */
  function discover(signal: AbortSignal) {
    if (!discovery || Date.now() - discovery.fetchedAt > DISCOVERY_TTL_MS) {
      const entry = {
        fetchedAt: Date.now(),
        warned: false,
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
            const insecure = insecureEndpoint(new URL(issuer), document);
            if (insecure) {
              const where = `The identity provider "${service.name}" announces its ${insecure.name} on http (${insecure.url.origin})`;
              throw providerUnavailable(
                new URL(issuer).protocol === 'https:'
                  ? `${where} while its issuer is https: refused, as anyone on the way could read or change what goes there`
                  : `${where}, not a loopback host: refused, as anyone on the way could read or change what goes there`,
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

  async function userInfo(accessToken: string, signal: AbortSignal) {
    const document = await discover(signal);
    return http.json(
      service.name,
      {
        url: document.userinfo_endpoint,
        headers: { authorization: `Bearer ${accessToken}` },
        schema: UserInfo,
      },
      signal,
    );
  }

  async function fromAccessToken(
    accessToken: string,
    signal: AbortSignal,
  ): Promise<NormalisedIdentity> {
    const document = await discover(signal);
    const [info, claims] = await inParallel(signal, (shared) => [
      userInfo(accessToken, shared),
      audienceClaims(document.introspection_endpoint, accessToken, shared),
    ]);
    const audiences = [claims.client_id, claims.azp, claims.aud].flat();
    if (!audiences.includes(service.appId)) {
      throw invalidCredentials(`The token was not issued to this application`);
    }
    if (claims.sub !== undefined && claims.sub !== info.sub) {
      throw invalidCredentials(`The token was not issued to this user`);
    }
    return fromUserInfo(info);
  }

  function fromUserInfo(info: Static<typeof UserInfo>): NormalisedIdentity {
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

  /**
   * The authorization endpoint, with a warning the first time a discovery document does not
   * announce PKCE S256 (RFC 8414 `code_challenge_methods_supported`): the challenge is sent anyway
   * (some providers that check it, Microsoft Entra ID's among them, do not announce it), and the
   * ID token's nonce binds each code to its flow whether or not the provider checks it.
   */
  async function authorizationTarget(signal: AbortSignal) {
    const url = await endpoint('authorization_endpoint', signal);
    const entry = discovery;
    const methods = (await discover(signal)).code_challenge_methods_supported;
    if (!entry || entry.warned || (Array.isArray(methods) && methods.includes('S256'))) {
      return { url };
    }
    entry.warned = true;
    return {
      url,
      warning: `The identity provider "${service.name}" does not announce PKCE S256 (code_challenge_methods_supported ${Array.isArray(methods) ? JSON.stringify(methods.filter((m) => typeof m === 'string').slice(0, 8)) : 'absent'}): the code_challenge is sent, but the provider may not check it; each code stays bound to its sign-in by the ID token's nonce`,
    };
  }

  /**
   * The redirect flow's identity: the exchange's ID token, which must carry the flow's nonce, with
   * the profile of userinfo (same `sub`). See above for why no audience proof is needed.
   */
  async function fromCodeExchange(
    { accessToken, idToken }: UserCredentials,
    nonce: string | undefined,
    signal: AbortSignal,
  ): Promise<NormalisedIdentity> {
    if (nonce === undefined) {
      throw invalidCredentials('The sign-in has no nonce to check the ID token against');
    }
    if (idToken === undefined) {
      throw providerUnavailable(
        `The identity provider "${service.name}" answered the authorization code without an ID token ("openid" must be among the scopes)`,
      );
    }
    const [fromId, info] = await inParallel(signal, (shared) => [
      fromIdToken(idToken, nonce, shared),
      userInfo(accessToken, shared),
    ]);
    if (info.sub !== fromId.id) {
      throw invalidCredentials('The ID token and the userinfo answer belong to different users');
    }
    return merged(fromId, fromUserInfo(info));
  }

  /** The userinfo profile is the fuller one; the ID token fills what it lacks. */
  function merged(fromId: NormalisedIdentity, fromAccess: NormalisedIdentity): NormalisedIdentity {
    return {
      ...fromAccess,
      name: fromAccess.name ?? fromId.name,
      username: fromAccess.username ?? fromId.username,
      email: fromAccess.email ?? fromId.email,
      emailVerified: fromAccess.email ? fromAccess.emailVerified : fromId.emailVerified,
      avatarUrl: fromAccess.avatarUrl ?? fromId.avatarUrl,
      oneTimeUse: fromId.oneTimeUse,
    };
  }

  return {
    accepts: 'either',
    // Endpoints from the discovery document; client_secret_basic, PKCE S256 (RFC 7636), and a
    // nonce (OpenID Connect Core 3.1.2.1) the exchange's ID token must carry.
    codeFlow: {
      pkce: true,
      nonce: true,
      scopes: service.scopes ?? ['openid', 'profile', 'email'],
      authorizationEndpoint: authorizationTarget,
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
      identify: (credentials, exchange, signal) =>
        fromCodeExchange(credentials, exchange.nonce, signal),
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
      return merged(fromId, fromAccess);
    },
  };
}

export const oidc = providerType({
  schema: OidcServiceSchema,
  baseUrlKeys: ['issuer'],
  secureUrlKeys: ['tokenInfoUrl'],
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
