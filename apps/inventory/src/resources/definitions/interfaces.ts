import { sql } from 'kysely';
import { Type } from 'typebox';
import {
  integer,
  ipAddress,
  macAddress,
  oneOf,
  type ResourceDefinition,
  reference,
  tagList,
  text,
} from '../definition.js';

const UP_DOWN = ['up', 'down'] as const;
const MBPS_PER_GBPS = 1000;

export const interfaces: ResourceDefinition = {
  name: 'interfaces',
  table: 'interfaces',
  notFoundMessage: 'Interface not found',
  label: { singular: 'interface', plural: 'interfaces' },
  writeRoles: ['admin'],
  briefFields: ['name'],
  search: ['name', 'description', 'type', 'mac_address', 'ip_address', 'mode'],
  columns: {
    device_id: reference('devices', { required: true, filterable: true }),
    name: text({ required: true, filterable: true, sortable: true }),
    description: text({ maxLength: 1000, multiline: true }),
    type: text({ filterable: true, sortable: true }),
    // "a number followed by Gbps", e.g. 10Gbps or 2.5Gbps; below a million Gbps, so that the
    // speed_mbps it gives (prepareWrite) fits the column. Its ranges compare the number, which
    // the pattern guarantees is one; a sort orders the text (speed_mbps sorts by number).
    speed: {
      schema: Type.String({ pattern: '^[0-9]{1,6}(\\.[0-9]+)?Gbps$', maxLength: 32 }),
      rangeAs: (operand) => sql`CAST(left(${operand}, -4) AS numeric)`,
      filterable: true,
      sortable: true,
    },
    speed_mbps: integer({ filterable: true, sortable: true }),
    status: oneOf(UP_DOWN, { filterable: true, sortable: true }),
    admin_status: oneOf(UP_DOWN, { filterable: true, sortable: true }),
    oper_status: oneOf(UP_DOWN, { filterable: true, sortable: true }),
    mtu: integer({ minimum: 1, filterable: true, sortable: true }),
    mac_address: macAddress({ filterable: true, sortable: true }),
    mode: text({ filterable: true, sortable: true }),
    ifindex: integer({ filterable: true, sortable: true }),
    ip_address: ipAddress({ filterable: true, sortable: true }),
    tags: tagList(),
  },
  constraintMessages: {
    interfaces_device_id_name_key: 'Interface name already exists on this device',
  },
  // speed and speed_mbps say the same thing; a client giving only the readable form gets both.
  prepareWrite(values) {
    if (typeof values.speed === 'string' && (values.speed_mbps ?? null) === null) {
      const gbps = Number.parseFloat(values.speed);
      return { ...values, speed_mbps: Math.round(gbps * MBPS_PER_GBPS) };
    }
    return values;
  },
};
