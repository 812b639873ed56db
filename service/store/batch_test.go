package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func openWithMatches(tb testing.TB, n int) *DB {
	tb.Helper()
	db, err := Open(filepath.Join(tb.TempDir(), "orrery.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	for i := range n {
		if err := db.CreateMatch(context.Background(), &Match{ID: fmt.Sprint("m", i), Game: "g", Seats: 2, Names: []string{"a", "b"},
			Options: map[string]string{}, Created: time.Unix(int64(i), 0)}); err != nil {
			tb.Fatal(err)
		}
	}
	return db
}

func TestAppendStepBatch_InterleavedMatchesKeepTheirOrder(t *testing.T) {
	db := openWithMatches(t, 3)
	ctx := context.Background()
	var batch []MatchStep
	for seq := range 4 {
		for m := range 3 {
			batch = append(batch, MatchStep{Match: fmt.Sprint("m", m), Step: Step{Seq: int64(seq), Seat: m, Notation: fmt.Sprintf("s%d-%d", m, seq)}})
		}
	}
	if err := db.AppendStepBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	for m := range 3 {
		steps, err := db.Steps(ctx, fmt.Sprint("m", m))
		if err != nil {
			t.Fatal(err)
		}
		if len(steps) != 4 {
			t.Fatalf("m%d: %d steps, want 4", m, len(steps))
		}
		for seq, s := range steps {
			if want := fmt.Sprintf("s%d-%d", m, seq); s.Seq != int64(seq) || s.Notation != want {
				t.Errorf("m%d step %d: %+v, want %s", m, seq, s, want)
			}
		}
	}
	// A batch that fails part-way writes nothing: the duplicate step rolls the whole run back.
	bad := []MatchStep{{Match: "m0", Step: Step{Seq: 4, Notation: "new"}}, {Match: "m1", Step: Step{Seq: 0, Notation: "dup"}}}
	if err := db.AppendStepBatch(ctx, bad); err == nil {
		t.Fatal("a duplicate step was accepted")
	}
	if steps, _ := db.Steps(ctx, "m0"); len(steps) != 4 {
		t.Errorf("m0 has %d steps after a failed batch, want 4", len(steps))
	}
}

// BenchmarkAppendStepBatch is the store's rate for the writer's batches: 512 steps of 64
// interleaved matches per transaction, on a file database (WAL, synchronous=NORMAL).
func BenchmarkAppendStepBatch(b *testing.B) {
	const matches, perBatch = 64, 512
	db := openWithMatches(b, matches)
	ctx := context.Background()
	seq := make([]int64, matches)
	batch := make([]MatchStep, perBatch)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		for j := range batch {
			m := j % matches
			batch[j] = MatchStep{Match: fmt.Sprint("m", m), Step: Step{Seq: seq[m], Seat: j % 4, Notation: "move s12 to sys3", Bank: time.Minute}}
			seq[m]++
		}
		if err := db.AppendStepBatch(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*perBatch)/b.Elapsed().Seconds(), "steps/s")
	// On a shared machine wall time measures the neighbours; steps per CPU-second is the
	// rate of a core of one's own (the WAL's commits do not wait for the disk).
	b.ReportMetric(float64(b.N*perBatch)/(cpuTime()-cpu0).Seconds(), "steps/cpu-s")
}

// BenchmarkAppendStepBatchThousand is the writer's batches on a server that has run a
// while: 1,000 running matches (random ids, as the server's) in a database that already
// holds the 200,000 steps of 1,000 finished ones, 256 steps per transaction spread over the
// running matches as a busy writer drains them. Filling the database is not timed.
//
//	go test ./service/store -run '^$' -bench AppendStepBatchThousand -benchtime 400x
func BenchmarkAppendStepBatchThousand(b *testing.B) {
	const matches, history, perBatch = 1000, 200, 256
	db := openWithMatches(b, 2*matches)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	ids := make([]string, 2*matches)
	for i := range ids {
		ids[i] = fmt.Sprint("m", i)
	}
	// The finished matches' steps, as their writer left them: interleaved.
	for seq := range history {
		batch := make([]MatchStep, matches)
		for m := range batch {
			batch[m] = MatchStep{Match: ids[matches+m], Step: Step{Seq: int64(seq), Seat: m % 4, Notation: "move s12 to sys3", Bank: time.Minute}}
		}
		if err := db.AppendStepBatch(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	seq := make([]int64, matches)
	batches := make([][]MatchStep, b.N)
	for i := range batches {
		batches[i] = make([]MatchStep, perBatch)
		for j := range batches[i] {
			m := r.IntN(matches)
			batches[i][j] = MatchStep{Match: ids[m], Step: Step{Seq: seq[m], Seat: j % 4, Notation: "move s12 to sys3", Bank: time.Minute}}
			seq[m]++
		}
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if err := db.AppendStepBatch(ctx, batches[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*perBatch)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(b.N*perBatch)/(cpuTime()-cpu0).Seconds(), "steps/cpu-s")
}

// BenchmarkStepsWithAFullLog is the price of the step log for readers: the log of one of
// 1,000 running matches read (Steps) while the log holds nearly compactAfter steps of them
// all, as a replay or a single resume finds it at worst.
//
//	go test ./service/store -run '^$' -bench StepsWithAFullLog
func BenchmarkStepsWithAFullLog(b *testing.B) {
	const matches, perBatch = 1000, 256
	db := openWithMatches(b, matches)
	ctx := context.Background()
	seq := make([]int64, matches)
	for range (compactAfter - 1) / perBatch {
		batch := make([]MatchStep, perBatch)
		for j := range batch {
			m := j * 7 % matches
			batch[j] = MatchStep{Match: fmt.Sprint("m", m), Step: Step{Seq: seq[m], Seat: j % 4, Notation: "move s12 to sys3", Bank: time.Minute}}
			seq[m]++
		}
		if err := db.AppendStepBatch(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := i % matches
		steps, err := db.Steps(ctx, fmt.Sprint("m", m))
		if err != nil || int64(len(steps)) != seq[m] {
			b.Fatalf("Steps(m%d) = %d steps, %v; want %d", m, len(steps), err, seq[m])
		}
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
