-- Hosted bots (docs/hosted.md): each upload of a bot's WebAssembly module is a version; the
-- bytes are kept once per content (module_blobs, by their SHA-256), whichever bots and
-- versions share them. hosted_seats records each seat a hosted bot played, with its verdict
-- when it broke a limit, the tail of its stderr, and what its decisions cost.
-- +goose Up
CREATE TABLE module_blobs (
	digest TEXT PRIMARY KEY,
	wasm BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE bot_modules (
	bot TEXT NOT NULL,
	version INTEGER NOT NULL,
	digest TEXT NOT NULL,
	size INTEGER NOT NULL,
	games TEXT NOT NULL,
	uploaded_ns INTEGER NOT NULL,
	PRIMARY KEY (bot, version)
) WITHOUT ROWID;
CREATE TABLE hosted_seats (
	match_id TEXT NOT NULL,
	seat INTEGER NOT NULL,
	bot TEXT NOT NULL,
	version INTEGER NOT NULL,
	verdict TEXT NOT NULL,
	detail TEXT NOT NULL,
	stderr TEXT NOT NULL,
	decisions INTEGER NOT NULL,
	cpu_ns INTEGER NOT NULL,
	ended_ns INTEGER NOT NULL,
	PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX hosted_seats_bot ON hosted_seats (bot, ended_ns);

-- +goose Down
DROP TABLE hosted_seats;
DROP TABLE bot_modules;
DROP TABLE module_blobs;
