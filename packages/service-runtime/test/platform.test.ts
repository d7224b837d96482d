import { describe, expect, it } from 'vitest';
import {
  addressBucket,
  ConfigError,
  EnvironmentReader,
  listenVariables,
  parseCorsOrigins,
  parseTrustProxy,
  readListenSettings,
  readStoreSettings,
  storeVariables,
} from '../src/index.js';

describe('addressBucket (what rate limits and lock-outs count per)', () => {
  it('groups IPv6 clients by /64, and keeps IPv4 addresses as they are', () => {
    expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:DB8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('::')).toBe('0:0:0:0::/64');
    expect(addressBucket('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('192.0.2.1')).toBe('192.0.2.1');
  });
});

describe('parseTrustProxy (one policy for both services)', () => {
  it('takes the proxies by address, CIDR range or keyword; off by default', () => {
    expect(parseTrustProxy('10.0.0.1, 192.168.0.0/16,loopback, fd00::/8')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'loopback',
      'fd00::/8',
    ]);
    for (const off of [undefined, '', ' ', 'false', 'FALSE', '0', 'no', 'off', 'none']) {
      expect(parseTrustProxy(off), String(off)).toBe(false);
    }
  });

  it('refuses "true" and hop counts, saying what to set instead', () => {
    for (const value of ['true', 'YES', 'on', '*']) {
      expect(() => parseTrustProxy(value)).toThrow(
        /any client choose its own address.*10\.0\.0\.5/,
      );
    }
    for (const value of ['1', '2', '10']) {
      expect(() => parseTrustProxy(value)).toThrow(/hop count.*TRUST_PROXY=10\.0\.0\.5/);
    }
  });

  it('refuses what is not an address, a range or a keyword', () => {
    for (const bad of ['proxy.example.com', '10.0.0.0/33', '1.2.3', '::1/129', 'loopback;']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(`"${bad}" is not an IP address`);
    }
  });
});

describe('parseCorsOrigins', () => {
  it('normalises origins as browsers send them, and answers the default when unset', () => {
    expect(parseCorsOrigins('https://Web.Example.com:443/, http://localhost:3000')).toEqual([
      'https://web.example.com',
      'http://localhost:3000',
    ]);
    expect(parseCorsOrigins(undefined, ['http://localhost:5173'])).toEqual([
      'http://localhost:5173',
    ]);
    expect(parseCorsOrigins('none', ['http://localhost:5173'])).toEqual([]);
  });

  it('refuses "*" and anything that is not a bare http(s) origin', () => {
    expect(() => parseCorsOrigins('*')).toThrow('"*" is not accepted');
    for (const bad of ['https://a.example/app', 'ftp://a.example', 'https://u@a.example', 'x']) {
      expect(() => parseCorsOrigins(bad), bad).toThrow(`"${bad}" is not an origin`);
    }
  });

  it('never repeats a password, query or fragment of a refused entry', () => {
    for (const [bad, shown] of [
      ['https://user:OriginPw@b.example.com', 'https://user:***@b.example.com'],
      ['https://user:Origin@Pw@b.example.com/', 'https://user:***@b.example.com/'],
      ['https://b.example.com/?token=QuerySecret#FragmentSecret', 'https://b.example.com/?…'],
      ['https://b.example.com#FragmentSecret', 'https://b.example.com#…'],
    ]) {
      expect(() => parseCorsOrigins(`https://ok.example, ${bad}`), bad).toThrow(
        `"${shown}" is not an origin like https://app.example.com`,
      );
      expect(() => parseCorsOrigins(bad)).not.toThrow(/Pw|Secret/);
    }
  });
});

describe('EnvironmentReader', () => {
  const variables = [
    { name: 'PORT', help: 'port' },
    { name: 'LOG_LEVEL', help: 'level' },
    { name: 'CACHE', help: 'on or off' },
  ];

  it('reports every problem at once, each naming its variable', () => {
    const vars = new EnvironmentReader(
      { PORT: 'eighty', LOG_LEVEL: 'loud', CACHE: 'yes' },
      variables,
    );
    vars.integer('PORT', 3000, 0, 65535);
    vars.oneOf('LOG_LEVEL', ['info', 'warn'], 'info');
    vars.onOff('CACHE', true);
    expect(() => vars.finish()).toThrow(ConfigError);
    expect(vars.problems).toEqual([
      'PORT: must be an integer >= 0, not "eighty"',
      'LOG_LEVEL: must be one of info, warn, not "loud"',
      'CACHE: must be on or off, not "yes"',
    ]);
  });

  it('treats an empty variable as unset and refuses to read an undeclared one', () => {
    const vars = new EnvironmentReader({ PORT: ' ', OTHER: 'x' }, variables);
    expect(vars.integer('PORT', 3000, 0)).toBe(3000);
    expect(() => vars.text('OTHER')).toThrow('not declared');
    expect(() => vars.finish()).not.toThrow();
  });
});

