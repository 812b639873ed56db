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
	"math/bits"
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

// creation is a CreateMatch call waiting for its transaction.
type creation struct {
	ctx  context.Context
	m    *Match
	err  chan error    // its answer, once its match is committed or has failed
	lead chan struct{} // closed when it is to write the calls queued
}

// CreateMatch stores a new match, and its seats' token hashes in the index of tokens. It
// returns once the match is committed. Calls made while another is writing wait, and are
// then written together in one transaction by the first of them: a commit costs more than
// a match's rows, and many clients (or the ladder) create at once.
func (d *DB) CreateMatch(ctx context.Context, m *Match) error {
	c := &creation{ctx: ctx, m: m, err: make(chan error, 1), lead: make(chan struct{})}
	d.createMu.Lock()
	d.creating = append(d.creating, c)
	leads := !d.createBusy
	d.createBusy = true
	d.createMu.Unlock()
	if !leads {
		select {
		case err := <-c.err:
			return err
		case <-c.lead:
		}
	}
	d.createMu.Lock()
	queued := d.creating
	d.creating = nil
	d.createMu.Unlock()
	d.createAll(queued)
	d.createMu.Lock()
	if len(d.creating) > 0 {
		close(d.creating[0].lead) // who came meanwhile: the first writes them, not this caller
	} else {
		d.createBusy = false
	}
	d.createMu.Unlock()
	return <-c.err
}

// createAll writes queued creations in one transaction (in the context of the first, the
// caller writing them) and answers each; if that fails, each in its own, so that each
// caller hears of its own match only (a duplicate id, its own context ended).
func (d *DB) createAll(queued []*creation) {
	if len(queued) > 1 {
		if err := d.createTx(queued[0].ctx, queued); err == nil {
			for _, c := range queued {
				c.err <- nil
			}
			return
		}
	}
	for _, c := range queued {
		c.err <- d.createTx(c.ctx, []*creation{c})
	}
}

// createTx stores the matches of queued in one transaction.
func (d *DB) createTx(ctx context.Context, queued []*creation) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	insert, err := d.prepared(ctx, tx, createQuery)
	if err != nil {
		return err
	}
	running, err := d.prepared(ctx, tx, runningQuery)
	if err != nil {
		return err
	}
	rowids := make([]int64, len(queued))
	for i, c := range queued {
		m := c.m
		err = insert.QueryRowContext(ctx,
			m.ID, m.Game, m.Seats, JSON(m.Options), fmt.Sprint(m.Seed), m.SeedSalt, m.SeedHash, JSON(m.Names),
			JSON(m.TokenHashes), int64(m.PerMove), int64(m.Increment), int64(m.TimeBank), m.WallClock, m.TimeoutPolicy,
			m.Created.UnixNano(), JSON(botsText(m.Bots)), m.CreatorHash, JSON(houseBotsText(m.HouseBots, m.Seats))).Scan(&rowids[i])
		if err != nil {
			return err
		}
		if _, err := running.ExecContext(ctx, rowids[i]); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	d.createTxs.Add(1)
	d.nextMu.Lock()
	for i, c := range queued {
		d.rowids[c.m.ID] = rowids[i]
	}
	d.nextMu.Unlock()
	return nil
}

// AppendSteps appends steps to a match's action log, in one transaction.
func (d *DB) AppendSteps(ctx context.Context, matchID string, steps []Step) error {
	batch := make([]MatchStep, len(steps))
	for i, s := range steps {
		batch[i] = MatchStep{Match: matchID, Step: s}
	}
	return d.AppendStepBatch(ctx, batch)
}

// MatchStep is one step of one match's log.
type MatchStep struct {
	Match string
	Step
}

// AppendStepBatch appends the steps of many matches in one transaction, in the order
// given: a server running many matches commits once per batch, not once per match.
func (d *DB) AppendStepBatch(ctx context.Context, batch []MatchStep) error {
	return d.WriteBatch(ctx, Batch{Steps: batch})
}

