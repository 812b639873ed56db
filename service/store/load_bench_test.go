package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	mrand "math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkArenaLoad is the store's side of BenchmarkStoreCost without the arena: the
// writer's batches as a server running 1,000 matches of 10 to 30 steps fills them (300 steps
// a commit, each a step of a match drawn at random, so that matches end in any order, as in
// the arena; each match's result in the batch of its last step, a new match taking its
// place), with the log compacted as it fills. The matches
// are created untimed, ahead, as CreateMatch calls of their own. It reports the store's
// time a step (a step is a decision), and its CPU time. ids=random names the matches as the
// server did before MatchID: random ids cost more the more matches the store holds (run it
// with -benchtime 1000000x to see it).
//
//	go test ./service/store -run '^$' -bench ArenaLoad -benchtime 200000x
func BenchmarkArenaLoad(b *testing.B) {
	b.Run("ids=time", func(b *testing.B) { benchArenaLoad(b, MatchID) })
	b.Run("ids=random", func(b *testing.B) {
		benchArenaLoad(b, func(time.Time) string {
			var r [9]byte
			rand.Read(r[:])
			return "m" + base64.RawURLEncoding.EncodeToString(r[:])
		})
	})
}

func benchArenaLoad(b *testing.B, matchID func(time.Time) string) {
	const live, perBatch = 1000, 300
	r := mrand.New(mrand.NewPCG(1, 2))
	db, err := Open(filepath.Join(b.TempDir(), "orrery.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	var fresh []string // created, not yet playing
	create := func(n int) {
		b.StopTimer()
		for range n {
			id := matchID(time.Now())
			tokens := make([]string, 4)
			for i := range tokens {
				var t [32]byte
				rand.Read(t[:])
				tokens[i] = fmt.Sprintf("%x", t)
			}
			if err := db.CreateMatch(ctx, &Match{ID: id, Game: "icetraders", Seats: 4, Options: map[string]string{"variant": "standard"},
				Seed: 7, SeedSalt: "00112233445566778899aabbccddeeff", SeedHash: fmt.Sprintf("%x", [32]byte{1}),
				Names: []string{"random", "random", "random", "random"}, TokenHashes: tokens, PerMove: time.Minute,
				Created: time.Now()}); err != nil {
				b.Fatal(err)
			}
			fresh = append(fresh, id)
		}
		b.StartTimer()
	}
	type playing struct {
		id           string
		next, length int64
	}
	create(live)
	matches := make([]playing, live)
	for i := range matches {
		matches[i] = playing{id: fresh[i], length: 10 + r.Int64N(21)}
	}
	fresh = fresh[:0]
	var batch Batch
	var cpu time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; {
		batch.Steps, batch.Results = batch.Steps[:0], batch.Results[:0]
		for range min(perBatch, b.N-done) {
			m := &matches[r.IntN(live)]
			batch.Steps = append(batch.Steps, MatchStep{Match: m.id, Step: Step{Seq: m.next, Seat: int(m.next % 4),
				Notation: "move s12 to sys3", Bank: time.Minute}})
			m.next++
			if m.next == m.length {
				batch.Results = append(batch.Results, Finish{Match: m.id, Ended: time.Now(),
					Result: &Result{Ranks: []int{1, 2, 3, 4}, Scores: []float64{4, 3, 2, 1}, Reason: 1, Plies: m.length,
						Timeouts: []int{0, 0, 0, 0}, Banks: []time.Duration{time.Minute, time.Minute, time.Minute, time.Minute}}})
				if len(fresh) == 0 {
					create(live)
				}
				*m, fresh = playing{id: fresh[0], length: 10 + r.Int64N(21)}, fresh[1:]
			}
			done++
		}
		c := cpuTime()
		if err := db.WriteBatch(ctx, batch); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/step")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/step")
}
