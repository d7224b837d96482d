import { randomUUID } from 'node:crypto';
import type { Subscription } from '@netops/store';
import { sql } from 'kysely';
import type { AnyDatabase } from '../db/schema.js';
import type { SecretSealer } from '../resources/sealing.js';
import { RESERVED_HEADER_NAMES } from './definition.js';
import { type AttemptOutcome, createAgents, postDelivery } from './sender.js';
import { signDelivery } from './signing.js';
import type { TargetPolicy } from './targets.js';

const RESERVED = new Set<string>(RESERVED_HEADER_NAMES);

/**
 * A webhook's own headers without the names a webhook may not set: one stored before its name
 * was refused (Content-Encoding) stays in its row, but a delivery does not send it.
 */
const ownHeaders = (headers: Record<string, string> | null) =>
  Object.fromEntries(
    Object.entries(headers ?? {}).filter(([name]) => !RESERVED.has(name.toLowerCase())),
  );

/** The channel an instance notifies after writes that may have queued deliveries (index.ts). */
export const WEBHOOK_CHANNEL = 'webhook_deliveries';

export interface WebhookSettings extends TargetPolicy {
  /** Retries stop this long after the change; the delivery is then `failed` (default 24 h). */
  retryPeriodMs: number;
  /** Longest wait for a receiver's whole answer. */
  timeoutMs: number;
  /** How long a claimed delivery is another worker's to leave alone; past it, taken over. */
  leaseMs: number;
  /** First retry after about this long; each next one twice as long, up to maxRetryDelayMs. */
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** Due deliveries are looked for this often even without a notification. */
  pollMs: number;
  /**
   * Deliveries in flight at once per instance; one webhook has at most half of them
   * (perWebhookLimit), so a receiver that hangs leaves the other half to the rest.
   */
  concurrency: number;
  /** Whether this instance runs a worker (WEBHOOK_WORKER=off leaves it to the others). */
  workerEnabled: boolean;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowPrivateTargets: false,
  retryPeriodMs: 24 * 3600 * 1000,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  firstRetryDelayMs: 1000,
  maxRetryDelayMs: 3600 * 1000,
  pollMs: 5000,
  concurrency: 8,
  workerEnabled: true,
};

interface Claimed {
  id: string;
  seq: number | string;
  attempts: number;
  payload: unknown;
  retry_from: Date | string;
  webhook_id: string;
  url: string;
  headers: Record<string, string> | null;
  secret: string | null;
}

/** Deliveries of one webhook in flight at once per instance: half the instance's slots. */
export const perWebhookLimit = (settings: Pick<WebhookSettings, 'concurrency'>) =>
  Math.max(1, Math.floor(settings.concurrency / 2));

/**
 * The deliveries a worker may claim now: due, not leased, and the earliest pending one of their
 * record for their webhook (so a record's deliveries go out in commit order), of enabled
 * webhooks that are not backed off (webhook_target_backoffs) and not among `full` (the webhooks
 * whose slots this worker has all in use), in commit order. Walked through the `(seq) WHERE
 * pending` index up to the LIMIT (test/webhooks/structure.test.ts pins the plan): no sort of
 * the whole backlog.
 */
export const dueDeliveries = (limit: number, full: readonly string[] = []) => sql`
        SELECT d.id, d.webhook_id, d.seq FROM webhook_deliveries AS d
        JOIN webhooks AS w ON w.id = d.webhook_id AND w.enabled
        WHERE d.state = 'pending' AND d.next_attempt_at <= now()
          AND (d.lease_until IS NULL OR d.lease_until < now())
          AND d.webhook_id <> ALL (CAST(${`{${full.join(',')}}`} AS uuid[]))
          AND NOT EXISTS (
            SELECT 1 FROM webhook_target_backoffs AS b
            WHERE b.webhook_id = d.webhook_id AND b.until > now())
          AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries AS e
            WHERE e.state = 'pending' AND e.webhook_id = d.webhook_id
              AND e.resource_type = d.resource_type AND e.resource_id = d.resource_id
              AND e.seq < d.seq)
        ORDER BY d.seq
        LIMIT ${limit}
        FOR UPDATE OF d SKIP LOCKED`;

/**
 * Exponential backoff with jitter: about first * 2^(attempt-1), capped, drawn from its upper
 * half (so retries spread out but never come sooner than half the step).
 */
export function retryDelayMs(attempt: number, settings: WebhookSettings, random = Math.random) {
  const step = Math.min(
    settings.maxRetryDelayMs,
    settings.firstRetryDelayMs * 2 ** Math.min(30, Math.max(0, attempt - 1)),
  );
  return Math.round(step / 2 + (random() * step) / 2);
}

