package ladder

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// The ladder's tables live beside the arena's matches in the same database (SQLite, or
// PostgreSQL through store.DDL), so that a rating and the mark that its match is rated commit
// together.
const schema = `
CREATE TABLE IF NOT EXISTS ladder_bots (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	name TEXT NOT NULL UNIQUE,
	description TEXT NOT NULL DEFAULT '',
	key_hash TEXT UNIQUE, -- hex SHA-256 of the API key; NULL for house bots
	house INTEGER NOT NULL DEFAULT 0,
	created_ns INTEGER NOT NULL,
	revoked_ns INTEGER NOT NULL DEFAULT 0,
	paused_until_ns INTEGER NOT NULL DEFAULT 0,
	pause_reason TEXT NOT NULL DEFAULT '',
	timeout_streak INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS ladder_ratings (
	bot_id INTEGER NOT NULL REFERENCES ladder_bots(id),
	game TEXT NOT NULL,
	mu REAL NOT NULL,
	sigma REAL NOT NULL,
	games INTEGER NOT NULL,
	wins INTEGER NOT NULL,
	last_match_id TEXT NOT NULL,
	updated_ns INTEGER NOT NULL,
	PRIMARY KEY (bot_id, game)
);
-- Every match the ladder starts, with the bot in each seat.
CREATE TABLE IF NOT EXISTS ladder_matches (
	match_id TEXT PRIMARY KEY,
	game TEXT NOT NULL,
	bot_ids TEXT NOT NULL, -- JSON array, seat by seat
	created_ns INTEGER NOT NULL,
	rated INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS ladder_matches_unrated ON ladder_matches(match_id) WHERE rated = 0;
-- A match's ratings are applied exactly once: this row commits with them.
CREATE TABLE IF NOT EXISTS rated_matches (
	match_id TEXT PRIMARY KEY,
	rated_ns INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS ladder_rating_changes (
	match_id TEXT NOT NULL,
	seat INTEGER NOT NULL,
	bot_id INTEGER NOT NULL,
	game TEXT NOT NULL,
	seats INTEGER NOT NULL,
	rank INTEGER NOT NULL,
	mu_before REAL NOT NULL,
	sigma_before REAL NOT NULL,
	mu_after REAL NOT NULL,
	sigma_after REAL NOT NULL,
	rated_ns INTEGER NOT NULL,
	PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS ladder_rating_changes_bot ON ladder_rating_changes(bot_id, rated_ns);
-- A cluster's ladder (cluster.go). The open ladder streams of every node, with the room each
-- has: the elected matchmaker reads its queue from here.
CREATE TABLE IF NOT EXISTS ladder_streams (
	bot_id INTEGER PRIMARY KEY,
	node_id TEXT NOT NULL,
	games TEXT NOT NULL, -- JSON array
	since_ns INTEGER NOT NULL, -- waiting since
	room INTEGER NOT NULL, -- matches it may still join (0: connected, not queued)
	joined_ns INTEGER NOT NULL
);
-- Every seat of a running match that the cluster's ladder plays (a registered bot's, on the
-- stream of the node named, or a house bot's, on the match's owner), with its token, so that
-- whichever node the bot reconnects to, or takes the match over, seats it again. Secret like
-- the rest of the database; removed once the match has ended.
CREATE TABLE IF NOT EXISTS ladder_seats (
	match_id TEXT NOT NULL,
	seat INTEGER NOT NULL,
	seats INTEGER NOT NULL,
	bot_id INTEGER NOT NULL,
	house INTEGER NOT NULL DEFAULT 0,
	tournament INTEGER NOT NULL DEFAULT 0,
	token TEXT NOT NULL,
	node_id TEXT NOT NULL DEFAULT '', -- the node whose stream of the bot plays it; '' for none yet
	picked INTEGER NOT NULL DEFAULT 0, -- that node has started playing it
	PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS ladder_seats_bot ON ladder_seats(bot_id);
CREATE INDEX IF NOT EXISTS ladder_seats_node ON ladder_seats(node_id, picked);
`

