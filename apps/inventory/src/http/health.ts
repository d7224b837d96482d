import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { AnyDatabase } from '../db/schema.js';
import { responses } from '../resources/schemas.js';
import { databaseUnavailable } from './error-handler.js';

/**
 * How long the readiness probe waits for the database. Orchestrators probe every few seconds
 * with a timeout of about 1 s; a probe that waits longer than they do tells them nothing.
 */
export const READINESS_TIMEOUT_MS = 1000;

const Healthy = Type.Object({ status: Type.Literal('ok') });

/**
 * `GET /health` (liveness: the process answers HTTP; no database, so a database outage never
 * gets the service restarted, which would not help) and `GET /health/ready` (readiness: one
 * `SELECT 1` within READINESS_TIMEOUT_MS, else 503 like every request during an outage, so a
 * load balancer stops sending traffic until the database is back). Both public and outside the
 * rate limit (`rateLimit: false`): probes come often, from few addresses, and must not be refused
 * with 429 or use up a client's budget.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{
  db: AnyDatabase;
  readinessTimeoutMs?: number;
}> = async (app, { db, readinessTimeoutMs = READINESS_TIMEOUT_MS }) => {
  const config = { access: 'public', rateLimit: false } as const;

  app.get(
    '/health',
    {
      config,
      schema: {
        summary: 'Liveness: the process serves HTTP. Does not touch the database.',
        response: responses({ 200: Healthy }),
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      config,
      schema: {
        summary: `Readiness: the database answers a query within ${readinessTimeoutMs} ms; 503 otherwise.`,
        response: responses({ 200: Healthy }),
      },
    },
    async () => {
      await withTimeout(sql`SELECT 1`.execute(db), readinessTimeoutMs);
      return { status: 'ok' as const };
    },
  );
};

/**
 * Settles with `work`, or rejects with the 503 after `ms`; the query left behind finishes (or
 * fails) on its own, its outcome ignored.
 */
async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(databaseUnavailable()), ms);
  });
  work.catch(() => {});
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
