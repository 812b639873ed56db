-- The salt of a seed's commitment (revealed with the seed), and an index of the matches the
-- server could not resume (result reason 5, END_REASON_FAILED), found by their seats' tokens.
-- +goose Up
ALTER TABLE matches ADD COLUMN seed_salt TEXT NOT NULL DEFAULT '';
CREATE INDEX matches_failed ON matches(rowid_) WHERE json_extract(result, '$.reason') = 5;

-- +goose Down
DROP INDEX matches_failed;
ALTER TABLE matches DROP COLUMN seed_salt;
