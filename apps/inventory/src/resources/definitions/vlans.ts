import { integer, type ResourceDefinition, tagList, text } from '../definition.js';

export const vlans: ResourceDefinition = {
  name: 'vlans',
  table: 'vlans',
  notFoundMessage: 'VLAN not found',
  label: { singular: 'VLAN', plural: 'VLANs' },
  writeRoles: ['admin'],
  briefFields: ['vlan_id', 'name'],
  search: ['name', 'description', 'status'],
  columns: {
    // 802.1Q reserves 0 and 4095.
    vlan_id: integer({
      minimum: 1,
      maximum: 4094,
      required: true,
      unique: true,
      filterable: true,
      sortable: true,
    }),
    name: text({ identifier: true, required: true, filterable: true, sortable: true }),
    description: text({ maxLength: 1000, multiline: true }),
    status: text({ filterable: true, sortable: true }),
    tags: tagList(),
  },
  constraintMessages: {
    vlans_vlan_id_key: 'VLAN id already exists',
  },
};