// botRow is a stored bot.
type botRow struct {
	id            int64
	name          string
	description   string
	keyHash       string
	house         bool
	created       time.Time
	revoked       bool
	pausedUntil   time.Time
	pauseReason   string
	timeoutStreak int
}

type db struct {
	*sql.DB
	// afterRatingUpdate, if set, runs inside a rating transaction after the rating rows are
	// written and before the commit: tests fail it to show a crash there loses nothing.
	afterRatingUpdate func(matchID string) error
}

func openDB(s *store.DB) (*db, error) {
	if s == nil {
		return nil, errors.New("ladder: needs the arena's store")
	}
	if err := s.CreateTables(schema); err != nil {
		return nil, fmt.Errorf("ladder: create tables: %w", err)
	}
	return &db{DB: s.SQL()}, nil
}

func hashKey(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

const botColumns = `id, name, description, COALESCE(key_hash, ''), house, created_ns, revoked_ns, paused_until_ns, pause_reason, timeout_streak`

func scanBot(row interface{ Scan(...any) error }) (*botRow, error) {
	var b botRow
	var created, revoked, paused int64
	if err := row.Scan(&b.id, &b.name, &b.description, &b.keyHash, &b.house, &created, &revoked, &paused, &b.pauseReason, &b.timeoutStreak); err != nil {
		return nil, err
	}
	b.created, b.revoked, b.pausedUntil = store.FromUnixNano(created), revoked != 0, store.FromUnixNano(paused)
	return &b, nil
}

func (d *db) bots(ctx context.Context) ([]*botRow, error) {
	rows, err := d.QueryContext(ctx, `SELECT `+botColumns+` FROM ladder_bots ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*botRow
	for rows.Next() {
		b, err := scanBot(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

func (d *db) insertBot(ctx context.Context, b *botRow) error {
	var key any
	if b.keyHash != "" {
		key = b.keyHash
	}
	// RETURNING rather than LastInsertId, which PostgreSQL's driver does not give.
	return d.QueryRowContext(ctx, `INSERT INTO ladder_bots (name, description, key_hash, house, created_ns) VALUES (?,?,?,?,?) RETURNING id`,
		b.name, b.description, key, b.house, store.UnixNano(b.created)).Scan(&b.id)
}

// insertHouseBot registers a house bot, or finds it registered: nodes of a cluster starting
// together register the same house bots.
func (d *db) insertHouseBot(ctx context.Context, b *botRow) error {
	err := d.QueryRowContext(ctx, `INSERT INTO ladder_bots (name, description, house, created_ns) VALUES (?,?,?,?)
		ON CONFLICT (name) DO NOTHING RETURNING id`, b.name, b.description, true, store.UnixNano(b.created)).Scan(&b.id)
	if errors.Is(err, sql.ErrNoRows) {
		err = d.QueryRowContext(ctx, `SELECT id FROM ladder_bots WHERE name = ?`, b.name).Scan(&b.id)
	}
	return err
}

func (d *db) revokeBot(ctx context.Context, id int64, at time.Time) error {
	_, err := d.ExecContext(ctx, `UPDATE ladder_bots SET revoked_ns = ? WHERE id = ?`, store.UnixNano(at), id)
	return err
}

func (d *db) setPause(ctx context.Context, id int64, until time.Time, reason string, streak int) error {
	_, err := d.ExecContext(ctx, `UPDATE ladder_bots SET paused_until_ns = ?, pause_reason = ?, timeout_streak = ? WHERE id = ?`,
		store.UnixNano(until), reason, streak, id)
	return err
}

// storedRating is a bot's row in ladder_ratings.
type storedRating struct {
	Rating
	games, wins int
	lastMatch   string
}

func (d *db) ratings(ctx context.Context) (map[int64]map[string]storedRating, error) {
	rows, err := d.QueryContext(ctx, `SELECT bot_id, game, mu, sigma, games, wins, last_match_id FROM ladder_ratings`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[int64]map[string]storedRating)
	for rows.Next() {
		var id int64
		var game string
		var r storedRating
		if err := rows.Scan(&id, &game, &r.Mu, &r.Sigma, &r.games, &r.wins, &r.lastMatch); err != nil {
			return nil, err
		}
		if out[id] == nil {
			out[id] = make(map[string]storedRating)
		}
		out[id][game] = r
	}
	return out, rows.Err()
}

func (d *db) insertLadderMatch(ctx context.Context, id, game string, bots []int64, created time.Time) error {
	_, err := d.ExecContext(ctx, `INSERT INTO ladder_matches (match_id, game, bot_ids, created_ns) VALUES (?,?,?,?)`,
		id, game, store.JSON(bots), store.UnixNano(created))
	return err
}

// pendingMatch is a finished ladder match not yet rated.
type pendingMatch struct {
	id     string
	game   string
	bots   []int64
	result store.Result
}

// pending lists the finished ladder matches not yet rated, in the order they were created,
// each game's up to its first match still running: a game's ratings are applied in creation
// order, so that they depend on the schedule of its matches and their results, not on which
// ended first or which node rated it (OpenSkill's updates do not commute). Games are rated
// apart (a bot's rating is per game), so one game's long match holds back no other game's.
func (d *db) pending(ctx context.Context) ([]pendingMatch, error) {
	rows, err := d.QueryContext(ctx, `SELECT lm.match_id, lm.game, lm.bot_ids, COALESCE(r.ended_ns, 0), COALESCE(r.result, '')
		FROM ladder_matches lm JOIN matches m ON m.id = lm.match_id LEFT JOIN results r ON r.match_rowid = m.rowid_
		WHERE lm.rated = 0 ORDER BY m.rowid_`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []pendingMatch
	running := make(map[string]bool) // games with an earlier match still running
	for rows.Next() {
		var p pendingMatch
		var bots, result string
		var ended int64
		if err := rows.Scan(&p.id, &p.game, &bots, &ended, &result); err != nil {
			return nil, err
		}
		if ended == 0 || result == "" {
			running[p.game] = true // the game's later matches wait for it
			continue
		}
		if running[p.game] {
			continue
		}
		if err := json.Unmarshal([]byte(bots), &p.bots); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(result), &p.result); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// unfinished lists the ladder matches whose result is not stored yet.
func (d *db) unfinished(ctx context.Context) ([]string, error) {
	rows, err := d.QueryContext(ctx, `SELECT lm.match_id FROM ladder_matches lm JOIN matches m ON m.id = lm.match_id
		WHERE lm.rated = 0 AND `+store.IsRunning+` ORDER BY m.rowid_`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// unfinishedSeats lists the recorded seats of the ladder matches whose result is not stored
// yet, by match, with the match's game.
func (d *db) unfinishedSeats(ctx context.Context) (map[string][]assignedSeat, error) {
	rows, err := d.QueryContext(ctx, `SELECT ls.match_id, ls.seat, ls.seats, ls.bot_id, ls.tournament, ls.token, lm.game
		FROM ladder_seats ls JOIN ladder_matches lm ON lm.match_id = ls.match_id JOIN matches m ON m.id = ls.match_id
		WHERE `+store.IsRunning+` ORDER BY ls.match_id, ls.seat`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string][]assignedSeat)
	for rows.Next() {
		var a assignedSeat
		if err := rows.Scan(&a.match, &a.seat, &a.seats, &a.bot, &a.tournament, &a.token, &a.game); err != nil {
			return nil, err
		}
		out[a.match] = append(out[a.match], a)
	}
	return out, rows.Err()
}

// errRated says a match was already rated: nothing was written.
var errRated = errors.New("match already rated")

// rateMatch applies one match's result to its bots' ratings in one transaction with its
// rated_matches row, and returns the new ratings seat by seat. A match already rated is
// errRated and changes nothing.
func (d *db) rateMatch(ctx context.Context, m Model, p pendingMatch, now time.Time) ([]storedRating, error) {
	if len(p.bots) != len(p.result.Ranks) || len(p.bots) < 2 {
		return nil, fmt.Errorf("match %s: %d bots and %d ranks", p.id, len(p.bots), len(p.result.Ranks))
	}
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if !rateable(p) {
		// An aborted match (or a seat listed twice, which the ladder never does) moves no
		// rating: it is only marked, so that it is not looked at again.
		return nil, d.markRated(ctx, tx, p.id, now)
	}
	var one int
	switch err := tx.QueryRowContext(ctx, `SELECT 1 FROM rated_matches WHERE match_id = ?`, p.id).Scan(&one); {
	case err == nil:
		return nil, errRated
	case !errors.Is(err, sql.ErrNoRows):
		return nil, err
	}
	before := make([]storedRating, len(p.bots))
	for i, id := range p.bots {
		r := storedRating{Rating: m.New()}
		err := tx.QueryRowContext(ctx, `SELECT mu, sigma, games, wins FROM ladder_ratings WHERE bot_id = ? AND game = ?`, id, p.game).
			Scan(&r.Mu, &r.Sigma, &r.games, &r.wins)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		before[i] = r
	}
	prior := make([]Rating, len(before))
	for i, r := range before {
		prior[i] = r.Rating
	}
	after := m.Rate(prior, p.result.Ranks)
	out := make([]storedRating, len(after))
	for i, id := range p.bots {
		r := storedRating{Rating: after[i], games: before[i].games + 1, wins: before[i].wins, lastMatch: p.id}
		if p.result.Ranks[i] == 1 {
			r.wins++
		}
		out[i] = r
		if _, err := tx.ExecContext(ctx, `INSERT INTO ladder_ratings (bot_id, game, mu, sigma, games, wins, last_match_id, updated_ns)
			VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (bot_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
			games = excluded.games, wins = excluded.wins, last_match_id = excluded.last_match_id, updated_ns = excluded.updated_ns`,
			id, p.game, r.Mu, r.Sigma, r.games, r.wins, p.id, store.UnixNano(now)); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO ladder_rating_changes (match_id, seat, bot_id, game, seats, rank,
			mu_before, sigma_before, mu_after, sigma_after, rated_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
			p.id, i, id, p.game, len(p.bots), p.result.Ranks[i], prior[i].Mu, prior[i].Sigma, r.Mu, r.Sigma, store.UnixNano(now)); err != nil {
			return nil, err
		}
	}
	if d.afterRatingUpdate != nil {
		if err := d.afterRatingUpdate(p.id); err != nil {
			return nil, err
		}
	}
	return out, d.markRated(ctx, tx, p.id, now)
}

// markRated records match id as rated and commits tx. A second attempt fails on the primary
// key and rolls back everything tx wrote.
func (d *db) markRated(ctx context.Context, tx *sql.Tx, id string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO rated_matches (match_id, rated_ns) VALUES (?,?)`, id, store.UnixNano(now)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE ladder_matches SET rated = 1 WHERE match_id = ?`, id); err != nil {
		return err
	}
	return tx.Commit()
}

// rateable reports whether a finished match moves ratings: it ended by the rules, the cap or
// a forfeit, every seat has a rank, and no bot holds two seats.
func rateable(p pendingMatch) bool {
	if p.result.Reason == int32(orreryv1.EndReason_END_REASON_ABORTED) || p.result.Reason == int32(orreryv1.EndReason_END_REASON_FAILED) ||
		len(p.result.Ranks) != len(p.bots) {
		return false // a failed match has no ranks
	}
	seen := make(map[int64]bool, len(p.bots))
	for i, id := range p.bots {
		if p.result.Ranks[i] < 1 || seen[id] {
			return false
		}
		seen[id] = true
	}
	return true
}
