-- Runs appended (steplog.go). Keyed by match, a run went into its match's page: emptying the
-- log into runs wrote a page for every match in it, a thousand pages per compaction on a busy
-- server, most of the store's cost. Now the runs are rows appended one after another, in the
-- order written (SQLite's rowid; a heap in PostgreSQL), found by a small index on (match, seq)
-- whose pages hold a hundred runs each.
-- +goose Up
CREATE TABLE step_runs_appended (
	match_id TEXT NOT NULL,
	seq INTEGER NOT NULL,
	steps BLOB NOT NULL
);
INSERT INTO step_runs_appended (match_id, seq, steps) SELECT match_id, seq, steps FROM step_runs ORDER BY match_id, seq;
DROP TABLE step_runs;
ALTER TABLE step_runs_appended RENAME TO step_runs;
CREATE UNIQUE INDEX step_runs_match_seq ON step_runs (match_id, seq);

-- +goose Down
CREATE TABLE step_runs_keyed (
	match_id TEXT NOT NULL,
	seq INTEGER NOT NULL,
	steps BLOB NOT NULL,
	PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
INSERT INTO step_runs_keyed (match_id, seq, steps) SELECT match_id, seq, steps FROM step_runs;
DROP TABLE step_runs;
ALTER TABLE step_runs_keyed RENAME TO step_runs;