/**
 * The outbox worker of one instance. It claims due deliveries (the earliest pending one of each
 * record and webhook only, so a record's deliveries go out in commit order) with FOR UPDATE SKIP
 * LOCKED and a lease, posts them, and records each attempt; several instances on one PostgreSQL
 * never claim the same delivery while its lease runs. Never run by the request that made the
 * change: the change is committed and answered before any delivery.
 * Wake-ups: the instance that answered a write wakes its worker at once and notifies the others
 * (index.ts); each also polls every `pollMs`.
 */
export class WebhookWorker {
  readonly id = `worker-${randomUUID()}`;
  readonly #db: AnyDatabase;
  readonly #sealer: SecretSealer;
  readonly #settings: WebhookSettings;
  readonly #log: { warn(object: unknown, message: string): void };
  readonly #agents = createAgents();
  readonly #inFlight = new Set<Promise<void>>();
  /** Deliveries in flight per webhook id. */
  readonly #inFlightByWebhook = new Map<string, number>();
  /** Webhooks this worker backed off: a success clears their backoff (one statement saved otherwise). */
  readonly #backedOff = new Set<string>();
  #subscription: Subscription | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #stopping = false;
  #wanted = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(options: {
    db: AnyDatabase;
    sealer: SecretSealer;
    settings: WebhookSettings;
    log: { warn(object: unknown, message: string): void };
  }) {
    this.#db = options.db;
    this.#sealer = options.sealer;
    this.#settings = options.settings;
    this.#log = options.log;
  }

  async start(
    listen: (handlers: {
      notification(): void;
      listening(): void;
      lost(): void;
    }) => Promise<Subscription>,
    releaseAllLeases: boolean,
  ): Promise<void> {
    if (releaseAllLeases) {
      // The embedded store has one process: a lease left there is a killed run's, free now.
      await sql`UPDATE webhook_deliveries SET lease_until = NULL, leased_by = NULL
        WHERE state = 'pending' AND lease_until IS NOT NULL`.execute(this.#db);
    }
    this.#subscription = await listen({
      notification: () => this.wake(),
      listening: () => this.wake(),
      lost: () => {},
    });
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Look for due deliveries now. */
  wake(): void {
    this.#wanted = true;
    this.#wake?.();
  }

  /** Stops claiming, lets the deliveries in flight finish (each bounded by the timeout). */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#running = false;
    this.wake();
    clearTimeout(this.#timer);
    await this.#loop;
    await Promise.allSettled([...this.#inFlight]);
    await this.#subscription?.close();
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#wanted = false;
      let claimed: Claimed[] = [];
      const free = this.#settings.concurrency - this.#inFlight.size;
      if (free > 0) {
        try {
          claimed = await this.#claim(free);
        } catch (error) {
          if (!this.#running) break;
          this.#log.warn({ err: error }, 'webhook worker: claiming deliveries failed');
        }
      }
      for (const delivery of claimed) {
        const webhook = delivery.webhook_id;
        this.#inFlightByWebhook.set(webhook, (this.#inFlightByWebhook.get(webhook) ?? 0) + 1);
        const work: Promise<void> = this.#deliver(delivery)
          .catch((error) => this.#log.warn({ err: error }, 'webhook worker: delivery failed'))
          .finally(() => {
            this.#inFlight.delete(work);
            const left = (this.#inFlightByWebhook.get(webhook) ?? 1) - 1;
            if (left > 0) this.#inFlightByWebhook.set(webhook, left);
            else this.#inFlightByWebhook.delete(webhook);
            // A record's next delivery may be due now that this one is done.
            this.wake();
          });
        this.#inFlight.add(work);
      }
      if (!this.#running) break;
      // A claim is capped per webhook: more may be due for other webhooks than it took.
      if (claimed.length > 0) continue;
      if (this.#wanted) continue;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        this.#timer = setTimeout(resolve, this.#settings.pollMs);
      });
      this.#wake = undefined;
      clearTimeout(this.#timer);
    }
  }

  /**
   * Claims up to `limit` due deliveries, round-robin between webhooks: among the candidates (the
   * earliest due ones of the webhooks with a free slot), each webhook's first ones, then their
   * second ones..., never more per webhook than its free slots (perWebhookLimit minus its
   * deliveries in flight here). So the webhook with the oldest backlog does not take every slot.
   */
  async #claim(limit: number): Promise<Claimed[]> {
    const cap = perWebhookLimit(this.#settings);
    const busy = Object.fromEntries(this.#inFlightByWebhook);
    const full = [...this.#inFlightByWebhook].filter(([, n]) => n >= cap).map(([id]) => id);
    const candidates = limit * cap;
    const result = await sql<Claimed>`
      WITH candidate AS (${dueDeliveries(candidates, full)}
      ), ranked AS (
        SELECT id, seq, row_number() OVER (PARTITION BY webhook_id ORDER BY seq) AS turn,
               ${cap} - coalesce(CAST(CAST(${JSON.stringify(busy)} AS jsonb) ->> CAST(webhook_id AS text) AS integer), 0) AS free
        FROM candidate
      ), due AS (
        SELECT id FROM ranked WHERE turn <= free ORDER BY turn, seq LIMIT ${limit}
      )
      UPDATE webhook_deliveries AS d
      SET lease_until = now() + ${this.#settings.leaseMs} * interval '1 millisecond',
          leased_by = ${this.id}, attempts = d.attempts + 1
      FROM due, webhooks AS w
      WHERE d.id = due.id AND w.id = d.webhook_id
      RETURNING d.id, d.seq, d.attempts, d.payload, d.retry_from, d.webhook_id, w.url, w.headers, w.secret`.execute(
      this.#db,
    );
    return [...result.rows].sort((a, b) => Number(a.seq) - Number(b.seq));
  }

  async #deliver(delivery: Claimed): Promise<void> {
    const body = JSON.stringify(delivery.payload);
    let secret: string | undefined;
    let outcome: AttemptOutcome;
    try {
      secret = delivery.secret === null ? undefined : this.#sealer.open(delivery.secret);
    } catch {
      secret = undefined;
    }
    if (delivery.secret !== null && secret === undefined) {
      // Sealed with another key (WEBHOOK_SECRET_KEY or JWT_SECRET changed): never send unsigned.
      outcome = {
        ok: false,
        statusCode: null,
        durationMs: 0,
        error:
          'the secret cannot be opened with this instance key (was WEBHOOK_SECRET_KEY changed?)',
        responseExcerpt: null,
      };
    } else {
      const signed = signDelivery(delivery.id, Math.floor(Date.now() / 1000), body, secret);
      outcome = await postDelivery(
        delivery.url,
        body,
        { ...ownHeaders(delivery.headers), ...(signed as unknown as Record<string, string>) },
        { policy: this.#settings, timeoutMs: this.#settings.timeoutMs, agents: this.#agents },
      );
    }
    await this.#record(delivery, outcome);
  }

  /** The attempt, and the delivery's next state, if this worker still holds its lease. */
  async #record(delivery: Claimed, outcome: AttemptOutcome): Promise<void> {
    const retryFrom = new Date(delivery.retry_from).getTime();
    const delay = retryDelayMs(delivery.attempts, this.#settings);
    const giveUp = Date.now() + delay > retryFrom + this.#settings.retryPeriodMs;
    const state = outcome.ok ? 'delivered' : giveUp ? 'failed' : 'pending';
    await sql`
      WITH attempt AS (
        INSERT INTO webhook_attempts (delivery_id, webhook_id, attempt, status_code, duration_ms,
                                      error, response_excerpt, worker)
        VALUES (${delivery.id}, ${delivery.webhook_id}, ${delivery.attempts}, ${outcome.statusCode},
                ${outcome.durationMs}, ${outcome.error}, ${outcome.responseExcerpt}, ${this.id})
      )
      UPDATE webhook_deliveries
      SET state = ${state}, lease_until = NULL, leased_by = NULL,
          last_status = ${outcome.statusCode}, last_error = ${outcome.error},
          next_attempt_at = now() + ${delay} * interval '1 millisecond',
          finished_at = CASE WHEN ${state} = 'pending' THEN NULL ELSE now() END
      WHERE id = ${delivery.id} AND leased_by = ${this.id} AND attempts = ${delivery.attempts}`.execute(
      this.#db,
    );
    await this.#recordTargetHealth(delivery.webhook_id, outcome.ok);
  }

  /**
   * A failed attempt backs the whole target off (none of its deliveries is claimed until then,
   * the wait growing like a delivery's retries); a success clears it. A receiver that hangs
   * thus costs its slots for one timeout per backoff step, not one per queued delivery.
   */
  async #recordTargetHealth(webhookId: string, ok: boolean): Promise<void> {
    if (ok) {
      if (!this.#backedOff.delete(webhookId)) return;
      await sql`DELETE FROM webhook_target_backoffs WHERE webhook_id = ${webhookId}`.execute(
        this.#db,
      );
      return;
    }
    this.#backedOff.add(webhookId);
    const first = retryDelayMs(1, this.#settings);
    const steps = await sql<{ failures: number }>`
      INSERT INTO webhook_target_backoffs AS b (webhook_id, failures, until)
      VALUES (${webhookId}, 1, now() + ${first} * interval '1 millisecond')
      ON CONFLICT (webhook_id) DO UPDATE SET failures = b.failures + 1
      RETURNING failures`.execute(this.#db);
    const failures = steps.rows[0]?.failures ?? 1;
    if (failures > 1) {
      const delay = retryDelayMs(failures, this.#settings);
      await sql`UPDATE webhook_target_backoffs
        SET until = now() + ${delay} * interval '1 millisecond'
        WHERE webhook_id = ${webhookId}`.execute(this.#db);
    }
  }
}
