-- Which registered or house bot played each seat, as a JSON array of the bots' ids in decimal
-- ("" for a seat anyone may take with its token), so that matches are listed by the bot that
-- played them, not by a seat name anyone can type. Matches stored before it have no bots.
--
-- And an index of the seats' token hashes: a seat of any stored match is recognised when it
-- joins (an ended match is not in memory), and an unknown token must cost one index lookup,
-- not a scan of every match's JSON.
-- +goose Up
ALTER TABLE matches ADD COLUMN bots TEXT NOT NULL DEFAULT '[]';
CREATE TABLE seat_tokens (
	token_hash TEXT NOT NULL,
	match_id TEXT NOT NULL,
	PRIMARY KEY (token_hash, match_id)
) WITHOUT ROWID;
INSERT INTO seat_tokens (token_hash, match_id) SELECT DISTINCT j.value, m.id FROM matches m, json_each(m.token_hashes) j;
CREATE INDEX seat_tokens_match ON seat_tokens(match_id);

-- +goose Down
DROP TABLE seat_tokens;
ALTER TABLE matches DROP COLUMN bots;
