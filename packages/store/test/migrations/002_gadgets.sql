-- Two statements in one file: the runner must accept multi-statement scripts on both backends.
CREATE TABLE gadget (id integer PRIMARY KEY);
INSERT INTO gadget (id) VALUES (1), (2);
