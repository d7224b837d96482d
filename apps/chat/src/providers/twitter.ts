import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { Type } from 'typebox';
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

const DEFAULT_API_URL = 'https://api.twitter.com';
const TwitterServiceSchema = serviceSchema('twitter', { apiUrl: Type.Optional(ServiceUrl) });
export type TwitterService = ServiceOf<typeof TwitterServiceSchema>;

const VerifyCredentials = Type.Object({
  id_str: Type.String({ pattern: '^[0-9]{1,30}$' }),
  name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  screen_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  email: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  profile_image_url_https: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  utc_offset: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});

/**
 * Twitter (X) with OAuth 1.0a: `verify_credentials` signed with HMAC-SHA1 using the consumer
 * (application) secret and the user's token secret. A correct signature proves both that the user
 * holds the token and that the token was issued to this application.
 */
export function verifyWithTwitter(service: TwitterService, http: ProviderHttp): IdentityProvider {
  const oauth = new OAuth({
    consumer: { key: service.appId, secret: service.appSecret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  const url = new URL(
    '1.1/account/verify_credentials.json',
    `${service.apiUrl ?? DEFAULT_API_URL}/`,
  );
  url.searchParams.set('include_email', 'true');

  return {
    async verify({ accessToken, accessTokenSecret }, signal) {
      const signed = oauth.authorize(
        { url: url.toString(), method: 'GET' },
        { key: accessToken, secret: accessTokenSecret },
      );
      const user = await http.json(
        service.name,
        { url, headers: { ...oauth.toHeader(signed) }, schema: VerifyCredentials },
        signal,
      );
      const email = given(user.email);
      return {
        provider: service.name,
        id: user.id_str,
        name: given(user.name),
        username: given(user.screen_name),
        email,
        // Twitter returns an address only once the user has verified it.
        emailVerified: email !== undefined,
        avatarUrl: httpsUrl(user.profile_image_url_https),
        utcOffsetHours:
          typeof user.utc_offset === 'number' && Number.isFinite(user.utc_offset)
            ? user.utc_offset / 3600
            : undefined,
      };
    },
  };
}

export const twitter = providerType({
  schema: TwitterServiceSchema,
  baseUrlKeys: ['apiUrl'],
  defaultAvatarHosts: () => ['pbs.twimg.com', 'abs.twimg.com'],
  create: verifyWithTwitter,
});
