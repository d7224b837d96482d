import { closeSync, openSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  EnvironmentReader,
  type ListeningServer,
  listenVariables,
  readListenSettings,
  runService,
  type ServiceDefinition,
  type ServiceIO,
} from '../src/index.js';
import { runServiceInProcess } from '../src/testing.js';

const VARIABLES = [...listenVariables(3900), { name: 'GREETING', help: 'what it answers' }];

/** A node:http server dressed as the app a service builds (Fastify has the same methods). */
function httpApp(answer: string): ListeningServer & { server: Server } {
  const server = createServer((_request, response) => response.end(answer));
  const log = { info: () => {}, error: () => {} };
  return {
    server,
    log,
    listen: ({ host, port }) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const { port: bound } = server.address() as { port: number };
          resolve(`http://${host}:${bound}`);
        });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A service with one variable of its own, recording what the platform asks of it. */
function greeter(
  events: string[],
): ServiceDefinition<ReturnType<typeof readListenSettings> & { greeting: string }> {
  return {
    usage: { summary: 'Greeter.', command: 'greet', docs: ['README'] },
    variables: VARIABLES,
    commands: {
      hello: async (args, _env, io) => {
        io.stdout(`hello ${args.join(' ')}\n`);
        return 3;
      },
    },
    startingLine: 'Starting the greeter…',
    configure(env, logLevel) {
      const vars = new EnvironmentReader(env, VARIABLES);
      const listen = readListenSettings(vars, 3900, logLevel);
      const greeting = vars.read(
        'GREETING',
        (text) => {
          if (text === 'boom') throw new Error('must not explode');
          return text ?? 'hi';
        },
        'hi',
      );
      vars.finish();
      return { ...listen, greeting };
    },
    async start(config, { note }) {
      events.push('start');
      return {
        app: httpApp(config.greeting),
        close: async () => {
          events.push('close');
        },
        announce: ({ url, port }) => {
          events.push(`announce ${port}`);
          note(`greeter on ${url}`);
        },
      };
    },
  };
}

describe('runService before it listens', () => {
  it('prints --help with every variable, runs a command of the service, refuses anything else', async () => {
    const help = await runServiceInProcess(greeter([]), ['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Greeter\.\n\nUsage: greet\n/);
    for (const { name } of VARIABLES) expect(help.stdout).toContain(name);
    const command = await runServiceInProcess(greeter([]), ['hello', 'you'], {});
    expect(command).toMatchObject({ code: 3, stdout: 'hello you\n', log: '' });
    const refused = await runServiceInProcess(greeter([]), ['--port', '1'], {});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^unknown argument "--port"/);
  });

  it('reports every configuration problem in one shape, after its first line, exit code 1', async () => {
    const events: string[] = [];
    const one = await runServiceInProcess(greeter(events), [], { GREETING: 'boom' });
    expect(one).toMatchObject({
      code: 1,
      stderr: 'configuration error: GREETING: must not explode\n',
      log: 'Starting the greeter…\n',
    });
    const several = await runServiceInProcess(greeter(events), [], {
      PORT: 'x',
      LOG_LEVEL: 'loud',
      GREETING: 'boom',
    });
    expect(several.code).toBe(1);
    expect(several.stderr.split('\n').slice(0, 4)).toEqual([
      'configuration errors (3):',
      '  - PORT: must be an integer >= 0, not "x"',
      '  - LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, not "loud"',
      '  - GREETING: must not explode',
    ]);
    expect(events).toEqual([]);
  });

  it('names a busy port before the service opens anything', async () => {
    const occupier = httpApp('');
    const url = await occupier.listen({ host: '127.0.0.1', port: 0 });
    const events: string[] = [];
    try {
      const run = await runServiceInProcess(greeter(events), [], { PORT: new URL(url).port });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`127.0.0.1:${new URL(url).port} is already in use (set PORT)\n`);
      expect(events).toEqual([]);
    } finally {
      await occupier.close();
    }
  });

  it('says "Start-up failed" with the stack when the service cannot start', async () => {
    const definition = greeter([]);
    definition.start = async () => {
      throw new Error('store unreachable');
    };
    const run = await runServiceInProcess(definition, [], { PORT: '0' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Start-up failed: Error: store unreachable\n {4}at /);
  });

  it('is the same ConfigError whichever service reads', () => {
    expect(new ConfigError('X: bad')).toMatchObject({ problems: ['X: bad'], message: 'X: bad' });
  });
});

describe('runService once listening', () => {
  it('announces the bound port, serves, and on a signal closes the server, then the service, then exits 0', async () => {
    const events: string[] = [];
    const exited: number[] = [];
    const fd = openSync('/dev/null', 'w');
    const io: ServiceIO = {
      argv: [],
      env: { PORT: '0', LOG_LEVEL: 'silent', GREETING: 'hello there' },
      stdout: () => {},
      stderr: () => {},
      logOutput: { fd, pretty: false },
      exit: (code) => exited.push(code),
      // A signal of the test's own, not the runner's SIGTERM.
      signals: ['SIGUSR2'],
    };
    try {
      expect(await runService(greeter(events), io)).toBeUndefined();
      const port = Number(events.find((event) => event.startsWith('announce'))?.split(' ')[1]);
      expect(port).toBeGreaterThan(0);
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('hello there');
      process.kill(process.pid, 'SIGUSR2');
      for (let i = 0; i < 100 && exited.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(exited).toEqual([0]);
      expect(events).toEqual(['start', `announce ${port}`, 'close']);
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    } finally {
      closeSync(fd);
    }
  });
});
