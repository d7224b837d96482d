import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type CryptoKey,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose';
import {
  hmacSha1Signature,
  parseAuthorizationHeader,
  signatureBaseString,
  signatureMatches,
} from './oauth1.js';

/**
 * One HTTP server speaking the four providers' protocols, as the service meets them:
 * - `/twitter`: `GET /1.1/account/verify_credentials.json`, checking the OAuth 1.0a signature;
 * - `/facebook`: `GET /me`, checking the token and its appsecret_proof;
 * - `/github`: `/user`, `/user/emails` (Bearer) and `POST /applications/{id}/token` (Basic);
 * - `/oidc`: discovery, userinfo and RFC 7662 introspection (client_secret_basic);
 * - `/google`: discovery without introspection, userinfo and a Google-style `tokeninfo`;
 * - `/oidc/jwks`, `/google/jwks` and `/apple/auth/keys`: the JWKS of the keys that sign ID tokens
 *   (`signIdToken`), RS256 with a `kid` each; `rotateKeys` replaces the published key.
 * `fault` makes every answer misbehave, for the fault tests: `slow` answers correctly but only after
 * `slowMs`, `stall` never answers.
 */
export type Fault =
  | 'refuse'
  | 'stall'
  | 'slow'
  | 'reset'
  | 'server-error'
  | 'garbage'
  | 'wrong-shape'
  | 'huge'
  | 'redirect-loop';

export const APPS = {
  twitter: { appId: 'tw-consumer-key', appSecret: 'tw-consumer-secret' },
  facebook: { appId: 'fb-app-id', appSecret: 'fb-app-secret' },
  github: { appId: 'gh-client-id', appSecret: 'gh-client-secret' },
  oidc: { appId: 'oidc-client', appSecret: 'oidc-client-secret' },
  google: { appId: 'google-client.apps.example', appSecret: 'google-client-secret' },
  apple: { appId: 'com.example.chat', appSecret: 'apple-shared-secret' },
} as const;

/** The issuers whose ID tokens the fake signs: path prefixes of the fake. */
export type IdTokenIssuer = 'oidc' | 'google' | 'apple';

/** A signing key of the fake: the private half signs, the public JWK is published. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** The public key as SPKI PEM (for the "HS256 with the public key as secret" attack). */
  publicPem: string;
}

