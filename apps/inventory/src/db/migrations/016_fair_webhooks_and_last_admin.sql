-- Webhook targets that fail are backed off as a whole (src/webhooks/worker.ts): after a failed
-- attempt, none of the webhook's deliveries is claimed before `until`, which grows with each
-- further failure and is cleared by a success. A receiver that never answers then holds no
-- delivery slot most of the time, and its retries no longer go first.
CREATE TABLE webhook_target_backoffs (
  webhook_id uuid PRIMARY KEY CONSTRAINT webhook_target_backoffs_webhook_id_fkey
             REFERENCES webhooks (id) ON DELETE CASCADE,
  failures   integer NOT NULL,
  until      timestamptz NOT NULL
);
