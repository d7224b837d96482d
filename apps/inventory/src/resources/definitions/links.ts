import { oneOf, type ResourceDefinition, reference, tagList, text } from '../definition.js';

export const links: ResourceDefinition = {
  name: 'links',
  table: 'links',
  notFoundMessage: 'Link not found',
  label: { singular: 'link', plural: 'links' },
  // Cabling changes are an editor's daily work; the rest of the inventory is admin-only.
  writeRoles: ['admin', 'editor'],
  search: ['type', 'status'],
  briefFields: ['a_interface_id', 'b_interface_id'],
  columns: {
    a_interface_id: reference('interfaces', { required: true, filterable: true }),
    b_interface_id: reference('interfaces', { required: true, filterable: true }),
    type: text({ filterable: true, sortable: true }),
    status: oneOf(['up', 'down'], {
      default: 'up',
      notNull: true,
      filterable: true,
      sortable: true,
    }),
    tags: tagList(),
  },
  constraintMessages: {
    links_interface_pair_key: 'A link between these two interfaces already exists',
    links_distinct_ends_check: 'A link needs two different interfaces',
  },
};
