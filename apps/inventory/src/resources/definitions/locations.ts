import { type ResourceDefinition, tagList, text } from '../definition.js';

export const locations: ResourceDefinition = {
  name: 'locations',
  table: 'locations',
  notFoundMessage: 'Location not found',
  label: { singular: 'location', plural: 'locations' },
  writeRoles: ['admin'],
  briefFields: ['name'],
  search: ['name', 'city', 'country', 'address'],
  columns: {
    name: text({
      identifier: true,
      required: true,
      unique: true,
      filterable: true,
      sortable: true,
    }),
    city: text({ filterable: true, sortable: true }),
    country: text({ filterable: true, sortable: true }),
    // A postal address is written on several lines.
    address: text({ maxLength: 1000, multiline: true }),
    tags: tagList(),
  },
  constraintMessages: {
    locations_name_key: 'Location name already exists',
  },
  // Deleting a location keeps its devices: the foreign key sets their location_id to null.
  children: [
    {
      resource: 'devices',
      foreignKey: 'location_id',
      listPath: 'devices',
      countPath: 'devicescount',
    },
  ],
};
