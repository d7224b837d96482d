-- The rules the service applies to what it stores (README "Upgrading"), made the database's own, so
-- that a write breaking them is refused (SQLSTATE 23514) instead of stored where the filters
-- cannot find it. Until now they lived only in the service's code: a release from before
-- migrations 031, 032 and 034 (an instance left running during an upgrade, or one started on the
-- upgraded database) stored an upper-case MAC address, a last_seen with microseconds or a
-- speed_mbps disagreeing with speed, and those migrations, already applied, never ran again.
--
-- * interfaces.mac_address is stored in lower case (migration 032);
-- * devices.last_seen and api_tokens.expires_at, the timestamps clients write, are stored to the
--   millisecond, the precision the API shows (migration 031);
-- * interfaces.speed and speed_mbps agree (migration 034): a speed "a number followed by Gbps"
--   has the speed_mbps it says (never none), rounded half up at the Mbps; no speed has no speed_mbps, unless
--   one above every speed the API accepts (speeds of another form are left alone, as 034 left
--   them).
--
-- First, what an older release stored after those migrations ran is put right, by their rules:
-- MAC addresses and timestamps without a history entry (the value shown stays the same value),
-- speeds with one by "migration 035" (034's rule: where the two differ by a whole Mbps, the
-- speed_mbps was written last and is kept). Then each rule is added NOT VALID (no scan) and
-- validated: one read of each table, without writing it (measured at 100,000 devices and 100,000
-- interfaces: README "Upgrading").
UPDATE interfaces SET mac_address = lower(mac_address)
WHERE mac_address <> lower(mac_address);

UPDATE devices SET last_seen = date_trunc('milliseconds', last_seen)
WHERE last_seen <> date_trunc('milliseconds', last_seen);

UPDATE api_tokens SET expires_at = date_trunc('milliseconds', expires_at)
WHERE expires_at <> date_trunc('milliseconds', expires_at);

SELECT set_config('inventory.actor', '{"username": "migration 035"}', true);

UPDATE interfaces
SET speed = trim_scale(speed_mbps / 1000.0)::text || 'Gbps', updated_at = clock_timestamp()
WHERE speed ~ '^[0-9]{1,6}(\.[0-9]+)?Gbps$'
  AND speed_mbps BETWEEN 0 AND 999999999
  AND abs(CAST(left(speed, -4) AS numeric) * 1000 - speed_mbps) >= 1;

UPDATE interfaces
SET speed_mbps = round(CAST(left(speed, -4) AS numeric) * 1000), updated_at = clock_timestamp()
WHERE speed ~ '^[0-9]{1,6}(\.[0-9]+)?Gbps$'
  AND speed_mbps IS DISTINCT FROM round(CAST(left(speed, -4) AS numeric) * 1000);

UPDATE interfaces
SET speed = trim_scale(speed_mbps / 1000.0)::text || 'Gbps', updated_at = clock_timestamp()
WHERE speed IS NULL AND speed_mbps BETWEEN 0 AND 999999999;

SELECT set_config('inventory.actor', '', true);

ALTER TABLE interfaces
  ADD CONSTRAINT interfaces_mac_address_lower_case
    CHECK (mac_address = lower(mac_address)) NOT VALID,
  ADD CONSTRAINT interfaces_speeds_agree CHECK (
    CASE
      WHEN speed IS NULL THEN speed_mbps IS NULL OR speed_mbps > 999999999
      WHEN speed ~ '^[0-9]{1,6}(\.[0-9]+)?Gbps$'
        THEN coalesce(speed_mbps = round(CAST(left(speed, -4) AS numeric) * 1000), false)
      ELSE true
    END
  ) NOT VALID;
ALTER TABLE devices
  ADD CONSTRAINT devices_last_seen_to_the_millisecond
    CHECK (last_seen = date_trunc('milliseconds', last_seen)) NOT VALID;
ALTER TABLE api_tokens
  ADD CONSTRAINT api_tokens_expires_at_to_the_millisecond
    CHECK (expires_at = date_trunc('milliseconds', expires_at)) NOT VALID;

ALTER TABLE interfaces VALIDATE CONSTRAINT interfaces_mac_address_lower_case;
ALTER TABLE interfaces VALIDATE CONSTRAINT interfaces_speeds_agree;
ALTER TABLE devices VALIDATE CONSTRAINT devices_last_seen_to_the_millisecond;
ALTER TABLE api_tokens VALIDATE CONSTRAINT api_tokens_expires_at_to_the_millisecond;
