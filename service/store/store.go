// Package store keeps matches, their action logs and results in SQLite (modernc.org/sqlite,
// pure Go, zero setup). Matches are replayable from their logs, so no state snapshots are kept.
package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrNotFound is returned for an unknown match.
var ErrNotFound = errors.New("not found")

// Match is a stored match. Seed is secret until the match ends: the service reveals it only
// in a finished match's replay.
type Match struct {
	ID            string
	Game          string
	Seats         int
	Options       map[string]string
	Seed          uint64
	SeedHash      string
	Names         []string
	TokenHashes   []string // hex SHA-256 of each seat token; the tokens themselves are never stored
	PerMove       time.Duration
	Increment     time.Duration
	TimeBank      time.Duration
	WallClock     bool // a real-time game advancing on the wall clock
	TimeoutPolicy int32
	Created       time.Time
	Ended         time.Time // zero while running
	Result        *Result   // nil while running
}

// Result is a finished match's outcome.
type Result struct {
	Ranks  []int     `json:"ranks"`
	Scores []float64 `json:"scores"`
	Reason int32     `json:"reason"`
	Detail string    `json:"detail"`
	Plies  int64     `json:"plies"`
}

// Step is one logged action: seat -1 with empty notation is a wall-clock advance.
type Step struct {
	Seq      int64
	Seat     int
	Notation string
	TimedOut int32         // the timeout policy that chose it, 0 if the seat chose
	Bank     time.Duration // the acting seat's time bank after the step
}

// Filter selects matches for List.
type Filter struct {
	Game     string
	Finished *bool
	SeatName string
	Before   string // page token: list matches created before this match id's row
	Limit    int
}

// DB is the SQLite store.
type DB struct {
	db *sql.DB
}

const schema = `
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
`

// Open opens (creating if needed) the database at path; ":memory:" gives a private in-memory
// database for tests.
func Open(path string) (*DB, error) {
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)"
	if path == ":memory:" {
		dsn = "file::memory:?_pragma=foreign_keys(1)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	// SQLite has one writer; one connection keeps an in-memory database shared and writes
	// serialised without busy errors.
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: create schema in %s: %w", path, err)
	}
	return &DB{db: db}, nil
}

// SQL exposes the database to packages that keep their own tables beside the matches (the
// ladder), so that their writes can share a transaction.
func (d *DB) SQL() *sql.DB { return d.db }

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain maps, slices and structs are stored
	}
	return string(b)
}

