-- A list breaks ties by id in the direction of its first sort key (list.ts), so a sort and its
-- exact reverse read one index forwards or backwards. The newest-first indexes of migration 019,
-- `(filter, created_at DESC, id)`, served only `created_at` descending with ids ascending; read
-- backwards for oldest first they gave ids descending, and PostgreSQL sorted every group of
-- equal timestamps (a bulk create gives thousands of devices one created_at) before the page.
-- Ascending `(filter, created_at, id)` serves both orders; the hostname ones already do.

DROP INDEX IF EXISTS devices_vendor_created_at_list_idx, devices_status_created_at_list_idx,
  devices_role_created_at_list_idx;

SELECT create_common_list_indexes('devices', ARRAY['vendor', 'status', 'role'],
                                  ARRAY['created_at'], ARRAY['asc']);
