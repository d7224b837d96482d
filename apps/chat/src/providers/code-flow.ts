import { type Static, Type } from 'typebox';
import { invalidCredentials } from '../errors.js';
import type { ProviderHttp } from './http.js';
import type { NormalisedIdentity, UserCredentials } from './types.js';

/** What the provider's return to `/_oauth/<service>` gives the token request. */
export interface CodeExchange {
  code: string;
  /**
   * `{ROOT_URL}/_oauth/<service>`, with `?close` when the return carried it: the one the
   * authorization request named.
   */
  redirectUri: string;
  /** RFC 7636: when the service started the flow itself (PKCE S256). */
  codeVerifier: string | undefined;
  /**
   * OpenID Connect: the `nonce` the flow's authorization request carried (a flow the service
   * started, of a provider with `nonce`); the ID token must carry it.
   */
  nonce: string | undefined;
}

/** Where the start sends the browser, and what the operator should hear about the provider. */
export interface AuthorizationTarget {
  url: string;
  /** A weakness of the provider's announced configuration, logged (warn) by the start. */
  warning?: string | undefined;
}

/**
 * The OAuth 2 authorization-code part of a provider module: where the browser is sent, and how a
 * code becomes the credentials that the module's `verify` then checks exactly as for a token
 * login (one implementation of "who is this" per provider).
 */
export interface AuthorizationCodeFlow {
  /** Whether the provider takes `code_challenge` (S256). */
  readonly pkce: boolean;
  /**
   * OpenID Connect: the start sends a random `nonce` (kept with the flow) and `identify` must find
   * it in the ID token the code is exchanged for.
   */
  readonly nonce?: boolean;
  /** Scopes asked for by default, space-separated in the request. */
  readonly scopes: readonly string[];
  authorizationEndpoint(signal: AbortSignal): Promise<AuthorizationTarget>;
  exchange(exchange: CodeExchange, signal: AbortSignal): Promise<UserCredentials>;
  /**
   * Who the exchanged credentials belong to, when the code flow knows better than the module's
   * `verify` (OpenID Connect: the ID token of the exchange, bound to the flow by its nonce); the
   * module's `verify` when absent.
   */
  identify?(
    credentials: UserCredentials,
    exchange: CodeExchange,
    signal: AbortSignal,
  ): Promise<NormalisedIdentity>;
}

/**
 * RFC 6749 5.1 and 5.2; GitHub answers a bad code with 200 and `error`, so both shapes are read.
 */
const TokenAnswer = Type.Object({
  access_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  id_token: Type.Optional(Type.String({ minLength: 1, maxLength: 8192 })),
  token_type: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
});

export interface TokenRequest {
  url: string | URL;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: URLSearchParams;
}

/**
 * Sends the token request; a refused code (RFC 6749 `invalid_grant`, GitHub's
 * `bad_verification_code`, a PKCE mismatch) is a 401 like a refused token.
 */
export async function requestTokens(
  http: ProviderHttp,
  provider: string,
  request: TokenRequest,
  signal: AbortSignal,
): Promise<Static<typeof TokenAnswer>> {
  const answer = await http.json(
    provider,
    {
      ...request,
      schema: TokenAnswer,
      isRefusal: (status) => status === 400 || status === 401 || status === 403,
      refused: 'the authorization code',
    },
    signal,
  );
  if (answer.error !== undefined || answer.access_token === undefined) {
    throw invalidCredentials(`The identity provider "${provider}" refused the authorization code`);
  }
  return answer;
}

/** The exchange's form fields every provider takes; the verifier only when there is one. */
export function codeParameters(exchange: CodeExchange): Record<string, string> {
  return {
    code: exchange.code,
    redirect_uri: exchange.redirectUri,
    ...(exchange.codeVerifier !== undefined ? { code_verifier: exchange.codeVerifier } : {}),
  };
}
