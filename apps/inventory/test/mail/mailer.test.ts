import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/mail/mailer.js';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
  user: string | undefined;
}

describe('mailer', () => {
  let server: SMTPServer;
  let port: number;
  const received: Received[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 's3cret')
          callback(null, { user: 'mailer' });
        else callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            user: session.user as string | undefined,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers through a real SMTP server with authentication', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:s3cret@127.0.0.1:${port}`,
      from: 'Inventory <noreply@inventory.test>',
      outboxDir: '/nonexistent',
    });
    const delivery = await mailer.send({
      to: 'alice@example.com',
      subject: 'Reset your password',
      text: 'Your code: abc123',
    });
    mailer.close();
    expect(delivery.via).toBe('smtp');
    const message = received.at(-1);
    expect(message?.user).toBe('mailer');
    expect(message?.from).toBe('noreply@inventory.test');
    expect(message?.to).toEqual(['alice@example.com']);
    expect(message?.raw).toContain('Subject: Reset your password');
    expect(message?.raw).toContain('Your code: abc123');
  });

  it('reports a refused login instead of pretending the mail went out', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:wrong@127.0.0.1:${port}`,
      from: 'noreply@inventory.test',
      outboxDir: '/nonexistent',
    });
    await expect(mailer.send({ to: 'bob@example.com', subject: 's', text: 't' })).rejects.toThrow();
    mailer.close();
  });

  it('writes to a private outbox file without SMTP', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'outbox-'));
    try {
      const mailer = createMailer({
        from: 'noreply@inventory.test',
        outboxDir: join(dir, 'outbox'),
      });
      const delivery = await mailer.send({
        to: 'carol@example.com',
        subject: 'Hello',
        text: 'Body text',
      });
      expect(delivery.via).toBe('outbox');
      if (delivery.via !== 'outbox') return;
      const content = await readFile(delivery.path, 'utf8');
      expect(content).toContain('To: carol@example.com');
      expect(content).toContain('Subject: Hello');
      expect(content).toContain('Body text');
      expect((await stat(delivery.path)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
