/** The three roles, from most to least powerful. */
export const ROLES = ['admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who may call a route: anyone, any signed-in user, or signed-in users with one of the roles.
 * Declared on each route (`config.access`) and enforced by one hook in auth/guard.ts.
 */
export type Access = 'public' | 'authenticated' | readonly Role[];