// FinishMatch records a match's result.
func (d *DB) FinishMatch(ctx context.Context, matchID string, ended time.Time, r *Result) error {
	return d.FinishMatchTx(ctx, nil, matchID, ended, r)
}

// FinishMatchTx records a match's result inside tx (or on its own if tx is nil).
func (d *DB) FinishMatchTx(ctx context.Context, tx *sql.Tx, matchID string, ended time.Time, r *Result) error {
	if tx == nil {
		return d.WriteBatch(ctx, Batch{Results: []Finish{{Match: matchID, Ended: ended, Result: r}}})
	}
	return d.finishTx(ctx, tx, []Finish{{Match: matchID, Ended: ended, Result: r}})
}

// finishTx records the results of a batch inside tx. Its statements are bound to tx once,
// not once a result; the results go in INSERTs of up to maxFinishRows rows, and the leases
// (if any may exist) unleaseChunk at a time: a thousand matches end a few hundred times a
// second, and each statement run costs as much as the row it writes.
func (d *DB) finishTx(ctx context.Context, tx *sql.Tx, results []Finish) error {
	args := make([]any, 0, finishColumns*len(results))
	for _, f := range results {
		rowid, err := d.rowidTx(ctx, tx, f.Match)
		if err != nil {
			return err
		}
		var reason int32
		if f.Result != nil {
			reason = f.Result.Reason
		}
		// One INSERT may not give a row two results (PostgreSQL refuses it): the last given
		// stands, as it did when each had a statement of its own.
		at := len(args)
		for i := 0; i < len(args); i += finishColumns {
			if args[i] == any(rowid) {
				at = i
				break
			}
		}
		if at == len(args) {
			args = append(args, nil, nil, nil, nil)
		}
		args[at], args[at+1], args[at+2], args[at+3] = rowid, f.Ended.UnixNano(), reason, JSON(f.Result)
	}
	for len(args) > 0 {
		// The most rows of a prepared statement: as many as are left, or a power of two.
		i := bits.Len(uint(min(len(args)/finishColumns, maxFinishRows))) - 1
		n := 1 << i
		finish, err := d.prepared(ctx, tx, finishQueries[i])
		if err != nil {
			return err
		}
		if _, err := finish.ExecContext(ctx, args[:n*finishColumns]...); err != nil {
			return fmt.Errorf("store: results of %d matches: %w", n, err)
		}
		args = args[n*finishColumns:]
	}
	if !d.leasing.Load() {
		return nil
	}
	unlease, err := d.prepared(ctx, tx, unleaseQuery)
	if err != nil {
		return err
	}
	args = make([]any, unleaseChunk)
	for len(results) > 0 {
		n := min(len(results), unleaseChunk)
		for i := range args {
			args[i] = results[min(i, n-1)].Match // a short chunk names its last match again
		}
		if _, err := unlease.ExecContext(ctx, args...); err != nil {
			return err
		}
		results = results[n:]
	}
	return nil
}

// rowidTx is match's rowid_: remembered if this store created it, else read inside tx.
func (d *DB) rowidTx(ctx context.Context, tx *sql.Tx, match string) (int64, error) {
	d.nextMu.Lock()
	rowid, ok := d.rowids[match]
	d.nextMu.Unlock()
	if ok {
		return rowid, nil
	}
	err := tx.QueryRowContext(ctx, `SELECT rowid_ FROM matches WHERE id = ?`, match).Scan(&rowid)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("store: finish %s: %w", match, ErrNotFound)
	}
	return rowid, err
}

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

