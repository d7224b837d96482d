import { createServer } from 'node:net';

/** `host:port`, with brackets around an IPv6 address. */
export function formatAddress(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * One line saying why the server could not listen and what to change, or undefined when the error
 * is not a listening failure (let it propagate as it is).
 */
export function describeListenError(
  error: unknown,
  host: string,
  port: number,
): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = formatAddress(host, port);
  switch (code) {
    case 'EADDRINUSE':
      return `${where} is already in use (set PORT)`;
    case 'EACCES':
      return `${where}: permission denied (ports below 1024 need privileges; set PORT)`;
    case 'EADDRNOTAVAIL':
      return `${where}: ${host} is not an address of this machine (set HOST)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${where}: cannot resolve host ${host} (set HOST)`;
    default:
      return undefined;
  }
}

/**
 * Tries the address for a moment before the (slow) store is opened, so a port that cannot be had
 * ends the start with one line at once. Answers the problem, or undefined when the port is free.
 */
export async function findListenProblem(host: string, port: number): Promise<string | undefined> {
  if (port === 0) return undefined;
  return new Promise<string | undefined>((resolve) => {
    const probe = createServer();
    probe.once('error', (error) => resolve(describeListenError(error, host, port)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}
