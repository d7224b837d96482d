import { type Static, type TObject, type TProperties, Type } from 'typebox';
import type { AuthorizationCodeFlow } from './code-flow.js';
import type { ProviderHttp } from './http.js';

/** What every identity provider module turns the provider's answer into. */
export interface NormalisedIdentity {
  /** The configured service name (e.g. `twitter`, `google`): accounts are linked per service. */
  provider: string;
  /** The provider's user id, always as a string (GitHub's and Facebook's are numbers or digits). */
  id: string;
  name: string | undefined;
  /** The provider's handle (screen name, login, preferred username), before normalisation. */
  username: string | undefined;
  email: string | undefined;
  emailVerified: boolean;
  /** An https URL of the provider's picture, or undefined. */
  avatarUrl: string | undefined;
  /** Hours from UTC, when the provider says. */
  utcOffsetHours?: number | undefined;
  /**
   * Set when the credential was an ID token: the key the login claims so that the token signs in
   * once, and until when the claim must be remembered (see id-token.ts).
   */
  oneTimeUse?: { key: string; expiresAt: Date } | undefined;
}

/** Service-independent settings of the provider modules, from the environment. */
export interface ProviderSettings {
  /** Oldest ID token accepted, in seconds since its `iat` (ID_TOKEN_MAX_AGE). */
  idTokenMaxAgeSeconds: number;
}

/**
 * The user's credentials from the login request; only OAuth 1.0a uses the secret. `idToken` is an
 * OpenID Connect ID token (or Sign in with Apple's identity token), `nonce` what the client says it
 * put in it.
 */
export interface UserCredentials {
  /** Empty when the client sent none: only providers accepting ID tokens are then called. */
  accessToken: string;
  accessTokenSecret: string;
  idToken?: string | undefined;
  nonce?: string | undefined;
}

/** Which credentials a provider verifies; the login route refuses the others with a 400. */
export type AcceptedCredentials = 'access-token' | 'id-token' | 'either';

/**
 * One identity provider. `verify` asks the provider who the credentials belong to; it throws a
 * ChatError: 401 `invalid-credentials` when the provider refuses them, 502 `provider-unavailable`
 * for an unusable answer, 504 `provider-timeout` when `signal` fires first.
 */
export interface IdentityProvider {
  /** `access-token` when absent. */
  readonly accepts?: AcceptedCredentials;
  /** The redirect flow (`/_oauth/<service>`), for the providers that offer it. */
  readonly codeFlow?: AuthorizationCodeFlow;
  verify(credentials: UserCredentials, signal: AbortSignal): Promise<NormalisedIdentity>;
}

/** Keeps only https URLs: an avatar redirect must never point at http, javascript: or data:. */
export function httpsUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** Empty strings and nulls from providers mean "not given". */
export const given = (value: string | null | undefined): string | undefined =>
  value === null || value === undefined || value.trim() === '' ? undefined : value;

// ---------------------------------------------------------------------------------------------
// A provider type: everything about it in its module (its keys in the services file, their
// defaults, where its users' pictures are served from, how it verifies users). The registry lists
// the modules; nothing else knows a provider type by name.

/** An http(s) URL key of a service entry. */
export const ServiceUrl = Type.String({ pattern: '^https?://[^\\s]+$' });
const Secret = Type.String({ minLength: 1 });
/** A host name, or `*.` and a domain for its subdomains (routes/avatar.ts). */
const HostPattern = Type.String({
  pattern: '^(\\*\\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$',
  maxLength: 253,
});

/** The keys every service entry has, whatever its type. */
const commonKeys = {
  appId: Secret,
  appSecret: Secret,
  /** Hosts `/avatar/{username}` may redirect to for this service's users (routes/avatar.ts). */
  avatarHosts: Type.Optional(Type.Array(HostPattern, { maxItems: 100 })),
  /** Scopes the redirect flow asks for (each provider module has defaults). */
  scopes: Type.Optional(
    Type.Array(Type.String({ pattern: '^[\\x21\\x23-\\x5b\\x5d-\\x7e]{1,128}$' }), {
      maxItems: 50,
    }),
  ),
};

/** A service entry's schema: `type`, the common keys and the type's own; unknown keys are refused. */
export function serviceSchema<T extends string, P extends TProperties>(type: T, keys: P) {
  return Type.Object(
    { type: Type.Literal(type), ...commonKeys, ...keys },
    { additionalProperties: false },
  );
}

/** A validated service entry of a type, with the name it has in the services file. */
export type ServiceOf<S extends TObject> = Static<S> & { name: string };

export interface ProviderType<S extends TObject = TObject> {
  /** A service entry of this type (serviceSchema). */
  readonly schema: S;
  /**
   * Keys that are the base of the provider's API: a trailing `/` is dropped (`https://host/` and
   * `https://host` mean the same base; the modules append paths), and a query, fragment or
   * credentials, which appending a path would silently break, are refused. They are https, or
   * http to a loopback host (isLoopbackUrl), as `secureUrlKeys` are: the client secret, users'
   * tokens or the trust in an issuer go there.
   */
  readonly baseUrlKeys: readonly string[];
  /**
   * Other URL keys that decide whom the service trusts (where an issuer's keys are published, a
   * token-info endpoint): https only, or http to a loopback host, where nothing crosses a network.
   */
  readonly secureUrlKeys?: readonly string[];
  /**
   * Where the provider serves its users' pictures, for a service naming no `avatarHosts` of its
   * own. `*.domain` matches any subdomain of `domain` (not `domain` itself).
   */
  defaultAvatarHosts(service: ServiceOf<S>): readonly string[];
  /**
   * Rocket.Chat's custom OAuth services (any OpenID Connect server) carry their server URL in
   * `settings.oauth`; its built-in ones (Twitter, GitHub...) do not: undefined.
   */
  customServerUrl?(service: ServiceOf<S>): string;
  /** The module that verifies this service's users. */
  create(service: ServiceOf<S>, http: ProviderHttp, settings: ProviderSettings): IdentityProvider;
}

/** Declares a provider type (the identity function, for the types). */
export const providerType = <S extends TObject>(type: ProviderType<S>): ProviderType<S> => type;

/**
 * Whether the URL's host is this machine (`localhost`, 127.0.0.0/8, `[::1]`): the one place an
 * http address is accepted where https is required (the tests' fake providers listen there).
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Whether `url` is https, or http to a loopback host. */
export const secureOrLoopback = (url: URL) =>
  url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url));

/** The lower-case host of a URL, or undefined. */
export function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}
