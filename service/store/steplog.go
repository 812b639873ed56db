package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sync"
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
		delete(d.rowids, f.Match)
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
		d.logBytes.Store(0)
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
	buf := packBufs.Get().(*[]byte)
	defer packBufs.Put(buf)
	*buf = appendPacked((*buf)[:0], steps)
	if _, err := insert.ExecContext(ctx, *buf); err != nil {
		return fmt.Errorf("store: log the steps of %s to %s: %w", steps[0].Match, steps[len(steps)-1].Match, err)
	}
	d.logBytes.Add(int64(len(*buf))) // a guess at what the next compaction reads: counted before the commit
	return nil
}

// packBufs are buffers steps are packed into to be logged: the drivers copy what they are
// given before Exec returns, and a batch's row is thousands of bytes, made a few hundred
// times a second.
var packBufs = sync.Pool{New: func() any { return new([]byte) }}

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