func scanMatch(row interface{ Scan(...any) error }) (*Match, int64, error) {
	var (
		m                            Match
		options, seed, names, tokens string
		bots, houseBots              string
		perMove, increment, bank, cr int64
		ended                        int64
		result                       sql.NullString
		rowid                        int64
	)
	if err := row.Scan(&m.ID, &m.Game, &m.Seats, &options, &seed, &m.SeedSalt, &m.SeedHash, &names, &tokens, &perMove,
		&increment, &bank, &m.WallClock, &m.TimeoutPolicy, &cr, &ended, &result, &bots, &m.CreatorHash, &houseBots, &rowid); err != nil {
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
	var err error
	if m.Bots, err = botsOf(bots); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal([]byte(houseBots), &m.HouseBots); err != nil {
		return nil, 0, err
	}
	if !slices.ContainsFunc(m.HouseBots, func(b string) bool { return b != "" }) {
		m.HouseBots = nil
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
	m, _, err := scanMatch(d.db.QueryRowContext(ctx, `SELECT `+matchColumns+` FROM `+WithResults+` WHERE m.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("match %q: %w", id, ErrNotFound)
	}
	return m, err
}

// Steps loads a match's action log in order, from the three places its steps may be
// (steplog.go). The log is read first: a compaction between the reads moves steps from it
// to the runs, never back.
func (d *DB) Steps(ctx context.Context, id string) ([]Step, error) {
	logged, err := d.loggedSteps(ctx, id)
	if err != nil {
		return nil, err
	}
	runs, err := d.runSteps(ctx, id)
	if err != nil {
		return nil, err
	}
	stored, err := d.storedSteps(ctx, id)
	if err != nil {
		return nil, err
	}
	return mergeSteps(append(stored, runs...), logged), nil
}

// storedSteps are a match's steps in the steps table (written before the step log), in order.
func (d *DB) storedSteps(ctx context.Context, id string) ([]Step, error) {
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

// MatchByToken is the match that has a seat whose token hashes to tokenHash (hex), running,
// ended or failed, so that a seat of a match no longer in memory (ended, or failed at a
// restart) is told what became of it; ErrNotFound otherwise. matchID is the match the token
// names (a token is MATCH_ID.SECRET), "" for a token that names none: those issued before
// that format are found by their hash in seat_tokens, which new matches no longer fill (four
// rows keyed by random hashes, each a page written: three in four of the pages of creating
// a match).
func (d *DB) MatchByToken(ctx context.Context, matchID, tokenHash string) (*Match, error) {
	if matchID != "" {
		m, err := d.Match(ctx, matchID)
		if err == nil && slices.Contains(m.TokenHashes, tokenHash) {
			return m, nil
		}
		if err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	m, _, err := scanMatch(d.db.QueryRowContext(ctx, `SELECT `+matchColumns+` FROM `+WithResults+`
		WHERE m.id IN (SELECT match_id FROM seat_tokens WHERE token_hash = ?)`, tokenHash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return m, err
}

// Unfinished lists the matches that have no result, oldest first, for resuming after a restart.
func (d *DB) Unfinished(ctx context.Context) ([]*Match, error) {
	return d.query(ctx, `SELECT `+matchColumns+` FROM `+WithResults+` WHERE `+IsRunning+` ORDER BY m.rowid_`)
}

// List lists matches newest first, and the page token of the next page ("" at the end).
func (d *DB) List(ctx context.Context, f Filter) ([]*Match, string, error) {
	var where []string
	var args []any
	if f.Game != "" {
		where = append(where, "m.game = ?")
		args = append(args, f.Game)
	}
	switch f.Status {
	case Running:
		where = append(where, IsRunning)
	case Finished:
		where = append(where, fmt.Sprintf("r.reason != %d", ReasonFailed))
	case Failed:
		where = append(where, fmt.Sprintf("r.reason = %d", ReasonFailed))
	}
	if f.SeatName != "" {
		where = append(where, d.hasElement("names"))
		args = append(args, f.SeatName)
	}
	if f.Bot != 0 {
		where = append(where, d.hasElement("bots"))
		args = append(args, strconv.FormatInt(f.Bot, 10))
	}
	if f.Before != "" {
		where = append(where, "m.rowid_ < (SELECT rowid_ FROM matches WHERE id = ?)")
		args = append(args, f.Before)
	}
	q := `SELECT ` + matchColumns + ` FROM ` + WithResults
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	q += fmt.Sprintf(" ORDER BY m.rowid_ DESC LIMIT %d", f.Limit+1)
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
