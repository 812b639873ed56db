// Package store keeps matches, their action logs and results in SQLite (modernc.org/sqlite,
// pure Go, zero setup) or, for several nodes, in PostgreSQL (pgx). Matches are replayable from their logs, so no state snapshots are kept.
package store

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// botsText is a match's bots as stored: ids in decimal, so that one JSON array test serves
// every dialect (hasElement); "" for a seat no bot was seated in.
func botsText(bots []int64) []string {
	out := make([]string, len(bots))
	for i, id := range bots {
		if id != 0 {
			out[i] = strconv.FormatInt(id, 10)
		}
	}
	return out
}

// houseBotsText is the house_bots column of a match of n seats: every seat's bot, "" for
// none, or no seat at all when no seat has one.
func houseBotsText(bots []string, n int) []string {
	if !slices.ContainsFunc(bots, func(b string) bool { return b != "" }) {
		return []string{}
	}
	out := make([]string, n)
	copy(out, bots)
	return out
}

// botsOf reads a stored bots column back; nil when no seat has a bot.
func botsOf(text string) ([]int64, error) {
	var ids []string
	if err := json.Unmarshal([]byte(text), &ids); err != nil {
		return nil, err
	}
	var out []int64
	for i, id := range ids {
		if id == "" {
			continue
		}
		if out == nil {
			out = make([]int64, len(ids))
		}
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bots[%d] %q: %w", i, id, err)
		}
		out[i] = n
	}
	return out, nil
}

// ErrNotFound is returned for an unknown match.
var ErrNotFound = errors.New("not found")

// Match is a stored match. Seed is secret until the match ends: the service reveals it only
// in a finished match's replay.
type Match struct {
	ID          string
	Game        string
	Seats       int
	Options     map[string]string
	Seed        uint64
	SeedSalt    string // hex; secret with the seed until the match ends; "" before salts
	SeedHash    string
	Names       []string
	TokenHashes []string // hex SHA-256 of each seat token; the tokens themselves are never stored
	// Bots is the id of the registered or house bot the ladder seated in each seat, 0 for a
	// seat that anyone with its token plays; nil for a match with none.
	Bots []int64
	// HouseBots names the built-in bot (CreateMatchRequest.bots) that plays each seat, ""
	// for a seat a client plays; nil for a match with none. A restarted server seats them.
	HouseBots []string
	// CreatorHash is the hex SHA-256 of the creator token CreateMatch returned, which
	// AbortMatch takes; "" for a match made in process (the ladder's), which only the admin
	// aborts.
	CreatorHash   string
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
	// Each seat's timeouts and final time bank (absent in results stored before them).
	Timeouts []int           `json:"timeouts,omitempty"`
	Banks    []time.Duration `json:"banks,omitempty"`
	// Each seat's events acknowledged by its last answer (absent in results stored before
	// them): where a seat's final join, without events_seen, resumes its events.
	Acked []int64 `json:"acked,omitempty"`
}

// Step is one logged action: seat -1 with empty notation is a wall-clock advance.
type Step struct {
	Seq      int64
	Seat     int
	Notation string
	TimedOut int32         // the timeout policy that chose it, 0 if the seat chose
	Bank     time.Duration // the acting seat's time bank after the step

	// What the server measured and the bot wrote (docs/strength.md's lab; none in steps
	// stored before them, nor in steps no seat answered).
	Think    time.Duration // from sending the decision to receiving the answer applied
	Rejected RejectCodes   // the answers to the decision refused before it
	Note     string        // the bot's note on its answer
	CPU      time.Duration // a hosted bot's CPU on the decision, measured by the server
}

// RejectCodes are reject codes (orreryv1.RejectCode, all under 256) one byte each, in order:
// a string keeps Step a comparable value.
type RejectCodes string

// Rejections packs codes.
func Rejections(codes ...int32) RejectCodes {
	b := make([]byte, len(codes))
	for i, c := range codes {
		b[i] = byte(c)
	}
	return RejectCodes(b)
}

