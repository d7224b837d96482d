-- The metrics overview (GET /metrics: the latest record of each device, sorted by any metric)
-- reads this table instead of searching device_metrics for each device's newest row: one row per
-- device, kept current by the insert (an upsert that only moves forward in time), so a page of
-- the overview is an index scan whatever the history holds.
CREATE TABLE device_metrics_latest (
  device_id      uuid PRIMARY KEY
                 CONSTRAINT device_metrics_latest_device_id_fkey REFERENCES devices (id) ON DELETE CASCADE,
  cpu            double precision,
  memory         double precision,
  temperature    double precision,
  uptime_seconds bigint,
  ts             timestamptz NOT NULL
);
-- One per sort key of the overview; device_id breaks ties so that paging is stable.
CREATE INDEX device_metrics_latest_cpu_idx         ON device_metrics_latest (cpu, device_id);
CREATE INDEX device_metrics_latest_memory_idx      ON device_metrics_latest (memory, device_id);
CREATE INDEX device_metrics_latest_temperature_idx ON device_metrics_latest (temperature, device_id);
CREATE INDEX device_metrics_latest_uptime_idx      ON device_metrics_latest (uptime_seconds, device_id);
CREATE INDEX device_metrics_latest_ts_idx          ON device_metrics_latest (ts, device_id);

-- Password-reset codes: only the SHA-256 of a random 256-bit code is kept, so a copy of the
-- database cannot reset anyone's password. A code is deleted when used (single use) and is
-- worthless after expires_at.
CREATE TABLE password_reset_codes (
  code_hash  text PRIMARY KEY,
  user_id    uuid NOT NULL CONSTRAINT password_reset_codes_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_reset_codes_user_id_idx ON password_reset_codes (user_id);
