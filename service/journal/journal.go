// Package journal is the batching log writer: it persists the steps and results of every
// match off the decision path, one transaction per drained batch, in order.
package journal

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	otelcodes "go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/tracing"
)

// Store is what the writer needs of the store: the boundary at which tests inject write
// failures (a full disk).
type Store interface {
	WriteBatch(ctx context.Context, b store.Batch) error
}

// Writer persists action logs off the decision path: one goroutine drains a queue and
// writes each drained batch, steps and results of every match in it, in one transaction, in
// order, so a match's result is never written before its last step. Tokens and seeds never
// pass through here as log lines.
//
// A write that fails is retried, in order, until it succeeds: nothing queued is dropped
// while the server runs. health hears of the first failure and of the recovery, so the
// server can pause its matches meanwhile; done callbacks run once their write is committed.
type Writer struct {
	db     Store
	log    *slog.Logger
	health func(err error) // nil err: writes work again
	wake   chan struct{}   // a write queued on an empty queue, a hurry, or the writer's closing
	done   chan struct{}
	quit   chan struct{} // closed by close: a failing write is given up
	calls  sync.WaitGroup

	reports  atomic.Int64 // numbers health reports, so that only the newest is applied
	healthMu sync.Mutex   // guards applied; held while health runs
	applied  int64

	batch  store.Batch                  // write's buffers, reused by the writing goroutine
	every  time.Duration                // CommitEvery, but for benchmarks
	tracer atomic.Pointer[trace.Tracer] // set by Trace: a span of each commit

	commits, steps atomic.Int64 // transactions committed and the steps in them (benchmarks)
	busy           atomic.Int64 // nanoseconds spent writing batches, failed tries included (benchmarks)
	cpu            atomic.Int64 // the CPU time of it, on Linux (benchmarks)

	// The queue: a slice the writer takes whole, swapping in the one it wrote. On a channel,
	// each write was sent under the channel's lock and received on its own, by a writer
	// polling the channel once a step: for every decision of every match.
	mu     sync.Mutex
	queued []writeOp  // guarded by mu
	room   *sync.Cond // on mu: the queue was taken, for queue calls waiting while it is full
	hurry  bool       // guarded by mu: a flush, or a queue half full: commit without waiting for CommitEvery
	closed bool       // guarded by mu
}

// writeOp is a step of match, or its result, or a flush.
type writeOp struct {
	match     string
	step      store.Step // unless result or flush is set
	result    *store.Result
	ended     time.Time
	committed func()        // for a result: runs once it is stored
	flush     chan struct{} // closed once everything before it is written
}

// maxQueued is the most writes queued: a server whose store falls this far behind holds
// up its matches (each queue call waits) until the writer takes them. Each is taken into
// one transaction: a commit costs about as much as a few hundred steps, so a writer that
// falls behind catches up in larger transactions.
const maxQueued = 4096

// CommitEvery is the least time between the starts of two commits, unless a flush or a queue
// half full asks for one sooner. A writer that keeps up would otherwise commit every few steps
// (a thousand matches on an idle machine: about 10 steps a commit, each commit costing as
// much as a few hundred steps); waiting gathers the steps of a few milliseconds of play
// into one transaction. Nothing is acknowledged sooner for it: a result is still told once
// committed, a flush still waits for its commit (and cuts the wait short), and what a crash
// of the machine may lose grows by at most this much play.
const CommitEvery = 4 * time.Millisecond

// New starts a writer that commits at most every CommitEvery, unless hurried.
func New(db Store, log *slog.Logger, health func(error)) *Writer {
	return Start(db, log, health, CommitEvery)
}

