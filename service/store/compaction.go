package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

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
		delete(d.rowids, m)
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
	if err := d.emptyLogTx(ctx, tx, more); err != nil {
		return true, err
	}
	// The matches that ended since the last compaction leave running now, in one statement
	// over a small table, not each in the batch of its result (see IsRunning).
	if _, err := tx.ExecContext(ctx, `DELETE FROM running WHERE EXISTS (SELECT 1 FROM results r WHERE r.match_rowid = running.rowid_)`); err != nil {
		return true, fmt.Errorf("store: forget the ended matches among the running ones: %w", err)
	}
	return true, nil
}

// compaction is what a compaction reads and sorts. Each slice is made at its size (grown
// from nothing, they were copied a dozen times over, a third of a compaction's time), and
// steps are placed in one copy of the log, not slices of it. The buffers are kept for the
// next compaction (DB.kept): made anew, they were most of what a stored server allocates
// beyond an unstored one, megabytes at a time, and each such allocation brings the
// collector's next cycle closer, for the whole server.
type compaction struct {
	packed  []byte // the log's rows, one after another
	rows    []logRow
	all     []logged     // each step logged, in the order logged
	ordered []packedStep // the same, by match
	ends    []int        // where each match's steps end in ordered
	index   map[string]int32
	ids     []string // the matches, in the order first logged

	// insertRunsTx's buffers
	byMatch []int32
	args    []any
	runs    []byte
	spans   []int
}

// The buffers kept from one compaction to the next are made at these sizes, the most a
// compaction of an arena's log needs (compactAfter steps of a few dozen bytes, and a
// writer's batch beyond them), and a compaction that needs more makes its own and lets
// them go: kept at the size of the largest compaction so far, the buffers of a server
// that once emptied a long log (at a start after a crash) would hold its memory for good,
// and grow by steps, as a leak does. maxKeptRuns is the same for the runs of one INSERT.
const (
	keptLogBytes = compactAfter * 48
	keptSteps    = compactAfter + compactAfter/4
	maxKeptRuns  = 256 << 10
)

// KeptBytes is the most the buffers kept between compactions hold: memory a server may
// gain or give back from one compaction to the next (none are kept before the first, a
// compaction larger than they are lets them go, and the next makes them again), which a
// test of a server's memory must not read as a leak.
const KeptBytes = keptLogBytes + keptSteps*int(unsafe.Sizeof(logged{})+unsafe.Sizeof(packedStep{})) + maxKeptRuns

// takeCompaction returns the kept buffers, emptied, or new ones; the caller holds
// compactMu.
func (d *DB) takeCompaction() *compaction {
	c := d.kept
	if c == nil {
		return &compaction{index: make(map[string]int32)}
	}
	d.kept = nil
	c.packed, c.rows, c.all, c.ordered = c.packed[:0], c.rows[:0], c.all[:0], c.ordered[:0]
	c.ends, c.ids, c.byMatch = c.ends[:0], c.ids[:0], c.byMatch[:0]
	c.args, c.runs, c.spans = c.args[:0], c.runs[:0], c.spans[:0]
	return c
}

// keepCompaction keeps c's buffers for the next compaction, but those past their kept
// size, and nothing they point to: the ids would keep the strings of ended matches alive.
func (d *DB) keepCompaction(c *compaction) {
	if cap(c.packed) > keptLogBytes {
		c.packed = nil
	}
	if cap(c.all) > keptSteps || cap(c.ordered) > keptSteps {
		c.all, c.ordered = nil, nil
	}
	if cap(c.runs) > maxKeptRuns {
		c.runs = nil
	}
	clear(c.ids[:cap(c.ids)])
	clear(c.args[:cap(c.args)])
	clear(c.index)
	d.kept = c
}

// grown is s emptied with room for n: s itself if it has it, else a new slice of the kept
// size (or of n, past it).
func grown[S ~[]E, E any](s S, n, kept int) S {
	if cap(s) >= n {
		return s[:0]
	}
	return make(S, 0, max(n, kept))
}

// logRow is a row of the step log, packed[start:end] of its compaction.
type logRow struct {
	id         int64
	start, end int
}

// logged is a step as compacted, and the index of its match in ids.
type logged struct {
	packedStep
	match int32
}

// packedStep is a step as packed, without its match id: its body, with the body's length
// before it, is packed[at:at+n] of its compaction.
type packedStep struct {
	seq   int64
	at, n uint32
}

// maxCompaction is the most bytes of log one compaction reads: steps are placed in it by
// 32-bit offsets. A log that large is thousands of times compactAfter.
const maxCompaction = 1<<32 - 1

