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
/** The largest speed the pattern allows, in Mbps: 999999.999Gbps. */
const MAX_MBPS = 999_999_999;

/**
 * A speed's Mbps, exactly: the decimal digits read as text (binary floating point would round
 * 2.0005 * 1000 down), rounded half up at the Mbps as PostgreSQL's numeric round() does
 * (migration 034 computes the same in SQL).
 */
export function mbpsOf(speed: string): number {
  const [whole = '0', fraction = ''] = speed.slice(0, -'Gbps'.length).split('.');
  const digits = fraction.padEnd(4, '0');
  return Number(whole) * 1000 + Number(digits.slice(0, 3)) + (Number(digits[3]) >= 5 ? 1 : 0);
}

/** Mbps as a speed: 2500 is 2.5Gbps, 100 is 0.1Gbps. */
const speedOf = (mbps: unknown) => `${Number(mbps) / 1000}Gbps`;

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
    name: text({ identifier: true, required: true, filterable: true, sortable: true }),
    description: text({ maxLength: 1000, multiline: true }),
    type: text({ filterable: true, sortable: true }),
    // "a number followed by Gbps", e.g. 10Gbps or 2.5Gbps; below a million Gbps, so that its
    // speed_mbps fits the column. Its ranges compare the number, which the pattern guarantees is
    // one; a sort orders the text (speed_mbps sorts by number).
    speed: {
      schema: Type.String({ pattern: '^[0-9]{1,6}(\\.[0-9]+)?Gbps$', maxLength: 32 }),
      rangeAs: (operand) => sql`CAST(left(${operand}, -4) AS numeric)`,
      filterable: true,
      sortable: true,
    },
    // The same speed in Mbps: a write giving either sets both (formOf), so they never disagree.
    speed_mbps: integer({
      maximum: MAX_MBPS,
      filterable: true,
      sortable: true,
      formOf: { column: 'speed', from: (speed) => mbpsOf(String(speed)), to: speedOf },
    }),
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
};
