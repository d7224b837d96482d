-- A device's interfaces, `GET /interfaces?device_id=…` (a device's page, a script walking its
-- devices), is the common list of interfaces (interfaces.ts declares it in `commonLists`), so
-- its statement is planned once per connection like the devices' common lists.
--
-- 021's create_common_list_indexes would build `(device_id, id)` under the common lists' name;
-- migration 001's interfaces_device_id_idx is exactly that index, so it is renamed instead of
-- rebuilt (no table scan on an inventory with millions of interfaces).
ALTER INDEX interfaces_device_id_idx RENAME TO interfaces_device_id_id_list_idx;
