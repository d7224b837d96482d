import {
  type FastifyPluginAsyncTypebox,
  TypeBoxValidatorCompiler,
} from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { applicationMatches } from '../auth/app-credentials.js';
import { Lockout, type Attempt as LoginAttempt } from '../auth/lockout.js';
import { type TwoFactor, type TwoFactorHeaders, twoFactorHeaders } from '../auth/totp.js';
import type { RouteOptions } from '../context.js';
import type { ClientDetails } from '../db/sessions.js';
import { hashToken } from '../db/sessions.js';
import type { PendingCredentials, UsedIdTokens } from '../db/single-use.js';
import {
  accountDeactivated,
  ChatError,
  invalidCredentials,
  invalidRequest,
  methodNotAllowed,
  providerTimeout,
  unknownService,
} from '../errors.js';
import { canonicalIdToken } from '../providers/id-token.js';
import { type ConfiguredService, verifiedIdentity } from '../providers/registry.js';
import type { NormalisedIdentity } from '../providers/types.js';
import { Me, toMe } from '../users/profile.js';

/**
 * Bounds on every field keep absurd inputs (a 1 MB "token") away from providers and hashes.
 * Provider credentials are visible ASCII in every protocol served (RFC 6750's b64token, OAuth
 * 1.0a tokens, client ids and secrets). Anything else cannot be a credential, and would otherwise
 * reach places that cannot carry it (an Authorization header, a signature base string): found by
 * fuzzing as 500s and 502s.
 */
const CREDENTIAL = '^[\\x21-\\x7e]*$';
const Credential = Type.String({ minLength: 1, maxLength: 4096, pattern: CREDENTIAL });

/** A compact JWS (header.payload.signature); an empty signature still reaches the verifier. */
const IdToken = Type.String({
  minLength: 1,
  maxLength: 8192,
  pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$',
});

const LoginBody = Type.Object({
  serviceName: Type.String({ minLength: 1, maxLength: 64 }),
  /** Required, except by services that take an ID token instead (oidc, apple). */
  accessToken: Type.Optional(Credential),
  accessTokenSecret: Type.String({ maxLength: 4096, pattern: CREDENTIAL }),
  appSecret: Credential,
  appId: Credential,
  expiresIn: Type.Integer({ minimum: 1 }),
  /** An OpenID Connect ID token (oidc services)... */
  idToken: Type.Optional(IdToken),
  /** ...or Sign in with Apple's name for it; either name is accepted by both types. */
  identityToken: Type.Optional(IdToken),
  /** The nonce the client put in the ID token's request; the token must carry it. */
  nonce: Type.Optional(Type.String({ minLength: 1, maxLength: 256, pattern: CREDENTIAL })),
});

/**
 * A provider login without an ID token: the access token is required like the other five, so a
 * body missing several fields is told all of them at once, the token too.
 */
const AccessTokenLoginBody = Type.Object({ ...LoginBody.properties, accessToken: Credential });

/** Rocket.Chat's resume: a saved token is traded for a fresh `me` (and the same token). */
const ResumeBody = Type.Object({
  resume: Type.String({ minLength: 1, maxLength: 256, pattern: CREDENTIAL }),
});

/** The end of the OAuth redirect flow: the pair the `/_oauth/<service>` page handed over. */
const OAuthBody = Type.Object({
  oauth: Type.Object({
    credentialToken: Type.String({ minLength: 1, maxLength: 128, pattern: CREDENTIAL }),
    credentialSecret: Type.String({ minLength: 1, maxLength: 128, pattern: CREDENTIAL }),
  }),
});

/**
 * The document's examples (apps/chat/src/openapi.ts): sent as they are, each gets an answer in
 * the service's shapes (the provider login a 401 for an unknown token, say); no real secret.
 */
