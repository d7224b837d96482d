import { sign as githubSign, verify as githubVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { headerValue, verificationText } from '../src/capture/record.js';
import {
  DEFAULT_TOLERANCE_SECONDS,
  type HeaderPairs,
  type VerifySpec,
} from '../src/config/types.js';
import { sign, verify } from '../src/verify/verify.js';

const stripe = new Stripe('sk_test_not_used_for_network');
const body = Buffer.from('{"id":"evt_1","amount":12.50,"note":"Zoë"}');
const spec = (scheme: VerifySpec['scheme'], secret: string, extra: Partial<VerifySpec> = {}) => ({
  scheme,
  secret,
  toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
  ...extra,
});
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const STANDARD_SECRET = `whsec_${Buffer.from('a standard webhooks test secret!').toString('base64')}`;

describe('verify against deliveries signed by the providers’ own libraries', () => {
  it('github (@octokit/webhooks-methods)', async () => {
    const headers: HeaderPairs = [
      ['X-Hub-Signature-256', await githubSign('gh-secret', body.toString())],
    ];
    const ok = verify({ headers, body }, spec('github', 'gh-secret'));
    expect(verificationText(ok)).toBe('✓ github signature valid');
    const wrong = verify({ headers, body }, spec('github', 'other'));
    expect(verificationText(wrong)).toBe('✗ github: signature mismatch');
    const tampered = verify(
      { headers, body: Buffer.from(`${body} `) },
      spec('github', 'gh-secret'),
    );
    expect(tampered.ok).toBe(false);
    expect(verify({ headers: [], body }, spec('github', 's')).reason).toBe(
      'missing X-Hub-Signature-256 header',
    );
  });

  it('stripe (stripe.webhooks), with its tolerance', () => {
    const timestamp = Math.floor(NOW / 1000);
    const header = stripe.webhooks.generateTestHeaderString({
      payload: body.toString(),
      secret: 'whsec_stripe',
      timestamp,
    });
    const headers: HeaderPairs = [['Stripe-Signature', header]];
    expect(verify({ headers, body }, spec('stripe', 'whsec_stripe'), NOW).ok).toBe(true);
    const late = verify({ headers, body }, spec('stripe', 'whsec_stripe'), NOW + 412_000);
    expect(verificationText(late)).toBe('✗ stripe: timestamp outside tolerance (412 s)');
    expect(verify({ headers, body }, spec('stripe', 'whsec_x'), NOW).reason).toBe(
      'signature mismatch',
    );
  });

  it('standard-webhooks (standardwebhooks), and the same with svix-* headers', () => {
    const webhook = new Webhook(STANDARD_SECRET);
    const signature = webhook.sign('msg_1', new Date(NOW), body.toString());
    const headers: HeaderPairs = [
      ['webhook-id', 'msg_1'],
      ['webhook-timestamp', String(NOW / 1000)],
      ['webhook-signature', signature],
    ];
    const check = spec('standard-webhooks', STANDARD_SECRET);
    expect(verificationText(verify({ headers, body }, check, NOW))).toBe(
      '✓ standard-webhooks signature valid',
    );
    const svix = headers.map(
      ([name, value]) => [name.replace('webhook-', 'svix-'), value] as const,
    );
    expect(verify({ headers: svix, body }, check, NOW).ok).toBe(true);
    expect(verify({ headers, body }, check, NOW - 3_600_000).reason).toBe(
      'timestamp outside tolerance (3600 s)',
    );
  });

  it("slack (the example in Slack's documentation)", () => {
    const slackBody = Buffer.from(
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
    );
    const headers: HeaderPairs = [
      ['X-Slack-Request-Timestamp', '1531420618'],
      ['X-Slack-Signature', 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503'],
    ];
    const check = spec('slack', '8f742231b10e8888abcd99yyyzzz85a5');
    expect(verify({ headers, body: slackBody }, check, 1531420618_000).ok).toBe(true);
    expect(verify({ headers, body: slackBody }, check, 1531420618_000 + 301_000).reason).toBe(
      'timestamp outside tolerance (301 s)',
    );
  });

  it('shopify and generic hmac-sha256/512 with a named header, encoding and prefix', () => {
    const shopify = [['X-Shopify-Hmac-Sha256', hmacOf('sha256', 'shp', body, 'base64')]] as const;
    expect(verify({ headers: shopify, body }, spec('shopify', 'shp')).ok).toBe(true);
    const generic = spec('hmac-sha512', 'k', {
      header: 'X-Sig',
      encoding: 'base64',
      prefix: 'sha512=',
    });
    const headers = [['x-sig', `sha512=${hmacOf('sha512', 'k', body, 'base64')}`]] as const;
    expect(verificationText(verify({ headers, body }, generic))).toBe(
      '✓ hmac-sha512 signature valid',
    );
    expect(verify({ headers: [['X-Sig', 'nope']], body }, generic).reason).toBe(
      'malformed X-Sig header (expected sha512=…)',
    );
  });

  it('a truncated body is not claimed valid', () => {
    const headers = [['X-Shopify-Hmac-Sha256', hmacOf('sha256', 's', body, 'base64')]] as const;
    expect(verify({ headers, body, truncated: true }, spec('shopify', 's')).ok).toBe(false);
  });
});

describe('re-signing, checked by the providers’ own libraries', () => {
  const edited = Buffer.from('{"id":"evt_1","amount":99.00}');

  it('github', async () => {
    const headers = sign(
      { headers: [['X-Hub-Signature-256', 'sha256=00']], body: edited },
      spec('github', 'gh'),
    );
    expect(headers).toHaveLength(1);
    expect(
      await githubVerify(
        'gh',
        edited.toString(),
        headerValue(headers, 'x-hub-signature-256') ?? '',
      ),
    ).toBe(true);
  });

  it('stripe, with a fresh timestamp its tolerance accepts', () => {
    const old = [
      ['Content-Type', 'application/json'],
      ['Stripe-Signature', 't=1,v1=00'],
    ] as const;
    const headers = sign({ headers: old, body: edited }, spec('stripe', 'whsec_s'));
    expect(headers[0]).toEqual(['Content-Type', 'application/json']);
    const event = stripe.webhooks.constructEvent(
      edited.toString(),
      headerValue(headers, 'stripe-signature') ?? '',
      'whsec_s',
    );
    expect(event.id).toBe('evt_1');
  });

  it('standard-webhooks keeps the message id and is accepted by standardwebhooks', () => {
    const old = [
      ['webhook-id', 'msg_7'],
      ['webhook-timestamp', '1'],
      ['webhook-signature', 'v1,AA=='],
    ] as const;
    const headers = sign(
      { headers: old, body: edited },
      spec('standard-webhooks', STANDARD_SECRET),
    );
    expect(headerValue(headers, 'webhook-id')).toBe('msg_7');
    const plain = Object.fromEntries(headers.map(([name, value]) => [name, value]));
    expect(new Webhook(STANDARD_SECRET).verify(edited, plain)).toEqual({ id: 'evt_1', amount: 99 });
  });

  it('slack and the rest verify with our own check', () => {
    for (const scheme of ['slack', 'shopify', 'hmac-sha256'] as const) {
      const check = spec(scheme, 'secret', { header: 'X-Sig' });
      expect(
        verify({ headers: sign({ headers: [], body: edited }, check), body: edited }, check).ok,
      ).toBe(true);
    }
  });
});

import { createHmac } from 'node:crypto';

function hmacOf(algorithm: string, key: string, data: Buffer, encoding: 'hex' | 'base64') {
  return createHmac(algorithm, key).update(data).digest(encoding);
}
