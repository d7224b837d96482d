-- The API keeps timestamps to the millisecond, the precision its answers show; until now a value
-- sent with more digits (`2026-03-01T10:00:00.123456Z`) was stored to the microsecond, so the
-- value shown (`.123Z`) did not find it and writing that value back changed the row while its
-- history recorded no change. The writes now truncate (src/resources/definition.ts,
-- toMilliseconds); this truncates what they stored before, in the columns clients write.
--
-- Only rows holding a finer value are updated (usually none: clients rarely send microseconds),
-- found by one scan of each table. No `inventory.actor` is set, so the history triggers write no
-- audit row and no webhook event (the value shown does not change), and `updated_at` is kept;
-- the row counts are untouched (an update adds or removes no row). created_at, updated_at and
-- last_used_at are set by the server and keep their microseconds (they order rows and cursors).
UPDATE devices SET last_seen = date_trunc('milliseconds', last_seen)
WHERE last_seen <> date_trunc('milliseconds', last_seen);

UPDATE api_tokens SET expires_at = date_trunc('milliseconds', expires_at)
WHERE expires_at <> date_trunc('milliseconds', expires_at);