const BODY_EXAMPLES = {
  providerLogin: {
    summary: 'With a provider access token',
    value: {
      serviceName: 'github',
      accessToken: 'gho_exampleAccessToken',
      accessTokenSecret: '',
      appId: 'example-client-id',
      appSecret: 'example-client-secret',
      expiresIn: 3600,
    },
  },
  resume: { summary: 'With a saved authToken', value: { resume: 'exampleSavedAuthToken' } },
  oauth: {
    summary: 'After the OAuth redirect flow',
    value: { oauth: { credentialToken: 'exampleToken', credentialSecret: 'exampleSecret' } },
  },
};

/**
 * Rocket.Chat's `totp` login: another login's body with the second factor's code beside it, as
 * Rocket.Chat's mobile app retries after `totp-required` (the same as that body with `X-2FA-Code`).
 */
const TotpBody = Type.Object({
  totp: Type.Object({
    login: Type.Union([LoginBody, OAuthBody]),
    code: Type.String({ minLength: 1, maxLength: 64, pattern: CREDENTIAL }),
  }),
});

/**
 * Rocket.Chat's mobile app wraps the body it sent last on each retry, so a second code wraps the
 * first retry (connect.ts, loginTOTP); its server unwraps them all and checks the outermost code.
 * Each wrong code counts towards the lock-out, which ends such a chain long before this depth.
 */
const MAX_TOTP_WRAPS = 16;

interface TotpWrapper {
  totp: { login: object; code: string };
}

/** The login a `totp` body wraps, however many retries wrapped it, and the outermost code. */
function unwrapTotp(body: TotpWrapper): { login: object; code: string } {
  let login = body.totp.login;
  while ('totp' in login) login = (login as TotpWrapper).totp.login;
  return { login, code: body.totp.code };
}

const Body = Type.Union([LoginBody, ResumeBody, OAuthBody, TotpBody], {
  'x-examples': BODY_EXAMPLES,
});

/** Keys of Rocket.Chat's password login (`user`/`username`/`email` and `password`, or `ldap`). */
const PASSWORD_KEYS = ['password', 'ldapPass', 'ldap'];

/** The ways in, named to a client that tried a password. */
const passwordLoginUnavailable = (services: readonly string[]) =>
  new ChatError(
    400,
    'password-login-unavailable',
    `Password sign-in is not offered here. Sign in with an identity provider: {"serviceName", "accessToken" (or "idToken"), "accessTokenSecret", "appId", "appSecret", "expiresIn"}; or {"oauth": {"credentialToken", "credentialSecret"}} after the redirect flow at /_oauth/<service>; or {"resume": "<authToken>"}. Services: ${services.join(', ') || 'none configured'}`,
    {},
    { methods: ['serviceName', 'oauth', 'resume'], services: [...services] },
  );

/**
 * A body with a `resume` key is validated as a resume, one with `oauth` as the redirect flow's
 * login, one with Rocket.Chat's password keys is answered with the ways that are offered, any
 * other as a provider login: one schema per shape, so a mistake is described against the shape
 * the client meant ("expiresIn: must be integer", not "does not match any of three shapes").
 */
