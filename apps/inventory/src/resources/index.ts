import type { FastifyInstance } from 'fastify';
import type { ConstraintMessages } from '../db/errors.js';
import type { AnyDatabase } from '../db/schema.js';
import { MAX_TAGS_PER_RECORD, type ResourceDefinition, tagColumns } from './definition.js';
import { RESOURCES, resourceByName } from './definitions/index.js';
import { type ResourceRoutesOptions, resourceRoutes } from './routes.js';
import { tagRoutes } from './tags.js';

export { RESOURCES, resourceByName };

export async function registerResources(
  app: FastifyInstance,
  db: AnyDatabase,
  /** Sealing of secret columns and the outbound URL policy (webhooks/index.ts). */
  services: Pick<ResourceRoutesOptions, 'sealer' | 'checkOutboundUrl'> = {},
) {
  for (const definition of RESOURCES) {
    await app.register(resourceRoutes, {
      prefix: `/${definition.name}`,
      definition,
      db,
      ...services,
      constraintMessages: constraintMessages(),
    });
  }
  await app.register(tagRoutes, { prefix: '/tags', db, resources: RESOURCES });
}

/**
 * What each named constraint's violation should say: the definitions' own messages, and for
 * every reference column (constraint `<table>_<column>_fkey`) the referenced resource's
 * not-found message with the column named.
 */
export function constraintMessages(
  definitions: readonly ResourceDefinition[] = RESOURCES,
): ConstraintMessages {
  const messages: Record<string, string> = {};
  for (const definition of definitions) {
    for (const [column, spec] of Object.entries(definition.columns)) {
      if (spec.references) {
        const target = resourceByName(spec.references);
        messages[`${definition.table}_${column}_fkey`] = `${column}: ${target.notFoundMessage}`;
      }
    }
    for (const column of tagColumns(definition)) {
      messages[`${definition.table}_${column}_check`] =
        `${column}: at most ${MAX_TAGS_PER_RECORD} tags per record`;
    }
    Object.assign(messages, definition.constraintMessages);
  }
  return messages;
}
