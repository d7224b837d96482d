// What --save writes, --load, replay and export read back, and one line that is not a record costs
// only itself: the real binary over real sockets, a real receiver for what is forwarded.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI, RunningCli, runCli, waitFor } from './helpers.js';
import { LEAVE_ALT_SCREEN, screenText, startInTerminal } from './pty.js';
import { startReceiver } from './receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-session-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | undefined)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Har {
  log: { entries: { request: { url: string } }[] };
}

/** Runs the tool with --save and --forward-to, sends `paths`, stops it; the file's lines. */
async function saveSession(file: string, paths: string[]) {
  const app = await startReceiver((_req, res) => {
    // A long reason phrase: the app's status text is kept and must be read back too.
    res.writeHead(201, 'C'.repeat(3000), { 'Content-Type': 'text/plain' });
    res.end('ok');
  });
  cleanups.push(() => app.close());
  const cli = new RunningCli([
    '--no-tui',
    '--port',
    '0',
    '--forward-to',
    app.url,
    '--respond-with-forward',
    '--save',
    file,
  ]);
  cleanups.push(() => (cli.child.exitCode === null ? cli.stop() : undefined));
  const base = await cli.address();
  for (const [i, path] of paths.entries()) {
    const answer = await fetch(`${base}${path}`, { method: 'POST', body: `{"n":${i}}` });
    expect(answer.status).toBe(201);
    await answer.arrayBuffer();
  }
  await cli.stop();
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(paths.length);
  return { app, lines };
}

describe('a --save file with a long URL reads back', () => {
  it('loads, replays and exports a record whose path and forward target are over 1,000 characters', async () => {
    const file = join(dir, 'long.jsonl');
    const long = `/hooks/${'a'.repeat(12_000)}?q=${'b'.repeat(1100)}`;
    const { app } = await saveSession(file, ['/hooks/first', long]);
    expect(app.received.map((seen) => seen.url)).toEqual(['/hooks/first', long]);

    const har = await runCli(['export', '--from', file, '--har', '-']);
    expect(har.stderr).toBe('');
    expect(har.code).toBe(0);
    const parsed = JSON.parse(har.stdout) as Har;
    expect(parsed.log.entries.map((entry) => new URL(entry.request.url).pathname.length)).toEqual([
      '/hooks/first'.length,
      long.indexOf('?'),
    ]);

    const replay = await runCli(['replay', '--from', file, '--id', '2', '--to', app.url]);
    expect(replay.stderr).toContain('#2 POST');
    expect(replay.code).toBe(0);
    expect(app.received.at(-1)?.url).toBe(long);

    const loaded = new RunningCli(['--no-tui', '--port', '0', '--load', file]);
    cleanups.push(() => (loaded.child.exitCode === null ? loaded.stop() : undefined));
    await loaded.address();
    expect(loaded.stderr).toContain(`loaded 2 records from ${file}`);
    expect(loaded.stderr).not.toContain('skipped');
  });
});

describe('one line that is not a record is skipped, the others read', () => {
  it('--load, replay and export skip it with a warning naming the line', async () => {
    const saved = join(dir, 'good.jsonl');
    const { app, lines } = await saveSession(saved, ['/one', '/two', '/three']);
    const file = join(dir, 'mixed.jsonl');
    const [one, two, three] = lines as [string, string, string];
    // Line 2 is cut short, line 4 is longer than a record can be (5 MiB > 4 MiB + 1.4 × 1 KiB).
    writeFileSync(file, `${one}\n${two.slice(0, 40)}\n${two}\n${'x'.repeat(5 << 20)}\n${three}\n`);
    const limits = ['--max-body', '1kb'];

    const har = await runCli(['export', '--from', file, '--har', '-', ...limits]);
    expect(har.stderr).toContain(`webhook: ${file}:2: not valid JSON`);
    expect(har.stderr).toContain(`webhook: ${file}:4: line longer than`);
    // Lines that are not records are not records skipped: each kind is counted apart.
    expect(har.stderr).toContain(`webhook: 2 lines of ${file} skipped (not records)`);
    expect(har.stderr).not.toContain('records skipped');
    expect(har.code).toBe(1);
    const entries = (JSON.parse(har.stdout) as Har).log.entries;
    expect(entries.map((entry) => new URL(entry.request.url).pathname)).toEqual([
      '/one',
      '/two',
      '/three',
    ]);

    const curl = await runCli(['export', '--from', file, '--curl', ...limits], { cwd: dir });
    expect(curl.stdout.match(/^curl /gm)).toHaveLength(3);
    expect(curl.stderr).toContain(`${file}:2: not valid JSON`);
    expect(curl.code).toBe(1);

    const before = app.received.length;
    const replay = await runCli(['replay', '--from', file, '--all', '--to', app.url, ...limits]);
    expect(replay.stderr).toContain(`webhook: ${file}:2: not valid JSON`);
    expect(replay.stderr).toContain(`webhook: ${file}:4: line longer than`);
    expect(app.received.slice(before).map((seen) => seen.url)).toEqual(['/one', '/two', '/three']);
    expect(replay.code).toBe(1);
    // With --id, as an export: the record asked for was sent, so the bad lines elsewhere are
    // warnings, not a failed replay.
    const one3 = app.received.length;
    const asked = await runCli(['replay', '--from', file, '--id', '3', '--to', app.url, ...limits]);
    expect(asked.stderr).toContain(`webhook: ${file}:2: not valid JSON`);
    expect(app.received.slice(one3).map((seen) => seen.url)).toEqual(['/three']);
    expect(asked.code, asked.stderr).toBe(0);
    // A bad line after a record asked for may have been a later copy of it (the last of a seq
    // wins): the older one is sent, but the replay does not claim success.
    const early = await runCli(['replay', '--from', file, '--id', '1', '--to', app.url, ...limits]);
    expect(early.stderr).toContain(`webhook: ${file}:2: not valid JSON`);
    expect(early.code, early.stderr).toBe(1);

    const loaded = new RunningCli(['--no-tui', '--port', '0', '--load', file, ...limits]);
    cleanups.push(() => (loaded.child.exitCode === null ? loaded.stop() : undefined));
    await waitFor(
      () => loaded.stderr.includes('listening on') || loaded.child.exitCode !== null,
      () => loaded.stderr,
    );
    expect(loaded.stderr).toContain(`webhook: ${file}:2: not valid JSON`);
    expect(loaded.stderr).toContain(`webhook: ${file}:4: line longer than`);
    expect(loaded.stderr).toContain(`loaded 3 records from ${file}`);
    expect(loaded.stderr).toContain('listening on');
  });
});