const loginValidator = (services: ReadonlyMap<string, ConfiguredService>) => () => {
  const compile = (schema: unknown) =>
    TypeBoxValidatorCompiler({ schema, httpPart: 'body' } as never);
  const asResume = compile(ResumeBody);
  const asOAuth = compile(OAuthBody);
  const asLogin = compile(LoginBody);
  const asAccessTokenLogin = compile(AccessTokenLoginBody);
  // The wrapper alone: anything beside `totp` would be a second login in one body.
  const asTotpCode = compile(
    Type.Object(
      {
        totp: Type.Object({
          login: Type.Object({}),
          code: TotpBody.properties.totp.properties.code,
        }),
      },
      { additionalProperties: false },
    ),
  );
  const validate = (body: unknown, wrapped: boolean): unknown => {
    if (body === null || typeof body !== 'object') return asLogin(body);
    if ('totp' in body && !wrapped) {
      let inner: object = body;
      for (let depth = 0; 'totp' in inner; depth++) {
        if (depth === MAX_TOTP_WRAPS) {
          return { error: invalidRequest(`totp: wrapped more than ${MAX_TOTP_WRAPS} times`) };
        }
        const wrapper = asTotpCode(inner) as { error?: unknown };
        if (wrapper.error !== undefined) return wrapper;
        inner = (inner as TotpWrapper).totp.login;
      }
      if ('resume' in inner) {
        return { error: invalidRequest('totp.login: a provider login or {"oauth": …}') };
      }
      return validate(inner, true);
    }
    if ('resume' in body) return asResume(body);
    if ('oauth' in body) return asOAuth(body);
    if (!('serviceName' in body) && PASSWORD_KEYS.some((key) => key in body)) {
      return { error: passwordLoginUnavailable([...services.keys()]) };
    }
    // Which credential the service takes is part of the shape: a body without it is refused
    // here, before the rate limit counts it (malformed requests are cheap and not counted).
    const service = services.get((body as { serviceName?: unknown }).serviceName as string);
    const sendsIdToken = 'idToken' in body || 'identityToken' in body;
    const checked =
      sendsIdToken || service?.provider.accepts === 'id-token'
        ? asLogin(body)
        : asAccessTokenLogin(body);
    const valid =
      checked === true ||
      (typeof checked === 'object' && (checked as { error?: unknown }).error === undefined);
    if (valid && service) {
      try {
        pickCredentials(service, body as Static<typeof LoginBody>);
      } catch (error) {
        return { error };
      }
    }
    return checked;
  };
  return (body: unknown) => {
    const result = validate(body, false) as { error?: unknown };
    // A wrapped login was checked as itself; the handler is given the whole body.
    return result.error !== undefined ? result : { value: body };
  };
};

/** Lock-out keys of resume and oauth attempts: `#` is never in a service name. */
const RESUME_LOCK_SERVICE = '#resume';
const OAUTH_LOCK_SERVICE = '#oauth';

/** The session's client details; the address is what TRUST_PROXY makes of the connection. */
export const clientDetails = (request: FastifyRequest): ClientDetails => {
  const userAgent = request.headers['user-agent'];
  return { address: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : undefined };
};

/** Which credential of the body the service verifies; a missing or unexpected one is a 400. */
function pickCredentials(service: ConfiguredService, body: Static<typeof LoginBody>) {
  if (body.idToken !== undefined && body.identityToken !== undefined) {
    throw invalidRequest('idToken: send either idToken or identityToken, not both');
  }
  const sent = body.idToken ?? body.identityToken;
  const idToken = sent === undefined ? undefined : canonicalIdToken(sent);
  const idField = body.idToken !== undefined ? 'idToken' : 'identityToken';
  const accessToken = body.accessToken ?? '';
  const accepts = service.provider.accepts ?? 'access-token';
  if (accepts === 'access-token' && idToken !== undefined) {
    throw invalidRequest(`${idField}: the service "${service.name}" does not take ID tokens`);
  }
  if (accepts === 'id-token' && accessToken !== '') {
    throw invalidRequest(
      `accessToken: the service "${service.name}" takes an identityToken, not an access token`,
    );
  }
  if (accepts === 'id-token' && idToken === undefined)
    throw invalidRequest('identityToken: required');
  if (accessToken === '' && idToken === undefined) throw invalidRequest('accessToken: required');
  return {
    accessToken,
    accessTokenSecret: body.accessTokenSecret,
    idToken,
    nonce: body.nonce,
  };
}

const LoginResponse = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ authToken: Type.String(), userId: Type.String(), me: Me }),
});

export interface LoginRouteOptions extends RouteOptions {
  twoFactor: TwoFactor;
  usedIdTokens: UsedIdTokens;
  pendingCredentials: PendingCredentials;
}

