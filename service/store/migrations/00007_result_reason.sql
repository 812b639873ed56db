-- A result's reason in a column of its own, so that the partial index of failed matches
-- reads a column: on json_extract, every finished match's UPDATE parsed its result's JSON to
-- test it against the index (an eighth of the writer's time at 1,000 matches). Results
-- written before this version get their reason from their JSON.
-- +goose Up
ALTER TABLE matches ADD COLUMN reason INTEGER;
UPDATE matches SET reason = json_extract(result, '$.reason') WHERE result IS NOT NULL;
DROP INDEX matches_failed;
CREATE INDEX matches_failed ON matches(rowid_) WHERE reason = 5;

-- +goose Down
DROP INDEX matches_failed;
CREATE INDEX matches_failed ON matches(rowid_) WHERE json_extract(result, '$.reason') = 5;
ALTER TABLE matches DROP COLUMN reason;
