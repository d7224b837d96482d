CREATE TABLE widget (
  id integer PRIMARY KEY,
  name text NOT NULL UNIQUE,
  weight numeric,
  big bigint,
  made_on date
);
