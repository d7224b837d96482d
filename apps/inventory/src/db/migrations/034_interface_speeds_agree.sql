-- An interface's speed and speed_mbps agree (README "Resources"): a write giving either now sets
-- both (src/resources/definitions/interfaces.ts, formOf). Before, clearing speed left the old
-- speed_mbps, a speed_mbps written alone left the old speed, and a speed written beside another
-- speed_mbps stored both. A write of speed set speed_mbps from it, so where the two disagree by
-- more than the rounding to the Mbps, speed_mbps was written after speed: it is the value the user
-- wrote last. This makes the rows stored before agree, once:
--
-- * a row whose speed_mbps disagrees with its speed (by a whole Mbps or more, within the speeds
--   the API accepts) keeps its speed_mbps, and gets the speed it says, formatted as the service
--   formats it (speedOf: 40000 is 40Gbps, 2500 is 2.5Gbps);
-- * a row with a speed and no speed_mbps, or one off only by the rounding to the Mbps (an older
--   release rounded 2.0005Gbps down), gets the speed_mbps its speed says, rounded half up;
-- * a row with only a speed_mbps (within the speeds the API accepts) gets the speed it says.
--
-- Speeds that are not "a number followed by Gbps" (none can be written through the API) are left
-- alone. Each change is written to the history like an edit, by "migration 034" (no account; no
-- request id), so the record's history shows what the upgrade changed and webhooks subscribed to
-- updates are told; the rows changed get a new ETag and an updated_at of the upgrade.
SELECT set_config('inventory.actor', '{"username": "migration 034"}', true);

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
