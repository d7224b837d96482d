-- A MAC address is one value whatever its letter case, as an IP address is one value however it
-- is written; until now it was stored as sent, so `aa:bb:cc:dd:ee:01` did not find a stored
-- `AA:BB:CC:DD:EE:01`. The writes now store lower case and filters compare lower case
-- (src/resources/lookups.ts, CANONICAL_FORM); this lowers what they stored before.
--
-- Only rows holding an upper-case letter are updated. Each is a new row version, so its ETag
-- (the version's transaction id) changes and an If-Match holding the old one gets 412. No
-- `inventory.actor` is set, so the history triggers write no audit row and no webhook event, and
-- `updated_at` is kept: the address is the same address.
UPDATE interfaces SET mac_address = lower(mac_address)
WHERE mac_address <> lower(mac_address);
