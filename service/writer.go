package service

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/orrery/orrery/service/store"
)

// writer persists action logs off the decision path: one goroutine drains a queue and writes
// steps in batched transactions, in order, so a match's result is never written before its
// last step. Tokens and seeds never pass through here as log lines.
type writer struct {
	db   *store.DB
	log  *slog.Logger
	ops  chan writeOp
	done chan struct{}

	mu     sync.RWMutex // guards closed; held for reading while queueing
	closed bool
}

type writeOp struct {
	match  string
	step   *store.Step
	result *store.Result
	ended  time.Time
	flush  chan struct{} // closed once everything before it is written
}

func newWriter(db *store.DB, log *slog.Logger) *writer {
	w := &writer{db: db, log: log, ops: make(chan writeOp, 4096), done: make(chan struct{})}
	go w.run()
	return w
}

func (w *writer) step(match string, s store.Step) { w.queue(writeOp{match: match, step: &s}) }

func (w *writer) finish(match string, ended time.Time, r *store.Result) {
	w.queue(writeOp{match: match, result: r, ended: ended})
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
	return true
}

// sync waits until every queued write is done.
func (w *writer) sync() {
	ch := make(chan struct{})
	if w.queue(writeOp{flush: ch}) {
		<-ch
	}
}

// close writes what is queued and stops.
func (w *writer) close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	close(w.ops)
	w.mu.Unlock()
	<-w.done
}

func (w *writer) run() {
	defer close(w.done)
	ctx := context.Background()
	var batch []writeOp
	for op := range w.ops {
		batch = append(batch[:0], op)
	drain:
		for len(batch) < 512 {
			select {
			case op, ok := <-w.ops:
				if !ok {
					break drain
				}
				batch = append(batch, op)
			default:
				break drain
			}
		}
		w.write(ctx, batch)
	}
}

func (w *writer) write(ctx context.Context, batch []writeOp) {
	for i := 0; i < len(batch); {
		op := batch[i]
		switch {
		case op.flush != nil:
			close(op.flush)
			i++
		case op.step != nil:
			// A run of steps of one match goes in one transaction.
			j := i
			var steps []store.Step
			for j < len(batch) && batch[j].step != nil && batch[j].match == op.match {
				steps = append(steps, *batch[j].step)
				j++
			}
			if err := w.db.AppendSteps(ctx, op.match, steps); err != nil {
				w.log.Error("persist steps", "match", op.match, "err", err)
			}
			i = j
		default:
			if err := w.db.FinishMatch(ctx, op.match, op.ended, op.result); err != nil {
				w.log.Error("persist result", "match", op.match, "err", err)
			}
			i++
		}
	}
}
