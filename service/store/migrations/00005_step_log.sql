-- The step log: each writer transaction's steps, of many matches, packed in one row in the
-- order they were played (steplog.go). Appending one row costs a few pages written in a
-- row, where a step row per step dirtied one page of the steps table for every match in
-- the batch. The log is moved into steps, sorted by match, every few thousand steps
-- (compaction), so it stays short; a match's log is what steps and step_log hold together.
-- +goose Up
CREATE TABLE step_log (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	steps BLOB NOT NULL
);

-- +goose Down
-- The store compacts the log when it opens and closes; steps still in it are lost.
DROP TABLE step_log;
