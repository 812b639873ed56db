package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// CreateMatch calls made while another writes wait and go in one transaction; each caller
// hears of its own match only: a duplicate id among them fails alone, the others are stored.
func TestCreateMatch_CallsWaitingShareATransaction(t *testing.T) {
	for _, tc := range []struct {
		name      string
		duplicate bool
		wantTxs   int64 // the first call's, then the waiting calls'
	}{
		{"distinct", false, 2},
		{"one id twice", true, 1 + 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := Open(filepath.Join(t.TempDir(), "orrery.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			match := func(id string) *Match {
				return &Match{ID: id, Game: "g", Seats: 2, Names: []string{"a", "b"}, Options: map[string]string{},
					TokenHashes: []string{id + "t0", id + "t1"}, Created: time.Unix(1, 0)}
			}
			// SQLite's one connection, held: the first call waits in its transaction, the
			// others queue behind it.
			held, err := db.SQL().BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			ids := []string{"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9"}
			if tc.duplicate {
				ids[5] = "m0"
			}
			errs := make([]error, len(ids))
			var wg sync.WaitGroup
			start := func(i int) {
				wg.Add(1)
				go func() { defer wg.Done(); errs[i] = db.CreateMatch(ctx, match(ids[i])) }()
			}
			start(0)
			waitQueued(t, db, 0) // the first has taken itself off the queue to write it
			for i := 1; i < len(ids); i++ {
				start(i)
			}
			waitQueued(t, db, len(ids)-1)
			if err := held.Rollback(); err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			for i, err := range errs {
				if tc.duplicate && i == 5 {
					if err == nil {
						t.Errorf("creating m0 a second time succeeded")
					}
					continue
				}
				if err != nil {
					t.Errorf("create %s: %v", ids[i], err)
				}
				m, err := db.Match(ctx, ids[i])
				if err != nil || m.ID != ids[i] {
					t.Errorf("match %s stored: %+v, %v", ids[i], m, err)
				}
				if got, err := db.MatchByToken(ctx, ids[i], ids[i]+"t1"); err != nil || got.ID != ids[i] {
					t.Errorf("match of %s's token: %+v, %v", ids[i], got, err)
				}
			}
			if got := db.createTxs.Load(); got != tc.wantTxs {
				t.Errorf("%d transactions; want %d", got, tc.wantTxs)
			}
		})
	}
}

// waitQueued waits until a CreateMatch call is writing and n more are queued.
func waitQueued(t *testing.T, db *DB, n int) {
	t.Helper()
	for {
		db.createMu.Lock()
		queued, busy := len(db.creating), db.createBusy
		db.createMu.Unlock()
		if busy && queued == n {
			return
		}
		if queued > n {
			t.Fatalf("%d calls queued; want %d", queued, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// BenchmarkCreateMatchConcurrent stores 4-seat matches from 16 callers at once, as many
// clients or the ladder create them: matches per CPU-second.
//
//	go test ./service/store -run '^$' -bench CreateMatchConcurrent -benchtime 2000x
func BenchmarkCreateMatchConcurrent(b *testing.B) {
	db, err := Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	var mu sync.Mutex
	next := 0
	b.SetParallelism(8) // 16 callers on 2 cores
	b.ResetTimer()
	cpu0 := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			id := fmt.Sprint("m", next)
			next++
			mu.Unlock()
			if err := db.CreateMatch(ctx, &Match{ID: id, Game: "icetraders", Seats: 4, Options: map[string]string{}, SeedHash: "h",
				Names: []string{"a", "b", "c", "d"}, TokenHashes: []string{id + "0", id + "1", id + "2", id + "3"},
				Created: time.Unix(1, 0)}); err != nil && !errors.Is(err, context.Canceled) {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "matches/cpu-s")
}
