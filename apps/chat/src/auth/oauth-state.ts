import { type Static, Type } from 'typebox';
import { validatorFor } from '../validation.js';

/**
 * Meteor's OAuth `state` (packages/oauth): base64 of the JSON the client made,
 * `{loginStyle, credentialToken, isCordova, redirectUrl}`. The client chose `credentialToken`
 * and waits for the secret of that token only; the service keeps the token's flow in the
 * database. Unlike Meteor, a state that is not this JSON is refused rather than taken as a bare
 * credential token (clients from before 2015 sent one; none of Rocket.Chat's does).
 */
export interface OAuthState {
  loginStyle: 'popup' | 'redirect';
  credentialToken: string;
  isCordova: boolean;
  redirectUrl: string | undefined;
}

/** Meteor's Random.secret() is 43 such characters; fewer than 16 is guessable. */
export const CREDENTIAL_TOKEN = '^[A-Za-z0-9_-]{16,128}$';

const StateJson = Type.Object({
  loginStyle: Type.Optional(Type.Union([Type.Literal('popup'), Type.Literal('redirect')])),
  credentialToken: Type.String({ pattern: CREDENTIAL_TOKEN }),
  isCordova: Type.Optional(Type.Boolean()),
  redirectUrl: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
});

/** Longest state read: the JSON above with a 2 KiB redirect URL, in base64. */
const MAX_STATE = 4096;

/** The state, or undefined for anything else (not base64, not JSON, not this shape). */
export function parseOAuthState(raw: unknown): OAuthState | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_STATE) return undefined;
  // Browsers' btoa gives the standard alphabet, and Meteor's clients put it in the URL without
  // encoding it, so a `+` arrives as a space; some clients send base64url.
  const text = raw.replaceAll(' ', '+');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!validatorFor(StateJson).Check(value)) return undefined;
  const state = value as Static<typeof StateJson>;
  return {
    loginStyle: state.loginStyle ?? 'popup',
    credentialToken: state.credentialToken,
    isCordova: state.isCordova === true,
    redirectUrl: state.redirectUrl ?? undefined,
  };
}

/** The state a client sends, as Meteor's client makes it (tests and the docs' examples). */
export function encodeOAuthState(state: Partial<OAuthState> & { credentialToken: string }): string {
  return Buffer.from(
    JSON.stringify({ loginStyle: 'popup', isCordova: false, ...state }),
    'utf8',
  ).toString('base64');
}

/**
 * Whether a `redirect`-style flow may send the browser to `url`: an http(s) URL whose origin is
 * one of the deployment's own (never an open redirect).
 */
export function redirectAllowed(url: string, origins: readonly string[]): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      !parsed.username &&
      !parsed.password &&
      origins.includes(parsed.origin)
    );
  } catch {
    return false;
  }
}

/**
 * Rocket.Chat's mobile app asks a redirect-style flow (`isCordova`, the system browser) to end at
 * this address, the app's own link: Rocket.Chat's server sends such a flow there with the pair in
 * the query, `rocketchat://auth?host=…&type=oauth&credentialToken=…&credentialSecret=…`, which the
 * app reads to log in. Only this address: another scheme or host is no app of Rocket.Chat's.
 */
export const MOBILE_APP_RETURN = 'rocketchat://auth';

export function isMobileAppReturn(url: string): boolean {
  const rest = url.slice(MOBILE_APP_RETURN.length);
  return url.startsWith(MOBILE_APP_RETURN) && (rest === '' || rest.startsWith('?') || rest === '/');
}

/** The app's link for a finished flow: the pair, or the error shown instead. */
export function mobileAppReturn(
  rootUrl: string,
  outcome: { credentials: { token: string; secret: string } } | { error: string },
): string {
  const query = new URLSearchParams({ host: rootUrl, type: 'oauth' });
  if ('error' in outcome) query.set('error', outcome.error);
  else {
    query.set('credentialToken', outcome.credentials.token);
    query.set('credentialSecret', outcome.credentials.secret);
  }
  return `${MOBILE_APP_RETURN}?${query}`;
}
