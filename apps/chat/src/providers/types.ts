import type { AuthorizationCodeFlow } from './code-flow.js';

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
