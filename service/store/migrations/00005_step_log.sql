-- The step log (steplog.go). A step row per step in steps, which is ordered by match, cost a
-- page written for every match in a writer's batch: a busy server's batch holds a step or
-- two of each of a thousand matches. Now each writer transaction appends one row to
-- step_log holding the batch's steps of every match, packed in the order played; every few
-- thousand steps the log is emptied into step_runs, one row per match holding its steps
-- since the last time, packed, so that a match's page is written once for dozens of its
-- steps. A match's log is what steps (written before this version), step_runs and step_log
-- hold together.
-- +goose Up
CREATE TABLE step_log (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	steps BLOB NOT NULL
);
CREATE TABLE step_runs (
	match_id TEXT NOT NULL,
	seq INTEGER NOT NULL,
	steps BLOB NOT NULL,
	PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

-- +goose Down
-- The store empties the log into step_runs when it opens and closes; steps in either are
-- lost.
DROP TABLE step_runs;
DROP TABLE step_log;