describe('webhook export: lines that are not records, and the records asked for', () => {
  it('counts them apart from records; --id exits 0 once every record asked for is exported', async () => {
    const { lines } = await saveSession(join(dir, 'asked.jsonl'), ['/one', '/two', '/three']);
    const [one, two, three] = lines as [string, string, string];
    const file = join(dir, 'bad.jsonl');
    // Record 1, record 2 cut short, a 5 MiB line, record 3, and a line of JSON that is no record.
    writeFileSync(file, `${one}\n${two.slice(0, 40)}\n${'x'.repeat(5 << 20)}\n${three}\n[]\n`);
    const limits = ['--max-body', '1kb'];
    const out = join(dir, 'asked.har');

    const asked = await runCli(['export', '--from', file, '--har', out, '--id', '3', ...limits]);
    expect(asked.stderr).toContain(`webhook: ${file}:2: not valid JSON`);
    expect(asked.stderr).toContain(`webhook: 1 record written to ${out}\n`);
    expect(asked.stderr).toContain(`webhook: 3 lines of ${file} skipped (not records)\n`);
    expect(asked.stderr).not.toContain('records skipped');
    // What was asked for was exported: the lines elsewhere are warnings, not a failure.
    expect(asked.code).toBe(0);
    const entries = (JSON.parse(readFileSync(out, 'utf8')) as Har).log.entries;
    expect(entries.map((entry) => new URL(entry.request.url).pathname)).toEqual(['/three']);

    // The record asked for may be the line that is not one: not exported, so exit 1.
    const lost = await runCli(['export', '--from', file, '--har', out, '--id', '2', ...limits]);
    expect(lost.stderr).toContain(`webhook: ${file}: no record with seq 2\n`);
    expect(lost.stderr).toContain(`webhook: no records exported from ${file}\n`);
    expect(lost.code).toBe(1);

    // Without --id every record of the file is asked for: a line that is not one may have been.
    const all = await runCli(['export', '--from', file, '--har', out, ...limits]);
    expect(all.stderr).toContain(`webhook: 2 records written to ${out}\n`);
    expect(all.stderr).toContain(`webhook: 3 lines of ${file} skipped (not records)\n`);
    expect(all.code).toBe(1);

    const curl = await runCli(['export', '--from', file, '--curl', '--id', '1', ...limits], {
      cwd: dir,
    });
    expect(curl.stdout.match(/^curl /gm)).toHaveLength(1);
    expect(curl.stderr).toContain(`webhook: 3 lines of ${file} skipped (not records)\n`);
    expect(curl.code).toBe(0);
  });
});

describe('--load with many lines that are not records, in the UI', { timeout: 60_000 }, () => {
  it('the screen says which are listed at exit; at exit the first 20, then a count', async () => {
    const { lines } = await saveSession(join(dir, 'one.jsonl'), ['/one']);
    const file = join(dir, 'many-bad.jsonl');
    writeFileSync(file, `${lines[0]}\n${'{"cut\n'.repeat(23)}`);
    const cli = startInTerminal([CLI, '--port', '0', '--load', file], { cols: 160 });
    cleanups.push(() => {
      cli.terminal.kill();
      return undefined;
    });
    await cli.address();
    await waitFor(
      () => cli.screen().includes('more lines of'),
      () => cli.screen(),
    );
    // 23 skipped: only the first 20 are listed at exit, which the screen must not overstate.
    expect(cli.screen()).toContain(
      `22 more lines of ${file} skipped (the first 20 listed at exit)`,
    );
    cli.terminal.write('q');
    await cli.exited;
    const output = cli.output();
    const afterUi = screenText(output.slice(output.lastIndexOf(LEAVE_ALT_SCREEN)));
    expect(afterUi.match(/not valid JSON[^\n]*; line skipped/g)).toHaveLength(20);
    expect(afterUi).toContain(`${file}:21: not valid JSON`);
    expect(afterUi).not.toContain(`${file}:22: not valid JSON`);
    expect(afterUi).toContain(`3 more lines of ${file} skipped`);
  });
});
