-- An interface's speed and speed_mbps agree (README "Resources"): a write giving either now sets
-- both (src/resources/definitions/interfaces.ts, formOf). Before, clearing speed left the old
-- speed_mbps, a speed_mbps written alone left the old speed, and a speed written beside another
-- speed_mbps stored both. This makes the rows stored before agree, once:
--
-- * a row with a speed gets the speed_mbps it says (the readable form was the one written from,
--   and `?speed__gte=` reads it), rounded at the Mbps as the service rounds it;
-- * a row with only a speed_mbps (within the speeds the API accepts) gets the speed it says.
--
-- Speeds that are not "a number followed by Gbps" (none can be written through the API) are left
-- alone. No `inventory.actor` is set, so no audit row and no webhook event are written; the rows
-- changed get a new ETag, and updated_at is kept (as migration 031 did).
UPDATE interfaces
SET speed_mbps = round(CAST(left(speed, -4) AS numeric) * 1000)
WHERE speed ~ '^[0-9]{1,6}(\.[0-9]+)?Gbps$'
  AND speed_mbps IS DISTINCT FROM round(CAST(left(speed, -4) AS numeric) * 1000);

UPDATE interfaces
SET speed = trim_scale(speed_mbps / 1000.0)::text || 'Gbps'
WHERE speed IS NULL AND speed_mbps BETWEEN 0 AND 999999999;