// Start is New with commits at least every apart.
func Start(db Store, log *slog.Logger, health func(error), every time.Duration) *Writer {
	w := &Writer{db: db, log: log, health: health, wake: make(chan struct{}, 1), done: make(chan struct{}),
		quit: make(chan struct{}), every: every}
	w.room = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// Trace makes a span of each commit with t (nil: none): the matches in it, by id, and how
// many steps and results it stored.
func (w *Writer) Trace(t trace.Tracer) {
	if t == nil {
		w.tracer.Store(nil)
		return
	}
	w.tracer.Store(&t)
}

// commitSpan starts the span of a commit of b, if tracing; end it with endCommitSpan.
func (w *Writer) commitSpan(ctx context.Context, b store.Batch) trace.Span {
	t := w.tracer.Load()
	if t == nil {
		return nil
	}
	var ids []string
	seen := map[string]bool{}
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	var seats []int
	for _, s := range b.Steps {
		add(s.Match)
		seats = append(seats, s.Step.Seat)
	}
	for _, r := range b.Results {
		add(r.Match)
	}
	attrs := []attribute.KeyValue{tracing.MatchIDs.StringSlice(ids), tracing.Steps.Int(len(b.Steps)), tracing.Results.Int(len(b.Results))}
	if len(ids) == 1 {
		// One match's commit (a create, or a quiet server): its id and the seats of its steps.
		attrs = append(attrs, tracing.MatchID.String(ids[0]), tracing.Seats.IntSlice(seats))
	}
	_, span := (*t).Start(ctx, "orrery.store.commit", trace.WithAttributes(attrs...))
	return span
}

// Step queues step s of match.
func (w *Writer) Step(match string, s store.Step) { w.queue(writeOp{match: match, step: s}) }

// Finish queues a match's result; committed runs (on its own goroutine) once it is stored.
func (w *Writer) Finish(match string, ended time.Time, r *store.Result, committed func()) {
	w.queue(writeOp{match: match, result: r, ended: ended, committed: committed})
}

// queue adds op unless the writer has closed: an action that races the server's shutdown is
// not logged, and its match resumes from the log as it stood.
func (w *Writer) queue(op writeOp) bool {
	w.mu.Lock()
	for len(w.queued) >= maxQueued && !w.closed {
		w.room.Wait()
	}
	if w.closed {
		w.mu.Unlock()
		w.log.Warn("store closed; write dropped", "match", op.match)
		return false
	}
	w.queued = append(w.queued, op)
	n := len(w.queued)
	hurry := op.flush != nil || n >= maxQueued/2
	w.hurry = w.hurry || hurry
	w.mu.Unlock()
	if n == 1 || hurry {
		w.signal()
	}
	return true
}

// signal wakes the writer, unless it has been woken already.
func (w *Writer) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Sync waits until every queued write is done.
func (w *Writer) Sync() {
	ch := make(chan struct{})
	if w.queue(writeOp{flush: ch}) {
		<-ch
	}
}

// Close writes what is queued (giving up on writes that keep failing) and stops.
func (w *Writer) Close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	close(w.quit)
	w.room.Broadcast()
	w.mu.Unlock()
	w.signal()
	<-w.done
	w.calls.Wait()
}

func (w *Writer) run() {
	defer close(w.done)
	ctx := context.Background()
	wait := time.NewTimer(time.Hour)
	wait.Stop()
	var batch []writeOp
	var last time.Time // when the last commit started
	for w.await() {
		w.sleep(last.Add(w.every), wait)
		w.mu.Lock()
		batch, w.queued = w.queued, batch[:0]
		w.hurry = false
		w.room.Broadcast()
		w.mu.Unlock()
		if len(batch) > 0 {
			last = time.Now()
			w.write(ctx, batch)
		}
		// The buffer is queued into next: its ops must not keep what they point at (a
		// result's callback holds its match) alive until as many are queued again.
		clear(batch)
	}
}

// await waits until a write is queued, and reports false once the writer has closed with
// nothing queued.
func (w *Writer) await() bool {
	for {
		w.mu.Lock()
		queued, closed := len(w.queued), w.closed
		w.mu.Unlock()
		switch {
		case queued > 0:
			return true
		case closed:
			return false
		}
		<-w.wake
	}
}