let keyCounter = 0;
export async function newSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `fake-key-${++keyCounter}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, publicJwk, publicPem: await exportSPKI(publicKey) };
}

export interface TwitterAccount {
  token: string;
  tokenSecret: string;
  /** The consumer key the token was issued to; APPS.twitter by default. */
  consumerKey?: string;
  user: {
    id_str: string;
    name: string;
    screen_name: string;
    email?: string | null;
    profile_image_url_https?: string | null;
    utc_offset?: number | null;
  };
}
export interface FacebookAccount {
  token: string;
  appSecret?: string;
  user: { id: string; name: string; email?: string; picture?: { data: { url: string } } };
}
export interface GithubAccount {
  token: string;
  clientId?: string;
  user: {
    id: number;
    login: string;
    name: string | null;
    email: string | null;
    avatar_url: string;
  };
  emails?: { email: string; verified: boolean; primary: boolean }[];
}
export interface OidcAccount {
  token: string;
  /** The client the token was issued to; the configured client by default. */
  clientId?: string;
  active?: boolean;
  userinfo: { sub: string; [claim: string]: unknown };
}

/** The providers whose web flow (authorize, then token) the fake serves. */
export type WebFlowProvider = 'github' | 'facebook' | 'oidc';

/** An authorization code the fake issued, and what its exchange must repeat. */
interface IssuedCode {
  provider: WebFlowProvider;
  clientId: string;
  redirectUri: string;
  challenge: string | undefined;
  /** The OpenID Connect `nonce` of the authorization request, put in the code's ID token. */
  nonce: string | undefined;
  /** The access token of the signed-in account. */
  token: string;
  used: boolean;
}

const WEB_FLOW_CLIENTS = { github: APPS.github, facebook: APPS.facebook, oidc: APPS.oidc } as const;

export class FakeProvider {
  /**
   * The web flow: the access token of the account signed in at each provider (the authorize
   * endpoint issues a code for it), whether the person consents, the redirect URI registered
   * for the client, and whether a code needs PKCE.
   */
  readonly signedIn = new Map<WebFlowProvider, string>();
  consent: 'approve' | 'deny' = 'approve';
  readonly registeredRedirectUris = new Map<WebFlowProvider, string>();
  requirePkce = false;
  /**
   * A provider that ignores PKCE: it takes `code_challenge` without remembering it, so its token
   * endpoint exchanges a code with any `code_verifier`, or none.
   */
  ignorePkce = false;
  /** Claims laid over the ID token the OIDC token endpoint returns (`nonce: undefined` drops it). */
  codeIdTokenClaims: JWTPayload = {};
  readonly codes = new Map<string, IssuedCode>();
  /** What the token endpoints refused, for tests to see why. */
  readonly tokenRefusals: string[] = [];

  /** Misbehaviour of every endpoint but OIDC discovery documents... */
  fault: Fault | undefined;
  /** ...which have their own. */
  discoveryFault: Fault | undefined;
  /** Requests received, by path, to prove what was (not) called. */
  readonly calls: string[] = [];
  readonly twitter = new Map<string, TwitterAccount>();
  readonly facebook = new Map<string, FacebookAccount>();
  readonly github = new Map<string, GithubAccount>();
  readonly oidc = new Map<string, OidcAccount>();
  readonly google = new Map<string, OidcAccount>();
  /** Milliseconds every answer waits before it is sent (the benchmark leaves it 0). */
  latencyMs = 0;
  /** How late the `slow` fault answers. */
  slowMs = 10_000;
  /** When set, discovery documents announce this issuer instead of their own. */
  announcedIssuer: string | undefined;
  /** Fields of the discovery documents replaced (an endpoint that is no URL, say). */
  discoveryOverrides: Record<string, unknown> = {};
  /** The keys published in every JWKS; the first one signs. */
  signingKeys: SigningKey[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** The issuer URL of one of the fake's ID-token issuers. */
  issuer(which: IdTokenIssuer): string {
    return `${this.url}/${which}`;
  }

  /** Publishes a fresh key instead of the current ones (`keep`: beside them); returns it. */
  async rotateKeys(keep = false): Promise<SigningKey> {
    const key = await newSigningKey();
    this.signingKeys = keep ? [key, ...this.signingKeys] : [key];
    return key;
  }

  /**
   * An ID token as the issuer would sign it: `iss`, `aud` (the configured client), `iat` now and
   * `exp` in 10 minutes, then `claims` over them. `key` signs instead of the published key.
   */
  async signIdToken(
    which: IdTokenIssuer,
    claims: JWTPayload,
    key: SigningKey | undefined = this.signingKeys[0],
  ): Promise<string> {
    if (!key) throw new Error('no signing key: call rotateKeys() first');
    const now = Math.floor(Date.now() / 1000);
    const client = which === 'oidc' ? APPS.oidc : which === 'google' ? APPS.google : APPS.apple;
    return new SignJWT({
      iss: this.issuer(which),
      aud: client.appId,
      iat: now,
      exp: now + 600,
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .sign(key.privateKey);
  }

  #jwks(): Answer {
    return json(200, { keys: this.signingKeys.map((key) => key.publicJwk) });
  }

  static async start(port = 0): Promise<FakeProvider> {
    let fake: FakeProvider | undefined;
    const server = createServer((request, response) => {
      fake?.handle(request, response).catch((error: Error) => {
        response.statusCode = 599;
        response.end(error.message);
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const address = server.address() as AddressInfo;
    fake = new FakeProvider(server, `http://127.0.0.1:${address.port}`);
    await fake.rotateKeys();
    return fake;
  }

  /** Connections currently open to this server (the service's keep-alive pool included). */
  openConnections(): Promise<number> {
    return new Promise((resolve, reject) =>
      this.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  reset(): void {
    this.fault = undefined;
    this.discoveryFault = undefined;
    this.latencyMs = 0;
    this.slowMs = 10_000;
    this.announcedIssuer = undefined;
    this.discoveryOverrides = {};
    this.calls.length = 0;
    this.signedIn.clear();
    this.consent = 'approve';
    this.registeredRedirectUris.clear();
    this.requirePkce = false;
    this.ignorePkce = false;
    this.codeIdTokenClaims = {};
    this.codes.clear();
    this.tokenRefusals.length = 0;
    for (const accounts of [this.twitter, this.facebook, this.github, this.oidc, this.google]) {
      accounts.clear();
    }
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    this.calls.push(url.pathname);
    const body = await readBody(request);
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    const fault = url.pathname.endsWith('/.well-known/openid-configuration')
      ? this.discoveryFault
      : this.fault;
    if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, this.slowMs));
    else if (fault && (await this.misbehave(fault, request, response))) return;

    const [, provider, ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    const webFlow = await this.webFlow(request, url, `${provider}${path}`, body);
    const answer = (() => {
      if (webFlow) return webFlow;
      switch (provider) {
        case 'twitter':
          return this.twitterApi(request, url, path);
        case 'facebook':
          return this.facebookApi(url, path);
        case 'github':
          return this.githubApi(request, path, body);
        case 'oidc':
          return this.oidcApi(request, url, path, body, this.oidc, APPS.oidc, true);
        case 'google':
          return this.oidcApi(request, url, path, body, this.google, APPS.google, false);
        case 'apple':
          return path === '/auth/keys' ? this.#jwks() : json(404, { error: 'not_found' });
        default:
          return json(404, { error: 'not found' });
      }
    })();
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(JSON.stringify(answer.body));
  }

  /** The authorize and token endpoints of GitHub, Facebook and the OIDC issuer; else undefined. */
  private async webFlow(
    request: IncomingMessage,
    url: URL,
    route: string,
    body: string,
  ): Promise<Answer | undefined> {
    const authorize: Record<string, WebFlowProvider> = {
      'github/login/oauth/authorize': 'github',
      'facebook/dialog/oauth': 'facebook',
      'oidc/authorize': 'oidc',
    };
    const token: Record<string, WebFlowProvider> = {
      'github/login/oauth/access_token': 'github',
      'facebook/oauth/access_token': 'facebook',
      'oidc/token': 'oidc',
    };
    const authorizing = authorize[route];
    if (authorizing && request.method === 'GET') return this.authorize(authorizing, url);
    const exchanging = token[route];
    if (exchanging) {
      const form = exchanging === 'facebook' ? url.searchParams : new URLSearchParams(body);
      let [clientId, clientSecret] = basicCredentials(request.headers.authorization);
      clientId ??= form.get('client_id') ?? undefined;
      clientSecret ??= form.get('client_secret') ?? undefined;
      return this.exchangeCode(exchanging, form, clientId, clientSecret);
    }
    return undefined;
  }

  private authorize(provider: WebFlowProvider, url: URL): Answer {
    const query = url.searchParams;
    const page = (status: number, message: string): Answer => ({ status, body: { message } });
    if (query.get('client_id') !== WEB_FLOW_CLIENTS[provider].appId) {
      return page(400, 'unknown client_id');
    }
    const redirectUri = query.get('redirect_uri') ?? '';
    if (redirectUri !== this.registeredRedirectUris.get(provider)) {
      return page(400, 'redirect_uri is not the one registered');
    }
    if (query.get('response_type') !== 'code') return page(400, 'response_type must be code');
    const challenge = query.get('code_challenge') ?? undefined;
    if (challenge !== undefined && query.get('code_challenge_method') !== 'S256') {
      return page(400, 'only S256');
    }
    if (challenge === undefined && this.requirePkce) return page(400, 'PKCE required');
    const back = new URL(redirectUri);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const account = this.signedIn.get(provider);
    if (this.consent === 'deny' || account === undefined) {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, {
        provider,
        clientId: WEB_FLOW_CLIENTS[provider].appId,
        redirectUri,
        challenge: this.ignorePkce ? undefined : challenge,
        // OpenID Connect Core 3.1.3.6: the request's nonce comes back in the ID token unchanged.
        nonce: provider === 'oidc' ? (query.get('nonce') ?? undefined) : undefined,
        token: account,
        used: false,
      });
      back.searchParams.set('code', code);
    }
    return { status: 302, body: {}, headers: { location: back.toString() } };
  }

  private async exchangeCode(
    provider: WebFlowProvider,
    form: URLSearchParams,
    clientId: string | undefined,
    clientSecret: string | undefined,
  ): Promise<Answer> {
    const refuse = (why: string): Answer => {
      this.tokenRefusals.push(why);
      // GitHub answers 200 with an error; the others 400 (RFC 6749 5.2).
      return json(provider === 'github' ? 200 : 400, {
        error: 'invalid_grant',
        error_description: why,
      });
    };
    const client = WEB_FLOW_CLIENTS[provider];
    if (clientId !== client.appId || clientSecret !== client.appSecret) return refuse('client');
    if (provider === 'oidc' && form.get('grant_type') !== 'authorization_code') {
      return refuse('grant_type');
    }
    const issued = this.codes.get(form.get('code') ?? '');
    if (!issued || issued.provider !== provider) return refuse('unknown code');
    if (issued.used) return refuse('code already used');
    issued.used = true;
    if (form.get('redirect_uri') !== issued.redirectUri) return refuse('redirect_uri');
    if (issued.challenge !== undefined) {
      const verifier = form.get('code_verifier') ?? '';
      const computed = createHash('sha256').update(verifier).digest('base64url');
      if (computed !== issued.challenge) return refuse('code_verifier');
    }
    if (provider !== 'oidc') return json(200, { access_token: issued.token, token_type: 'bearer' });
    const account = this.oidc.get(issued.token);
    const idToken = await this.signIdToken('oidc', {
      sub: account?.userinfo.sub ?? 'nobody',
      ...(issued.nonce !== undefined ? { nonce: issued.nonce } : {}),
      ...this.codeIdTokenClaims,
    });
    return json(200, { access_token: issued.token, token_type: 'Bearer', id_token: idToken });
  }

  private async misbehave(
    fault: Exclude<Fault, 'slow'>,
    request: IncomingMessage,
    response: ServerResponse,
  ) {
    switch (fault) {
      case 'refuse':
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end('{"error":"invalid_token"}');
        return true;
      case 'stall':
        return true; // never answers; close() ends the socket
      case 'reset':
        request.socket.destroy();
        return true;
      case 'server-error':
        response.writeHead(503, { 'content-type': 'text/html' });
        response.end('<html><body>Service Unavailable</body></html>');
        return true;
      case 'garbage':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"id_str": "12", "name": <html>');
        return true;
      case 'wrong-shape':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"hello": ["world"], "id": {"nested": true}, "sub": 42}');
        return true;
      case 'huge': {
        // 8 MiB of a valid-looking JSON string, without Content-Length, in chunks.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"padding":"');
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 128 && !response.destroyed; i++) {
          if (!response.write(chunk)) {
            await new Promise<void>((resolve) => {
              const resume = () => {
                response.off('drain', resume);
                response.off('close', resume);
                resolve();
              };
              response.on('drain', resume);
              response.on('close', resume);
            });
          }
        }
        response.end('"}');
        return true;
      }
      case 'redirect-loop':
        response.writeHead(302, { location: request.url ?? '/' });
        response.end();
        return true;
    }
  }

  private twitterApi(request: IncomingMessage, url: URL, path: string): Answer {
    if (path !== '/1.1/account/verify_credentials.json' || request.method !== 'GET') {
      return json(404, { errors: [{ code: 34, message: 'Sorry, that page does not exist.' }] });
    }
    const invalid = json(401, { errors: [{ code: 89, message: 'Invalid or expired token.' }] });
    const oauth = parseAuthorizationHeader(request.headers.authorization);
    const badRequest = json(400, { errors: [{ code: 215, message: 'Bad Authentication data.' }] });
    if (oauth === undefined) return badRequest;
    if (oauth.get('oauth_signature_method') !== 'HMAC-SHA1') return badRequest;
    const account = this.twitter.get(oauth.get('oauth_token') ?? '');
    const consumerKey = oauth.get('oauth_consumer_key');
    if (!account || consumerKey !== (account.consumerKey ?? APPS.twitter.appId)) return invalid;
    // The signature is checked against the URL the request reached, as Twitter does.
    const expected = hmacSha1Signature(
      signatureBaseString('GET', url, oauth),
      APPS.twitter.appSecret,
      account.tokenSecret,
    );
    if (!signatureMatches(expected, oauth.get('oauth_signature') ?? '')) {
      return json(401, { errors: [{ code: 32, message: 'Could not authenticate you.' }] });
    }
    return json(200, {
      ...account.user,
      email: url.searchParams.get('include_email') === 'true' ? account.user.email : undefined,
    });
  }

  private facebookApi(url: URL, path: string): Answer {
    if (path !== '/me') return json(404, { error: { message: 'Unknown path', code: 803 } });
    const token = url.searchParams.get('access_token') ?? '';
    const account = this.facebook.get(token);
    const oauthError = (message: string, code: number) =>
      json(400, { error: { message, type: 'OAuthException', code } });
    if (!account) return oauthError('Invalid OAuth access token - Cannot parse access token', 190);
    const proof = createHmac('sha256', account.appSecret ?? APPS.facebook.appSecret)
      .update(token)
      .digest('hex');
    if (url.searchParams.get('appsecret_proof') !== proof) {
      return oauthError('Invalid appsecret_proof provided in the API argument', 100);
    }
    const fields = new Set((url.searchParams.get('fields') ?? 'id,name').split(','));
    return json(
      200,
      Object.fromEntries(Object.entries(account.user).filter(([key]) => fields.has(key))),
    );
  }

  private githubApi(request: IncomingMessage, path: string, body: string): Answer {
    const appCheck = /^\/applications\/([^/]+)\/token$/.exec(path);
    if (appCheck && request.method === 'POST') {
      const [id, secret] = basicCredentials(request.headers.authorization);
      const clientId = decodeURIComponent(appCheck[1] ?? '');
      if (id !== APPS.github.appId || secret !== APPS.github.appSecret || clientId !== id) {
        return json(404, { message: 'Not Found' });
      }
      const token = (parseJson(body) as { access_token?: string } | undefined)?.access_token;
      const account = token ? this.github.get(token) : undefined;
      if (!account || (account.clientId ?? APPS.github.appId) !== clientId) {
        return json(404, { message: 'Not Found' });
      }
      return json(200, { token: '***', app: { client_id: clientId, name: 'chat' } });
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const account = bearer ? this.github.get(bearer) : undefined;
    if (!account) return json(401, { message: 'Bad credentials' });
    if (path === '/user') return json(200, account.user);
    if (path === '/user/emails') {
      return account.emails ? json(200, account.emails) : json(404, { message: 'Not Found' });
    }
    return json(404, { message: 'Not Found' });
  }

  private oidcApi(
    request: IncomingMessage,
    url: URL,
    path: string,
    body: string,
    accounts: Map<string, OidcAccount>,
    client: { appId: string; appSecret: string },
    withIntrospection: boolean,
  ): Answer {
    const issuer = `${this.url}${url.pathname.split('/').slice(0, 2).join('/')}`;
    if (path === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: this.announcedIssuer ?? issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        code_challenge_methods_supported: ['plain', 'S256'],
        ...(withIntrospection ? { introspection_endpoint: `${issuer}/introspect` } : {}),
        ...this.discoveryOverrides,
      });
    }
    if (path === '/jwks') return this.#jwks();
    if (path === '/userinfo') {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const account = bearer ? accounts.get(bearer) : undefined;
      if (!account || account.active === false) {
        return {
          status: 401,
          body: {},
          headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
        };
      }
      return json(200, account.userinfo);
    }
    if (path === '/introspect' && withIntrospection && request.method === 'POST') {
      const [id, secret] = basicCredentials(request.headers.authorization);
      if (id !== client.appId || secret !== client.appSecret) {
        return json(401, { error: 'invalid_client' });
      }
      const account = accounts.get(new URLSearchParams(body).get('token') ?? '');
      if (!account || account.active === false) return json(200, { active: false });
      return json(200, {
        active: true,
        client_id: account.clientId ?? client.appId,
        sub: account.userinfo.sub,
        token_type: 'Bearer',
      });
    }
    if (path === '/tokeninfo' && !withIntrospection) {
      const account = accounts.get(url.searchParams.get('access_token') ?? '');
      if (!account || account.active === false) {
        return json(400, { error: 'invalid_token', error_description: 'Invalid Value' });
      }
      const audience = account.clientId ?? client.appId;
      return json(200, {
        azp: audience,
        aud: audience,
        sub: account.userinfo.sub,
        expires_in: 3599,
      });
    }
    return json(404, { error: 'not_found' });
  }
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const json = (status: number, body: unknown): Answer => ({ status, body });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function basicCredentials(header: string | undefined): [string?, string?] {
  const encoded = /^Basic (.+)$/.exec(header ?? '')?.[1];
  if (!encoded) return [];
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return [];
  // RFC 6749 2.3.1: client_secret_basic form-encodes id and secret before joining them.
  return [
    decodeURIComponent(decoded.slice(0, colon)),
    decodeURIComponent(decoded.slice(colon + 1)),
  ];
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
