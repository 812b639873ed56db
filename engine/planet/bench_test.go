package planet

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/orrery/orrery/engine"
)

// BenchmarkRandomPlayout plays whole 4-seat games with uniform random legal actions and
// reports games per second and allocations per action (New's setup included).
//
//	go test ./engine/planet -run XXX -bench . -benchmem
func BenchmarkRandomPlayout(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var legal []engine.Action
	actions := 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := engine.New("planet", engine.Config{Seats: 4, Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		for !st.Terminal() {
			seat := engine.Seat(st.(*state).toAct())
			legal = st.Legal(seat, legal[:0])
			if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
			actions++
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(actions), "allocs/action")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}

// BenchmarkRegionScoring measures a full planet's regions and scores every requirement of
// the deck on it: the work of one planet in one origin-of-life phase, and of a bot's look-ahead.
func BenchmarkRegionScoring(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var sf Surface
	for f := 0; f < Faces; f++ {
		sf.Place(f, Default.Tiles[r.IntN(len(Default.Tiles))], r.IntN(5))
	}
	b.ReportAllocs()
	b.ResetTimer()
	total := 0
	for i := 0; i < b.N; i++ {
		var sv Survey
		sv.Measure(&sf)
		for _, a := range Default.Animals {
			total += sv.Value(a.Req) + sv.Qualifying(a.Req)
		}
	}
	if total < 0 {
		b.Fatal(total)
	}
}