// Codes unpacks r.
func (r RejectCodes) Codes() []int32 {
	codes := make([]int32, len(r))
	for i := range len(r) {
		codes[i] = int32(r[i])
	}
	return codes
}

// ReasonFailed is the result reason of a match the server could not resume
// (orreryv1.EndReason_END_REASON_FAILED): it has no outcome, only why it stopped.
const ReasonFailed int32 = 5

// Failed reports whether a stored match was marked failed.
func (m *Match) Failed() bool { return m.Result != nil && m.Result.Reason == ReasonFailed }

// Status selects matches by what became of them.
type Status int

// The statuses List filters by.
const (
	AnyStatus Status = iota
	Running          // no result yet
	Finished         // a result, not failed
	Failed           // marked failed: could not be resumed
)

// Filter selects matches for List.
type Filter struct {
	Game     string
	Status   Status
	SeatName string
	Bot      int64  // only matches with a seat this bot played (Match.Bots), if not 0
	Before   string // page token: list matches created before this match id's row
	Limit    int
}

// DB is the store, on SQLite or PostgreSQL (see Dialect).
type DB struct {
	db      *sql.DB
	dialect Dialect

	compactAfter    int64        // steps logged between compactions: compactAfter, but for tests
	sinceCompaction atomic.Int64 // steps this store has logged since it last compacted (steplog.go)
	logBytes        atomic.Int64 // about the bytes of them
	closed          atomic.Bool

	stmtsMu sync.Mutex // guards stmts
	stmts   map[string]*sql.Stmt

	createMu   sync.Mutex   // guards creating and createBusy
	creating   []*creation  // CreateMatch calls waiting to be written
	createBusy bool         // a CreateMatch call is writing: the others queue
	createTxs  atomic.Int64 // transactions CreateMatch committed (tests)

	nextMu sync.Mutex       // guards next and rowids
	next   map[string]int64 // each match's next step, as this store wrote it (checkNext)
	// rowids are the rowid_ of the running matches this store created, which their results
	// name (finishTx): looked up by id, a result cost an index search on matches.
	rowids map[string]int64

	// leasing is set once a lease may exist (this store took one, or found one at open):
	// until then a result deletes no lease. A server on its own takes none.
	leasing atomic.Bool

	compactMu sync.Mutex  // guards kept; held through a compaction
	kept      *compaction // the last compaction's buffers, for the next (steplog.go)
}

// writeQueries are the writer's statements (and CreateMatch's), prepared once when the store opens: parsing
// them cost as much as running them. They are prepared before any transaction, as SQLite's
// one connection is then free (a statement prepared on the pool inside a transaction would
// wait for it).
func (d *DB) writeQueries() []string {
	return append([]string{`INSERT INTO step_log (steps) VALUES (?)`, d.insertRuns(runsPerInsert), unleaseQuery,
		createQuery, runningQuery}, finishQueries[:]...)
}

// prepare prepares the writer's statements and empties the step log, which a server that
// stopped without closing the store leaves full.
func (d *DB) prepare() error {
	d.stmts, d.next, d.rowids = make(map[string]*sql.Stmt), make(map[string]int64), make(map[string]int64)
	d.compactAfter = compactAfter
	var leased bool
	if err := d.db.QueryRow(`SELECT EXISTS (SELECT 1 FROM leases)`).Scan(&leased); err != nil {
		return fmt.Errorf("store: read the leases: %w", err)
	}
	d.leasing.Store(leased)
	for _, q := range d.writeQueries() {
		st, err := d.db.Prepare(q)
		if err != nil {
			return fmt.Errorf("store: prepare %.40q: %w", q, err)
		}
		d.stmts[q] = st
	}
	return d.Compact(context.Background())
}

// prepared is query as a statement of tx: prepared once if it is one of writeQueries, else
// for this transaction only.
func (d *DB) prepared(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	d.stmtsMu.Lock()
	st := d.stmts[query]
	d.stmtsMu.Unlock()
	if st == nil {
		return tx.PrepareContext(ctx, query)
	}
	return tx.StmtContext(ctx, st), nil
}

