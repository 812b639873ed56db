package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// The step log (migration 00005): the writer's steps go to step_log, one row per
// transaction holding the batch's steps of every match, packed in the order played. A step
// row per step cost a page written for every match in the batch (the steps table is ordered
// by match, and a busy server's batch holds a step or two of each of a thousand matches,
// each on a page of its own); a log row is a few pages written one after another. Every
// compactAfter steps the log is emptied, in the same transaction as a batch, into
// step_runs: one row per match holding its steps logged since the last compaction, packed
// the same way; and when the store opens and closes. The runs are appended one after
// another (migration 00006), found by a small index on (match, seq): keyed by match, each
// run went into its match's page, a page written per match at every compaction. A match's
// log is what steps (rows written before the step log), step_runs and step_log hold
// together (Steps).

// compactAfter is how many steps this store logs before it empties the log into runs:
// enough that each of a thousand running matches has a few dozen steps in its run, few
// enough that reading the log whole (Steps of a running match) stays cheap.
const compactAfter = 32 << 10

// Batch is one transaction of the writer: steps of many matches, in the order played, and
// the results of matches that ended; all are stored or none.
type Batch struct {
	Steps   []MatchStep
	Results []Finish
}

// Finish is a match's result in a Batch.
type Finish struct {
	Match  string
	Ended  time.Time
	Result *Result
}

