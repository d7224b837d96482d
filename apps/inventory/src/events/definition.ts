import { Type } from 'typebox';
import { oneOf, type ResourceDefinition, reference, text } from '../resources/definition.js';

export const SEVERITIES = ['critical', 'major', 'minor', 'warning', 'info'] as const;

/**
 * What devices and monitoring systems report. Append-only (no `updated_at`), newest first by
 * default, and bounded in time by `from`/`to` on `created_at`, through the generic list.
 */
export const events: ResourceDefinition = {
  name: 'events',
  table: 'events',
  notFoundMessage: 'Event not found',
  // A viewer "cannot modify"; systems and webhooks post with an API token (events/routes.ts).
  writeRoles: ['admin', 'editor'],
  systemColumns: ['id', 'created_at'],
  defaultSort: [{ column: 'created_at', direction: 'desc' }],
  timeRange: 'created_at',
  columns: {
    severity: oneOf(SEVERITIES, { required: true, filterable: true, sortable: true }),
    type: text({ required: true, filterable: true, sortable: true, maxLength: 64 }),
    message: { schema: Type.String({ minLength: 1, maxLength: 4000 }), required: true },
    device_id: reference('devices', { filterable: true }),
  },
};
