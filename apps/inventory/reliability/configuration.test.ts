// Hostile values in every environment variable the service reads (the list --help prints):
// each is taken or refused with a configuration error naming it; never a crash, a raw control
// character, a megabyte-long message or a repeated secret.
import { findHostileValueFailures } from '@netops/service-runtime/testing';
import { describe, expect, it } from 'vitest';
import { INVENTORY_VARIABLES, loadConfig } from '../src/config.js';

describe('the environment', () => {
  it('takes or cleanly refuses a hostile value in every variable', () => {
    expect(findHostileValueFailures(INVENTORY_VARIABLES, (env) => loadConfig(env))).toEqual([]);
  });
});