// sleep waits until due, gathering what is queued meanwhile into the next commit, unless
// a hurry or the writer's closing cuts it short. (Woken for every write queued, as it was,
// the writer was woken for every step the server played: tens of thousands a second at
// full load.)
func (w *Writer) sleep(due time.Time, wait *time.Timer) {
	for {
		w.mu.Lock()
		now := w.hurry || w.closed
		w.mu.Unlock()
		d := time.Until(due)
		if now || d <= 0 {
			return
		}
		wait.Reset(d)
		select {
		case <-wait.C:
		case <-w.wake: // a hurry, or a first write queued: looked at again
			wait.Stop()
		}
	}
}

// callback runs f on its own goroutine: it takes a match's lock, which a goroutine waiting
// to queue a write may hold.
func (w *Writer) callback(f func()) {
	w.calls.Add(1)
	go func() {
		defer w.calls.Done()
		f()
	}()
}

// report tells health of a failure (err) or a recovery (nil) on its own goroutine; a report
// overtaken by a newer one is dropped, so the last word is always the writer's present state.
func (w *Writer) report(err error) {
	if w.health == nil {
		return
	}
	seq := w.reports.Add(1)
	w.callback(func() {
		w.healthMu.Lock()
		defer w.healthMu.Unlock()
		if seq <= w.applied {
			return
		}
		w.applied = seq
		w.health(err)
	})
}

// retry runs write until it succeeds, backing off, and tells health of the failure and the
// recovery. It gives up only when the writer closes.
func (w *Writer) retry(what, match string, write func() error) bool {
	failing := false
	wait := 50 * time.Millisecond
	for {
		err := write()
		if err == nil {
			if failing {
				w.log.Info("store writes again", "match", match)
				w.report(nil)
			}
			return true
		}
		if !failing {
			failing = true
			w.log.Error("persist "+what+"; retrying, matches paused", "match", match, "err", err)
			w.report(err)
		}
		select {
		case <-w.quit:
			w.log.Error("persist "+what+": given up at shutdown; the match resumes from its stored log", "match", match, "err", err)
			return false
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// write stores a drained batch's steps and results in one transaction, then closes its
// flushes and tells its results' matches.
func (w *Writer) write(ctx context.Context, ops []writeOp) {
	b := store.Batch{Steps: w.batch.Steps[:0], Results: w.batch.Results[:0]}
	for _, op := range ops {
		switch {
		case op.flush != nil:
		case op.result != nil:
			b.Results = append(b.Results, store.Finish{Match: op.match, Ended: op.ended, Result: op.result})
		default:
			b.Steps = append(b.Steps, store.MatchStep{Match: op.match, Step: op.step})
		}
	}
	stored := true
	if len(b.Steps)+len(b.Results) > 0 {
		start := time.Now()
		span := w.commitSpan(ctx, b)
		stored = w.retry("steps and results", ops[0].match, func() (err error) {
			w.cpu.Add(int64(threadCPU(func() { err = w.db.WriteBatch(ctx, b) })))
			return err
		})
		if span != nil {
			if !stored {
				span.SetStatus(otelcodes.Error, "given up: the server is closing")
			}
			span.End()
		}
		w.busy.Add(int64(time.Since(start)))
		if stored {
			w.commits.Add(1)
			w.steps.Add(int64(len(b.Steps)))
		}
	}
	var told []func() // the results' callbacks, run one after another on one goroutine
	for _, op := range ops {
		if op.flush != nil {
			close(op.flush)
		}
		if stored && op.committed != nil {
			told = append(told, op.committed)
		}
	}
	if len(told) > 0 {
		w.callback(func() {
			for _, f := range told {
				f()
			}
		})
	}
	clear(b.Results) // the results must not stay alive until a later batch as long overwrites them
	w.batch = b
}

// Stats are the writer's counters, for benchmarks.
type Stats struct {
	Commits, Steps int64         // transactions committed and the steps in them
	Busy, CPU      time.Duration // time spent writing batches, failed tries included, and its CPU (Linux)
}

// Stats reads the writer's counters.
func (w *Writer) Stats() Stats {
	return Stats{Commits: w.commits.Load(), Steps: w.steps.Load(), Busy: time.Duration(w.busy.Load()), CPU: time.Duration(w.cpu.Load())}
}
