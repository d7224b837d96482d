-- A list sorted by a unique column that is never null orders its rows by that column alone
-- (list.ts, orderOf): no two rows tie, so no id breaks ties. `ORDER BY hostname` is then read
-- from the unique constraint's own index, which now also holds the id (INCLUDE), so a walk to a
-- deep page by hostname reads that index alone, as it read the `(hostname, id)` index it
-- replaces. One index where there were two: every write of a device keeps one entry fewer.
--
-- `(serial_number, id)` stays: serial numbers are unique but may be null, and the devices
-- without one tie.
ALTER TABLE devices
  DROP CONSTRAINT devices_hostname_key,
  ADD CONSTRAINT devices_hostname_key UNIQUE (hostname) INCLUDE (id);
DROP INDEX IF EXISTS devices_hostname_id_idx;
