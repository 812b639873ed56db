-- What CreateMatch's caller was given beyond the seats' tokens: the hash of its creator
-- token (hex SHA-256, "" for a match made in process), which AbortMatch takes in place of
-- every seat's token; and the built-in bot that plays each seat the request gave one
-- (CreateMatchRequest.bots), as a JSON array of names, "" for a seat a client plays, so that
-- a restarted server seats those bots again. Matches stored before it have neither.
-- +goose Up
ALTER TABLE matches ADD COLUMN creator_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE matches ADD COLUMN house_bots TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE matches DROP COLUMN house_bots;
ALTER TABLE matches DROP COLUMN creator_hash;
