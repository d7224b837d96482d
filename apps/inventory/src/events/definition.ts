import { Type } from 'typebox';
import { oneOf, type ResourceDefinition, reference, text } from '../resources/definition.js';

export const SEVERITIES = ['critical', 'major', 'minor', 'warning', 'info'] as const;

/**
 * What devices and monitoring systems report. Append-only (no `updated_at`, no changes or
 * deletes), newest first by default, and bounded in time by `from`/`to` on `created_at`,
 * through the generic list. Read by any signed-in user and by API tokens of scope
 * `events:read`; posted by admins and editors (a viewer cannot modify anything) and by systems
 * with an API token of scope `events:write`. Events are telemetry, not changes to the
 * inventory: they are not written to the audit log.
 */
export const events: ResourceDefinition = {
  name: 'events',
  table: 'events',
  notFoundMessage: 'Event not found',
  label: { singular: 'event', plural: 'events' },
  writeRoles: ['admin', 'editor'],
  operations: ['list', 'read', 'create'],
  apiTokenScopes: { read: 'events:read', write: 'events:write' },
  audited: false,
  summaries: {
    list: 'List events (signed-in users; API tokens with scope events:read)',
    create: 'Report an event (admins, editors; API tokens with scope events:write)',
    read: 'Read an event (signed-in users; API tokens with scope events:read)',
  },
  systemColumns: ['id', 'created_at'],
  defaultSort: [{ column: 'created_at', direction: 'desc' }],
  timeRange: 'created_at',
  columns: {
    severity: oneOf(SEVERITIES, { required: true, filterable: true, sortable: true }),
    type: text({ required: true, filterable: true, sortable: true, maxLength: 64 }),
    message: {
      schema: Type.String({ minLength: 1, maxLength: 4000 }),
      required: true,
      // A monitoring system's message may be several lines (a log excerpt, a stack).
      multiline: true,
    },
    // One that does not exist fails the foreign key: 400 `device_id: Device not found`.
    device_id: reference('devices', { filterable: true }),
  },
};
