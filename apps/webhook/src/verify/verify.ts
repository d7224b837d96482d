import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { headerValue, type SignatureScheme, type Verification } from '../capture/record.js';
import type { HeaderPairs, VerifySpec } from '../config/types.js';

/** What a signature covers: the headers (for the signature and timestamp) and the body bytes. */
export interface SignedRequest {
  readonly headers: HeaderPairs;
  readonly body: Buffer;
  /** A truncated body cannot be verified: the signature covers bytes that were not kept. */
  readonly truncated?: boolean;
}

/**
 * One module per provider's rules: which headers carry what, what is signed, how the digest is
 * written. `verify` and `sign` are generic over these.
 */
interface SchemeRules {
  /** The signature header, named as providers send it (for messages and for re-signing). */
  readonly signatureHeader: (spec: VerifySpec, headers: HeaderPairs) => string;
  /** Checks the signature; returns null when valid, else the reason. */
  readonly check: (request: SignedRequest, spec: VerifySpec, nowMs: number) => string | null;
  /** New signature headers for `request.body` at `nowMs`. */
  readonly headersFor: (request: SignedRequest, spec: VerifySpec, nowMs: number) => HeaderPairs;
}

const VALID = 'signature valid';
const MISMATCH = 'signature mismatch';

function hmac(algorithm: 'sha1' | 'sha256' | 'sha512', key: Buffer | string, ...parts: Buffer[]) {
  const mac = createHmac(algorithm, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** Constant-time comparison of a computed digest with the text a request carried. */
function sameDigest(expected: Buffer, given: string, encoding: 'hex' | 'base64'): boolean {
  const text = given.trim();
  const valid = encoding === 'hex' ? /^[0-9a-f]+$/i.test(text) : /^[A-Za-z0-9+/]+=*$/.test(text);
  if (!valid) return false;
  const bytes = Buffer.from(text, encoding);
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

const OUTSIDE_TOLERANCE = 'timestamp outside tolerance';

/** `null` when `timestamp` (seconds) is within tolerance of now, else the reason. */
function checkTimestamp(timestamp: string, spec: VerifySpec, nowMs: number): string | null {
  if (!/^\d{1,12}$/.test(timestamp.trim())) return `malformed timestamp (${shortText(timestamp)})`;
  const skew = Math.round(Math.abs(nowMs / 1000 - Number(timestamp)));
  return skew > spec.toleranceSeconds ? `${OUTSIDE_TOLERANCE} (${skew} s)` : null;
}

/**
 * Whether the signature was made with the secret: valid, or valid but with a timestamp already
 * outside the tolerance (every scheme compares the digest before the timestamp). Such a request's
 * bytes are the sender's; any other failure may be a forgery.
 */
export function signatureMatched(verification: Verification): boolean {
  return verification.ok || verification.reason.startsWith(`${OUTSIDE_TOLERANCE} (`);
}

/** A header value quoted in a reason, cut short: reasons are one line. */
function shortText(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

const seconds = (nowMs: number) => String(Math.floor(nowMs / 1000));
const ascii = (text: string) => Buffer.from(text, 'latin1');

const github: SchemeRules = {
  signatureHeader: () => 'X-Hub-Signature-256',
  check(request, spec) {
    const given = headerValue(request.headers, 'x-hub-signature-256');
    if (given === undefined) return 'missing X-Hub-Signature-256 header';
    if (!given.startsWith('sha256=')) return 'malformed X-Hub-Signature-256 header';
    const expected = hmac('sha256', spec.secret, request.body);
    return sameDigest(expected, given.slice(7), 'hex') ? null : MISMATCH;
  },
  headersFor(request, spec) {
    const headers: [string, string][] = [
      [
        'X-Hub-Signature-256',
        `sha256=${hmac('sha256', spec.secret, request.body).toString('hex')}`,
      ],
    ];
    // GitHub still sends the SHA-1 signature too; a replay keeps it consistent when it was there.
    if (headerValue(request.headers, 'x-hub-signature') !== undefined) {
      headers.push([
        'X-Hub-Signature',
        `sha1=${hmac('sha1', spec.secret, request.body).toString('hex')}`,
      ]);
    }
    return headers;
  },
};

const stripe: SchemeRules = {
  signatureHeader: () => 'Stripe-Signature',
  check(request, spec, nowMs) {
    const given = headerValue(request.headers, 'stripe-signature');
    if (given === undefined) return 'missing Stripe-Signature header';
    const fields = given.split(',').map((part) => part.split('=', 2) as [string, string?]);
    const timestamp = fields.find(([key]) => key.trim() === 't')?.[1];
    const signatures = fields
      .filter(([key]) => key.trim() === 'v1')
      .map(([, value]) => value ?? '');
    if (timestamp === undefined || signatures.length === 0) {
      return 'malformed Stripe-Signature header';
    }
    const expected = hmac('sha256', spec.secret, ascii(`${timestamp}.`), request.body);
    if (!signatures.some((signature) => sameDigest(expected, signature, 'hex'))) return MISMATCH;
    return checkTimestamp(timestamp, spec, nowMs);
  },
  headersFor(request, spec, nowMs) {
    const timestamp = seconds(nowMs);
    const signature = hmac('sha256', spec.secret, ascii(`${timestamp}.`), request.body);
    return [['Stripe-Signature', `t=${timestamp},v1=${signature.toString('hex')}`]];
  },
};

/** Standard Webhooks' headers, or Svix's (`svix-id`...), whichever the request carries. */
function standardFamily(headers: HeaderPairs): 'webhook' | 'svix' {
  return headerValue(headers, 'webhook-signature') === undefined &&
    headerValue(headers, 'svix-signature') !== undefined
    ? 'svix'
    : 'webhook';
}

/** The key: the secret after its `whsec_` prefix, base64-decoded (the specification's form). */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
}

const standardWebhooks: SchemeRules = {
  signatureHeader: (_spec, headers) => `${standardFamily(headers)}-signature`,
  check(request, spec, nowMs) {
    const family = standardFamily(request.headers);
    const id = headerValue(request.headers, `${family}-id`);
    const timestamp = headerValue(request.headers, `${family}-timestamp`);
    const given = headerValue(request.headers, `${family}-signature`);
    if (given === undefined) return 'missing webhook-signature (or svix-signature) header';
    if (id === undefined) return `missing ${family}-id header`;
    if (timestamp === undefined) return `missing ${family}-timestamp header`;
    const expected = hmac(
      'sha256',
      standardKey(spec.secret),
      ascii(`${id}.${timestamp}.`),
      request.body,
    );
    const signatures = given
      .split(' ')
      .filter((part) => part.startsWith('v1,'))
      .map((part) => part.slice(3));
    if (signatures.length === 0) return `malformed ${family}-signature header`;
    if (!signatures.some((signature) => sameDigest(expected, signature, 'base64'))) return MISMATCH;
    return checkTimestamp(timestamp, spec, nowMs);
  },
  headersFor(request, spec, nowMs) {
    const family = standardFamily(request.headers);
    // The id is the message's identity (receivers deduplicate by it): a replay keeps it.
    const id =
      headerValue(request.headers, `${family}-id`) ?? `msg_${randomBytes(12).toString('hex')}`;
    const timestamp = seconds(nowMs);
    const signature = hmac(
      'sha256',
      standardKey(spec.secret),
      ascii(`${id}.${timestamp}.`),
      request.body,
    );
    return [
      [`${family}-id`, id],
      [`${family}-timestamp`, timestamp],
      [`${family}-signature`, `v1,${signature.toString('base64')}`],
    ];
  },
};

const slack: SchemeRules = {
  signatureHeader: () => 'X-Slack-Signature',
  check(request, spec, nowMs) {
    const given = headerValue(request.headers, 'x-slack-signature');
    const timestamp = headerValue(request.headers, 'x-slack-request-timestamp');
    if (given === undefined) return 'missing X-Slack-Signature header';
    if (timestamp === undefined) return 'missing X-Slack-Request-Timestamp header';
    if (!given.startsWith('v0=')) return 'malformed X-Slack-Signature header';
    const expected = hmac('sha256', spec.secret, ascii(`v0:${timestamp}:`), request.body);
    if (!sameDigest(expected, given.slice(3), 'hex')) return MISMATCH;
    return checkTimestamp(timestamp, spec, nowMs);
  },
  headersFor(request, spec, nowMs) {
    const timestamp = seconds(nowMs);
    const signature = hmac('sha256', spec.secret, ascii(`v0:${timestamp}:`), request.body);
    return [
      ['X-Slack-Request-Timestamp', timestamp],
      ['X-Slack-Signature', `v0=${signature.toString('hex')}`],
    ];
  },
};

const shopify: SchemeRules = {
  signatureHeader: () => 'X-Shopify-Hmac-Sha256',
  check(request, spec) {
    const given = headerValue(request.headers, 'x-shopify-hmac-sha256');
    if (given === undefined) return 'missing X-Shopify-Hmac-Sha256 header';
    return sameDigest(hmac('sha256', spec.secret, request.body), given, 'base64') ? null : MISMATCH;
  },
  headersFor(request, spec) {
    return [
      ['X-Shopify-Hmac-Sha256', hmac('sha256', spec.secret, request.body).toString('base64')],
    ];
  },
};

function genericHmac(algorithm: 'sha256' | 'sha512'): SchemeRules {
  const headerName = (spec: VerifySpec) => spec.header ?? 'X-Signature';
  return {
    signatureHeader: headerName,
    check(request, spec) {
      const name = headerName(spec);
      const given = headerValue(request.headers, name);
      if (given === undefined) return `missing ${name} header`;
      const prefix = spec.prefix ?? '';
      if (!given.startsWith(prefix)) return `malformed ${name} header (expected ${prefix}…)`;
      const expected = hmac(algorithm, spec.secret, request.body);
      return sameDigest(expected, given.slice(prefix.length), spec.encoding ?? 'hex')
        ? null
        : MISMATCH;
    },
    headersFor(request, spec) {
      const digest = hmac(algorithm, spec.secret, request.body).toString(spec.encoding ?? 'hex');
      return [[headerName(spec), `${spec.prefix ?? ''}${digest}`]];
    },
  };
}

const SCHEMES: Record<SignatureScheme, SchemeRules> = {
  github,
  stripe,
  'standard-webhooks': standardWebhooks,
  slack,
  shopify,
  'hmac-sha256': genericHmac('sha256'),
  'hmac-sha512': genericHmac('sha512'),
};

/** Checks the request's signature under `spec`'s scheme and secret, at `nowMs`. */
export function verify(request: SignedRequest, spec: VerifySpec, nowMs = Date.now()): Verification {
  if (request.truncated) {
    return {
      scheme: spec.scheme,
      ok: false,
      reason: 'body truncated by --max-body, cannot verify',
    };
  }
  const problem = SCHEMES[spec.scheme].check(request, spec, nowMs);
  return { scheme: spec.scheme, ok: problem === null, reason: problem ?? VALID };
}

/** The header a scheme's signature travels in (`Stripe-Signature`...). */
export function signatureHeader(spec: VerifySpec, headers: HeaderPairs = []): string {
  return SCHEMES[spec.scheme].signatureHeader(spec, headers);
}

/**
 * The request's headers with the scheme's signature (and timestamp) headers recomputed over
 * `request.body` at `nowMs`: the replaced headers keep their place and case, missing ones are
 * appended. What a re-signed replay sends.
 */
export function sign(request: SignedRequest, spec: VerifySpec, nowMs = Date.now()): HeaderPairs {
  let headers = request.headers;
  for (const [name, value] of SCHEMES[spec.scheme].headersFor(request, spec, nowMs)) {
    headers = setHeader(headers, name, value);
  }
  return headers;
}

/**
 * Sets a header: the first one of that name (any case) takes the value and keeps its place and
 * spelling, later ones of that name are removed; appended when absent.
 */
export function setHeader(headers: HeaderPairs, name: string, value: string): HeaderPairs {
  const wanted = name.toLowerCase();
  const result: (readonly [string, string])[] = [];
  let found = false;
  for (const pair of headers) {
    if (pair[0].toLowerCase() !== wanted) result.push(pair);
    else if (!found) {
      found = true;
      result.push([pair[0], value]);
    }
  }
  if (!found) result.push([name, value]);
  return result;
}
