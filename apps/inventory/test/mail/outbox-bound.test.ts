import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, OUTBOX_MAX_MESSAGES } from '../../src/mail/mailer.js';

/** The outbox folder (no SMTP server) stays bounded. */
describe('outbox', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inventory-outbox-bound-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('deletes its messages past the retention and beyond the cap, never other files', async () => {
    const outboxDir = join(dir, 'outbox');
    const mailer = createMailer({ from: 'x <x@test>', outboxDir, outboxRetentionSeconds: 900 });
    const message = { to: 'a@example.com', subject: 's', text: 't' };
    const first = await mailer.send(message);
    if (first.via !== 'outbox') throw new Error('expected the outbox');
    // An expired message (16 minutes old) and a file the mailer did not write.
    const old = new Date(Date.now() - 16 * 60_000);
    await utimes(first.path, old, old);
    await writeFile(join(outboxDir, 'notes.txt'), 'mine');
    const second = await mailer.send(message);
    const names = await readdir(outboxDir);
    expect(names.sort()).toEqual(
      [second.via === 'outbox' ? second.path.split('/').pop() : '', 'notes.txt'].sort(),
    );

    // Beyond the cap, the oldest go first.
    for (let i = 0; i < OUTBOX_MAX_MESSAGES + 5; i++) {
      const stamp = new Date(Date.now() - 60_000 + i).toISOString().replace(/[:.]/g, '-');
      await writeFile(join(outboxDir, `${stamp}-${i.toString(16).padStart(8, '0')}.eml`), 'x');
    }
    await mailer.send(message);
    const left = (await readdir(outboxDir)).filter((name) => name.endsWith('.eml'));
    expect(left).toHaveLength(OUTBOX_MAX_MESSAGES);
    mailer.close();
  });
});
