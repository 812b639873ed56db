package mcts_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/orrery/orrery/bots/mcts"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// benchPly is where the benchmarks search: early in the middle game (a tick, for fccatan).
var benchPly = map[string]int{"fccatan": 60, "icetraders": 20, "pantropia": 60, "planet": 20}

// BenchmarkSearch reports the search's iterations per second on one core for each game, from
// a position some way into a four-seat game, at a fixed iteration budget: per second of wall
// time, and per second of the process's CPU time, which a loaded machine does not lower
// (a tenth of it is what the default 100 ms budget searches on a core of one's own). Its
// allocs/iteration is what one more iteration allocates, the decision's own setup (the
// prior's choice, the determinizer) left out: the search loop's steady state.
func BenchmarkSearch(b *testing.B) {
	for _, game := range searched {
		b.Run(game, func(b *testing.B) {
			_, d := midGame(b, game, 4, benchPly[game])
			bot := mcts.MustNew(game, mcts.Config{Iterations: 500, Seed: 1, Exhaustive: true})
			bot.Act(d)
			b.ReportAllocs()
			iters, cpu := 0, cpuTime()
			for b.Loop() {
				bot.Act(d)
				iters += bot.LastStats().Iterations
			}
			cpu = cpuTime() - cpu
			b.ReportMetric(float64(iters)/b.Elapsed().Seconds(), "iterations/s")
			b.ReportMetric(float64(iters)/cpu.Seconds(), "iterations/cpu-s")
			b.ReportMetric(marginalAllocs(game, d), "allocs/iteration")
		})
	}
}

// marginalAllocs is how many allocations one more iteration of a search of d costs: the
// difference between a long and a short search by warm bots, over the iterations between.
func marginalAllocs(game string, d *orreryv1.Decision) float64 {
	const short, long = 500, 2500
	mallocs := func(n int) uint64 {
		bot := mcts.MustNew(game, mcts.Config{Iterations: n, Seed: 1, Exhaustive: true})
		bot.Act(d) // warm: the tree's buffers and the scratch states grow once
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		bot.Act(d)
		runtime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs
	}
	return (float64(mallocs(long)) - float64(mallocs(short))) / (long - short)
}

// BenchmarkSampleAndPlay is the engine's share of one iteration: draw a state into the
// scratch state (CloneInto) and play twenty random actions on it (Legal and Apply). Its
// allocs/op is the steady state of the search loop's engine work, which should be zero.
func BenchmarkSampleAndPlay(b *testing.B) {
	for _, game := range searched {
		b.Run(game, func(b *testing.B) {
			_, d := midGame(b, game, 4, benchPly[game])
			det, err := mcts.Games()[game].Determinizer(d)
			if err != nil {
				b.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 1))
			var st engine.State
			var toAct []engine.Seat
			var legal []engine.Action
			play := func() {
				st = det.Sample(st, r)
				for i := 0; i < 20 && !st.Terminal(); i++ {
					toAct = st.ToAct(toAct[:0])
					legal = st.Legal(toAct[0], legal[:0])
					if st.Apply(toAct[0], legal[r.IntN(len(legal))]) != nil {
						b.Fatal("a listed action was refused")
					}
				}
			}
			for range 100 {
				play()
			}
			b.ReportAllocs()
			for b.Loop() {
				play()
			}
		})
	}
}
