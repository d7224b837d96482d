import type { Lockout } from './auth/lockout.js';
import type { AppConfig } from './config.js';
import type { SessionRepository } from './db/sessions.js';
import type { UserRepository } from './db/users.js';
import type { ServiceRegistry } from './providers/registry.js';

/** The services built once in buildApp and handed to each route plugin. */
export interface ChatContext {
  config: AppConfig;
  services: ServiceRegistry;
  users: UserRepository;
  sessions: SessionRepository;
  lockout: Lockout;
  now: () => Date;
}

export interface RouteOptions {
  context: ChatContext;
}