func (d *DB) emptyLogTx(ctx context.Context, tx *sql.Tx, more []MatchStep) error {
	rows, err := tx.QueryContext(ctx, `DELETE FROM step_log RETURNING id, steps`)
	if err != nil {
		return fmt.Errorf("store: compact the step log: %w", err)
	}
	d.compactMu.Lock()
	defer d.compactMu.Unlock()
	c := d.takeCompaction()
	defer d.keepCompaction(c)
	// What this store logged is most of the log (in a cluster, other nodes' rows are there
	// too), and the rows are copied once, into one slice of about that size.
	c.packed = grown(c.packed, int(d.logBytes.Load()+int64(len(more))*64), keptLogBytes)
	for rows.Next() {
		var id int64
		var packed sql.RawBytes
		if err := rows.Scan(&id, &packed); err != nil {
			rows.Close()
			return err
		}
		start := len(c.packed)
		c.packed = append(c.packed, packed...)
		c.rows = append(c.rows, logRow{id: id, start: start, end: len(c.packed)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	slices.SortFunc(c.rows, func(a, b logRow) int { return cmp.Compare(a.id, b.id) }) // RETURNING has no order
	if len(more) > 0 {
		start := len(c.packed)
		c.packed = appendPacked(c.packed, more)
		c.rows = append(c.rows, logRow{start: start, end: len(c.packed)})
	}
	if len(c.packed) > maxCompaction {
		return fmt.Errorf("store: compact the step log: %d bytes, more than one compaction reads", len(c.packed))
	}
	// Each match's steps in the order logged, still packed: a run is their bytes put
	// together. They are put in order by match in one slice (a counting sort): appended to
	// a slice per match, each slice grew several times over a compaction.
	c.all = grown(c.all, int(d.sinceCompaction.Load())+len(more), keptSteps)
	for _, r := range c.rows {
		err := eachPacked(c.packed[r.start:r.end], func(match, step []byte) bool {
			m, known := c.index[string(match)]
			if !known {
				m = int32(len(c.ids))
				c.ids = append(c.ids, string(match))
				c.index[c.ids[m]] = m
			}
			seq, ok := stepNumber(step)
			at := cap(c.packed) - cap(step) // step lies in packed, its capacity running to packed's end
			c.all = append(c.all, logged{packedStep: packedStep{seq: seq, at: uint32(at), n: uint32(len(step))}, match: m})
			return ok
		})
		if err != nil {
			return fmt.Errorf("store: compact the step log, row %d: %w", r.id, err)
		}
	}
	c.ends = append(c.ends, make([]int, len(c.ids))...)
	for _, l := range c.all {
		c.ends[l.match]++
	}
	for m := 1; m < len(c.ends); m++ {
		c.ends[m] += c.ends[m-1]
	}
	c.ordered = grown(c.ordered, len(c.all), keptSteps)[:len(c.all)]
	for i := len(c.all) - 1; i >= 0; i-- { // from the last, so that each match's stay in order
		c.ends[c.all[i].match]--
		c.ordered[c.ends[c.all[i].match]] = c.all[i].packedStep
	}
	return d.insertRunsTx(ctx, tx, c)
}

// stepNumber is the number of a packed step.
func stepNumber(step []byte) (int64, bool) {
	body, _, ok := chunk(step)
	seq, _, ok := number(body, ok)
	return seq, ok
}

// insertRunsTx inserts one run per match of c, of its steps in order.
func (d *DB) insertRunsTx(ctx context.Context, tx *sql.Tx, c *compaction) error {
	args := grown(c.args, runsPerInsert*3, runsPerInsert*3)
	runs := c.runs[:0]   // the runs of one INSERT, one after another, for the drivers to copy
	spans := c.spans[:0] // where each run of args ends in runs
	defer func() { c.args, c.runs, c.spans = args, runs, spans }()
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		start := 0
		for i, end := range spans { // now that runs has stopped growing
			args[3*i+2] = runs[start:end:end]
			start = end
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
		args, runs, spans = args[:0], runs[:0], spans[:0]
		return nil
	}
	// In the order of the index, so that neighbouring entries share its pages.
	byMatch := c.byMatch[:0]
	for m := range c.ids {
		byMatch = append(byMatch, int32(m))
	}
	c.byMatch = byMatch
	slices.SortFunc(byMatch, func(a, b int32) int { return strings.Compare(c.ids[a], c.ids[b]) })
	bySeq := func(a, b packedStep) int { return cmp.Compare(a.seq, b.seq) }
	for _, m := range byMatch {
		end := len(c.ordered)
		if int(m)+1 < len(c.ids) {
			end = c.ends[m+1]
		}
		steps := c.ordered[c.ends[m]:end:end]
		if !slices.IsSortedFunc(steps, bySeq) { // logged in order unless written twice
			slices.SortStableFunc(steps, bySeq)
		}
		runs = append(runs, stepsFormat)
		for i, s := range steps {
			if i > 0 && s.seq == steps[i-1].seq {
				continue // of two with one number, the first
			}
			runs = append(runs, 0) // no match id: the row names it
			runs = append(runs, c.packed[s.at:s.at+s.n]...)
		}
		args = append(args, c.ids[m], steps[0].seq, nil)
		spans = append(spans, len(runs))
		if len(args) == runsPerInsert*3 {
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
