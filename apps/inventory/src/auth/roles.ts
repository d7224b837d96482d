/** The three roles, from most to least powerful. */
export const ROLES = ['admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who may call a route: anyone, any signed-in user, signed-in users with one of the roles, or
 * (`ownerOr`) the user whose id is the route's `:id` plus the listed roles. Declared on each
 * route (`config.access`) and enforced by one hook in auth/guard.ts.
 */
export type Access =
  | 'public'
  | 'authenticated'
  | readonly Role[]
  | { readonly ownerOr: readonly Role[] };

export function isAllowed(access: Access, user: { id: string; role: Role }, routeId?: string) {
  if (access === 'public' || access === 'authenticated') return true;
  if ('ownerOr' in access) return access.ownerOr.includes(user.role) || routeId === user.id;
  return access.includes(user.role);
}