/**
 * Login attempts per client IP: `@fastify/rate-limit`, checked after the body is validated; a
 * resume is a login attempt like any other (same limit, same lock-out rules).
 */
const loginRoute: FastifyPluginAsyncTypebox<LoginRouteOptions> = async (
  app,
  { context, twoFactor, usedIdTokens, pendingCredentials },
) => {
  const { config, services, users, sessions, lockout, now } = context;

  /**
   * The end every sign-in shares once the identity is known: the user linked or created, the
   * second factor, the session, and `useCredential` (what makes the credential single-use). That
   * runs only when everything else passed, the fence against TOTP being enabled meanwhile
   * included, so a `totp-required` always leaves the credential usable for the retry with a code.
   */
  async function signIn(
    request: FastifyRequest,
    secondFactor: TwoFactorHeaders,
    identity: NormalisedIdentity,
    lifetimeSeconds: number,
    useCredential: () => Promise<void>,
  ) {
    const issuedAt = now();
    const user = await users.linkOrCreate(identity, issuedAt);
    // The profile was refreshed: this instance's cached sessions of the user show it at once
    // (other instances hear of it from the database's notification).
    sessions.forgetUser(user.id);
    if (!user.active) throw accountDeactivated();
    const codeChecked = await twoFactor.requireForLogin(user.id, secondFactor);
    const expiresAt = new Date(issuedAt.getTime() + lifetimeSeconds * 1000);
    const open = () => sessions.issue(user.id, issuedAt, expiresAt, clientDetails(request));
    const authToken = codeChecked
      ? await useCredential().then(open)
      : await twoFactor.fenceSession(
          user.id,
          open,
          (token) => sessions.revoke(hashToken(token)),
          useCredential,
        );
    return {
      status: 'success' as const,
      data: { authToken, userId: user.id, me: toMe(user, config.siteUrl) },
    };
  }

  /** Refusals count towards the lock-out; outages, database errors and `totp-required` do not. */
  async function settle(attempt: LoginAttempt, error: unknown): Promise<never> {
    const refused =
      error instanceof ChatError &&
      (error.statusCode === 401 || error.statusCode === 403) &&
      error.code !== 'totp-required';
    await (refused ? attempt.failed() : attempt.release());
    throw error;
  }

  /**
   * The redirect flow's login: the pending credential of the pair (stored by `/_oauth/<service>`)
   * signs its identity in, once. A wrong, used, expired or unknown pair is one answer, 401.
   */
  async function oauthLogin(
    request: FastifyRequest,
    secondFactor: TwoFactorHeaders,
    pair: { credentialToken: string; credentialSecret: string },
  ) {
    // Keyed by the whole pair, as a resume is by its token: the credentialToken is public (it is
    // in the provider's return address), so failures counted against it alone let anyone lock
    // its owner out. Guessing the 256-bit secret is bounded by the per-IP rate limit.
    const attempt = await lockout.begin(
      Lockout.loginKey(OAUTH_LOCK_SERVICE, `${pair.credentialToken}\0${pair.credentialSecret}`),
    );
    const secretHash = hashToken(pair.credentialSecret);
    try {
      const pending = await pendingCredentials.find(pair.credentialToken, secretHash, now());
      if (!pending || !services.has(pending.service)) throw oauthCredentialRefused();
      const result = await signIn(
        request,
        secondFactor,
        pending.identity,
        config.loginExpirationSeconds,
        async () => {
          if (!(await pendingCredentials.consume(pair.credentialToken, secretHash, now()))) {
            throw oauthCredentialRefused();
          }
        },
      );
      await attempt.succeeded();
      return result;
    } catch (error) {
      return settle(attempt, error);
    }
  }

  /**
   * The token's session, its user refreshed (`me`), the same token back. Keyed per token in the
   * lock-out like a provider login is per credential; a guess at someone's 256-bit token is
   * stopped by the per-IP rate limit long before it could matter. No second factor is asked: the
   * token was issued by a login that passed it (enabling TOTP ends every other session).
   */
  async function resume(token: string) {
    const attempt = await lockout.begin(Lockout.loginKey(RESUME_LOCK_SERVICE, token));
    try {
      const session = await sessions.find(undefined, token, now());
      if (!session) throw invalidCredentials('The session to resume has ended or does not exist');
      if (!session.user.active) throw accountDeactivated();
      await attempt.succeeded();
      return {
        status: 'success' as const,
        data: { authToken: token, userId: session.user.id, me: toMe(session.user, config.siteUrl) },
      };
    } catch (error) {
      const refused =
        error instanceof ChatError && (error.statusCode === 401 || error.statusCode === 403);
      await (refused ? attempt.failed() : attempt.release());
      throw error;
    }
  }

  app.post(
    '/api/v1/login',
    {
      schema: { body: Body, response: { 200: LoginResponse } },
      validatorCompiler: loginValidator(services) as () => (body: unknown) => never,
      config: {
        auth: 'public',
        rateLimit: { max: config.loginRateLimit, timeWindow: 60_000, hook: 'preHandler' },
      },
    },
    async (request) => {
      // The wrapped login with the wrapper's code, or the body with X-2FA-Code; `totp` first, as
      // the validator took it (a `resume` beside it was not checked).
      const wrapped = 'totp' in request.body ? unwrapTotp(request.body) : undefined;
      // The validator checked the wrapped login as a body of its own.
      const body = (wrapped?.login ?? request.body) as
        | Static<typeof LoginBody>
        | Static<typeof OAuthBody>
        | Static<typeof ResumeBody>;
      const secondFactor: TwoFactorHeaders = wrapped
        ? { code: wrapped.code, method: 'totp' }
        : twoFactorHeaders(request.headers);
      if ('resume' in body) return resume(body.resume);
      if ('oauth' in body) return oauthLogin(request, secondFactor, body.oauth);
      const service = services.get(body.serviceName);
      if (!service) throw unknownService(body.serviceName);
      const credentials = pickCredentials(service, body);
      // One budget for the whole wait on the provider, including a wait for a lock-out slot held
      // by earlier attempts with the same credentials (each stuck on a stalled provider): 20 at
      // once would otherwise be answered in waves of 5, the last after 4 timeouts.
      const deadline = AbortSignal.timeout(config.provider.timeoutMs);
      const attempt = await lockout
        .begin(
          Lockout.loginKey(body.serviceName, credentials.accessToken || credentials.idToken || ''),
          deadline,
        )
        .catch((error: unknown) => {
          if (error !== deadline.reason) throw error;
          throw providerTimeout(
            service.name,
            'earlier logins with these credentials are still waiting for it',
          );
        });
      try {
        // Before any provider call: a token minted for another application never gets that far.
        if (!applicationMatches(service, body)) {
          throw invalidCredentials(
            `The application credentials do not match the service "${service.name}"`,
          );
        }
        const identity = await verifiedIdentity(service, credentials, deadline, (message) =>
          request.log.warn(message),
        );
        const lifetime = Math.min(body.expiresIn, config.loginExpirationSeconds);
        const result = await signIn(request, secondFactor, identity, lifetime, async () => {
          const use = identity.oneTimeUse;
          if (use && !(await usedIdTokens.claim(use))) {
            throw invalidCredentials('The ID token has already been used');
          }
        });
        await attempt.succeeded();
        return result;
      } catch (error) {
        return settle(attempt, error);
      }
    },
  );

  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/v1/login',
    config: { auth: 'public' },
    handler: async () => {
      throw methodNotAllowed(['POST']);
    },
  });
};

const oauthCredentialRefused = () =>
  invalidCredentials('The OAuth credential is unknown, expired, already used or does not match');

export default loginRoute;
