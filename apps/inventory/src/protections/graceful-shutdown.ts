/**
 * Graceful shutdown lives in @netops/service-runtime, shared with the chat service: SIGTERM or
 * SIGINT stops accepting connections, lets in-flight requests finish, closes the database and
 * exits, within a deadline; a second signal exits at once.
 */
export {
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type GracefulShutdownOptions,
  installGracefulShutdown,
} from '@netops/service-runtime';
