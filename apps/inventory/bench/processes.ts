import { type ChildProcess, fork, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The two servers under load, each in a process of its own so that neither shares a thread with
 * the load generator: the real inventory API (src/main.ts, as `npm start` runs it) and the bare
 * node:http ceiling.
 */

const APP_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** tsx as a loader: the service runs from its TypeScript sources, exactly as `npm start` does. */
const TS_LOADER = ['--import', 'tsx', '--conditions=development'];

export interface RunningServer {
  url: string;
  pid: number;
  /** From spawn to the "listening" line: migrations, account seeding and listen included. */
  startupMs: number;
  /** Peak resident set seen by sampling, and the kernel's own high-water mark (VmHWM). */
  memory(): { peakRssMb: number | null; hwmMb: number | null };
  stop(): Promise<void>;
}

export interface InventoryServerOptions {
  env: Record<string, string>;
  /** Folder for `--cpu-prof` output; no profile when undefined. */
  cpuProfileDir?: string | undefined;
  /** How long the start may take (the embedded store reads its whole data folder). */
  timeoutMs?: number;
  /** Run the compiled service (dist/main.js with the start script's Node options, as `npm start`). */
  compiled?: boolean;
}

/** The root's `npm start` script of the checkout in `root`, as node's arguments. */
export function startScriptArguments(root: string): string[] {
  const script = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).scripts?.start;
  const [program, ...args] = String(script).split(/\s+/);
  if (program !== 'node') throw new Error(`cannot run the start script "${script}" without npm`);
  return args;
}

/** Starts the service on a free port and waits for the address it prints. */
export async function startInventoryServer(
  options: InventoryServerOptions,
): Promise<RunningServer & { recentOutput(): string }> {
  const entry = options.compiled
    ? // The heap settings `npm start` gives the service, from the start script itself.
      [
        ...startScriptArguments(`${APP_ROOT}../..`).filter((arg) => arg.startsWith('--')),
        'dist/main.js',
      ]
    : [...TS_LOADER, 'src/main.ts'];
  if (options.compiled && !existsSync(`${APP_ROOT}dist/main.js`)) {
    throw new Error('no dist/main.js: run `npm run build -w apps/inventory` first');
  }
  // main.ts exits normally on SIGTERM (graceful shutdown), which is when Node writes the profile.
  const args = [
    ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
    ...entry,
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: APP_ROOT,
    env: { ...process.env, ...options.env, HOST: '127.0.0.1', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start in time:\n${output.join('')}`));
    }, options.timeoutMs ?? 120_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /listening on (https?:\/\/\S+)/.exec(output.join(''));
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (code ${code}) before listening:\n${output.join('')}`));
    });
  });
  const startupMs = performance.now() - started;
  // Keep reading (warnings and errors only, at LOG_LEVEL=warn) so a full pipe never blocks it.
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  const logTail: string[] = [];
  const keepTail = (chunk: Buffer) => {
    logTail.push(chunk.toString());
    if (logTail.length > 50) logTail.shift();
  };
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);
  return { url, startupMs, ...watch(child), recentOutput: () => logTail.join('') };
}

/** The ceiling: answers every request with the body it was last told to, after reading the request. */
export async function startCeilingServer(): Promise<
  RunningServer & { answerWith(status: number, body: string): Promise<void> }
> {
  const started = performance.now();
  const child = fork(fileURLToPath(new URL('./ceiling-server.ts', import.meta.url)), [], {
    execArgv: TS_LOADER,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve(String((message as { url: string }).url)));
    child.once('exit', (code) => reject(new Error(`the ceiling server exited (code ${code})`)));
  });
  return {
    url,
    startupMs: performance.now() - started,
    ...watch(child),
    answerWith: (status, body) =>
      new Promise((resolve) => {
        child.once('message', () => resolve());
        child.send({ status, body });
      }),
  };
}

/** Samples the child's resident set (Linux /proc) and stops it gently, then firmly. */
function watch(child: ChildProcess) {
  const pid = child.pid ?? -1;
  let peakRssKb: number | null = null;
  let hwmKb: number | null = null;
  const sample = () => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
      if (Number.isFinite(rss)) peakRssKb = Math.max(peakRssKb ?? 0, rss);
      if (Number.isFinite(hwm)) hwmKb = hwm;
    } catch {
      // Not Linux, or the process is gone: memory is reported as unknown.
    }
  };
  const sampler = setInterval(sample, 200);
  sampler.unref();
  const toMb = (kb: number | null) => (kb === null ? null : Math.round(kb / 1024));
  return {
    pid,
    memory() {
      sample();
      return { peakRssMb: toMb(peakRssKb), hwmMb: toMb(hwmKb) };
    },
    async stop() {
      sample();
      clearInterval(sampler);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // SIGTERM lets the service finish cleanly (and write its CPU profile when asked to).
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
