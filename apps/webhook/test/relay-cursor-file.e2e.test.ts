// The cursor file is what keeps a restart from delivering (and forwarding) the whole buffer
// again: when it cannot be written, the user is told once, with what that means.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRelayChannel, listenToChannel, startRelay, waitFor } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-relay-cursor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a cursor file that cannot be written', () => {
  it('is reported once on stderr, saying a restart delivers the buffer again', async () => {
    const relay = await startRelay();
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base);
    // A file where the state folder should be: no folder can be made under it (even as root).
    const state = join(dir, 'state');
    mkdirSync(state);
    writeFileSync(join(state, 'webhook'), '');
    const cli = await listenToChannel(channel, { dir, state }, (cleanup) => cleanups.push(cleanup));
    for (const path of ['/one', '/two']) {
      await fetch(`${channel.sendUrl}${path}`, { method: 'POST', body: '{}' });
    }
    await waitFor(
      () => /cursor/.test(cli.stderr) && /"\/two"/.test(cli.stdout),
      () => cli.stderr,
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    const warnings = cli.stderr.match(/cannot write the cursor file[^\n]*/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(join(state, 'webhook', 'relay'));
    expect(warnings[0]).toMatch(/ENOTDIR|EEXIST/);
    expect(warnings[0]).toMatch(/a restart delivers .* again/);
  });
});
