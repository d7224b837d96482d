-- Outbound webhooks (README "Webhooks"): a transactional outbox.
--
-- A change of a record writes its audit row in the same statement as the change (migration 012:
-- prechange, postchange, changes). The trigger below turns each audit row of a record change
-- into one delivery per enabled webhook that matches it, in that same transaction: a committed
-- change always has its deliveries, a rolled-back one never. A worker in each instance
-- (src/webhooks/worker.ts) claims due deliveries with FOR UPDATE SKIP LOCKED and a lease.

CREATE TABLE webhooks (
  id         uuid PRIMARY KEY,
  name       text NOT NULL CONSTRAINT webhooks_name_key UNIQUE,
  url        text NOT NULL,
  events     text[] NOT NULL DEFAULT '{created,updated,deleted}'
             CONSTRAINT webhooks_events_check CHECK (events <@ '{created,updated,deleted}' AND cardinality(events) > 0),
  -- Resource names; empty: every resource.
  resources  text[] NOT NULL DEFAULT '{}',
  -- Matched as containment against the record after the change (before it, for a delete).
  filter     jsonb,
  headers    jsonb NOT NULL DEFAULT '{}',
  enabled    boolean NOT NULL DEFAULT true,
  -- AES-256-GCM sealed (src/resources/sealing.ts); never read by the API.
  secret     text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  -- Sent as `webhook-id`: the same on every attempt, so receivers can drop duplicates.
  id              uuid PRIMARY KEY,
  -- Assigned inside the writing transaction, after the record's row lock: two changes of one
  -- record get their numbers in commit order, which is the order they are delivered in.
  seq             bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT webhook_deliveries_seq_key UNIQUE,
  webhook_id      uuid NOT NULL CONSTRAINT webhook_deliveries_webhook_id_fkey
                  REFERENCES webhooks (id) ON DELETE CASCADE,
  audit_id        uuid NOT NULL,
  event           text NOT NULL,
  resource_type   text NOT NULL,
  resource_id     text NOT NULL,
  payload         jsonb NOT NULL,
  state           text NOT NULL DEFAULT 'pending'
                  CONSTRAINT webhook_deliveries_state_check CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- A claimed delivery is leased: another worker takes it over once the lease has run out.
  lease_until     timestamptz,
  leased_by       text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  -- Retries stop WEBHOOK_RETRY_PERIOD after this: the change, or an admin's redelivery.
  retry_from      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  last_status     integer,
  last_error      text
);
-- The claim walks pending deliveries in commit order and stops at its LIMIT: an index scan of
-- a few entries, not a sort of every pending row (which made each claim cost O(backlog)).
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (seq) WHERE state = 'pending';
-- The head of a record's queue: the earliest pending delivery of that record for that webhook.
CREATE INDEX webhook_deliveries_record_idx
  ON webhook_deliveries (webhook_id, resource_type, resource_id, seq) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, seq);

-- One row per HTTP attempt (GET /webhooks/{id}/deliveries).
CREATE TABLE webhook_attempts (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id      uuid NOT NULL CONSTRAINT webhook_attempts_delivery_id_fkey
                   REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  webhook_id       uuid NOT NULL,
  attempt          integer NOT NULL,
  attempted_at     timestamptz NOT NULL DEFAULT now(),
  status_code      integer,
  duration_ms      integer NOT NULL,
  error            text,
  response_excerpt text,
  worker           text
);
CREATE INDEX webhook_attempts_webhook_idx ON webhook_attempts (webhook_id, id);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);

-- Statement level with the inserted rows as a table: a batch of 1000 audit rows is one INSERT
-- joining them with the (few) enabled webhooks, and nothing at all when there are none.
CREATE FUNCTION enqueue_webhook_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  enqueued bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE enabled) THEN
    RETURN NULL;
  END IF;
  WITH changed AS (
    SELECT n.*,
           CASE n.action WHEN 'create' THEN 'created' WHEN 'delete' THEN 'deleted' ELSE 'updated' END AS event
    FROM inserted_audit_rows AS n
    WHERE n.action IN ('create', 'replace', 'update', 'delete')
      AND n.resource_id IS NOT NULL
      -- Accounts, sessions, tokens and the webhooks themselves are never sent out.
      AND n.resource_type NOT IN ('users', 'sessions', 'api-tokens', 'api_tokens', 'webhooks')
  ), queued AS (
    INSERT INTO webhook_deliveries (id, webhook_id, audit_id, event, resource_type, resource_id, payload, created_at, retry_from)
    SELECT gen_random_uuid(), w.id, c.id, c.event, c.resource_type, c.resource_id,
           jsonb_build_object(
             'event', c.event,
             'resource', c.resource_type,
             'id', c.resource_id,
             'timestamp', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
             'request_id', c.request_id,
             'username', c.username,
             'data', c.postchange,
             'snapshots', jsonb_build_object('prechange', c.prechange, 'postchange', c.postchange),
             'changes', c.changes),
           c.created_at, c.created_at
    FROM changed AS c
    JOIN webhooks AS w
      ON w.enabled
     AND c.event = ANY (w.events)
     AND (cardinality(w.resources) = 0 OR c.resource_type = ANY (w.resources))
     AND (w.filter IS NULL OR COALESCE(c.postchange, c.prechange) @> w.filter)
    ORDER BY c.created_at, c.id, w.id
    RETURNING 1
  )
  SELECT count(*) INTO enqueued FROM queued;
  -- No NOTIFY here: a transaction that notifies holds PostgreSQL's notification lock from before
  -- its commit until the commit is flushed, so concurrent writes would commit one at a time.
  -- The instance that answered the write wakes its worker and, at most every 100 ms, notifies
  -- the others from outside the writes (src/webhooks/index.ts); every worker also polls.
  RETURN NULL;
END
$$;

CREATE TRIGGER audit_logs_webhooks AFTER INSERT ON audit_logs
  REFERENCING NEW TABLE AS inserted_audit_rows
  FOR EACH STATEMENT EXECUTE FUNCTION enqueue_webhook_deliveries();

-- Changes of webhooks are audited like any resource's (migration 012), their sealed secret never.
-- The trigger above never sends them out.
SELECT audit_record_changes_of('webhooks', 'webhooks', '{secret}');
