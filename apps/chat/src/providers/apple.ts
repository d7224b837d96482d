import { Type } from 'typebox';
import type { ProviderHttp } from './http.js';
import { claimIsTrue, oneTimeUse, RemoteKeySet, stringClaim, verifyIdToken } from './id-token.js';
import {
  type IdentityProvider,
  type ProviderSettings,
  providerType,
  type ServiceOf,
  ServiceUrl,
  serviceSchema,
} from './types.js';

const DEFAULT_ISSUER = 'https://appleid.apple.com';
const DEFAULT_JWKS_URL = 'https://appleid.apple.com/auth/keys';
const AppleServiceSchema = serviceSchema('apple', {
  issuer: Type.Optional(ServiceUrl),
  jwksUrl: Type.Optional(ServiceUrl),
});
export type AppleService = ServiceOf<typeof AppleServiceSchema>;

/**
 * Sign in with Apple: the client sends the `identityToken` Apple gave it (an ID token signed with
 * one of the keys at `jwksUrl`); it is verified as id-token.ts says, with `aud` the configured
 * `appId` (the app's bundle id or the Services ID). Apple has no userinfo endpoint and tells the
 * user's name only to the client, once: the identity is the token's `sub` and `email` (often a
 * private relay address, still "verified").
 */
export function verifyWithApple(
  service: AppleService,
  http: ProviderHttp,
  settings: ProviderSettings,
): IdentityProvider {
  const issuer = (service.issuer ?? DEFAULT_ISSUER).replace(/\/+$/, '');
  const jwksUrl = service.jwksUrl ?? DEFAULT_JWKS_URL;
  const keys = new RemoteKeySet(service.name, async () => jwksUrl, http);

  return {
    accepts: 'id-token',
    async verify({ idToken, nonce }, signal) {
      // The login route never calls an id-token provider without one.
      const claims = await verifyIdToken(
        service.name,
        idToken ?? '',
        keys,
        { issuer, clientId: service.appId, nonce, maxAgeSeconds: settings.idTokenMaxAgeSeconds },
        signal,
      );
      const email = stringClaim(claims.email);
      return {
        provider: service.name,
        id: claims.sub,
        name: undefined,
        username: undefined,
        email,
        emailVerified: email !== undefined && claimIsTrue(claims.email_verified),
        avatarUrl: undefined,
        oneTimeUse: oneTimeUse(idToken ?? '', claims, settings.idTokenMaxAgeSeconds),
      };
    },
  };
}

export const apple = providerType({
  schema: AppleServiceSchema,
  baseUrlKeys: ['issuer'],
  secureUrlKeys: ['jwksUrl'],
  // Apple tells no picture.
  defaultAvatarHosts: () => [],
  create: verifyWithApple,
});
