import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export type MailDelivery = { via: 'smtp'; messageId: string } | { via: 'outbox'; path: string };

export interface Mailer {
  send(message: MailMessage): Promise<MailDelivery>;
  close(): void;
}

export interface MailerConfig {
  /** `smtp://user:pass@host:port` or `smtps://...`; without it, messages go to the outbox folder. */
  smtpUrl?: string | undefined;
  /** The sender, e.g. `Inventory <noreply@example.com>`. */
  from: string;
  /** Where messages are written when there is no SMTP server (a development convenience). */
  outboxDir: string;
}

/**
 * Sends mail through SMTP when SMTP_URL is set. Without it, each message is written as an RFC 822
 * `.eml` file to the outbox folder (readable only by the service's user, since a reset message
 * holds a live code), so a development setup can still complete a password reset.
 */
export function createMailer(config: MailerConfig): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from: config.from, ...message });
        return { via: 'smtp', messageId: String(info.messageId) };
      },
      close: () => transport.close(),
    };
  }
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(message) {
      const info = await composer.sendMail({ from: config.from, ...message });
      await mkdir(config.outboxDir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const path = join(config.outboxDir, name);
      await writeFile(path, info.message as Buffer, { mode: 0o600 });
      return { via: 'outbox', path };
    },
    close: () => composer.close(),
  };
}
