import { randomBytes } from 'node:crypto';
import { mkdir, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';

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
  /**
   * How long an outbox message is kept: older ones are deleted as new ones are written (the
   * service's messages carry reset codes, worthless once expired). Unset: kept for a day.
   */
  outboxRetentionSeconds?: number;
}

/** The outbox never holds more than this many messages: the oldest go first. */
export const OUTBOX_MAX_MESSAGES = 1000;
const DEFAULT_OUTBOX_RETENTION_SECONDS = 24 * 60 * 60;
/** The names this mailer gives its files; nothing else in the folder is ever deleted. */
const OUTBOX_FILE = /^\d{4}-\d{2}-\d{2}T[\d-]+Z-[0-9a-f]{8}\.eml$/;

/**
 * Deletes the outbox's messages older than the retention, then the oldest beyond
 * OUTBOX_MAX_MESSAGES, so that the folder stays bounded whatever the traffic. Names begin with
 * their creation time, so their order is their age.
 */
async function pruneOutbox(dir: string, retentionSeconds: number): Promise<void> {
  const names = (await readdir(dir)).filter((name) => OUTBOX_FILE.test(name)).sort();
  const cutoff = Date.now() - retentionSeconds * 1000;
  // One place is left for the message about to be written.
  const excess = names.length - (OUTBOX_MAX_MESSAGES - 1);
  for (const [index, name] of names.entries()) {
    const path = join(dir, name);
    if (index >= excess) {
      const info = await stat(path).catch(() => undefined);
      // Oldest first: the first message young enough ends the walk.
      if (info && info.mtimeMs >= cutoff) break;
    }
    await unlink(path).catch(() => {});
  }
}

/**
 * Sends mail through SMTP when SMTP_URL is set. Without it, each message is written as an RFC 822
 * `.eml` file to the outbox folder (readable only by the service's user, since a reset message
 * holds a live code), so a development setup can still complete a password reset.
 */
export function createMailer(config: MailerConfig): Mailer {
  // nodemailer is loaded with the first message, not at start: most starts send none, and its
  // sixty modules are a few MB of the idle service.
  let transport: Promise<Transporter> | undefined;
  const transportFor = (options: string | object) => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(options),
    );
    return transport;
  };
  const close = () => {
    void transport?.then(
      (opened) => opened.close(),
      () => undefined,
    );
  };
  if (config.smtpUrl) {
    const smtpUrl = config.smtpUrl;
    return {
      async send(message) {
        const info = await (await transportFor(smtpUrl)).sendMail({
          from: config.from,
          ...message,
        });
        return { via: 'smtp', messageId: String(info.messageId) };
      },
      close,
    };
  }
  return {
    async send(message) {
      const composer = await transportFor({ streamTransport: true, buffer: true });
      const info = await composer.sendMail({ from: config.from, ...message });
      await mkdir(config.outboxDir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const path = join(config.outboxDir, name);
      await pruneOutbox(
        config.outboxDir,
        config.outboxRetentionSeconds ?? DEFAULT_OUTBOX_RETENTION_SECONDS,
      );
      await writeFile(path, info.message as Buffer, { mode: 0o600 });
      return { via: 'outbox', path };
    },
    close,
  };
}
