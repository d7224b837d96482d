export { type CommandLine, formatUsage, readCommandLine, type Usage } from './cli.js';
export { describeListenError, findListenProblem, formatAddress } from './listen.js';
export {
  DEFAULT_MAX_QUEUED_LOG_BYTES,
  type LogOutput,
  type LogOutputOptions,
  openLogOutput,
} from './log-output.js';
export { isTrustedProxyEntry } from './proxy.js';
export {
  type ClosableServer,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type GracefulShutdownOptions,
  installGracefulShutdown,
  type ShutdownLogger,
} from './shutdown.js';
