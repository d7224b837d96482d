import { auditLogs } from '../src/audit/definition.js';
import { apiTokens } from '../src/auth/api-tokens-routes.js';
import { events } from '../src/events/definition.js';
import type { ColumnDefinition } from '../src/resources/definition.js';
import { RESOURCES } from '../src/resources/index.js';
import { users } from '../src/users/definition.js';

/** Every definition of a table: the inventory's resources and the service's own tables. */
export const DEFINITIONS = [...RESOURCES, users, apiTokens, events, auditLogs];

/** `table.column` of each column the definitions declare with `declares`, sorted. */
export function declaredColumns(declares: (column: ColumnDefinition) => boolean): string[] {
  return DEFINITIONS.flatMap((definition) =>
    Object.entries(definition.columns)
      .filter(([, column]) => declares(column))
      .map(([name]) => `${definition.table}.${name}`),
  ).sort();
}
