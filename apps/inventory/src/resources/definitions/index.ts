import { webhookDefinition } from '../../webhooks/definition.js';
import type { ResourceDefinition } from '../definition.js';
import { devices } from './devices.js';
import { interfaces } from './interfaces.js';
import { links } from './links.js';
import { locations } from './locations.js';
import { vlans } from './vlans.js';

/** The network inventory proper: what webhooks report changes of. */
export const INVENTORY_RESOURCES: readonly ResourceDefinition[] = [
  locations,
  devices,
  interfaces,
  vlans,
  links,
];

/** Every resource the API serves. Adding one: a definition here and a migration. */
export const RESOURCES: readonly ResourceDefinition[] = [
  ...INVENTORY_RESOURCES,
  webhookDefinition(
    INVENTORY_RESOURCES.map((resource) => resource.name),
    INVENTORY_RESOURCES.flatMap((resource) =>
      Object.entries(resource.columns).flatMap(([name, column]) =>
        column.identifier ? [name] : [],
      ),
    ),
  ),
];

export function resourceByName(name: string): ResourceDefinition {
  const found = RESOURCES.find((resource) => resource.name === name);
  if (!found) throw new Error(`No resource named ${name}`);
  return found;
}