// WriteBatch stores b in one transaction: a server running many matches commits once per
// batch of its writer, not once per match or result. A batch with a step numbered below
// one this store has written for its match is refused whole.
func (d *DB) WriteBatch(ctx context.Context, b Batch) error {
	if err := d.checkNext(b.Steps); err != nil {
		return err
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	compacted, err := d.writeTx(ctx, tx, b)
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	d.written(b)
	d.logged(len(b.Steps), compacted)
	return nil
}

// ErrStepWritten is a step numbered below one already written for its match.
var ErrStepWritten = errors.New("store: a step of that number is written already")

// checkNext refuses steps numbered below the next this store expects of their matches. The
// step log cannot refuse a step stored twice as the steps table's key did (that would cost
// a read of the table per match); a step numbered twice comes from a writer that lost
// count, and the store's own writes are where it shows. Another node writing the same
// match is what the leases' fence prevents (WriteLeasedBatch).
func (d *DB) checkNext(steps []MatchStep) error {
	d.nextMu.Lock()
	defer d.nextMu.Unlock()
	for _, s := range steps {
		if next, ok := d.next[s.Match]; ok && s.Seq < next {
			return fmt.Errorf("%w: step %d of %s (next is %d)", ErrStepWritten, s.Seq, s.Match, next)
		}
	}
	return nil
}

// written notes what a committed batch wrote: the next step of each match, forgotten
// once the match has its result.
func (d *DB) written(b Batch) {
	d.nextMu.Lock()
	defer d.nextMu.Unlock()
	for _, s := range b.Steps {
		d.next[s.Match] = max(d.next[s.Match], s.Seq+1)
	}
	for _, f := range b.Results {
		delete(d.next, f.Match)
	}
}

// writeTx writes b inside tx, and reports whether it compacted the log.
func (d *DB) writeTx(ctx context.Context, tx *sql.Tx, b Batch) (compacted bool, err error) {
	if len(b.Steps) > 0 {
		if d.sinceCompaction.Load()+int64(len(b.Steps)) >= d.compactAfter {
			compacted, err = d.compactTx(ctx, tx, b.Steps, false)
		}
		if err == nil && !compacted {
			err = d.logStepsTx(ctx, tx, b.Steps)
		}
		if err != nil {
			return false, err
		}
	}
	if len(b.Results) > 0 {
		if err := d.finishTx(ctx, tx, b.Results); err != nil {
			return false, err
		}
	}
	return compacted, nil
}

// logged counts n steps committed to the log, or none left in it after a compaction.
func (d *DB) logged(n int, compacted bool) {
	if compacted {
		d.sinceCompaction.Store(0)
	} else {
		d.sinceCompaction.Add(int64(n))
	}
}

// logStepsTx appends steps to the step log as one row.
func (d *DB) logStepsTx(ctx context.Context, tx *sql.Tx, steps []MatchStep) error {
	insert, err := d.prepared(ctx, tx, `INSERT INTO step_log (steps) VALUES (?)`)
	if err != nil {
		return err
	}
	if _, err := insert.ExecContext(ctx, packSteps(steps)); err != nil {
		return fmt.Errorf("store: log the steps of %s to %s: %w", steps[0].Match, steps[len(steps)-1].Match, err)
	}
	return nil
}

// Compact empties the step log into runs, unless another node of the cluster is doing so.
// The store compacts by itself as it writes, when it opens and when it closes.
func (d *DB) Compact(ctx context.Context) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	compacted, err := d.compactTx(ctx, tx, nil, false)
	if err != nil || !compacted {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	d.logged(0, true)
	return nil
}

// compactLock is the PostgreSQL advisory lock a compaction holds, so that nodes compact one
// at a time: two DELETEs of the same rows in different orders could deadlock.
const compactLock int64 = 0x6f72726572790005

// forget drops what written noted of matches this store no longer writes.
func (d *DB) forget(matches []string) {
	d.nextMu.Lock()
	defer d.nextMu.Unlock()
	for _, m := range matches {
		delete(d.next, m)
	}
}

// compactTx empties the step log into runs, with more steps not yet logged, inside tx. On
// PostgreSQL it reports false and does nothing if another node is compacting, unless wait.
// Rows of the log another node commits meanwhile are not seen, and stay for the next
// compaction.
//
// Two steps with one number (which only two writers of one match could log, and the
// leases' fence and checkNext prevent) keep the first logged, as Steps reads them; a run
// starting at a step already in a run is dropped. Failing on them would fail at every write
// and every start from then on.
func (d *DB) compactTx(ctx context.Context, tx *sql.Tx, more []MatchStep, wait bool) (bool, error) {
	if d.dialect == Postgres {
		lock := `SELECT pg_try_advisory_xact_lock(?)`
		if wait {
			lock = `SELECT true FROM (SELECT pg_advisory_xact_lock(?)) l`
		}
		var locked bool
		if err := tx.QueryRowContext(ctx, lock, compactLock).Scan(&locked); err != nil {
			return false, fmt.Errorf("store: lock the step log: %w", err)
		}
		if !locked {
			return false, nil
		}
	}
	return true, d.emptyLogTx(ctx, tx, more)
}

func (d *DB) emptyLogTx(ctx context.Context, tx *sql.Tx, more []MatchStep) error {
	rows, err := tx.QueryContext(ctx, `DELETE FROM step_log RETURNING id, steps`)
	if err != nil {
		return fmt.Errorf("store: compact the step log: %w", err)
	}
	type logRow struct {
		id     int64
		packed []byte
	}
	var log []logRow
	for rows.Next() {
		var r logRow
		if err := rows.Scan(&r.id, &r.packed); err != nil {
			rows.Close()
			return err
		}
		log = append(log, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	slices.SortFunc(log, func(a, b logRow) int { return cmp.Compare(a.id, b.id) }) // RETURNING has no order
	if len(more) > 0 {
		log = append(log, logRow{packed: packSteps(more)})
	}
	// Each match's steps in the order logged, still packed: a run is their bytes put
	// together. They are put in order by match in one slice (a counting sort): appended to
	// a slice per match, each slice grew several times over a compaction.
	type logged struct {
		match int32 // the index of its match in ids
		packedStep
	}
	var all []logged
	index := make(map[string]int32)
	var ids []string
	for _, r := range log {
		err := eachPacked(r.packed, func(match, step []byte) bool {
			m, known := index[string(match)]
			if !known {
				m = int32(len(ids))
				ids = append(ids, string(match))
				index[ids[m]] = m
			}
			seq, ok := stepNumber(step)
			all = append(all, logged{match: m, packedStep: packedStep{seq: seq, bytes: step}})
			return ok
		})
		if err != nil {
			return fmt.Errorf("store: compact the step log, row %d: %w", r.id, err)
		}
	}
	ends := make([]int, len(ids)) // where each match's steps end in ordered
	for _, l := range all {
		ends[l.match]++
	}
	for m := 1; m < len(ends); m++ {
		ends[m] += ends[m-1]
	}
	ordered := make([]packedStep, len(all))
	for i := len(all) - 1; i >= 0; i-- { // from the last, so that each match's stay in order
		ends[all[i].match]--
		ordered[ends[all[i].match]] = all[i].packedStep
	}
	runs := make(map[string][]packedStep, len(ids))
	for m, id := range ids {
		end := len(ordered)
		if m+1 < len(ids) {
			end = ends[m+1]
		}
		runs[id] = ordered[ends[m]:end:end]
	}
	return d.insertRunsTx(ctx, tx, runs)
}

// packedStep is a step as packed, without its match id.
type packedStep struct {
	seq   int64
	bytes []byte // its body, with the body's length before it
}

// stepNumber is the number of a packed step.
func stepNumber(step []byte) (int64, bool) {
	body, _, ok := chunk(step)
	seq, _, ok := number(body, ok)
	return seq, ok
}

// insertRunsTx inserts one run per match, of its steps in order.
func (d *DB) insertRunsTx(ctx context.Context, tx *sql.Tx, runs map[string][]packedStep) error {
	args := make([]any, 0, runsPerInsert*3)
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		var err error
		if n := len(args) / 3; n == runsPerInsert {
			var full *sql.Stmt
			if full, err = d.prepared(ctx, tx, d.insertRuns(n)); err == nil {
				_, err = full.ExecContext(ctx, args...)
			}
		} else {
			_, err = tx.ExecContext(ctx, d.insertRuns(n), args...)
		}
		if err != nil {
			return fmt.Errorf("store: runs of %s to %s: %w", args[0], args[len(args)-3], err)
		}
		args = args[:0]
		return nil
	}
	// In the order of the index, so that neighbouring entries share its pages.
	for _, match := range slices.Sorted(maps.Keys(runs)) {
		steps := runs[match]
		bySeq := func(a, b packedStep) int { return cmp.Compare(a.seq, b.seq) }
		if !slices.IsSortedFunc(steps, bySeq) { // logged in order unless written twice
			slices.SortStableFunc(steps, bySeq)
		}
		n := 1
		for _, s := range steps {
			n += 1 + len(s.bytes)
		}
		run := make([]byte, 1, n)
		run[0] = stepsFormat
		for i, s := range steps {
			if i > 0 && s.seq == steps[i-1].seq {
				continue // of two with one number, the first
			}
			run = append(run, 0) // no match id: the row names it
			run = append(run, s.bytes...)
		}
		args = append(args, match, steps[0].seq, run)
		if len(args) == cap(args) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// runsPerInsert is the rows of one INSERT statement of runs.
const runsPerInsert = 128

func (d *DB) insertRuns(n int) string {
	var b strings.Builder
	// OR IGNORE, as compactTx says; in SQLite it also spares the statement journal that
	// undoing a failed statement's earlier rows needs (a fifth of an insert's cost).
	if d.dialect == SQLite {
		b.WriteString("INSERT OR IGNORE")
	} else {
		b.WriteString("INSERT")
	}
	b.WriteString(" INTO step_runs (match_id, seq, steps) VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?,?,?)")
	}
	if d.dialect == Postgres {
		b.WriteString(" ON CONFLICT DO NOTHING")
	}
	return b.String()
}

// runSteps are a match's steps in runs, in order.
func (d *DB) runSteps(ctx context.Context, match string) ([]Step, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT steps FROM step_runs WHERE match_id = ? ORDER BY seq`, match)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []MatchStep
	for rows.Next() {
		var packed []byte
		if err := rows.Scan(&packed); err != nil {
			return nil, err
		}
		if found, err = unpackSteps(found, packed, ""); err != nil {
			return nil, err
		}
	}
	return withoutMatch(found), rows.Err()
}

// loggedSteps are match's steps still in the step log, in order.
func (d *DB) loggedSteps(ctx context.Context, match string) ([]Step, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT steps FROM step_log ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []MatchStep
	for rows.Next() {
		var packed []byte
		if err := rows.Scan(&packed); err != nil {
			return nil, err
		}
		if found, err = unpackSteps(found, packed, match); err != nil {
			return nil, err
		}
	}
	return withoutMatch(found), rows.Err()
}

func withoutMatch(steps []MatchStep) []Step {
	out := make([]Step, len(steps))
	for i, s := range steps {
		out[i] = s.Step
	}
	return out
}

// mergeSteps is a match's log from its stored steps (rows and runs) and those still in the
// step log, in order. A compaction between the reads can show a step in both: it is read
// once. Of two steps with one number the first stored is kept, as compactTx keeps it.
func mergeSteps(stored, logged []Step) []Step {
	if len(logged) == 0 {
		return stored
	}
	all := append(stored, logged...)
	slices.SortStableFunc(all, func(a, b Step) int { return cmp.Compare(a.Seq, b.Seq) })
	out := all[:0]
	for _, s := range all {
		if n := len(out); n == 0 || out[n-1].Seq != s.Seq {
			out = append(out, s)
		}
	}
	return out
}

// stepsFormat is the first byte of a packed batch, so that the format can change.
const stepsFormat = 1

// packSteps packs steps into a step log row or a run: after the format byte, each step as
// its match id ("" in a run) and its body, each prefixed with its length, so that a reader
// looking for one match skips the others' steps whole. A body is the step's number and seat
// (varints), notation (length-prefixed), timeout policy and bank (varints).
func packSteps(steps []MatchStep) []byte {
	n := 1
	for _, s := range steps {
		n += len(s.Match) + len(s.Notation) + 26
	}
	b := make([]byte, 1, n)
	b[0] = stepsFormat
	var body []byte
	for _, s := range steps {
		b = binary.AppendUvarint(b, uint64(len(s.Match)))
		b = append(b, s.Match...)
		body = binary.AppendVarint(body[:0], s.Seq)
		body = binary.AppendVarint(body, int64(s.Seat))
		body = binary.AppendUvarint(body, uint64(len(s.Notation)))
		body = append(body, s.Notation...)
		body = binary.AppendVarint(body, int64(s.TimedOut))
		body = binary.AppendVarint(body, int64(s.Bank))
		b = binary.AppendUvarint(b, uint64(len(body)))
		b = append(b, body...)
	}
	return b
}

var errPacked = errors.New("store: a step log row is damaged")

// unpackSteps appends the steps packed in b to out: all of them, or those of match only
// if it is not "".
func unpackSteps(out []MatchStep, b []byte, match string) ([]MatchStep, error) {
	var last string // a batch often holds a match's steps one after another: one string each
	err := eachPacked(b, func(id, step []byte) bool {
		if match != "" && string(id) != match {
			return true
		}
		s, ok := unpackStep(step)
		if !ok {
			return false
		}
		if string(id) != last {
			last = string(id)
		}
		out = append(out, MatchStep{Match: last, Step: s})
		return true
	})
	return out, err
}

// unpackStep reads a step's body, with its length before it.
func unpackStep(b []byte) (Step, bool) {
	b, _, ok := chunk(b)
	seq, b, ok1 := number(b, ok)
	seat, b, ok2 := number(b, ok1)
	notation, b, ok3 := chunk(b)
	timedOut, b, ok4 := number(b, ok2 && ok3)
	bank, b, ok5 := number(b, ok4)
	return Step{Seq: seq, Seat: int(seat), Notation: string(notation), TimedOut: int32(timedOut), Bank: time.Duration(bank)},
		ok5 && len(b) == 0
}

// eachPacked calls f with each step packed in b: its match id, and its body with the
// body's length before it, until f returns false (a damaged step).
func eachPacked(b []byte, f func(match, step []byte) bool) error {
	if len(b) == 0 || b[0] != stepsFormat {
		return errPacked
	}
	b = b[1:]
	for len(b) > 0 {
		match, rest, ok := chunk(b)
		if !ok {
			return errPacked
		}
		_, after, ok := chunk(rest)
		if !ok || !f(match, rest[:len(rest)-len(after)]) {
			return errPacked
		}
		b = after
	}
	return nil
}

// chunk splits the bytes prefixed with their length off the front of b.
func chunk(b []byte) (v, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return nil, nil, false
	}
	return b[k : k+int(n)], b[k+int(n):], true
}

// number splits a varint off the front of b, if ok so far.
func number(b []byte, ok bool) (int64, []byte, bool) {
	v, k := binary.Varint(b)
	if !ok || k <= 0 {
		return 0, nil, false
	}
	return v, b[k:], true
}
