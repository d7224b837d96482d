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
--
-- A webhook's filter is matched by JSON containment against the stored record, byte for byte:
-- its values for those fields (`hostname`, `serial_number`, `name`) are composed as well, as
-- every write of a filter composes them from now on.
--
-- PostgreSQL composes text only in a database encoded in UTF8 (the default, and the embedded
-- store's); in another encoding nothing is composed and the upgrade goes on.
DO $$
BEGIN
  IF current_setting('server_encoding') <> 'UTF8' THEN
    RETURN;
  END IF;

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

  -- Webhook filters' values for the name fields, in strings and in lists of them.
  UPDATE webhooks AS w SET filter = (
    SELECT jsonb_object_agg(
      key,
      CASE
        WHEN key NOT IN ('hostname', 'serial_number', 'name') THEN value
        WHEN jsonb_typeof(value) = 'string' THEN to_jsonb(normalize(value #>> '{}', NFC))
        WHEN jsonb_typeof(value) = 'array' THEN (
          SELECT jsonb_agg(
            CASE WHEN jsonb_typeof(item) = 'string' THEN to_jsonb(normalize(item #>> '{}', NFC))
                 ELSE item END
            ORDER BY position)
          FROM jsonb_array_elements(value) WITH ORDINALITY AS items(item, position))
        ELSE value
      END)
    FROM jsonb_each(w.filter))
  WHERE jsonb_typeof(w.filter) = 'object'
    AND EXISTS (
      SELECT 1 FROM jsonb_each(w.filter) AS fields
      WHERE fields.key IN ('hostname', 'serial_number', 'name')
        AND (fields.value::text) IS NOT NFC NORMALIZED);
END
$$;
