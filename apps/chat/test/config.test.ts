import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseServices } from '../src/config.js';

/** `${NAME}` as the YAML file writes it. */
const ref = (name: string) => `$${'{'}${name}}`;
const parse = (yaml: string, env: NodeJS.ProcessEnv = {}) =>
  parseServices(yaml, 'chat.config.yaml', env);
const failure = (yaml: string, env: NodeJS.ProcessEnv = {}) => {
  try {
    parse(yaml, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('the services file', () => {
  it('reads every service type, substituting environment references in secrets', () => {
    const services = parse(
      `services:
  twitter: { type: twitter, appId: key, appSecret: "\${TW_SECRET}", apiUrl: "http://127.0.0.1:1/tw" }
  facebook: { type: facebook, appId: "1", appSecret: s }
  github: { type: github, appId: id, appSecret: "pre-\${GH}-post" }
  google: { type: oidc, appId: c, appSecret: s, issuer: "https://accounts.google.com", tokenInfoUrl: "https://oauth2.googleapis.com/tokeninfo" }
`,
      { TW_SECRET: 'tw-secret', GH: 'gh' },
    );
    expect(services).toEqual([
      {
        name: 'twitter',
        type: 'twitter',
        appId: 'key',
        appSecret: 'tw-secret',
        apiUrl: 'http://127.0.0.1:1/tw',
      },
      { name: 'facebook', type: 'facebook', appId: '1', appSecret: 's' },
      { name: 'github', type: 'github', appId: 'id', appSecret: 'pre-gh-post' },
      {
        name: 'google',
        type: 'oidc',
        appId: 'c',
        appSecret: 's',
        issuer: 'https://accounts.google.com',
        tokenInfoUrl: 'https://oauth2.googleapis.com/tokeninfo',
      },
    ]);
  });

  it('an empty file or no services key means no services', () => {
    expect(parse('')).toEqual([]);
    expect(parse('services: {}')).toEqual([]);
  });

  it.each([
    ['services:\n  twitter: { type: twitter, appId: k }', 'services.twitter.appSecret: required'],
    ['services:\n  twitter: { appId: k, appSecret: s }', 'services.twitter.type: required'],
    [
      'services:\n  t: { type: myspace, appId: k, appSecret: s }',
      'services.t.type: must be one of twitter, facebook, github, oidc',
    ],
    ['services:\n  g: { type: oidc, appId: k, appSecret: s }', 'services.g.issuer: required'],
    [
      'services:\n  g: { type: github, appId: k, appSecret: s, apiURL: "https://x" }',
      'services.g.apiURL: unknown property',
    ],
    [
      'services:\n  g: { type: github, appId: k, appSecret: s, apiUrl: "ftp://x" }',
      'services.g.apiUrl: ',
    ],
    ['services:\n  g: { type: github, appId: 12, appSecret: s }', 'services.g.appId: '],
    ['services:\n  g: { type: github, appId: "", appSecret: s }', 'services.g.appId: '],
    ['services: [1, 2]', 'services: must be a mapping'],
    ['service: {}', 'service: unknown key'],
    ['services:\n  twitter: [', 'chat.config.yaml: not valid YAML'],
    ['services:\n  "bad name": { type: github, appId: k, appSecret: s }', 'services.bad name: '],
  ])('refuses %j: %s', (yaml, message) => {
    expect(failure(yaml)).toContain(message);
  });

  it('names the key and the variable when a referenced secret is not set, without the value', () => {
    expect(
      failure(`services:\n  github: { type: github, appId: k, appSecret: "${ref('GH_SECRET')}" }`),
    ).toBe('services.github.appSecret: environment variable GH_SECRET is not set');
  });
});

describe('the services file’s errors', () => {
  const problems = (yaml: string, env: NodeJS.ProcessEnv = {}) => {
    try {
      parse(yaml, env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  };

  it('an OIDC issuer, its tokenInfoUrl and Apple’s issuer and keys are https, or http to a loopback host only', () => {
    expect(
      problems(
        [
          'services:',
          '  kc: { type: oidc, appId: k, appSecret: s, issuer: "http://idp.example.com/realms/x", tokenInfoUrl: "http://idp.example.com/tokeninfo" }',
          '  apple: { type: apple, appId: k, appSecret: s, issuer: "http://appleid.example.com", jwksUrl: "http://appleid.example.com/auth/keys" }',
        ].join('\n'),
      ),
    ).toEqual([
      'services.kc.issuer: must be https (http only to a loopback host: localhost, 127.0.0.1, [::1]): "http://idp.example.com/realms/x"',
      'services.kc.tokenInfoUrl: must be https (http only to a loopback host: localhost, 127.0.0.1, [::1]): "http://idp.example.com/tokeninfo"',
      'services.apple.issuer: must be https (http only to a loopback host: localhost, 127.0.0.1, [::1]): "http://appleid.example.com"',
      'services.apple.jwksUrl: must be https (http only to a loopback host: localhost, 127.0.0.1, [::1]): "http://appleid.example.com/auth/keys"',
    ]);
    for (const issuer of [
      'https://idp.example.com/realms/x',
      'http://127.0.0.1:8080/realms/x',
      'http://localhost:8080',
      'http://[::1]:8080',
    ]) {
      expect(
        parse(`services:\n  kc: { type: oidc, appId: k, appSecret: s, issuer: "${issuer}" }`),
      ).toHaveLength(1);
    }
    // A loopback look-alike is not one.
    expect(
      failure(
        'services:\n  kc: { type: oidc, appId: k, appSecret: s, issuer: "http://127.0.0.1.example.com" }',
      ),
    ).toContain('services.kc.issuer: must be https');
  });

  it('refuse http base URLs to a provider the client secret is sent to, but on a loopback host', () => {
    for (const [type, key] of [
      ['github', 'apiUrl'],
      ['github', 'webUrl'],
      ['facebook', 'graphUrl'],
      ['facebook', 'webUrl'],
      ['twitter', 'apiUrl'],
    ] as const) {
      expect(
        problems(
          `services:\n  p: { type: ${type}, appId: k, appSecret: s, ${key}: "http://provider.example.com" }`,
        ),
        `${type}.${key}`,
      ).toEqual([expect.stringMatching(new RegExp(`^services\\.p\\.${key}: must be https`))]);
      expect(() =>
        parse(
          `services:\n  p: { type: ${type}, appId: k, appSecret: s, ${key}: "http://127.0.0.1:8080" }`,
          {},
        ),
      ).not.toThrow();
    }
  });

  it('never print a base URL’s password, query or fragment, written or substituted', () => {
    const written = problems(
      'services:\n  github: { type: github, appId: k, appSecret: s, apiUrl: "http://user:TopSecretPw@api.example.com" }',
    );
    expect(written).toEqual([
      'services.github.apiUrl: a base URL has no query, fragment or credentials: "http://…@api.example.com"',
    ]);
    const substituted = problems(
      `services:\n  kc: { type: oidc, appId: k, appSecret: s, issuer: "${ref('KC_ISSUER')}" }\n  gh: { type: github, appId: k, appSecret: s, webUrl: "https://gh.example/${ref('GH_PATH')}" }`,
      { KC_ISSUER: 'https://u:SubstitutedPw@idp.example.com', GH_PATH: 'x?token=SubstitutedQuery' },
    );
    expect(substituted).toEqual([
      `services.kc.issuer: a base URL has no query, fragment or credentials: "${ref('KC_ISSUER')}"`,
      `services.gh.webUrl: a base URL has no query, fragment or credentials: "https://gh.example/${ref('GH_PATH')}"`,
    ]);
    const unparsable = problems(
      'services:\n  github: { type: github, appId: k, appSecret: s, apiUrl: "http://user:TopSecretPw@[bad/?key=AlsoSecret" }',
    );
    expect(unparsable).toEqual(['services.github.apiUrl: not a URL: "http://…@[bad/?…"']);
    for (const message of [...written, ...substituted, ...unparsable]) {
      expect(message).not.toMatch(/TopSecretPw|Substituted|AlsoSecret/);
    }
  });

  it('report every problem of every service at once', () => {
    expect(
      problems(
        [
          'services:',
          '  github: { type: github, appId: gh, appSecret: s, webUrl: "http://127.0.0.1:4122/github?x=SECRETQ" }',
          `  kc: { type: oidc, appId: x, appSecret: "", issuer: "https://u:SECRETPW@idp.example.com", tokenInfoURL: "https://x" }`,
          `  tw: { type: twitter, appId: "${ref('TW_KEY')}", appSecret: "${ref('TW_SECRET')}" }`,
          '  "bad name": { type: github, appId: k, appSecret: s }',
          '  ms: { type: myspace, appId: k, appSecret: s }',
        ].join('\n'),
      ),
    ).toEqual([
      'services.github.webUrl: a base URL has no query, fragment or credentials: "http://127.0.0.1:4122/github?…"',
      'services.kc.tokenInfoURL: unknown property',
      'services.kc.appSecret: must not have fewer than 1 characters',
      'services.kc.issuer: a base URL has no query, fragment or credentials: "https://…@idp.example.com"',
      'services.tw.appId: environment variable TW_KEY is not set',
      'services.tw.appSecret: environment variable TW_SECRET is not set',
      'services.bad name: a service name is 1-64 letters, digits, ".", "_" or "-"',
      'services.ms.type: must be one of twitter, facebook, github, oidc, apple',
    ]);
  });

  it('name every unknown key of a service, not only the first', () => {
    expect(
      problems(
        'services:\n  github: { type: github, appId: k, appSecret: s, client_id: x, client_secret: y, bogus: 1 }',
      ),
    ).toEqual([
      'services.github.client_id: unknown property',
      'services.github.client_secret: unknown property',
      'services.github.bogus: unknown property',
    ]);
    // An unknown key whose variable is unset is named for the variable, the others still listed.
    expect(
      problems(
        `services:\n  github: { type: github, appId: k, appSecret: s, client_id: "${ref('CID')}", bogus: 1 }`,
      ),
    ).toEqual([
      'services.github.client_id: environment variable CID is not set',
      'services.github.bogus: unknown property',
    ]);
  });

  it('keep the problems of a service whose name holds ": " beside its unset variables', () => {
    // Matched by message text, the unset key's "services.x: " read as every problem of a service
    // named "x", and the refused name went unreported.
    expect(
      problems(
        `services:\n  "x: y": { type: github, appId: k, appSecret: "${ref('XY_SECRET')}" }\n  x: { type: github, appId: k, appSecret: s, bogus: 1 }`,
      ),
    ).toEqual([
      'services.x: y.appSecret: environment variable XY_SECRET is not set',
      'services.x: y: a service name is 1-64 letters, digits, ".", "_" or "-"',
      'services.x.bogus: unknown property',
    ]);
  });

  it('quote no line of the file when it is not YAML (the line may hold a secret)', () => {
    const message = failure('services:\n  github: { appSecret: "TopSecretPw }\n');
    expect(message).toMatch(/^chat\.config\.yaml: not valid YAML: .*line \d+/);
    expect(message).not.toContain('TopSecretPw');
  });
});

describe('the environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has documented defaults and starts without a services file', () => {
    const config = loadConfig({}, dir);
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3100,
      siteUrl: 'http://127.0.0.1:3100',
      databaseUrl: undefined,
      dataDir: join(dir, 'data/chat'),
      loginExpirationSeconds: 7_776_000,
      loginRateLimit: 10,
      apiRateLimit: 120,
      lockout: { attempts: 5, seconds: 300, maxKeys: 100_000 },
      provider: { timeoutMs: 5000, maxBytes: 1_048_576 },
      trustProxy: false,
      corsOrigins: [],
      services: [],
    });
    expect(config.reservedUsernames).toEqual(
      expect.arrayContaining(['admin', 'administrator', 'root', 'rocket.cat', 'system', 'support']),
    );
    expect(config.servicesSource).toBe(`no file at ${join(dir, 'chat.config.yaml')}`);
  });

  it('reads CHAT_CONFIG relative to the working directory, and every variable', () => {
    writeFileSync(
      join(dir, 'my.yaml'),
      `services:\n  github: { type: github, appId: k, appSecret: "${ref('S')}" }\n`,
    );
    const config = loadConfig(
      {
        CHAT_CONFIG: 'my.yaml',
        S: 'secret',
        PORT: '4000',
        HOST: '0.0.0.0',
        SITE_URL: 'https://chat.example.com/',
        LOGIN_EXPIRATION: '60',
        LOGIN_RATE_LIMIT: '3',
        LOGIN_LOCKOUT_ATTEMPTS: '2',
        LOGIN_LOCKOUT_SECONDS: '30',
        PROVIDER_TIMEOUT_MS: '100',
        PROVIDER_MAX_BYTES: '2048',
        TRUST_PROXY: '10.0.0.1, loopback',
        CORS_ORIGINS: 'https://Web.Example.com:443/, http://localhost:3000',
        RESERVED_USERNAMES: 'Boss, ceo',
        API_RATE_LIMIT: '30',
        LOCKOUT_MAX_ENTRIES: '1000',
        DATABASE_URL: 'memory://',
        REDIS_URL: 'redis://127.0.0.1:6379',
      },
      dir,
    );
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 4000,
      siteUrl: 'https://chat.example.com',
      loginExpirationSeconds: 60,
      loginRateLimit: 3,
      lockout: { attempts: 2, seconds: 30, maxKeys: 1000 },
      provider: { timeoutMs: 100, maxBytes: 2048 },
      trustProxy: ['10.0.0.1', 'loopback'],
      corsOrigins: ['https://web.example.com', 'http://localhost:3000'],
      reservedUsernames: ['boss', 'ceo'],
      apiRateLimit: 30,
      databaseUrl: 'memory://',
      redisUrl: 'redis://127.0.0.1:6379',
      services: [{ name: 'github', type: 'github', appId: 'k', appSecret: 'secret' }],
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT: must be an integer >= 0'],
    [{ PORT: '70000' }, 'PORT: must be at most 65535'],
    [{ LOGIN_RATE_LIMIT: '0' }, 'LOGIN_RATE_LIMIT: must be an integer >= 1'],
    [{ PROVIDER_TIMEOUT_MS: '1.5' }, 'PROVIDER_TIMEOUT_MS: must be an integer'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY: "maybe" is not an IP address'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY: "true" would let any client choose its own address'],
    [{ CORS_ORIGINS: '*' }, 'CORS_ORIGINS: "*" is not accepted'],
    [{ CORS_ORIGINS: 'https://a.example/app' }, 'CORS_ORIGINS: "https://a.example/app" is not'],
    [{ CORS_ORIGINS: 'ftp://a.example' }, 'CORS_ORIGINS: "ftp://a.example" is not'],
    [{ RESERVED_USERNAMES: 'a b' }, 'RESERVED_USERNAMES: "a b" is not a username'],
    [{ LOCKOUT_MAX_ENTRIES: '5' }, 'LOCKOUT_MAX_ENTRIES: must be an integer >= 100'],
    [{ API_RATE_LIMIT: '0' }, 'API_RATE_LIMIT: must be an integer >= 1'],
    [{ SITE_URL: 'chat.example.com' }, 'SITE_URL: must be an http(s) URL'],
    [{ CHAT_CONFIG: 'missing.yaml' }, 'CHAT_CONFIG: '],
    [{ SESSION_CACHE: 'yes' }, 'SESSION_CACHE: must be on or off, not "yes"'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env, dir)).toThrow(message);
  });

  it('OAUTH_MOBILE_APP_RETURN is off unless set on', () => {
    expect(loadConfig({}, dir).oauth?.mobileAppReturn).toBe(false);
    expect(loadConfig({ OAUTH_MOBILE_APP_RETURN: 'on' }, dir).oauth?.mobileAppReturn).toBe(true);
    expect(loadConfig({ OAUTH_MOBILE_APP_RETURN: 'off' }, dir).oauth?.mobileAppReturn).toBe(false);
    expect(() => loadConfig({ OAUTH_MOBILE_APP_RETURN: 'true' }, dir)).toThrow(
      'OAUTH_MOBILE_APP_RETURN: must be on or off, not "true"',
    );
  });

  it.each([
    ['https://chat.example.com/base?x=1#frag', 'https://chat.example.com/base?…'],
    ['https://chat.example.com/?x=1', 'https://chat.example.com/?…'],
    ['https://chat.example.com/#frag', 'https://chat.example.com/#…'],
    ['https://chat.example.com/?', 'https://chat.example.com/?…'],
  ])('refuses ROOT_URL %s: a base URL has no query or fragment', (rootUrl, shown) => {
    expect(() => loadConfig({ ROOT_URL: rootUrl }, dir)).toThrow(
      `ROOT_URL: a base URL has no query or fragment: "${shown}"`,
    );
  });

  it('never repeats what a refused ROOT_URL holds after its host', () => {
    for (const rootUrl of [
      'https://chat.example.com/?token=QuerySecret',
      'https://u:PwSecret@chat.example.com/?token=QuerySecret',
    ]) {
      expect(() => loadConfig({ ROOT_URL: rootUrl }, dir)).toThrow(/^ROOT_URL: /);
      try {
        loadConfig({ ROOT_URL: rootUrl }, dir);
      } catch (error) {
        expect((error as Error).message).not.toMatch(/Secret/);
      }
    }
  });

  it.each([
    ['LOGIN_EXPIRATION', 315_360_000],
    ['LOGIN_RATE_LIMIT', 1_000_000_000],
    ['API_RATE_LIMIT', 1_000_000_000],
    ['LOGIN_LOCKOUT_ATTEMPTS', 1000],
    ['LOGIN_LOCKOUT_SECONDS', 604_800],
    ['LOCKOUT_MAX_ENTRIES', 10_000_000],
    ['PROVIDER_TIMEOUT_MS', 60_000],
    ['PROVIDER_MAX_BYTES', 67_108_864],
    ['ID_TOKEN_MAX_AGE', 86_400],
    ['OAUTH_FLOW_TTL', 3600],
    ['OAUTH_CREDENTIAL_TTL', 3600],
  ])('takes %s up to %i and refuses more, up to huge values', (name, max) => {
    expect(() => loadConfig({ [name]: String(max) }, dir)).not.toThrow();
    for (const value of [max + 1, 4_294_967_296, 99_999_999_999_999]) {
      expect(() => loadConfig({ [name]: String(value) }, dir)).toThrow(
        `${name}: must be at most ${max}, not ${value}`,
      );
    }
  });

  it('refuses origins holding credentials without repeating the password', () => {
    let message = '';
    try {
      loadConfig(
        {
          CORS_ORIGINS: 'https://admin:CorsPw@c.example.com',
          OAUTH_REDIRECT_ORIGINS: 'https://user:OriginPw@b.example.com/?token=QueryPw',
        },
        dir,
      );
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      'CORS_ORIGINS: "https://admin:***@c.example.com" is not an origin like https://app.example.com',
    );
    expect(message).toContain(
      'OAUTH_REDIRECT_ORIGINS: "https://user:***@b.example.com/?…" is not an origin like',
    );
    expect(message).not.toMatch(/Pw/);
  });

  it('says CHAT_CONFIG names a directory, among every other problem', () => {
    const folder = mkdtempSync(join(dir, 'services-'));
    let message = '';
    try {
      loadConfig({ CHAT_CONFIG: folder, PORT: 'x', LOG_LEVEL: 'loud' }, dir);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain(`CHAT_CONFIG: ${folder} is a directory, not a file`);
    expect(message).toContain('PORT: must be an integer');
    expect(message).toContain('LOG_LEVEL: must be one of');
    expect(message).not.toContain('EISDIR');
  });
});

describe('the demo services file', () => {
  const demo = readFileSync(new URL('../chat.demo.yaml', import.meta.url), 'utf8');
  const urls = (services: ReturnType<typeof parseServices>) =>
    services.flatMap((service) =>
      Object.values(service).filter((value): value is string => /^https?:/.test(String(value))),
    );

  it('honours DEMO_PROVIDER_PORT in every URL, 3999 without it (the :- default)', () => {
    const moved = urls(parseServices(demo, 'chat.demo.yaml', { DEMO_PROVIDER_PORT: '4555' }));
    expect(moved.length).toBeGreaterThan(5);
    for (const url of moved) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:4555\//);
    for (const url of urls(parseServices(demo, 'chat.demo.yaml', {}))) {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:3999\//);
    }
  });
});
