-- A name (a column declared `identifier`: a device's hostname and serial number, an interface's,
-- a VLAN's, a location's, an API token's and a webhook's name) is stored in Unicode's composed
-- form, NFC, from this release on (src/resources/lookups.ts, canonicalFormOf): `café` typed with
-- U+00E9 and with `e` and a combining acute accent (U+0301) is one name. Until now a name was
-- stored as sent, so the two could be two records that look alike. This composes the names stored
-- before.
--
-- A name whose composed form another record of the same unique rule already holds (or another
-- name being composed would take) is left as written: composing it would break the unique index,
-- and which of two look-alike records should give way is not the upgrade's to decide. Filters
-- find a name in the form given and in its composed form, so such a record is still found as
-- written, and can be renamed.
--
-- No `inventory.actor` is set, so the history triggers write no audit row and no webhook event,
-- and `updated_at` is kept: the name reads the same. Each row changed is a new row version, so
-- its ETag changes. Only rows holding a name not in NFC are written; finding them reads each
-- table once (text in plain ASCII is NFC, and PostgreSQL tells so without composing it).
WITH composed AS MATERIALIZED (
  SELECT id, nfc, count(*) OVER (PARTITION BY nfc) AS sharing
  FROM (SELECT id, normalize(hostname, NFC) AS nfc FROM devices
        WHERE hostname IS NOT NFC NORMALIZED) AS names
)
UPDATE devices AS d SET hostname = composed.nfc FROM composed
WHERE d.id = composed.id AND composed.sharing = 1
  AND NOT EXISTS (SELECT 1 FROM devices AS o WHERE o.hostname = composed.nfc);

WITH composed AS MATERIALIZED (
  SELECT id, nfc, count(*) OVER (PARTITION BY nfc) AS sharing
  FROM (SELECT id, normalize(serial_number, NFC) AS nfc FROM devices
        WHERE serial_number IS NOT NFC NORMALIZED) AS names
)
UPDATE devices AS d SET serial_number = composed.nfc FROM composed
WHERE d.id = composed.id AND composed.sharing = 1
  AND NOT EXISTS (SELECT 1 FROM devices AS o WHERE o.serial_number = composed.nfc);

-- An interface's name is unique on its device.
WITH composed AS MATERIALIZED (
  SELECT id, device_id, nfc, count(*) OVER (PARTITION BY device_id, nfc) AS sharing
  FROM (SELECT id, device_id, normalize(name, NFC) AS nfc FROM interfaces
        WHERE name IS NOT NFC NORMALIZED) AS names
)
UPDATE interfaces AS i SET name = composed.nfc FROM composed
WHERE i.id = composed.id AND composed.sharing = 1
  AND NOT EXISTS (
    SELECT 1 FROM interfaces AS o WHERE o.device_id = composed.device_id AND o.name = composed.nfc
  );

WITH composed AS MATERIALIZED (
  SELECT id, nfc, count(*) OVER (PARTITION BY nfc) AS sharing
  FROM (SELECT id, normalize(name, NFC) AS nfc FROM locations
        WHERE name IS NOT NFC NORMALIZED) AS names
)
UPDATE locations AS l SET name = composed.nfc FROM composed
WHERE l.id = composed.id AND composed.sharing = 1
  AND NOT EXISTS (SELECT 1 FROM locations AS o WHERE o.name = composed.nfc);

WITH composed AS MATERIALIZED (
  SELECT id, nfc, count(*) OVER (PARTITION BY nfc) AS sharing
  FROM (SELECT id, normalize(name, NFC) AS nfc FROM webhooks
        WHERE name IS NOT NFC NORMALIZED) AS names
)
UPDATE webhooks AS w SET name = composed.nfc FROM composed
WHERE w.id = composed.id AND composed.sharing = 1
  AND NOT EXISTS (SELECT 1 FROM webhooks AS o WHERE o.name = composed.nfc);

-- Names no unique rule covers.
UPDATE vlans SET name = normalize(name, NFC) WHERE name IS NOT NFC NORMALIZED;

UPDATE api_tokens SET name = normalize(name, NFC) WHERE name IS NOT NFC NORMALIZED;
