package icetraders

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/orrery/orrery/engine"
)

// BenchmarkRandomPlayout plays whole 4-seat games with uniform random actions (ToAct, Legal,
// Apply) on one core and reports games/s, actions per game and allocations per action.
func BenchmarkRandomPlayout(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var (
		toAct []engine.Seat
		legal []engine.Action
	)
	actions := 0
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, _ := engine.New(Name, engine.Config{Seats: 4, Seed: uint64(i)})
		for !st.Terminal() {
			toAct = st.ToAct(toAct[:0])
			seat := toAct[r.IntN(len(toAct))]
			legal = st.Legal(seat, legal[:0])
			if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
			actions++
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(actions), "allocs/action")
}

// BenchmarkDeepGameActions replays a long recorded game (the survivor policy, 4 seats) with a
// Legal call before each action: the per-action cost in a crowded mid-game.
func BenchmarkDeepGameActions(b *testing.B) {
	cfg := engine.Config{Seats: 4, Seed: 5}
	st, _ := engine.New(Name, cfg)
	s := st.(*State)
	r := rand.New(rand.NewPCG(5, 5))
	var log []engine.Step
	for !s.Terminal() {
		seat, a := survivorPick(s, r)
		_ = s.Apply(seat, a)
		log = append(log, engine.Step{Seat: seat, Action: a})
	}
	var legal []engine.Action
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, _ := engine.New(Name, cfg)
		for _, step := range log {
			legal = st.Legal(step.Seat, legal[:0])
			if err := st.Apply(step.Seat, step.Action); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	n := float64(b.N * len(log))
	b.ReportMetric(float64(len(log)), "actions/game")
	b.ReportMetric(b.Elapsed().Seconds()*1e9/n, "ns/action")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/n, "allocs/action")
}

// BenchmarkObserve builds a mid-game observation and its text form.
func BenchmarkObserve(b *testing.B) {
	st, _ := engine.New(Name, engine.Config{Seats: 4, Seed: 5})
	s := st.(*State)
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 120 && !s.Terminal(); i++ {
		seat, a := survivorPick(s, r)
		_ = s.Apply(seat, a)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = s.Observe(0)
		_ = s.Render(0)
	}
}
