-- Value counters for combinations of three or more columns, declared like the pairs.
--
-- A list filtered by a vendor, a status and a role (a NetBox-style filter panel with three
-- choices set) had no counter: each such list counted its total again, walking the index of one
-- of the three and testing the other two on each entry (Cisco's 34,228 devices for
-- `vendor=Cisco&status=active&role=access`, 11.6 ms), about 14 % of the benchmark's `mixed`
-- list time. A combination of any size is now declared the same way as a pair
-- (`countedCombinations` in the resource's definition, 'a,b,c' here with the columns in byte
-- order), and its counters are kept by the same triggers: a write pays for a combination only
-- when it changes one of its columns, two counter rows (the old values taken away, the new ones
-- added).
--
-- value_counted_tables.pairs keeps its name and now holds every declared combination. The keys
-- of singles and pairs are built exactly as before, by migration 018's function under a new name;
-- value_count_keys_sql (which recount_values and install_value_counts call) adds those of the
-- larger combinations to them. A column of a combination that is a list (tags) contributes each
-- of its values; the same list named twice contributes two different values in byte order, as
-- for 'tags,tags'.

ALTER FUNCTION value_count_keys_sql(text[], text[], text[], boolean)
  RENAME TO value_count_keys_of_singles_and_pairs_sql;

CREATE FUNCTION value_count_keys_sql(counted text[], array_columns text[], pairs text[],
                                     flagged boolean) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  selects text[] := ARRAY[value_count_keys_of_singles_and_pairs_sql(counted, array_columns, pairs,
                                                                     flagged)];
  combination text;
  parts text[];
  value_of text;
  from_of text;
  conditions text[];
  flags text[];
  k integer;
  part text;
  alias text;
BEGIN
  -- Combinations of three columns or more: one key per choice of a value of each.
  FOREACH combination IN ARRAY coalesce(pairs, '{}') LOOP
    parts := string_to_array(combination, ',');
    CONTINUE WHEN cardinality(parts) < 3;
    IF NOT parts <@ counted THEN
      RAISE EXCEPTION 'value counters: % names a column that is not counted (%)', combination,
        array_to_string(counted, ', ');
    END IF;
    IF parts <> (SELECT array_agg(p ORDER BY p COLLATE "C") FROM unnest(parts) AS p) THEN
      RAISE EXCEPTION 'value counters: the columns of % are not in byte order', combination;
    END IF;
    value_of := '';
    from_of := '';
    conditions := '{}';
    flags := '{}';
    FOR k IN 1 .. cardinality(parts) LOOP
      part := parts[k];
      alias := 'v' || k;
      IF part = ANY (array_columns) THEN
        from_of := from_of || CASE WHEN from_of = '' THEN ' FROM ' ELSE ', ' END
                   || format('(SELECT DISTINCT unnest(%I)) AS %I(v)', part, alias);
        value_of := value_of || format(', %L, %I.v', part, alias);
        IF k > 1 AND parts[k - 1] = part THEN
          conditions := conditions || format('%I.v COLLATE "C" < %I.v COLLATE "C"',
                                             'v' || (k - 1), alias);
        END IF;
      ELSIF k > 1 AND parts[k - 1] = part THEN
        RAISE EXCEPTION 'value counters: % names % twice, which holds one value', combination, part;
      ELSE
        value_of := value_of || format(', %L, %I::text', part, part);
      END IF;
      IF flagged AND NOT format('%I', 'changed__' || part) = ANY (flags) THEN
        flags := flags || format('%I', 'changed__' || part);
      END IF;
    END LOOP;
    IF cardinality(flags) > 0 THEN
      conditions := conditions || ('(' || array_to_string(flags, ' OR ') || ')');
    END IF;
    selects := selects || ('SELECT ARRAY[' || substr(value_of, 3) || ']' || from_of
      || CASE WHEN cardinality(conditions) > 0
              THEN ' WHERE ' || array_to_string(conditions, ' AND ') ELSE '' END);
  END LOOP;
  RETURN array_to_string(selects, ' UNION ALL ');
END
$$;

-- What devices.ts declares: the pairs of migration 018 and the three filters of its common lists.
SELECT install_value_counts('devices', ARRAY['location_id', 'role', 'status', 'tags', 'vendor'],
  ARRAY['location_id,status', 'role,status', 'role,vendor', 'status,vendor', 'tags,tags',
        'tags,vendor', 'role,status,vendor']);
