-- Results apart from the matches (store.go, finishTx). A finished match's UPDATE rewrote its
-- row where the match was created, among the rows of the other running matches, and moved
-- its entry in the index of running matches; matches end in any order, so every result of a
-- commit wrote pages of its own: 19 of a commit's 24 pages at 1,000 matches, with the splits
-- of rows grown by their result; and the failed matches' partial index parsed each result's
-- JSON (json_extract) to test it, an eighth of the writer's time. A result's reason is now a
-- column of its own, which that index reads. Now a result is a row appended to results in the order
-- matches end, found by a small index on its match's rowid_, and running holds the rowid_ of
-- each match without a result (added when the match is created; a match that ends leaves it
-- at the next compaction, with all those that ended since: store.IsRunning). A commit's
-- results fall on a page or two.
-- +goose Up
CREATE TABLE results (
	seq INTEGER PRIMARY KEY,
	match_rowid INTEGER NOT NULL,
	ended_ns INTEGER NOT NULL,
	reason INTEGER NOT NULL,
	result TEXT
);
INSERT INTO results (match_rowid, ended_ns, reason, result)
	SELECT rowid_, ended_ns, COALESCE(json_extract(result, '$.reason'), 0), result FROM matches WHERE ended_ns != 0 ORDER BY ended_ns, rowid_;
CREATE UNIQUE INDEX results_match ON results (match_rowid);
CREATE INDEX results_ended ON results (ended_ns);
CREATE INDEX results_failed ON results (seq) WHERE reason = 5;
CREATE TABLE running (
	rowid_ INTEGER PRIMARY KEY
);
INSERT INTO running (rowid_) SELECT rowid_ FROM matches WHERE ended_ns = 0;
DROP INDEX matches_running;
DROP INDEX matches_failed;
ALTER TABLE matches DROP COLUMN result;
ALTER TABLE matches DROP COLUMN ended_ns;

-- +goose Down
ALTER TABLE matches ADD COLUMN ended_ns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN result TEXT;
UPDATE matches SET ended_ns = (SELECT r.ended_ns FROM results r WHERE r.match_rowid = matches.rowid_),
	result = (SELECT r.result FROM results r WHERE r.match_rowid = matches.rowid_)
	WHERE rowid_ IN (SELECT match_rowid FROM results);
CREATE INDEX matches_running ON matches(ended_ns);
CREATE INDEX matches_failed ON matches(rowid_) WHERE json_extract(result, '$.reason') = 5;
DROP TABLE running;
DROP TABLE results;