// CreateMatch stores a new match.
func (d *DB) CreateMatch(ctx context.Context, m *Match) error {
	_, err := d.db.ExecContext(ctx, `INSERT INTO matches (id, game, seats, options, seed, seed_hash, names,
		token_hashes, per_move_ns, increment_ns, time_bank_ns, wall_clock, timeout_policy, created_ns)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		m.ID, m.Game, m.Seats, mustJSON(m.Options), fmt.Sprint(m.Seed), m.SeedHash, mustJSON(m.Names),
		mustJSON(m.TokenHashes), int64(m.PerMove), int64(m.Increment), int64(m.TimeBank), m.WallClock, m.TimeoutPolicy,
		m.Created.UnixNano())
	return err
}

// AppendSteps adds logged actions to a match in one transaction.
func (d *DB) AppendSteps(ctx context.Context, matchID string, steps []Step) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO steps (match_id, seq, seat, notation, timed_out, bank_ns) VALUES (?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, s := range steps {
		if _, err := stmt.ExecContext(ctx, matchID, s.Seq, s.Seat, s.Notation, s.TimedOut, int64(s.Bank)); err != nil {
			return fmt.Errorf("store: step %d of %s: %w", s.Seq, matchID, err)
		}
	}
	return tx.Commit()
}

// FinishMatch records a match's result.
func (d *DB) FinishMatch(ctx context.Context, matchID string, ended time.Time, r *Result) error {
	return d.FinishMatchTx(ctx, nil, matchID, ended, r)
}

// FinishMatchTx records a match's result inside tx (or on its own if tx is nil).
func (d *DB) FinishMatchTx(ctx context.Context, tx *sql.Tx, matchID string, ended time.Time, r *Result) error {
	q := `UPDATE matches SET ended_ns = ?, result = ? WHERE id = ?`
	var res sql.Result
	var err error
	if tx != nil {
		res, err = tx.ExecContext(ctx, q, ended.UnixNano(), mustJSON(r), matchID)
	} else {
		res, err = d.db.ExecContext(ctx, q, ended.UnixNano(), mustJSON(r), matchID)
	}
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: finish %s: %w", matchID, ErrNotFound)
	}
	return nil
}

const matchColumns = `id, game, seats, options, seed, seed_hash, names, token_hashes, per_move_ns,
	increment_ns, time_bank_ns, wall_clock, timeout_policy, created_ns, ended_ns, result, rowid_`

func scanMatch(row interface{ Scan(...any) error }) (*Match, int64, error) {
	var (
		m                            Match
		options, seed, names, tokens string
		perMove, increment, bank, cr int64
		ended                        int64
		result                       sql.NullString
		rowid                        int64
	)
	if err := row.Scan(&m.ID, &m.Game, &m.Seats, &options, &seed, &m.SeedHash, &names, &tokens, &perMove,
		&increment, &bank, &m.WallClock, &m.TimeoutPolicy, &cr, &ended, &result, &rowid); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal([]byte(options), &m.Options); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal([]byte(names), &m.Names); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal([]byte(tokens), &m.TokenHashes); err != nil {
		return nil, 0, err
	}
	if _, err := fmt.Sscan(seed, &m.Seed); err != nil {
		return nil, 0, err
	}
	m.PerMove, m.Increment, m.TimeBank = time.Duration(perMove), time.Duration(increment), time.Duration(bank)
	m.Created = time.Unix(0, cr)
	if ended != 0 {
		m.Ended = time.Unix(0, ended)
	}
	if result.Valid {
		m.Result = new(Result)
		if err := json.Unmarshal([]byte(result.String), m.Result); err != nil {
			return nil, 0, err
		}
	}
	return &m, rowid, nil
}

// Match loads one match.
func (d *DB) Match(ctx context.Context, id string) (*Match, error) {
	m, _, err := scanMatch(d.db.QueryRowContext(ctx, `SELECT `+matchColumns+` FROM matches WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("match %q: %w", id, ErrNotFound)
	}
	return m, err
}

// Steps loads a match's action log in order.
func (d *DB) Steps(ctx context.Context, id string) ([]Step, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT seq, seat, notation, timed_out, bank_ns FROM steps WHERE match_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var steps []Step
	for rows.Next() {
		var s Step
		var bank int64
		if err := rows.Scan(&s.Seq, &s.Seat, &s.Notation, &s.TimedOut, &bank); err != nil {
			return nil, err
		}
		s.Bank = time.Duration(bank)
		steps = append(steps, s)
	}
	return steps, rows.Err()
}

// Unfinished lists the matches that have no result, oldest first, for resuming after a restart.
func (d *DB) Unfinished(ctx context.Context) ([]*Match, error) {
	return d.query(ctx, `SELECT `+matchColumns+` FROM matches WHERE ended_ns = 0 ORDER BY rowid_`)
}

// List lists matches newest first, and the page token of the next page ("" at the end).
func (d *DB) List(ctx context.Context, f Filter) ([]*Match, string, error) {
	var where []string
	var args []any
	if f.Game != "" {
		where = append(where, "game = ?")
		args = append(args, f.Game)
	}
	if f.Finished != nil {
		if *f.Finished {
			where = append(where, "ended_ns != 0")
		} else {
			where = append(where, "ended_ns = 0")
		}
	}
	if f.SeatName != "" {
		where = append(where, "EXISTS (SELECT 1 FROM json_each(matches.names) WHERE value = ?)")
		args = append(args, f.SeatName)
	}
	if f.Before != "" {
		where = append(where, "rowid_ < (SELECT rowid_ FROM matches WHERE id = ?)")
		args = append(args, f.Before)
	}
	q := `SELECT ` + matchColumns + ` FROM matches`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	q += fmt.Sprintf(" ORDER BY rowid_ DESC LIMIT %d", f.Limit+1)
	ms, err := d.query(ctx, q, args...)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(ms) > f.Limit {
		ms = ms[:f.Limit]
		next = ms[len(ms)-1].ID
	}
	return ms, next, nil
}

func (d *DB) query(ctx context.Context, q string, args ...any) ([]*Match, error) {
	rows, err := d.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Match
	for rows.Next() {
		m, _, err := scanMatch(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
