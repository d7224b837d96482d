import { describe, expect, it } from 'vitest';
import { parseServices } from '../src/config.js';
import { ProviderHttp } from '../src/providers/http.js';
import { buildRegistry } from '../src/providers/registry.js';

/** What each provider type's module answers for a service entry that names only its credentials. */
describe('provider registry', () => {
  const registry = (yaml: string) =>
    buildRegistry(parseServices(yaml, 'test.yaml', {}), new ProviderHttp({ maxBytes: 1024 }), {
      idTokenMaxAgeSeconds: 600,
    });

  it('gives each provider type its own avatar hosts when the entry names none', () => {
    const services = registry(`
services:
  twitter: { type: twitter, appId: a, appSecret: s }
  facebook: { type: facebook, appId: a, appSecret: s }
  github: { type: github, appId: a, appSecret: s }
  ghe: { type: github, appId: a, appSecret: s, apiUrl: "https://git.example.com/api/v3/" }
  google: { type: oidc, appId: a, appSecret: s, issuer: "https://accounts.google.com" }
  keycloak: { type: oidc, appId: a, appSecret: s, issuer: "https://id.example.org/realms/x" }
  apple: { type: apple, appId: a, appSecret: s }
  pinned: { type: github, appId: a, appSecret: s, avatarHosts: [img.example.net] }
`);
    const hosts = Object.fromEntries([...services].map(([name, s]) => [name, s.avatarHosts]));
    expect(hosts).toEqual({
      twitter: ['pbs.twimg.com', 'abs.twimg.com'],
      facebook: ['*.fbcdn.net', 'platform-lookaside.fbsbx.com', 'graph.facebook.com'],
      github: ['avatars.githubusercontent.com'],
      ghe: ['avatars.githubusercontent.com', 'git.example.com'],
      google: ['accounts.google.com', '*.googleusercontent.com'],
      keycloak: ['id.example.org'],
      apple: [],
      pinned: ['img.example.net'],
    });
  });

  it('gives only OpenID Connect services a server URL (Rocket.Chat custom OAuth)', () => {
    const services = registry(`
services:
  github: { type: github, appId: a, appSecret: s }
  keycloak: { type: oidc, appId: a, appSecret: s, issuer: "https://id.example.org/realms/x/" }
`);
    expect(services.get('github')?.customServerUrl).toBeUndefined();
    expect(services.get('keycloak')?.customServerUrl).toBe('https://id.example.org/realms/x');
  });

  it('refuses a type no module has, naming the types there are', () => {
    expect(() => registry('services:\n  x: { type: constructor, appId: a, appSecret: s }')).toThrow(
      'services.x.type: must be one of twitter, facebook, github, oidc, apple',
    );
  });
});
