export { addressBucket } from './address.js';
export { type CommandLine, formatUsage, readCommandLine, type Usage } from './cli.js';
export {
  type Environment,
  EnvironmentError,
  EnvironmentReader,
  type EnvVariable,
  LOG_LEVELS,
  type LogLevel,
} from './environment.js';
export { describeListenError, findListenProblem, formatAddress } from './listen.js';
export {
  DEFAULT_MAX_QUEUED_LOG_BYTES,
  type LogOutput,
  type LogOutputOptions,
  openLogOutput,
} from './log-output.js';
export {
  isTrustedProxyEntry,
  parseCorsOrigins,
  parseTrustProxy,
  splitList,
  type TrustProxySetting,
} from './proxy.js';
export {
  type ClosableServer,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type GracefulShutdownOptions,
  installGracefulShutdown,
  type ShutdownLogger,
} from './shutdown.js';
