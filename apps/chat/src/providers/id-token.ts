import { createHash, timingSafeEqual } from 'node:crypto';
import {
  createLocalJWKSet,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyResult,
  jwtVerify,
} from 'jose';
import { Type } from 'typebox';
import { ChatError, invalidCredentials, providerUnavailable } from '../errors.js';
import type { ProviderHttp } from './http.js';

/**
 * OpenID Connect ID tokens (and Sign in with Apple's identity tokens, which are the same thing),
 * verified with `jose` against the provider's published keys:
 * - the signature, by a key of the provider's JWKS chosen by `kid`, with an asymmetric algorithm
 *   only (`alg: none` and HMAC, e.g. HS256 "signed" with the public key, are refused);
 * - `iss` equal to the configured issuer; `aud` containing the configured client id (OpenID
 *   Connect Core 3.1.3.7: `azp` naming it is not enough), `azp` equal to it when present and
 *   present when `aud` names several audiences; `exp` in the future, `iat` not in the future and
 *   at most `maxAgeSeconds` in the past (ID_TOKEN_MAX_AGE), with CLOCK_TOLERANCE_SECONDS;
 * - not an access token: a header `typ` of `at+jwt` (RFC 9068) or a `typ` claim other than `ID`
 *   (Keycloak marks its access tokens `Bearer`) is refused;
 * - `nonce` equal to the expected one (the client's, when it sends one; the redirect flow's
 *   always), compared in constant time; a token without one is then refused.
 * The verified token's single-use key (`oneTimeUse`) is claimed by the login route once the
 * login succeeds, so each token signs in once within its accepted lifetime, on every instance.
 */
export const ID_TOKEN_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
export const CLOCK_TOLERANCE_SECONDS = 60;
/** How long a fetched JWKS is used before it is fetched again. */
export const JWKS_MAX_AGE_MS = 60 * 60 * 1000;
/**
 * An unknown `kid` makes the JWKS be fetched again (the provider rotated its keys), but at most
 * once per this interval: tokens with invented key ids must not make the service hammer the
 * provider. Counted from the last such re-fetch, not from the regular fetch, so a rotation right
 * after a fetch is still picked up.
 */
export const JWKS_REFETCH_COOLDOWN_MS = 30_000;

/** The claims used from a verified token; anything else is ignored. */
export interface IdTokenClaims extends JWTPayload {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  preferred_username?: unknown;
  nickname?: unknown;
  picture?: unknown;
  nonce?: unknown;
  azp?: unknown;
  typ?: unknown;
}

const Jwks = Type.Object({
  keys: Type.Array(Type.Object({ kty: Type.String() }), { maxItems: 100 }),
});

/** A provider's JWKS, fetched through ProviderHttp (size limit, budget, error mapping) and cached. */
export class RemoteKeySet {
  #keys: { get: JWTVerifyGetKey; fetchedAt: number } | undefined;
  #pending: Promise<JWTVerifyGetKey> | undefined;
  #lastRefetch = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly service: string,
    private readonly url: (signal: AbortSignal) => Promise<string>,
    private readonly http: ProviderHttp,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The cached keys, fetched when there are none or they are older than JWKS_MAX_AGE_MS. */
  current(signal: AbortSignal): Promise<JWTVerifyGetKey> {
    const keys = this.#keys;
    if (keys && this.clock() - keys.fetchedAt < JWKS_MAX_AGE_MS) return Promise.resolve(keys.get);
    return this.#fetch(signal);
  }

