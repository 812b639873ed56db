package service

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orrery/orrery/service/store"
)

// logStore is what the writer needs of the store: the boundary at which tests inject write
// failures (a full disk).
type logStore interface {
	WriteBatch(ctx context.Context, b store.Batch) error
}

// writer persists action logs off the decision path: one goroutine drains a queue and
// writes each drained batch, steps and results of every match in it, in one transaction, in
// order, so a match's result is never written before its last step. Tokens and seeds never
// pass through here as log lines.
//
// A write that fails is retried, in order, until it succeeds: nothing queued is dropped
// while the server runs. health hears of the first failure and of the recovery, so the
// server can pause its matches meanwhile; done callbacks run once their write is committed.
type writer struct {
	db     logStore
	log    *slog.Logger
	health func(err error) // nil err: writes work again
	ops    chan writeOp
	hurry  chan struct{} // a flush, or a queue half full: commit without waiting for commitEvery
	done   chan struct{}
	quit   chan struct{} // closed by close: a failing write is given up
	calls  sync.WaitGroup

	reports  atomic.Int64 // numbers health reports, so that only the newest is applied
	healthMu sync.Mutex   // guards applied; held while health runs
	applied  int64

	batch store.Batch   // write's buffers, reused by the writing goroutine
	every time.Duration // commitEvery, but for benchmarks

	commits, steps atomic.Int64 // transactions committed and the steps in them (benchmarks)
	busy           atomic.Int64 // nanoseconds spent writing batches, failed tries included (benchmarks)
	cpu            atomic.Int64 // the CPU time of it, on Linux (benchmarks)

	mu     sync.RWMutex // guards closed; held for reading while queueing
	closed bool
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

// maxBatch is the most writes drained into one transaction: a commit costs about as much as
// a few hundred steps, so a writer that falls behind catches up in larger transactions.
const maxBatch = 2048

// commitEvery is the least time between the starts of two commits, unless a flush or a full
// batch asks for one sooner. A writer that keeps up would otherwise commit every few steps
// (a thousand matches on an idle machine: about 10 steps a commit, each commit costing as
// much as a few hundred steps); waiting gathers the steps of a few milliseconds of play
// into one transaction. Nothing is acknowledged sooner for it: a result is still told once
// committed, a flush still waits for its commit (and cuts the wait short), and what a crash
// of the machine may lose grows by at most this much play.
const commitEvery = 4 * time.Millisecond

func newWriter(db logStore, log *slog.Logger, health func(error)) *writer {
	return startWriter(db, log, health, commitEvery)
}

// startWriter is newWriter with commits at least every apart.
func startWriter(db logStore, log *slog.Logger, health func(error), every time.Duration) *writer {
	w := &writer{db: db, log: log, health: health, ops: make(chan writeOp, 4096), hurry: make(chan struct{}, 1),
		done: make(chan struct{}), quit: make(chan struct{}), every: every}
	go w.run()
	return w
}

func (w *writer) step(match string, s store.Step) { w.queue(writeOp{match: match, step: s}) }

// finish queues a match's result; committed runs (on its own goroutine) once it is stored.
func (w *writer) finish(match string, ended time.Time, r *store.Result, committed func()) {
	w.queue(writeOp{match: match, result: r, ended: ended, committed: committed})
}

// queue adds op unless the writer has closed: an action that races the server's shutdown is
// not logged, and its match resumes from the log as it stood.
func (w *writer) queue(op writeOp) bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		w.log.Warn("store closed; write dropped", "match", op.match)
		return false
	}
	w.ops <- op
	if op.flush != nil || len(w.ops) >= cap(w.ops)/2 {
		select {
		case w.hurry <- struct{}{}:
		default: // told already
		}
	}
	return true
}

// sync waits until every queued write is done.
func (w *writer) sync() {
	ch := make(chan struct{})
	if w.queue(writeOp{flush: ch}) {
		<-ch
	}
}

// close writes what is queued (giving up on writes that keep failing) and stops.
func (w *writer) close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	close(w.quit)
	close(w.ops)
	w.mu.Unlock()
	<-w.done
	w.calls.Wait()
}

func (w *writer) run() {
	defer close(w.done)
	ctx := context.Background()
	wait := time.NewTimer(time.Hour)
	wait.Stop()
	var batch []writeOp
	var last time.Time // when the last commit started
	for op := range w.ops {
		batch = w.gather(append(batch[:0], op), last.Add(w.every), wait)
		last = time.Now()
		w.write(ctx, batch)
		// The buffer is reused: its ops must not keep what they point at (a result's
		// callback holds its match) alive until a later batch as long overwrites them.
		clear(batch)
	}
}

// gather adds to batch what is queued, then, once it is due, what was queued meanwhile, and
// returns it once it is full, holds a flush, the queue is closed or it is due. While it
// waits it sleeps until due, a hurry or the writer's closing: woken for every write queued,
// as it was, it was woken for every step the server played (tens of thousands a second at
// full load).
func (w *writer) gather(batch []writeOp, due time.Time, wait *time.Timer) []writeOp {
	for {
		for len(batch) < maxBatch && batch[len(batch)-1].flush == nil {
			op, ok, taken := w.take()
			if !taken {
				break
			}
			if !ok {
				return batch
			}
			batch = append(batch, op)
		}
		if len(batch) >= maxBatch || batch[len(batch)-1].flush != nil {
			return batch
		}
		d := time.Until(due)
		if d <= 0 {
			return batch
		}
		wait.Reset(d)
		select {
		case <-wait.C:
		case <-w.hurry:
			wait.Stop()
		case <-w.quit: // closing: what is queued is written now
			wait.Stop()
		}
	}
}

// take takes a queued write without waiting: taken says one was queued (or the queue is
// closed: not ok).
func (w *writer) take() (op writeOp, ok, taken bool) {
	select {
	case op, ok = <-w.ops:
		return op, ok, true
	default:
		return writeOp{}, false, false
	}
}

// callback runs f on its own goroutine: it takes a match's lock, which a goroutine waiting
// to queue a write may hold.
func (w *writer) callback(f func()) {
	w.calls.Add(1)
	go func() {
		defer w.calls.Done()
		f()
	}()
}

// report tells health of a failure (err) or a recovery (nil) on its own goroutine; a report
// overtaken by a newer one is dropped, so the last word is always the writer's present state.
func (w *writer) report(err error) {
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
func (w *writer) retry(what, match string, write func() error) bool {
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
func (w *writer) write(ctx context.Context, ops []writeOp) {
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
		stored = w.retry("steps and results", ops[0].match, func() (err error) {
			w.cpu.Add(int64(threadCPU(func() { err = w.db.WriteBatch(ctx, b) })))
			return err
		})
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
