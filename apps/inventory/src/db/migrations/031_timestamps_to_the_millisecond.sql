-- The API keeps timestamps to the millisecond, the precision its answers show; until now a value
-- sent with more digits (`2026-03-01T10:00:00.123456Z`) was stored to the microsecond, so the
-- value shown (`.123Z`) did not find it and writing that value back changed the row while its
-- history recorded no change. The writes now truncate (src/resources/definition.ts,
-- toMilliseconds); this truncates what they stored before, in the columns clients write.
--
-- Only rows holding a finer value are updated, found by one scan of each table. That may be most
-- devices: an agent writing last_seen with Python's isoformat() sends microseconds. Each row
-- updated is a new row version: its ETag (the version's transaction id) changes, so a client's
-- If-Match holding the old one gets 412, and it is written with every index entry again (measured
-- at 100,000 such devices: 13 s on PostgreSQL, 27 s on the embedded store, in the start-up's
-- migration). No `inventory.actor` is set, so the history triggers write no audit row and no
-- webhook event (the value shown does not change), and `updated_at` is kept; the row counts are
-- untouched (an update adds or removes no row). created_at, updated_at and last_used_at are set
-- by the server and keep their microseconds (they order rows and cursors).
UPDATE devices SET last_seen = date_trunc('milliseconds', last_seen)
WHERE last_seen <> date_trunc('milliseconds', last_seen);

UPDATE api_tokens SET expires_at = date_trunc('milliseconds', expires_at)
WHERE expires_at <> date_trunc('milliseconds', expires_at);
