-- Accounts, the audit trail, and what devices report (events, metrics). Part 2 of the API reads
-- and writes most of these; part 1 already needs users (login, roles) and audit_logs (every
-- mutation writes one row in its own transaction).

CREATE TABLE users (
  id                  uuid PRIMARY KEY,
  username            text NOT NULL CONSTRAINT users_username_key UNIQUE,
  email               text NOT NULL CONSTRAINT users_email_key UNIQUE,
  role                text NOT NULL CONSTRAINT users_role_check CHECK (role IN ('admin', 'editor', 'viewer')),
  inactive_status     boolean NOT NULL DEFAULT false,
  -- argon2id in PHC string form; the clear password is never stored.
  password_hash       text NOT NULL,
  -- Tokens carry this instant; a token minted before the last change no longer authenticates.
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_inactive_status_idx ON users (inactive_status, id);
CREATE INDEX users_created_at_idx      ON users (created_at, id);

-- Who changed what. No foreign key to users: the trail must outlive a deleted account, so the
-- username is copied in.
CREATE TABLE audit_logs (
  id            uuid PRIMARY KEY,
  user_id       uuid,
  username      text,
  action        text NOT NULL,
  resource_type text NOT NULL,
  resource_id   text,
  -- Names and new values of the fields a mutation set (never password hashes).
  changes       jsonb,
  request_id    text,
  client_ip     text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_logs_created_at_idx    ON audit_logs (created_at, id);
CREATE INDEX audit_logs_user_id_idx       ON audit_logs (user_id, created_at);
CREATE INDEX audit_logs_action_idx        ON audit_logs (action, created_at);
CREATE INDEX audit_logs_resource_idx      ON audit_logs (resource_type, resource_id, created_at);

CREATE TABLE events (
  id         uuid PRIMARY KEY,
  severity   text NOT NULL
             CONSTRAINT events_severity_check CHECK (severity IN ('critical', 'major', 'minor', 'warning', 'info')),
  type       text NOT NULL,
  message    text NOT NULL,
  device_id  uuid CONSTRAINT events_device_id_fkey REFERENCES devices (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_created_at_idx ON events (created_at, id);
CREATE INDEX events_severity_idx   ON events (severity, created_at);
CREATE INDEX events_type_idx       ON events (type, created_at);
CREATE INDEX events_device_id_idx  ON events (device_id, created_at);

CREATE TABLE device_metrics (
  id             uuid PRIMARY KEY,
  device_id      uuid NOT NULL CONSTRAINT device_metrics_device_id_fkey REFERENCES devices (id) ON DELETE CASCADE,
  cpu            double precision CONSTRAINT device_metrics_cpu_check CHECK (cpu BETWEEN 0 AND 100),
  memory         double precision CONSTRAINT device_metrics_memory_check CHECK (memory BETWEEN 0 AND 100),
  temperature    double precision,
  uptime_seconds bigint CONSTRAINT device_metrics_uptime_check CHECK (uptime_seconds >= 0),
  ts             timestamptz NOT NULL DEFAULT now()
);
-- The latest record of a device and its history are both range scans of this index.
CREATE INDEX device_metrics_device_ts_idx ON device_metrics (device_id, ts DESC);
