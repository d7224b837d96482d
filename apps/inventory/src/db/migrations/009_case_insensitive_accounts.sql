-- Usernames and e-mail addresses are unique regardless of letter case:
-- with `admin` taken, nobody can become `Admin` or take `ADMIN@…`, so an audit row's username
-- names one account whatever its spelling. Login and forgot-password match the same way.
--
-- Rows that already clash (two accounts differing only in case) stop the migration, and with it
-- the start-up, with a message naming them: which of the two to rename is a person's decision,
-- not the service's. The whole migration runs in one transaction, so nothing has changed then.
DO $$
DECLARE
  clashes text;
BEGIN
  SELECT string_agg(clash, '; ' ORDER BY clash) INTO clashes FROM (
    SELECT 'usernames ' || string_agg(username, ' and ' ORDER BY username) AS clash
      FROM users GROUP BY lower(username) HAVING count(*) > 1
    UNION ALL
    SELECT 'e-mail addresses ' || string_agg(email, ' and ' ORDER BY email)
      FROM users GROUP BY lower(email) HAVING count(*) > 1
  ) AS found;
  IF clashes IS NOT NULL THEN
    RAISE EXCEPTION 'Cannot make usernames and e-mail addresses unique regardless of letter case (migration 009): accounts share %. Rename or delete one of each pair (UPDATE users SET username = ... / email = ... WHERE id = ...), then start again.', clashes;
  END IF;
END
$$;

-- The case-insensitive keys replace the case-sensitive ones (which they imply).
CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
ALTER TABLE users DROP CONSTRAINT users_username_key;
ALTER TABLE users DROP CONSTRAINT users_email_key;
-- Sorting and filtering by username or email keep an index of their own.
CREATE INDEX users_username_idx ON users (username, id);
CREATE INDEX users_email_idx ON users (email, id);