//go:embed migrations/*.sql
var migrations embed.FS

// migrate brings the schema to the newest version. The versions are numbered SQL files
// (goose), the same for every database the store will speak.
func migrate(db *sql.DB) error {
	fsys, err := migrationsFor(SQLite)
	if err != nil {
		return err
	}
	return runMigrations(db, goose.DialectSQLite3, fsys)
}

func runMigrations(db *sql.DB, dialect goose.Dialect, fsys fs.FS, opts ...goose.ProviderOption) error {
	p, err := goose.NewProvider(dialect, db, fsys, append(opts, goose.WithDisableGlobalRegistry(true))...)
	if err != nil {
		return err
	}
	_, err = p.Up(context.Background())
	return err
}

// Open opens (creating if needed) the store named by target: a postgres:// URL is a
// PostgreSQL database; anything else is a SQLite file, its path optionally prefixed
// "sqlite:"; ":memory:" gives a private in-memory SQLite database for tests.
func Open(target string) (*DB, error) {
	if IsPostgresURL(target) {
		return openPostgres(target)
	}
	path := strings.TrimPrefix(target, "sqlite:")
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_pragma=temp_store(MEMORY)"
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
	if err := quickCheck(db, path); err != nil {
		db.Close()
		return nil, err
	}
	if err := migrate(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: migrate the schema of %s: %w", path, err)
	}
	d := &DB{db: db}
	if err := d.prepare(); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return d, nil
}

// ErrDamaged is a database that fails SQLite's quick_check: the server refuses to start on it.
var ErrDamaged = errors.New("store: database is damaged")

// quickCheck runs PRAGMA quick_check, so that a damaged database stops the server at start
// instead of failing matches one by one.
func quickCheck(db *sql.DB, path string) error {
	rows, err := db.Query(`PRAGMA quick_check`)
	if err != nil {
		return fmt.Errorf("%w: %s: quick_check: %v; repair it with: sqlite3 %s '.recover' | sqlite3 %s.recovered",
			ErrDamaged, path, err, path, path)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		if line != "ok" && len(problems) < 5 {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s: %s; repair it with: sqlite3 %s '.recover' | sqlite3 %s.recovered, then start with --db %s.recovered",
			ErrDamaged, path, strings.Join(problems, "; "), path, path, path)
	}
	return nil
}

// Backup writes a consistent copy of the database to path while it is in use (VACUUM INTO).
// path must not exist. A PostgreSQL store is backed up by PostgreSQL's own tools.
func (d *DB) Backup(ctx context.Context, path string) error {
	if d.dialect == Postgres {
		return errors.New("store: backup of a PostgreSQL store: use pg_dump (or the server's continuous archiving)")
	}
	if _, err := d.db.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	return nil
}

// DeleteFinishedBefore removes the matches (and their logs) that ended before t, and returns
// how many: the retention of finished matches. Running matches are never removed.
func (d *DB) DeleteFinishedBefore(ctx context.Context, t time.Time) (int64, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	// The step log's steps of the matches removed go first, with those of the others.
	if _, err := d.compactTx(ctx, tx, nil, true); err != nil {
		return 0, err
	}
	cut := t.UnixNano()
	for _, table := range []string{"steps", "step_runs", "seat_tokens"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE match_id IN
			(SELECT m.id FROM matches m JOIN results r ON r.match_rowid = m.rowid_ WHERE r.ended_ns < ?)`, cut); err != nil {
			return 0, err
		}
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM matches WHERE rowid_ IN (SELECT match_rowid FROM results WHERE ended_ns < ?)`, cut)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	if _, err := tx.ExecContext(ctx, `DELETE FROM results WHERE ended_ns < ?`, cut); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	d.logged(0, true)
	return n, nil
}

// SQL exposes the database to packages that keep their own tables beside the matches (the
// ladder), so that their writes can share a transaction.
func (d *DB) SQL() *sql.DB { return d.db }

