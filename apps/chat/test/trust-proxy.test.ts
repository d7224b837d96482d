import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { accounts } from './support/accounts.js';
import { Harness, loginBody } from './support/harness.js';

/** TRUST_PROXY: whose X-Forwarded-For decides the client address the rate limits count. */
let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

const env = (vars: Record<string, string>) => ({ CHAT_CONFIG: '', ...vars });

describe('TRUST_PROXY: a forwarded address is believed only from the proxies named (TRUST_PROXY=true let the client choose its rate-limit address)', () => {
  it('refuses TRUST_PROXY=true at start-up with a message saying what to set', () => {
    for (const value of ['true', 'TRUE', 'yes']) {
      expect(() => loadConfig(env({ TRUST_PROXY: value }), '/nonexistent')).toThrow(ConfigError);
      expect(() => loadConfig(env({ TRUST_PROXY: value }), '/nonexistent')).toThrow(
        /TRUST_PROXY: .*any client choose its own address; name the proxies/,
      );
    }
  });

  it('takes trusted proxy addresses or CIDR ranges, and refuses a hop count (a client reaching the service directly would choose its address)', () => {
    const read = (value: string) =>
      loadConfig(env({ TRUST_PROXY: value }), '/nonexistent').trustProxy;
    expect(read('10.0.0.1, 192.168.0.0/16,loopback')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'loopback',
    ]);
    expect(() => read('1')).toThrow(/TRUST_PROXY: "1" is a hop count/);
    expect(read('false')).toBe(false);
    expect(read('')).toBe(false);
    expect(read('0')).toBe(false);
    for (const bad of ['11', 'proxy.example.com', '10.0.0.0/33', '1.2.3']) {
      expect(() => read(bad), bad).toThrow(ConfigError);
    }
  });

  for (const setting of ['10.0.0.1', '10.0.0.0/8']) {
    it(`TRUST_PROXY=${setting}: 25 logins with a forged X-Forwarded-For are limited by the real address`, async () => {
      const { trustProxy } = loadConfig(env({ TRUST_PROXY: setting }), '/nonexistent');
      const app = await h.app({ trustProxy, loginRateLimit: 10 });
      const body = { ...loginBody('facebook', ''), ...accounts.facebook(h.fake) };
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/login',
          payload: body,
          // The client wrote "9.9.9.<i>"; the proxy at 10.0.0.1 appended the address it saw.
          headers: { 'x-forwarded-for': `9.9.9.${i}, 203.0.113.7` },
          remoteAddress: '10.0.0.1',
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.slice(10)).toEqual(Array(15).fill(429));
    });
  }
});
