import { createHmac } from 'node:crypto';

/**
 * One secret, two signature schemes (README "Webhooks"):
 * - `X-Hook-Signature` (NetBox): hex HMAC-SHA512 of the body, keyed with the secret's text
 *   exactly as configured (NetBox's receivers use `secret.encode('utf8')`).
 * - Standard Webhooks (`webhook-signature: v1,<base64>`): HMAC-SHA256 of `id.timestamp.body`.
 *   Its key is the secret's bytes after `whsec_` decoded from base64 when the secret has that
 *   form (what `new Webhook(secret)` of the standardwebhooks and svix libraries expects), else
 *   the secret's UTF-8 bytes (verify with `new Webhook(secret, { format: 'raw' })`).
 */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature'?: string;
  'x-hook-signature'?: string;
}

const STANDARD_PREFIX = 'whsec_';

export function standardKey(secret: string): Buffer {
  return secret.startsWith(STANDARD_PREFIX)
    ? Buffer.from(secret.slice(STANDARD_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

export function signDelivery(
  id: string,
  timestampSeconds: number,
  body: string,
  secret: string | undefined,
): SignedHeaders {
  const headers: SignedHeaders = {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
  };
  if (secret === undefined) return headers;
  const standard = createHmac('sha256', standardKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  headers['webhook-signature'] = `v1,${standard}`;
  headers['x-hook-signature'] = createHmac('sha512', secret).update(body).digest('hex');
  return headers;
}