// Close empties the step log into the steps table (a clean stop leaves no log behind) and
// closes the database.
func (d *DB) Close() error {
	if d.closed.Swap(true) {
		return nil
	}
	// Bounded: a database out of reach must not hold up a stop; the log is compacted at the
	// next open instead.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := d.Compact(ctx)
	for _, st := range d.stmts {
		st.Close()
	}
	return errors.Join(err, d.db.Close())
}

// JSON is v as stored JSON text. Only plain maps, slices and structs are stored, so a
// failure is a programming error.
func JSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// UnixNano is t as a stored time: nanoseconds since 1970, 0 for the zero time.
func UnixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// FromUnixNano reads a time stored by UnixNano.
func FromUnixNano(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

const (
	createQuery = `INSERT INTO matches (id, game, seats, options, seed, seed_salt, seed_hash, names,
		token_hashes, per_move_ns, increment_ns, time_bank_ns, wall_clock, timeout_policy, created_ns, bots, creator_hash, house_bots)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING rowid_`
	// runningQuery counts a new match among the running ones (migration 00008).
	runningQuery = `INSERT INTO running (rowid_) VALUES (?)`
)

// unleaseChunk is how many matches' leases unleaseQuery deletes at once.
const unleaseChunk = 16

// finishQueries append the results of 1, 2, 4 ... maxFinishRows matches to results
// (migration 00008), each replacing the one its match has: a match is given its result
// once, but a batch retried after a commit that failed may give it again.
var finishQueries = func() (q [6]string) {
	for i := range q {
		q[i] = `INSERT INTO results (match_rowid, ended_ns, reason, result) VALUES (?,?,?,?)` +
			strings.Repeat(`, (?,?,?,?)`, 1<<i-1) +
			` ON CONFLICT (match_rowid) DO UPDATE SET ended_ns = excluded.ended_ns, reason = excluded.reason, result = excluded.result`
	}
	return q
}()

const (
	maxFinishRows = 1 << (len(finishQueries) - 1)
	finishColumns = 4
)

// unleaseQuery deletes the leases of unleaseChunk matches: an ended match needs no owner.
var unleaseQuery = `DELETE FROM leases WHERE match_id IN (?` + strings.Repeat(`, ?`, unleaseChunk-1) + `)`

// matchColumns are a match's columns in scanMatch's order, selected from WithResults.
const matchColumns = `m.id, m.game, m.seats, m.options, m.seed, m.seed_salt, m.seed_hash, m.names, m.token_hashes,
	m.per_move_ns, m.increment_ns, m.time_bank_ns, m.wall_clock, m.timeout_policy, m.created_ns, COALESCE(r.ended_ns, 0),
	r.result, m.bots, m.creator_hash, m.house_bots, m.rowid_`

// The state of the matches in SQL, for this package and those that keep tables beside the
// matches (the ladder): a match has ended once it has a row in results (migration 00008);
// running holds the rowid_ of every match that has not, and of those that ended since the
// last compaction, which takes them out all at once: deleted in the batch of its result, a
// match's row cost a page written for most results (a commit's results fall on its every
// page), where the lookup in results that tells them apart costs a read.
const (
	// IsRunning is the condition that the match aliased m has not ended.
	IsRunning = `m.rowid_ IN (SELECT rowid_ FROM running) AND NOT EXISTS (SELECT 1 FROM results e WHERE e.match_rowid = m.rowid_)`
	// RunningIDs selects the ids of the matches that have not ended.
	RunningIDs = `SELECT m.id FROM matches m WHERE ` + IsRunning
	// EndedIDs selects the ids of the matches that have a result.
	EndedIDs = `SELECT m.id FROM matches m JOIN results r ON r.match_rowid = m.rowid_`
	// WithResults is the matches (aliased m) with the results (r) of those that ended.
	WithResults = `matches m LEFT JOIN results r ON r.match_rowid = m.rowid_`
)
