-- Which registered or house bot played each seat, as a JSON array of the bots' ids in decimal
-- ("" for a seat anyone may take with its token), so that matches are listed by the bot that
-- played them, not by a seat name anyone can type. Matches stored before it have no bots.
-- +goose Up
ALTER TABLE matches ADD COLUMN bots TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE matches DROP COLUMN bots;
