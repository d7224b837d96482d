import type { Fault } from './fake-provider.js';

/** The documented answer to each provider misbehaviour (README.md, "Errors"). */
export const FAULT_OUTCOMES: [Fault, number, string][] = [
  ['stall', 504, 'provider-timeout'],
  ['slow', 504, 'provider-timeout'],
  ['reset', 502, 'provider-unavailable'],
  ['server-error', 502, 'provider-unavailable'],
  ['garbage', 502, 'provider-unavailable'],
  ['wrong-shape', 502, 'provider-unavailable'],
  ['huge', 502, 'provider-unavailable'],
  ['redirect-loop', 502, 'provider-unavailable'],
  ['refuse', 401, 'invalid-credentials'],
];

/** Faults only the provider timeout ends: the answer comes when the budget is spent. */
export const TIMEOUT_FAULTS: readonly Fault[] = ['stall', 'slow'];

export const SERVICES = ['twitter', 'facebook', 'github', 'keycloak', 'google'] as const;
export type ServiceName = (typeof SERVICES)[number];
