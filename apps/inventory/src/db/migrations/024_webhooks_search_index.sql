-- Every searched resource's `?q=` expression has a trigram index (migration 011 gave the
-- inventory's own; the webhooks came later without one). A list filtered by a substring reads
-- its matching rows first when its exact total is small (list.ts, matchedByTrigrams), which
-- pays only through such an index. The expression is searchExpression's (lookups.ts), so that
-- the index serves it.
CREATE INDEX IF NOT EXISTS webhooks_search_idx ON webhooks
  USING gin ((coalesce(name, '') || E'\x1f' || coalesce(url, '')) gin_trgm_ops);