describe('the settings every service reads alike', () => {
  const variables = [
    ...listenVariables(3000),
    ...Object.values(storeVariables('data/x')),
    { name: 'REDIS_URL', help: 'redis' },
    { name: 'SECRET', help: 'a secret' },
  ];

  it('reads where to listen, the log level and the store, with their defaults', () => {
    const vars = new EnvironmentReader({ DATA_DIR: 'here' }, variables);
    expect(readListenSettings(vars, 3000, 'warn')).toEqual({
      host: '127.0.0.1',
      port: 3000,
      logLevel: 'warn',
    });
    expect(readStoreSettings(vars, 'data/x', '/srv')).toEqual({
      databaseUrl: undefined,
      dataDir: '/srv/here',
      embeddedDurability: true,
      embeddedSharedBuffersMb: undefined,
    });
    expect(vars.problems).toEqual([]);
  });

  it("takes the embedded store's shared buffers in MB or GB, from 16MB to 1GB, and refuses anything else", () => {
    const read = (value: string) => {
      const vars = new EnvironmentReader({ EMBEDDED_SHARED_BUFFERS: value }, variables);
      return {
        mb: readStoreSettings(vars, 'data/x').embeddedSharedBuffersMb,
        problems: vars.problems,
      };
    };
    expect(read('128MB')).toEqual({ mb: 128, problems: [] });
    expect(read(' 1gb ')).toEqual({ mb: 1024, problems: [] });
    expect(read('16 MB')).toEqual({ mb: 16, problems: [] });
    expect(read('')).toEqual({ mb: undefined, problems: [] });
    const refusal = (value: string) =>
      `EMBEDDED_SHARED_BUFFERS: must be a size from 16MB to 1GB, such as 128MB, not ${JSON.stringify(value)}`;
    for (const value of [
      '15MB',
      '2GB',
      '1025MB',
      '0MB',
      '128',
      '128kB',
      '-64MB',
      '1.5GB',
      '9999999GB',
      '0x80MB',
    ]) {
      expect(read(value)).toEqual({ mb: undefined, problems: [refusal(value)] });
    }
    // A control character is shown escaped, never sent raw to a terminal.
    expect(read('64MB\u001b[2J').problems).toEqual([refusal('64MB\u001b[2J')]);
  });

  it('refuses a DATABASE_URL or REDIS_URL of another kind without repeating it (it may hold a password)', () => {
    const vars = new EnvironmentReader(
      { DATABASE_URL: 'mysql://root:hunter2@db/x', REDIS_URL: 'http://:hunter2@cache' },
      variables,
    );
    readStoreSettings(vars, 'data/x');
    expect(vars.url('REDIS_URL', ['redis', 'rediss'])).toBeUndefined();
    expect(vars.problems).toEqual([
      'DATABASE_URL: must be a postgres:// (or postgresql://) URL or memory://, not mysql:',
      'REDIS_URL: must be a redis:// or rediss:// URL',
    ]);
    const good = new EnvironmentReader(
      { DATABASE_URL: 'postgresql://u@db/x', REDIS_URL: 'rediss://cache:6380' },
      variables,
    );
    expect(readStoreSettings(good, 'data/x').databaseUrl).toBe('postgresql://u@db/x');
    expect(good.url('REDIS_URL', ['redis', 'rediss'])).toBe('rediss://cache:6380');
  });

  it('keeps the spaces of a value read verbatim (a secret), trims the others', () => {
    const vars = new EnvironmentReader({ SECRET: ' s p ', HOST: ' ::1 ' }, variables);
    expect(vars.verbatim('SECRET')).toBe(' s p ');
    expect(vars.read('SECRET', (text) => text, undefined, 'verbatim')).toBe(' s p ');
    expect(vars.text('HOST')).toBe('::1');
  });
});
