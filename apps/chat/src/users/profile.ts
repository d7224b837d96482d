import { type Static, Type } from 'typebox';
import type { UserRow } from '../db/users.js';

const Presence = Type.Union([
  Type.Literal('online'),
  Type.Literal('away'),
  Type.Literal('busy'),
  Type.Literal('offline'),
]);

/**
 * The profile object, as Rocket.Chat's `getUserInfo` shapes it for `GET /api/v1/me` and the
 * login's `me` (`IMeApiUser` in `@rocket.chat/core-typings`): exactly these fields. `email` is the
 * first verified address (absent without one); `settings.profile` and `settings.calendar` are
 * always empty here; dates are ISO 8601 strings.
 */
export const Me = Type.Object(
  {
    _id: Type.String(),
    name: Type.String(),
    username: Type.String(),
    emails: Type.Array(Type.Object({ address: Type.String(), verified: Type.Boolean() })),
    email: Type.Optional(Type.String()),
    status: Presence,
    statusConnection: Presence,
    utcOffset: Type.Number(),
    active: Type.Boolean(),
    roles: Type.Array(Type.String()),
    settings: Type.Object({
      profile: Type.Record(Type.String(), Type.Unknown()),
      preferences: Type.Record(Type.String(), Type.Unknown()),
      calendar: Type.Record(Type.String(), Type.Unknown()),
    }),
    avatarUrl: Type.String(),
    /** Every user here signs in through an identity provider. */
    isOAuthUser: Type.Boolean(),
    createdAt: Type.String(),
    _updatedAt: Type.String(),
  },
  { additionalProperties: false },
);
export type Me = Static<typeof Me>;

export function toMe(user: UserRow, siteUrl: string): Me {
  const emails = user.email ? [{ address: user.email, verified: user.email_verified }] : [];
  const verified = emails.find((email) => email.verified);
  return {
    _id: user.id,
    name: user.name,
    username: user.username,
    emails,
    ...(verified ? { email: verified.address } : {}),
    status: user.status as Me['status'],
    statusConnection: user.status_connection as Me['statusConnection'],
    utcOffset: user.utc_offset,
    active: user.active,
    roles: user.roles,
    settings: { profile: {}, preferences: user.preferences, calendar: {} },
    avatarUrl: `${siteUrl}/avatar/${encodeURIComponent(user.username)}`,
    isOAuthUser: true,
    createdAt: new Date(user.created_at).toISOString(),
    _updatedAt: new Date(user.updated_at).toISOString(),
  };
}
