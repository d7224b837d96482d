import { Type } from 'typebox';
import { ROLES } from '../auth/roles.js';
import { flag, oneOf, type ResourceDefinition } from '../resources/definition.js';
import type { Budget } from './throttle.js';

export const MIN_PASSWORD_LENGTH = 8;
export const PasswordSchema = Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 1024 });

/**
 * Accounts, served by the resource routes like any resource: admins create and list them; a
 * user reads, changes and deletes their own account (admins anyone's). What is their own is
 * declared here and, as write hooks, in users/routes.ts: a create takes a password (stored
 * hashed), only an admin changes a role or `inactive_status`, and PUT changes the fields sent.
 * The password hash is a hidden column: no query of the mechanism ever selects it.
 */
export const users: ResourceDefinition = {
  name: 'users',
  table: 'users',
  notFoundMessage: 'User not found',
  label: { singular: 'user', plural: 'users' },
  writeRoles: ['admin'],
  readRoles: ['admin'],
  operations: ['list', 'read', 'create', 'replace', 'delete'],
  access: {
    read: { ownerOr: ['admin'] },
    replace: { ownerOr: ['admin'] },
    delete: { ownerOr: ['admin'] },
  },
  createInputs: { password: PasswordSchema },
  hiddenColumns: ['password_hash'],
  putChangesFieldsSent: true,
  columns: {
    username: {
      schema: Type.String({ pattern: '^[A-Za-z0-9._-]{3,64}$', examples: ['j.doe'] }),
      required: true,
      filterable: true,
      sortable: true,
    },
    email: {
      schema: Type.String({ format: 'email', maxLength: 254 }),
      required: true,
      filterable: true,
      sortable: true,
    },
    role: oneOf(ROLES, { default: 'viewer', notNull: true, filterable: true, sortable: true }),
    inactive_status: flag({ default: false, filterable: true, sortable: true }),
  },
  // Unique regardless of letter case (migration 009).
  constraintMessages: {
    users_email_lower_key: 'Email already exists',
    users_username_lower_key: 'Username already exists',
  },
};

/** Fields only an admin may change, on anyone's account including their own. */
export const ADMIN_ONLY_FIELDS = ['role', 'inactive_status'] as const;

/**
 * Attempts a non-admin may make, per account and hour, at a username or e-mail address other
 * than their own (users/routes.ts): enough for a person choosing a name, too few to map accounts.
 */
export const NAME_CHANGE_BUDGET: Budget = {
  kind: 'name-change:account',
  limit: 5,
  windowSeconds: 3600,
};
