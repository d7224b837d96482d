export { addressBucket } from './address.js';
export { type CommandLine, formatUsage, readCommandLine, type Usage } from './cli.js';
export {
  ConfigError,
  describeConfigError,
  type Environment,
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
  TRUST_PROXY_VARIABLE,
  type TrustProxySetting,
} from './proxy.js';
export {
  type ListeningServer,
  processIO,
  runService,
  type ServiceCommand,
  type ServiceDefinition,
  type ServiceIO,
  type ServiceOutput,
  type StartedService,
  StartRefusal,
} from './run-service.js';
export {
  type ListenSettings,
  listenVariables,
  readListenSettings,
  readStoreSettings,
  type StoreSettings,
  storeVariables,
} from './settings.js';
export {
  type ClosableServer,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type GracefulShutdownOptions,
  installGracefulShutdown,
  type ShutdownLogger,
} from './shutdown.js';
