import { type Static, Type } from 'typebox';
import type { UserRow } from '../db/users.js';

const Presence = Type.Union([
  Type.Literal('online'),
  Type.Literal('away'),
  Type.Literal('busy'),
  Type.Literal('offline'),
]);

/** The profile object (`me`) of the 1.0.0 contract: exactly these fields. */
export const Me = Type.Object(
  {
    _id: Type.String(),
    name: Type.String(),
    emails: Type.Array(Type.Object({ address: Type.String(), verified: Type.Boolean() })),
    status: Presence,
    statusConnection: Presence,
    username: Type.String(),
    utcOffset: Type.Number(),
    active: Type.Boolean(),
    roles: Type.Array(Type.String()),
    settings: Type.Object({
      preferences: Type.Record(Type.String(), Type.Unknown()),
    }),
    avatarUrl: Type.String(),
  },
  { additionalProperties: false },
);
export type Me = Static<typeof Me>;

export function toMe(user: UserRow, siteUrl: string): Me {
  return {
    _id: user.id,
    name: user.name,
    emails: user.email ? [{ address: user.email, verified: user.email_verified }] : [],
    status: user.status as Me['status'],
    statusConnection: user.status_connection as Me['statusConnection'],
    username: user.username,
    utcOffset: user.utc_offset,
    active: user.active,
    roles: user.roles,
    settings: { preferences: user.preferences },
    avatarUrl: `${siteUrl}/avatar/${encodeURIComponent(user.username)}`,
  };
}
