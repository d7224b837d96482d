import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTargetUrl, refusedAddress } from '../../src/webhooks/targets.js';
import { startTestApp, type TestContext } from '../helpers.js';

/**
 * The SSRF guard judges an IPv4 address carried inside an IPv6 one exactly like that IPv4
 * address: the IPv4-compatible (::/96), mapped (::ffff:0:0/96), translated (::ffff:0:0:0/96),
 * NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32) forms.
 */

const STRICT = { allowPrivateTargets: false };

/** Each IPv6 form of an IPv4 address `a.b.c.d` (Teredo's client address is stored inverted). */
function embeddings(ipv4: string): Record<string, string> {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  const high = hex(a, b);
  const low = hex(c, d);
  const inverted = (value: string) => (0xffff ^ Number.parseInt(value, 16)).toString(16);
  return {
    compatible: `::${high}:${low}`,
    compatibleDotted: `::${ipv4}`,
    mapped: `::ffff:${high}:${low}`,
    translated: `::ffff:0:${high}:${low}`,
    nat64: `64:ff9b::${high}:${low}`,
    sixToFour: `2002:${high}:${low}::1`,
    teredo: `2001:0:4136:e378:8000:63bf:${inverted(high)}:${inverted(low)}`,
  };
}

describe('IPv4 addresses embedded in IPv6', () => {
  for (const ipv4 of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '192.168.0.1', '100.64.0.1']) {
    it(`refuses every IPv6 form of ${ipv4}`, async () => {
      for (const [form, address] of Object.entries(embeddings(ipv4))) {
        expect(refusedAddress(address, STRICT), `${form} ${address}`).toBeDefined();
        expect(await checkTargetUrl(`http://[${address}]/`, STRICT), form).toBeDefined();
      }
    });
  }

  it('allows every IPv6 form of a public IPv4 address, as it allows the address itself', () => {
    for (const [form, address] of Object.entries(embeddings('8.8.8.8'))) {
      expect(refusedAddress(address, STRICT), `${form} ${address}`).toBeUndefined();
    }
    expect(refusedAddress('2606:4700:4700::1111', STRICT)).toBeUndefined();
  });

  describe('through the API', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await startTestApp();
    });
    afterAll(() => ctx?.close());

    it('refuses a webhook to an IPv4-compatible loopback literal', async () => {
      for (const url of ['http://[::7f00:1]/', 'http://[::127.0.0.1]:8080/hook']) {
        const response = await ctx.as('admin', {
          method: 'POST',
          url: '/webhooks',
          payload: { name: 'embedded', url, secret: 'whsec_abcdefghijklmnopqrstuvwxyz012345' },
        });
        expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
        expect(response.json().message).toContain('127.0.0.1');
      }
    });
  });
});
