import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseServices } from '../src/config.js';
import { accounts } from './support/accounts.js';
import { fakeServices, Harness, login, loginBody } from './support/harness.js';

/**
 * Provider base URLs: a trailing `/` in a provider's base URL produced `//1.1/...`.
 * Base URLs are normalised where the services file is read, so every provider module gets them
 * without one.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

const yaml = (base: string) => `services:
  twitter: { type: twitter, appId: k, appSecret: s, apiUrl: "${base}/twitter//" }
  facebook: { type: facebook, appId: k, appSecret: s, graphUrl: "${base}/facebook/" }
  github: { type: github, appId: k, appSecret: s, apiUrl: "${base}/github/" }
  keycloak: { type: oidc, appId: k, appSecret: s, issuer: "${base}/oidc/" }
`;

describe('base URLs with a trailing slash', () => {
  it('are read without it', () => {
    const services = parseServices(yaml('https://api.example.com'), 'chat.config.yaml', {});
    const base = (service: Record<string, unknown>) =>
      service.apiUrl ?? service.graphUrl ?? service.issuer;
    expect(services.map((service) => base(service))).toEqual([
      'https://api.example.com/twitter',
      'https://api.example.com/facebook',
      'https://api.example.com/github',
      'https://api.example.com/oidc',
    ]);
  });

  it('refuse a query, a fragment or credentials, which a path appended to them would break', () => {
    for (const url of ['https://a.example/?v=1', 'https://a.example/#x', 'https://u:p@a.example']) {
      expect(() =>
        parseServices(
          `services:\n  github: { type: github, appId: k, appSecret: s, apiUrl: "${url}" }\n`,
          'chat.config.yaml',
          {},
        ),
      ).toThrow(ConfigError);
    }
  });

  it('every provider is called on single-slash paths', async () => {
    const parsed = parseServices(yaml(h.fake.url), 'chat.config.yaml', {});
    const services = fakeServices(h.fake.url).map((service) => {
      const base = parsed.find((entry) => entry.name === service.name);
      return base
        ? ({
            ...service,
            ...base,
            appId: service.appId,
            appSecret: service.appSecret,
          } as typeof service)
        : service;
    });
    const app = await h.app({ services });
    for (const name of ['twitter', 'facebook', 'github', 'keycloak'] as const) {
      const response = await login(app, { ...loginBody(name, ''), ...accounts[name](h.fake) });
      expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
    }
    expect(h.fake.calls.filter((path) => path.includes('//'))).toEqual([]);
  });
});
