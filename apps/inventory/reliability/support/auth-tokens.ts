import { createHmac } from 'node:crypto';

/**
 * JSON Web Tokens made by hand, for the attacks the authorization matrix tries: an expired
 * token, a payload changed under a kept signature, `alg: none`, a token signed with another
 * secret. Written with node:crypto rather than the service's own JWT library, so that a bug
 * shared by both could not hide itself.
 */

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export type Claims = Record<string, unknown>;

export function decodeClaims(token: string): Claims {
  const [, payload] = token.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Claims;
}

/** An HS256 token over `claims`, signed with `secret`. */
export function signHs256(claims: Claims, secret: string): string {
  const head = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** The same claims with `alg: none` and no signature. */
export function unsigned(claims: Claims): string {
  return `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}.`;
}

/** `token`'s payload replaced by `claims`, its header and signature kept. */
export function withPayload(token: string, claims: Claims): string {
  const [header, , signature] = token.split('.');
  return `${header}.${base64url(JSON.stringify(claims))}.${signature}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The claims of `token` moved into the past: issued two hours ago, expired one hour ago. */
export function expiredClaims(token: string): Claims {
  return { ...decodeClaims(token), iat: nowSeconds() - 7_200, exp: nowSeconds() - 3_600 };
}
