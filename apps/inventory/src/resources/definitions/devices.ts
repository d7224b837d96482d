import {
  ipAddress,
  oneOf,
  type ResourceDefinition,
  reference,
  tagList,
  text,
  timestamp,
} from '../definition.js';

export const DEVICE_STATUSES = [
  'active',
  'offline',
  'maintenance',
  'provisioning',
  'decommissioned',
] as const;

export const devices: ResourceDefinition = {
  name: 'devices',
  table: 'devices',
  notFoundMessage: 'Device not found',
  label: { singular: 'device', plural: 'devices' },
  writeRoles: ['admin'],
  briefFields: ['hostname'],
  search: ['hostname', 'ip', 'serial_number', 'vendor', 'model', 'os', 'role'],
  columns: {
    hostname: text({
      identifier: true,
      required: true,
      unique: true,
      filterable: true,
      sortable: true,
      trigramIndexed: true,
    }),
    ip: ipAddress({ required: true, filterable: true, sortable: true }),
    vendor: text({ filterable: true, sortable: true, counted: true }),
    model: text({ filterable: true, sortable: true }),
    os: text({ filterable: true, sortable: true }),
    os_version: text({ filterable: true, sortable: true }),
    status: oneOf(DEVICE_STATUSES, {
      default: 'active',
      notNull: true,
      filterable: true,
      sortable: true,
      counted: true,
    }),
    role: text({ filterable: true, sortable: true, counted: true }),
    serial_number: text({ identifier: true, unique: true, filterable: true, sortable: true }),
    rack_position: text({ filterable: true, sortable: true }),
    location_id: reference('locations', { filterable: true, counted: true }),
    last_seen: timestamp({ filterable: true, sortable: true }),
    tags: tagList({ counted: true }),
  },
  // The combinations the list filters of NetBox-style UIs send most (and the benchmark's
  // `mixed` and varied lists): two tags, a tag with a vendor, and the three common filters.
  countedCombinations: [
    ['location_id', 'status'],
    ['role', 'status'],
    ['role', 'vendor'],
    ['status', 'vendor'],
    ['tags', 'tags'],
    ['tags', 'vendor'],
    ['role', 'status', 'vendor'],
  ],
  // A NetBox-style device list: narrowed to a vendor, a status or a role, by name, newest first,
  // or by model and then name descending (the `mixed` benchmark's two-key sort).
  commonLists: {
    filters: ['vendor', 'status', 'role'],
    sorts: ['hostname', 'created_at', ['model:asc', 'hostname:desc']],
  },
  // The list users read most, often uncached (each filter, sort and page its own URL).
  storedRecordJson: true,
  constraintMessages: {
    devices_hostname_key: 'Hostname already exists',
    devices_serial_number_key: 'Serial number already exists',
  },
  children: [
    {
      resource: 'interfaces',
      foreignKey: 'device_id',
      listPath: 'interfaces',
      countPath: 'interfacecount',
    },
  ],
};
