import type { ServiceConfig } from '../config.js';
import { appleProvider } from './apple.js';
import { facebookProvider } from './facebook.js';
import { githubProvider } from './github.js';
import type { ProviderHttp } from './http.js';
import { oidcProvider } from './oidc.js';
import { twitterProvider } from './twitter.js';
import type { IdentityProvider, ProviderSettings } from './types.js';

/** A configured service: its application credentials and the provider module that verifies users. */
export interface ConfiguredService {
  name: string;
  type: ServiceConfig['type'];
  appId: string;
  appSecret: string;
  provider: IdentityProvider;
}

/** Adding a provider type is one module and one line here. */
const factories: {
  [K in ServiceConfig['type']]: (
    service: Extract<ServiceConfig, { type: K }>,
    http: ProviderHttp,
    settings: ProviderSettings,
  ) => IdentityProvider;
} = {
  twitter: twitterProvider,
  facebook: facebookProvider,
  github: githubProvider,
  oidc: oidcProvider,
  apple: appleProvider,
};

export type ServiceRegistry = ReadonlyMap<string, ConfiguredService>;

export function buildRegistry(
  services: readonly ServiceConfig[],
  http: ProviderHttp,
  settings: ProviderSettings,
): ServiceRegistry {
  return new Map(
    services.map((service) => {
      const create = factories[service.type] as (
        s: ServiceConfig,
        h: ProviderHttp,
        p: ProviderSettings,
      ) => IdentityProvider;
      return [
        service.name,
        {
          name: service.name,
          type: service.type,
          appId: service.appId,
          appSecret: service.appSecret,
          provider: create(service, http, settings),
        },
      ];
    }),
  );
}
