package journal

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/orrery/orrery/service/store"
)

// heldStore is a Store whose first write waits until released, so that the writer's
// queue fills behind it; it records every batch it is given and fails as told.
type heldStore struct {
	entered chan struct{} // closed when the first write starts
	release chan struct{}
	once    sync.Once

	mu      sync.Mutex // guards the fields below
	batches []store.Batch
	fail    int // writes after the first still to fail
	stored  int // batches written
}

func (h *heldStore) WriteBatch(_ context.Context, b store.Batch) error {
	h.once.Do(func() {
		close(h.entered)
		<-h.release
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	h.batches = append(h.batches, store.Batch{Steps: slices.Clone(b.Steps), Results: slices.Clone(b.Results)})
	if h.fail > 0 && len(h.batches) > 1 {
		h.fail--
		return errors.New("disk I/O error")
	}
	h.stored++
	return nil
}

func (h *heldStore) written() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stored
}

// What a busy writer finds queued, steps of several matches and a result, goes in one
// transaction, each match's steps in order; the result is told only after it (and a
// failed attempt is retried whole, telling nothing meanwhile).
func TestWriter_OneTransactionPerDrainedBatch(t *testing.T) {
	for _, failures := range []int{0, 1} {
		h := &heldStore{entered: make(chan struct{}), release: make(chan struct{}), fail: failures}
		w := New(h, slog.New(slog.DiscardHandler), nil)
		w.Step("m0", store.Step{Seq: 0, Notation: "first"})
		<-h.entered
		w.Step("m1", store.Step{Seq: 0, Notation: "a"})
		w.Step("m0", store.Step{Seq: 1, Notation: "b"})
		w.Step("m1", store.Step{Seq: 1, Notation: "c"})
		told := make(chan int, 1)
		w.Finish("m1", time.Unix(5, 0), &store.Result{Plies: 2}, func() { told <- h.written() })
		w.Step("m0", store.Step{Seq: 2, Notation: "d"})
		close(h.release)
		w.Sync()
		if got := <-told; got != 2 {
			t.Errorf("failures %d: the result was told after %d stored batches; want 2 (after its own)", failures, got)
		}
		w.Close()

		wantSteps := []store.MatchStep{{Match: "m1", Step: store.Step{Seq: 0, Notation: "a"}}, {Match: "m0", Step: store.Step{Seq: 1, Notation: "b"}},
			{Match: "m1", Step: store.Step{Seq: 1, Notation: "c"}}, {Match: "m0", Step: store.Step{Seq: 2, Notation: "d"}}}
		if len(h.batches) != 2+failures {
			t.Fatalf("failures %d: %d writes; want %d", failures, len(h.batches), 2+failures)
		}
		for i, b := range h.batches[1:] {
			if !slices.Equal(b.Steps, wantSteps) || len(b.Results) != 1 || b.Results[0].Match != "m1" || b.Results[0].Result.Plies != 2 {
				t.Errorf("failures %d: write %d = %+v; want the 4 steps queued behind the first, in order, and m1's result", failures, i+1, b)
			}
		}
	}
}

// countingStore is a Store that counts the batches and steps it is given.
type countingStore struct {
	mu             sync.Mutex
	batches, steps int
}

func (c *countingStore) WriteBatch(_ context.Context, b store.Batch) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.batches++
	c.steps += len(b.Steps)
	return nil
}

func (c *countingStore) counts() (batches, steps int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.batches, c.steps
}

// A writer that has just committed waits for its time before the next commit, gathering
// everything queued meanwhile into it, but a flush, a queue half full or its closing cuts the
// wait short: with an hour between commits, a sync still returns, a burst that would fill
// the queue is committed a full batch at a time without holding up the matches, and close
// writes what is left.
func TestWriter_WaitsForItsTimeUnlessHurried(t *testing.T) {
	c := new(countingStore)
	w := Start(c, slog.New(slog.DiscardHandler), nil, time.Hour)
	closed := false
	defer func() {
		if !closed {
			w.Close()
		}
	}()
	w.Step("m0", store.Step{Seq: 0})
	w.Sync() // the first step's commit, then the flush's
	b0, _ := c.counts()
	for seq := range int64(10) {
		w.Step("m0", store.Step{Seq: 1 + seq})
	}
	w.Sync()
	if b, s := c.counts(); b != b0+1 || s != 11 {
		t.Fatalf("after the sync: %d batches (%d before), %d steps; want the 10 steps in one more batch", b, b0, s)
	}
	// All but one place of the queue, with no flush: no step waits to be queued (the loop
	// ends), and the half that hurries the writer is committed without waiting the hour.
	burst := maxQueued - 1
	for seq := range int64(burst) {
		w.Step("m1", store.Step{Seq: seq})
	}
	deadline := time.Now().Add(time.Minute) // a hang guard, not a timing: the hour is the failure
	for {
		if _, s := c.counts(); s >= 11+maxQueued/2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a queue past half full was not committed: the writer waits for its hour")
		}
		time.Sleep(time.Millisecond)
	}
	w.Close()
	closed = true
	if _, s := c.counts(); s != 11+burst {
		t.Errorf("after close: %d steps written; want %d", s, 11+burst)
	}
}
