-- The schema of the first releases (before versioned migrations). IF NOT EXISTS: a database
-- made by one of them already has it, and goose then only records the version.
-- +goose Up
CREATE TABLE IF NOT EXISTS matches (
	rowid_ INTEGER PRIMARY KEY AUTOINCREMENT,
	id TEXT NOT NULL UNIQUE,
	game TEXT NOT NULL,
	seats INTEGER NOT NULL,
	options TEXT NOT NULL,
	seed TEXT NOT NULL,
	seed_hash TEXT NOT NULL,
	names TEXT NOT NULL,
	token_hashes TEXT NOT NULL,
	per_move_ns INTEGER NOT NULL,
	increment_ns INTEGER NOT NULL,
	time_bank_ns INTEGER NOT NULL,
	wall_clock INTEGER NOT NULL DEFAULT 0,
	timeout_policy INTEGER NOT NULL,
	created_ns INTEGER NOT NULL,
	ended_ns INTEGER NOT NULL DEFAULT 0,
	result TEXT
);
CREATE INDEX IF NOT EXISTS matches_game ON matches(game, rowid_);
CREATE INDEX IF NOT EXISTS matches_running ON matches(ended_ns);
CREATE TABLE IF NOT EXISTS steps (
	match_id TEXT NOT NULL,
	seq INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	notation TEXT NOT NULL,
	timed_out INTEGER NOT NULL DEFAULT 0,
	bank_ns INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE steps;
DROP TABLE matches;