  /** Fetches again for an unknown `kid`, unless the last fetch is too recent: then undefined. */
  refreshed(signal: AbortSignal): Promise<JWTVerifyGetKey> | undefined {
    if (this.#pending) return this.#pending;
    if (this.clock() - this.#lastRefetch < JWKS_REFETCH_COOLDOWN_MS) return undefined;
    this.#lastRefetch = this.clock();
    return this.#fetch(signal);
  }

  /**
   * Drops the kept keys after one of them could not be used (jose reads a key only when a token
   * names it), so the next login fetches them again; at most once per refetch cooldown, as a token
   * naming a broken key could be sent again and again.
   */
  forget(): void {
    if (this.clock() - this.#lastRefetch < JWKS_REFETCH_COOLDOWN_MS) return;
    this.#lastRefetch = this.clock();
    this.#keys = undefined;
  }

  /** One fetch at a time; concurrent logins wait for the same one. A failure is not cached. */
  #fetch(signal: AbortSignal): Promise<JWTVerifyGetKey> {
    if (this.#pending) return this.#pending;
    const pending = (async () => {
      const url = await this.url(signal);
      const document = await this.http.json(
        this.service,
        { url, schema: Jwks, isRefusal: () => false },
        signal,
      );
      const get = createLocalJWKSet(document as JSONWebKeySet);
      this.#keys = { get, fetchedAt: this.clock() };
      return get;
    })();
    this.#pending = pending;
    const clear = () => {
      if (this.#pending === pending) this.#pending = undefined;
    };
    pending.then(clear, clear);
    return pending;
  }
}

export interface IdTokenExpectations {
  issuer: string;
  clientId: string;
  nonce?: string | undefined;
  /** Oldest `iat` accepted, in seconds before now (ID_TOKEN_MAX_AGE). */
  maxAgeSeconds: number;
}

/** Default of ID_TOKEN_MAX_AGE: a client signs in with a token it has just been given. */
export const ID_TOKEN_MAX_AGE_DEFAULT_SECONDS = 600;

/** Media types of access tokens (RFC 9068 section 2.1), compared without `application/`. */
const ACCESS_TOKEN_TYPES = new Set(['at+jwt']);

/**
 * The token with its signature written the one way base64url allows. A decoder ignores the unused
 * low bits of the last character (4 of them for a 256-byte RSA signature), so up to 16 spellings
 * verify as the same token: anything that keys on the text (the single-use key, the lock-out)
 * takes this form, or each spelling would sign in once more. Header and payload need nothing:
 * the signature covers their text as sent.
 */
export function canonicalIdToken(token: string): string {
  const end = token.lastIndexOf('.');
  if (end < 0) return token;
  return `${token.slice(0, end + 1)}${Buffer.from(token.slice(end + 1), 'base64url').toString('base64url')}`;
}

/**
 * What makes a verified token single-use: its issuer and `jti`, or the hash of the whole token
 * when it has no `jti`; remembered until it could no longer be accepted anyway.
 */
export function oneTimeUse(token: string, claims: IdTokenClaims, maxAgeSeconds: number) {
  const key =
    typeof claims.jti === 'string' && claims.jti !== '' && claims.jti.length <= 256
      ? `${claims.iss}#jti:${claims.jti}`
      : `${claims.iss}#sha256:${createHash('sha256').update(canonicalIdToken(token)).digest('base64url')}`;
  const lastAccepted = Math.min(
    claims.exp ?? Number.POSITIVE_INFINITY,
    (claims.iat ?? 0) + maxAgeSeconds,
  );
  return { key, expiresAt: new Date((lastAccepted + CLOCK_TOLERANCE_SECONDS) * 1000) };
}

/** Verifies `token` as described above; every refusal is a 401 naming what is wrong. */
export async function verifyIdToken(
  service: string,
  token: string,
  keys: RemoteKeySet,
  expected: IdTokenExpectations,
  signal: AbortSignal,
): Promise<IdTokenClaims> {
  const options = {
    issuer: expected.issuer,
    algorithms: ID_TOKEN_ALGORITHMS,
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    maxTokenAge: expected.maxAgeSeconds,
    requiredClaims: ['sub', 'exp', 'iat'],
  };
  let verified: JWTVerifyResult;
  try {
    try {
      verified = await jwtVerify(token, await keys.current(signal), options);
    } catch (error) {
      const refetch =
        error instanceof errors.JWKSNoMatchingKey ? keys.refreshed(signal) : undefined;
      if (!refetch) throw error;
      verified = await jwtVerify(token, await refetch, options);
    }
  } catch (error) {
    // Not jose's refusal of the token but WebCrypto's of a published key (a modulus of one byte):
    // the provider's keys are at fault, not the client's token.
    if (!(error instanceof errors.JOSEError) && !(error instanceof ChatError)) {
      keys.forget();
      throw providerUnavailable(
        `The identity provider "${service}" publishes a key that cannot be used`,
      );
    }
    throw idTokenError(service, error);
  }
  const payload = verified.payload;
  const headerType = String(verified.protectedHeader.typ ?? '')
    .toLowerCase()
    .replace(/^application\//, '');
  if (ACCESS_TOKEN_TYPES.has(headerType) || (payload.typ !== undefined && payload.typ !== 'ID')) {
    throw invalidCredentials('The token is an access token, not an ID token');
  }
  const claims = payload as IdTokenClaims;
  if (typeof claims.sub !== 'string' || claims.sub === '' || claims.sub.length > 255) {
    throw invalidCredentials('The ID token has no usable "sub" claim');
  }
  if (typeof claims.iat === 'number' && claims.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) {
    throw invalidCredentials('The ID token was issued in the future ("iat")');
  }
  const audiences = claims.aud === undefined ? [] : [claims.aud].flat();
  if (!audiences.includes(expected.clientId)) {
    throw invalidCredentials('The ID token was not issued to this application ("aud")');
  }
  if (claims.azp !== undefined ? claims.azp !== expected.clientId : audiences.length > 1) {
    throw invalidCredentials('The ID token was not issued to this application ("azp")');
  }
  if (expected.nonce !== undefined && !sameNonce(claims.nonce, expected.nonce)) {
    throw invalidCredentials('The ID token\'s "nonce" is not the one sent');
  }
  return claims;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether the token's `nonce` claim is the expected one, in time that does not depend on where
 * they differ (both hashed to equal-length digests); a missing or non-string claim never is.
 */
function sameNonce(claim: unknown, expected: string): boolean {
  return typeof claim === 'string' && timingSafeEqual(sha256(claim), sha256(expected));
}

function idTokenError(service: string, error: unknown): ChatError {
  if (error instanceof ChatError) return error; // fetching the JWKS failed: 502/504
  if (error instanceof errors.JWTExpired) {
    return invalidCredentials(
      error.claim === 'iat'
        ? 'The ID token is too old ("iat" is further back than ID_TOKEN_MAX_AGE allows)'
        : 'The ID token has expired',
    );
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    return invalidCredentials(`The ID token's "${error.claim}" claim is not valid`);
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return invalidCredentials(
      `The ID token is signed with a key that the identity provider "${service}" does not publish`,
    );
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return invalidCredentials('The ID token is signed with an algorithm that is not accepted');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return invalidCredentials("The ID token's signature is not valid");
  }
  if (error instanceof errors.JWKSInvalid || error instanceof errors.JWKInvalid) {
    return providerUnavailable(`The identity provider "${service}" publishes unusable keys`);
  }
  return invalidCredentials('The ID token is malformed');
}

/** `email_verified` as providers send it: a boolean, or Apple's "true"/"false" strings. */
export const claimIsTrue = (value: unknown) => value === true || value === 'true';
/** A string claim, or undefined for anything else (a number, an object, an empty string). */
export const stringClaim = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
