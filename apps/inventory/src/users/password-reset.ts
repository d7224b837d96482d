import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { runAccountFlow } from '../audit/audit-log.js';
import type { PasswordHasher } from '../auth/passwords.js';
import type { AnyDatabase } from '../db/schema.js';
import { badRequest } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import { responses, SuccessMessage } from '../resources/schemas.js';
import { PasswordSchema, users } from './definition.js';
import { type Budget, spendBudgets } from './throttle.js';

export interface PasswordResetOptions {
  db: AnyDatabase;
  hasher: PasswordHasher;
  mailer: Mailer;
  /** How long a code stays usable. */
  resetTtlSeconds: number;
}

export const FORGOT_PASSWORD_MESSAGE =
  'If an account with this e-mail address exists, a password reset code has been sent to it';
export const INVALID_RESET_CODE = 'Invalid or expired reset code';
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/**
 * Reset e-mails an account gets, and a client address causes, per RESET_TTL (15 minutes by
 * default). The account's window is the codes' lifetime on purpose: while its budget is spent,
 * the codes it was sent are all still valid, so a stranger asking on the owner's behalf can
 * fill the owner's mailbox a little but never leave them without a working code.
 */
export const RESET_MAILS_PER_ACCOUNT = 3;
export const RESET_MAILS_PER_CLIENT = 10;

/** 256 random bits, base64url: 43 characters. */
const CODE_BYTES = 32;
const CodeParams = Type.Object(
  { code: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) },
  { additionalProperties: false },
);

/** Only this is stored: a leaked table cannot be turned back into usable codes. */
export const hashResetCode = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * POST /users/forgot-password and POST /users/reset-password/{code}.
 *
 * The forgot-password answer is sent before anything is looked up: the same 200 and message,
 * in the same time, whether the address exists or not, so neither the body nor the timing tells
 * who has an account. The lookup, the code and the e-mail happen afterwards; close() waits for
 * such work still running.
 */
export const passwordResetRoutes: FastifyPluginAsyncTypebox<PasswordResetOptions> = async (
  app,
  { db, hasher, mailer, resetTtlSeconds },
) => {
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...running]);
    mailer.close();
  });

  const perAccount: Budget = {
    kind: 'reset-mail:account',
    limit: RESET_MAILS_PER_ACCOUNT,
    windowSeconds: resetTtlSeconds,
  };
  const perClient: Budget = {
    kind: 'reset-mail:client',
    limit: RESET_MAILS_PER_CLIENT,
    windowSeconds: resetTtlSeconds,
  };

  const sendResetCode = async (email: string, clientIp: string, log: FastifyBaseLogger) => {
    // Addresses are unique regardless of letter case (migration 009): people type them anyhow.
    const user = await db
      .selectFrom('users')
      .select(['id', 'email'])
      .where(sql`lower(email)`, '=', sql`lower(${email})`)
      .where('inactive_status', '=', false)
      .executeTakeFirst();
    if (!user) return;
    const spent = await spendBudgets(db, [
      { budget: perAccount, subject: String(user.id) },
      { budget: perClient, subject: clientIp },
    ]);
    if (!spent.allowed) {
      log.warn({ userId: user.id }, 'password reset e-mail not sent: budget spent');
      return;
    }
    // Expired codes are worthless: gone at the next request, so the table stays bounded.
    await db
      .deleteFrom('password_reset_codes')
      .where('expires_at', '<=', sql<Date>`now()`)
      .execute();
    const code = randomBytes(CODE_BYTES).toString('base64url');
    await db
      .insertInto('password_reset_codes')
      .values({
        code_hash: hashResetCode(code),
        user_id: user.id,
        expires_at: new Date(Date.now() + resetTtlSeconds * 1000),
      })
      .execute();
    const minutes = Math.max(1, Math.round(resetTtlSeconds / 60));
    const delivery = await mailer.send({
      to: user.email,
      subject: 'Network inventory: password reset',
      text: [
        'Someone (hopefully you) asked to reset the password of your network',
        'inventory account. Your reset code, usable once:',
        '',
        `    ${code}`,
        '',
        `It expires in ${minutes} minute(s). Send it with your new password:`,
        'POST /users/reset-password/{code}',
        '{"new_password": "...", "confirm_password": "..."}',
        '',
        'If you did not ask for this, ignore this message: your password stays.',
      ].join('\n'),
    });
    // Where the message went, never the code.
    if (delivery.via === 'outbox') {
      log.info({ userId: user.id, path: delivery.path }, 'password reset e-mail written to outbox');
    } else {
      log.info({ userId: user.id, messageId: delivery.messageId }, 'password reset e-mail sent');
    }
  };

  app.post(
    '/users/forgot-password',
    {
      config: { access: 'public' },
      schema: {
        body: Type.Object(
          { email: Type.String({ format: 'email', maxLength: 254 }) },
          { additionalProperties: false },
        ),
        response: responses({ 200: SuccessMessage }),
      },
    },
    async (request) => {
      const work = sendResetCode(request.body.email, request.ip, request.log).catch(
        (error: unknown) => {
          request.log.error({ err: error }, 'password reset e-mail failed');
        },
      );
      running.add(work);
      void work.finally(() => running.delete(work));
      return { status: 'success' as const, message: FORGOT_PASSWORD_MESSAGE };
    },
  );

  app.post(
    '/users/reset-password/:code',
    {
      config: { access: 'public' },
      schema: {
        params: CodeParams,
        body: Type.Object(
          { new_password: PasswordSchema, confirm_password: Type.String({ maxLength: 1024 }) },
          { additionalProperties: false },
        ),
        response: responses({ 200: SuccessMessage }),
      },
    },
    async (request) => {
      const { new_password: password, confirm_password: confirmation } = request.body;
      if (password !== confirmation) throw badRequest(PASSWORDS_DO_NOT_MATCH);
      const passwordHash = await hasher.hash(password);
      await runAccountFlow(db, request, async (trx) => {
        // Deleting is what makes a code single-use: of two requests racing with one code, the
        // second finds nothing to delete.
        const used = await trx
          .deleteFrom('password_reset_codes')
          .where('code_hash', '=', hashResetCode(request.params.code))
          .where('expires_at', '>', sql<Date>`now()`)
          .returning('user_id')
          .executeTakeFirst();
        if (!used) throw badRequest(INVALID_RESET_CODE);
        const userId = String(used.user_id);
        // An inactive account's code is refused (the same answer: its state is nobody's
        // business); the row is locked by the update, so a deactivation cannot slip in between.
        const updated = await trx
          .updateTable('users')
          .set({
            password_hash: passwordHash,
            password_changed_at: sql`clock_timestamp()`,
            updated_at: sql`clock_timestamp()`,
          })
          .where('id', '=', userId)
          .where('inactive_status', '=', false)
          .returning('id')
          .executeTakeFirst();
        if (!updated) throw badRequest(INVALID_RESET_CODE);
        // The user's other codes die with this one (migration 010's trigger does it too); tokens
        // minted before now stop working.
        await trx.deleteFrom('password_reset_codes').where('user_id', '=', userId).execute();
        return {
          result: undefined,
          account: userId,
          audit: [
            {
              action: 'password_reset' as const,
              resourceType: users.name,
              resourceId: userId,
              changes: { password: '***' },
            },
          ],
        };
      });
      return { status: 'success' as const, message: 'Password has been reset' };
    },
  );
};
