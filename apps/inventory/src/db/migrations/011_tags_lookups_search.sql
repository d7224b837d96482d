-- Query power (README "Queries"): tags, lookup expressions and search.
--
-- Tags: a text[] column per tagged table, stored sorted and without duplicates by the service,
-- with a GIN index: `?tags=a&tags=b` is `tags @> '{a,b}'`, which the index answers like an
-- exact filter, and its total is an exact count of the same condition. A join table would cost a
-- join per list and per tag, and a write to two tables per record.
--
-- Text lookups (`__ic`, `__isw`, `__iew`, `__ie`) and `?q=` are ILIKE patterns; trigram GIN
-- indexes (pg_trgm, shipped with PostgreSQL and loaded into PGlite by packages/store) serve them
-- instead of a sequential scan. `?q=` matches one expression per table, the searched columns
-- joined by a unit separator (U+001F, which no query may contain, so a match never spans two
-- columns); the expression must stay the same as searchExpression in src/resources/lookups.ts.

CREATE EXTENSION IF NOT EXISTS pg_trgm;


ALTER TABLE locations ADD COLUMN tags text[] NOT NULL DEFAULT '{}'
  CONSTRAINT locations_tags_check CHECK (cardinality(tags) <= 50);
CREATE INDEX locations_tags_idx ON locations USING gin (tags);
CREATE INDEX locations_search_idx ON locations USING gin ((coalesce(name, '') || E'\x1f' || coalesce(city, '') || E'\x1f' || coalesce(country, '') || E'\x1f' || coalesce(address, '')) gin_trgm_ops);

ALTER TABLE devices ADD COLUMN tags text[] NOT NULL DEFAULT '{}'
  CONSTRAINT devices_tags_check CHECK (cardinality(tags) <= 50);
CREATE INDEX devices_tags_idx ON devices USING gin (tags);
CREATE INDEX devices_search_idx ON devices USING gin ((coalesce(hostname, '') || E'\x1f' || coalesce(host(ip), '') || E'\x1f' || coalesce(serial_number, '') || E'\x1f' || coalesce(vendor, '') || E'\x1f' || coalesce(model, '') || E'\x1f' || coalesce(os, '') || E'\x1f' || coalesce(role, '')) gin_trgm_ops);

ALTER TABLE interfaces ADD COLUMN tags text[] NOT NULL DEFAULT '{}'
  CONSTRAINT interfaces_tags_check CHECK (cardinality(tags) <= 50);
CREATE INDEX interfaces_tags_idx ON interfaces USING gin (tags);
CREATE INDEX interfaces_search_idx ON interfaces USING gin ((coalesce(name, '') || E'\x1f' || coalesce(description, '') || E'\x1f' || coalesce(type, '') || E'\x1f' || coalesce(mac_address, '') || E'\x1f' || coalesce(host(ip_address), '') || E'\x1f' || coalesce(mode, '')) gin_trgm_ops);

ALTER TABLE vlans ADD COLUMN tags text[] NOT NULL DEFAULT '{}'
  CONSTRAINT vlans_tags_check CHECK (cardinality(tags) <= 50);
CREATE INDEX vlans_tags_idx ON vlans USING gin (tags);
CREATE INDEX vlans_search_idx ON vlans USING gin ((coalesce(name, '') || E'\x1f' || coalesce(description, '') || E'\x1f' || coalesce(status, '')) gin_trgm_ops);

ALTER TABLE links ADD COLUMN tags text[] NOT NULL DEFAULT '{}'
  CONSTRAINT links_tags_check CHECK (cardinality(tags) <= 50);
CREATE INDEX links_tags_idx ON links USING gin (tags);
CREATE INDEX links_search_idx ON links USING gin ((coalesce(type, '') || E'\x1f' || coalesce(status, '')) gin_trgm_ops);

-- The lookup the benchmark measures; other text columns' lookups are served by the search index
-- only through `?q=`, or scan (lists of other tables are far smaller than devices).
CREATE INDEX devices_hostname_trgm_idx ON devices USING gin (hostname gin_trgm_ops);
