/**
 * Type-level test, compiled by `npm run typecheck` (tsc) and not run: the answers' types, as the
 * TypeBox schemas that also serialise them declare, against the types `@rocket.chat/rest-typings`
 * gives Rocket.Chat's answers, which `@rocket.chat/api-client` hands its callers. A field this
 * service added, dropped as required, or typed differently fails the type-check.
 *
 * Rocket.Chat's types describe its server's objects (a `Date`, a string enum) rather than their
 * JSON, so they are compared through `Wire`, what JSON makes of them.
 */
import type { MeApiSuccessResponse, OperationResult } from '@rocket.chat/rest-typings';
import type { Static } from 'typebox';
import type { oauthService } from '../src/routes/public.js';
import type { LogoutResponse, MeResponse } from '../src/routes/session.js';

type Wire<T> = T extends Date
  ? string
  : T extends string
    ? `${T}`
    : T extends readonly (infer U)[]
      ? Wire<U>[]
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T;

type Assignable<A, B> = [A] extends [B] ? true : false;
type OnlyKeysOf<A, B> = [Exclude<keyof A, keyof B>] extends [never] ? true : false;
const expectTrue = <_T extends true>() => undefined;

// GET /api/v1/me: Rocket.Chat's MeApiSuccessResponse, and no field it does not know.
type Me = Static<typeof MeResponse>;
expectTrue<Assignable<Me, Wire<MeApiSuccessResponse>>>();
expectTrue<OnlyKeysOf<Me, MeApiSuccessResponse>>();
expectTrue<OnlyKeysOf<Me['settings'], MeApiSuccessResponse['settings']>>();

// The check can fail: the shape this service answered before it followed Rocket.Chat's shapes is refused.
type OldMe = { status: 'success'; data: Omit<Me, 'success'> };
// @ts-expect-error: {status, data} is not Rocket.Chat's shape
expectTrue<Assignable<OldMe, Wire<MeApiSuccessResponse>>>();

// GET and POST /api/v1/logout (Rocket.Chat declares the message; it answers it inside `data`).
type Logout = Static<typeof LogoutResponse>;
expectTrue<Assignable<Logout['data'], OperationResult<'POST', '/v1/logout'>>>();
expectTrue<Assignable<Logout['data'], OperationResult<'GET', '/v1/logout'>>>();

// GET /api/v1/settings.oauth: each entry is one of Rocket.Chat's login service configurations.
type OAuthEntry = ReturnType<typeof oauthService>;
type RocketChatOAuthEntry = OperationResult<'GET', '/v1/settings.oauth'>['services'][number];
expectTrue<Assignable<OAuthEntry, RocketChatOAuthEntry>>();
