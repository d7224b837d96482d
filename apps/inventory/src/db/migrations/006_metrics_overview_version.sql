-- The metrics overview (GET /metrics) reads device_metrics_latest, the table its counts and pages
-- come from: versioned like the listed tables of migration 004, so that an overview answer can
-- be reused while the table is unchanged (src/resources/pages.ts).

INSERT INTO table_versions (table_name, slot, version) VALUES ('device_metrics_latest', -1, 1);
CREATE TRIGGER device_metrics_latest_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON device_metrics_latest
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version();
