-- The step log's ids without AUTOINCREMENT, in SQLite: AUTOINCREMENT keeps the largest id
-- ever given in sqlite_sequence, a page that every commit of the writer wrote again (one of
-- the six or seven pages of a commit at 1,000 matches). Without it an id is one more than the
-- largest in the table, and may be given again once a compaction has emptied the log: the
-- log is read in id order and always emptied whole in SQLite (one connection writes), so an
-- id given again never meets the row it named. PostgreSQL's identity column costs no page
-- of its own and is kept: the block between the sqlite-only marks is dropped for it.
-- +goose Up
-- +sqlite-only
CREATE TABLE step_log_rowid (
	id INTEGER PRIMARY KEY,
	steps BLOB NOT NULL
);
INSERT INTO step_log_rowid (id, steps) SELECT id, steps FROM step_log;
DROP TABLE step_log;
ALTER TABLE step_log_rowid RENAME TO step_log;
-- +end sqlite-only

-- +goose Down
-- +sqlite-only
CREATE TABLE step_log_autoincrement (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	steps BLOB NOT NULL
);
INSERT INTO step_log_autoincrement (id, steps) SELECT id, steps FROM step_log;
DROP TABLE step_log;
ALTER TABLE step_log_autoincrement RENAME TO step_log;
-- +end sqlite-only
