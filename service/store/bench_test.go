package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/orrery/orrery/service/store/pgtest"
)

// BenchmarkAppendSteps persists steps as the server's writer does: batches of one match's
// steps, each batch one transaction, over 16 running matches. It reports steps/s. PostgreSQL
// runs durable (fsync and synchronous commit on), SQLite as the server opens it (WAL,
// synchronous NORMAL).
//
//	go test ./service/store -run '^$' -bench AppendSteps -benchtime 2000x
func BenchmarkAppendSteps(b *testing.B) {
	for _, batch := range []int{1, 16} {
		b.Run(fmt.Sprintf("sqlite/batch=%d", batch), func(b *testing.B) {
			benchAppend(b, filepath.Join(b.TempDir(), "bench.db"), batch)
		})
		b.Run(fmt.Sprintf("postgres/batch=%d", batch), func(b *testing.B) {
			c := pgtest.Start(b, pgtest.Options{Durable: true})
			benchAppend(b, c.NewDB(b), batch)
		})
	}
}

// BenchmarkAppendBatch is the writer's batch of one step from each of 16 matches in one
// transaction, as a busy server's writer finds its queue: steps/s.
//
//	go test ./service/store -run '^$' -bench AppendBatch -benchtime 300x
func BenchmarkAppendBatch(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchRuns(b, filepath.Join(b.TempDir(), "bench.db")) })
	b.Run("postgres", func(b *testing.B) {
		c := pgtest.Start(b, pgtest.Options{Durable: true})
		benchRuns(b, c.NewDB(b))
	})
}

func benchRuns(b *testing.B, target string) {
	db, ctx := benchStore(b, target)
	batch := make([]MatchStep, benchMatches)
	for i := range batch {
		batch[i].Match = fmt.Sprint("m", i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for m := range batch {
			batch[m].Step = Step{Seq: int64(i), Seat: i % 4, Notation: "build road 12-13", Bank: time.Second}
		}
		if err := db.AppendStepBatch(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*benchMatches)/b.Elapsed().Seconds(), "steps/s")
}

const benchMatches = 16

func benchStore(b *testing.B, target string) (*DB, context.Context) {
	db, err := Open(target)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	for i := range benchMatches {
		if err := db.CreateMatch(ctx, &Match{ID: fmt.Sprint("m", i), Game: "g", Seats: 4, Options: map[string]string{},
			Names: []string{"a", "b", "c", "d"}, TokenHashes: []string{"", "", "", ""}, Created: time.Unix(1, 0)}); err != nil {
			b.Fatal(err)
		}
	}
	return db, ctx
}

func benchAppend(b *testing.B, target string, batch int) {
	db, ctx := benchStore(b, target)
	const matches = benchMatches
	seq := make([]int64, matches)
	steps := make([]Step, batch)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := i % matches
		for j := range steps {
			steps[j] = Step{Seq: seq[m], Seat: j % 4, Notation: "build road 12-13", Bank: time.Second}
			seq[m]++
		}
		if err := db.AppendSteps(ctx, fmt.Sprint("m", m), steps); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkCreateMatch stores new 4-seat matches, one transaction each, as CreateMatch does:
// matches/s.
//
//	go test ./service/store -run '^$' -bench CreateMatch -benchtime 2000x
func BenchmarkCreateMatch(b *testing.B) {
	db, err := Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := fmt.Sprint("m", i)
		if err := db.CreateMatch(ctx, &Match{ID: id, Game: "icetraders", Seats: 4, Options: map[string]string{}, SeedHash: "h",
			Names: []string{"a", "b", "c", "d"}, TokenHashes: []string{id + "0", id + "1", id + "2", id + "3"}, Created: time.Unix(1, 0)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
}
