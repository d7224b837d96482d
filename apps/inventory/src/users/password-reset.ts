import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { mutateWithAudit } from '../audit/audit-log.js';
import type { PasswordHasher } from '../auth/passwords.js';
import { badRequest } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { AnyDatabase } from '../resources/repository.js';
import { responses, SuccessMessage } from '../resources/schemas.js';
import { PasswordSchema, users } from './definition.js';

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

  const sendResetCode = async (email: string, log: FastifyBaseLogger) => {
    const user = await db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', '=', email)
      .where('inactive_status', '=', false)
      .executeTakeFirst();
    if (!user) return;
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
      const work = sendResetCode(request.body.email, request.log).catch((error: unknown) => {
        request.log.error({ err: error }, 'password reset e-mail failed');
      });
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
      await mutateWithAudit(db, request, async (trx) => {
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
        await trx
          .updateTable('users')
          .set({
            password_hash: passwordHash,
            password_changed_at: sql`now()`,
            updated_at: sql`now()`,
          })
          .where('id', '=', userId)
          .execute();
        // The user's other codes die with this one; tokens minted before now stop working.
        await trx.deleteFrom('password_reset_codes').where('user_id', '=', userId).execute();
        return {
          result: undefined,
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
