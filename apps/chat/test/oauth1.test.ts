import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { describe, expect, it } from 'vitest';
import {
  hmacSha1Signature,
  parseAuthorizationHeader,
  percentEncode,
  signatureBaseString,
} from './support/oauth1.js';

/**
 * Twitter's "Creating a signature" example (developer.twitter.com, authentication docs): the fake
 * provider's independent OAuth 1.0a checker must reproduce its base string and signature, so the
 * tests do not merely agree with the production code's signing library.
 */
const example = {
  method: 'POST',
  url: 'https://api.twitter.com/1.1/statuses/update.json?include_entities=true',
  body: 'status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21',
  oauth: {
    oauth_consumer_key: 'xvz1evFS4wEEPTGEFPHBog',
    oauth_nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg',
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: '1318622958',
    oauth_token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
    oauth_version: '1.0',
  },
  consumerSecret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
  tokenSecret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
  baseString:
    'POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521',
  signature: 'hCtSmYh+iHYCEqBWrE7C7hYmtUk=',
};

describe('the test OAuth 1.0a checker', () => {
  it("reproduces Twitter's documented base string and signature", () => {
    const base = signatureBaseString(
      example.method,
      new URL(example.url),
      new Map(Object.entries(example.oauth)),
      new URLSearchParams(example.body),
    );
    expect(base).toBe(example.baseString);
    expect(hmacSha1Signature(base, example.consumerSecret, example.tokenSecret)).toBe(
      example.signature,
    );
  });

  it('percent-encodes as RFC 5849 3.6 says (RFC 3986 unreserved characters only)', () => {
    expect(percentEncode("Ladies + Gentlemen!*'()~._-")).toBe(
      'Ladies%20%2B%20Gentlemen%21%2A%27%28%29~._-',
    );
    expect(percentEncode('☃')).toBe('%E2%98%83');
  });

  it('agrees with the oauth-1.0a library the service signs with, on a request it checks', () => {
    const oauth = new OAuth({
      consumer: { key: 'ck', secret: 'c s&cret' },
      signature_method: 'HMAC-SHA1',
      hash_function: (text, key) => createHmac('sha1', key).update(text).digest('base64'),
    });
    const url =
      'http://127.0.0.1:8080/twitter/1.1/account/verify_credentials.json?include_email=true';
    const header = oauth.toHeader(
      oauth.authorize({ url, method: 'GET' }, { key: 'tok', secret: 't/secret' }),
    ).Authorization;
    const params = parseAuthorizationHeader(header);
    expect(params?.get('oauth_token')).toBe('tok');
    const base = signatureBaseString('GET', new URL(url), params ?? new Map());
    expect(hmacSha1Signature(base, 'c s&cret', 't/secret')).toBe(params?.get('oauth_signature'));
    expect(hmacSha1Signature(base, 'c s&cret', 'wrong')).not.toBe(params?.get('oauth_signature'));
  });
});
