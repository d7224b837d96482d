import { Type } from 'typebox';
import { oneOf, type ResourceDefinition, text } from '../resources/definition.js';
import { AUDIT_ACTIONS } from './audit-log.js';

/**
 * The audit trail, read through the generic list (admins only, newest first). Rows are written
 * by audit-log.ts inside each mutation's transaction and never changed, so no route writes them.
 */
export const auditLogs: ResourceDefinition = {
  name: 'audit-logs',
  table: 'audit_logs',
  notFoundMessage: 'Audit log entry not found',
  label: { singular: 'audit log entry', plural: 'audit log entries' },
  writeRoles: [],
  // Its one route is the list (audit/routes.ts); what a route could show of one entry, the list
  // filtered by its id shows.
  operations: ['list'],
  systemColumns: ['id', 'created_at'],
  defaultSort: [{ column: 'created_at', direction: 'desc' }],
  timeRange: 'created_at',
  columns: {
    // No foreign key: the trail outlives deleted accounts.
    user_id: { schema: Type.String({ format: 'uuid' }), filterable: true },
    username: text(),
    action: oneOf(AUDIT_ACTIONS, { filterable: true, sortable: true }),
    resource_type: text({ filterable: true, sortable: true, maxLength: 64 }),
    resource_id: text({ filterable: true }),
    // Record changes: {field: [old, new]} (migration 012); account events: the values written.
    changes: { schema: Type.Record(Type.String(), Type.Unknown()) },
    // The record before and after (null for a create, resp. a delete, and for account events).
    prechange: { schema: Type.Record(Type.String(), Type.Unknown()) },
    postchange: { schema: Type.Record(Type.String(), Type.Unknown()) },
    request_id: text({ filterable: true }),
    client_ip: text(),
  },
};
