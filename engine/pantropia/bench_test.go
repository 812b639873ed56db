package pantropia

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/orrery/orrery/engine"
)

// playRandom plays one whole game with uniform random choices and returns its action count.
func playRandom(b testing.TB, seats int, seed uint64, opts map[string]string) (engine.State, int) {
	st, err := engine.New("pantropia", engine.Config{Seats: seats, Seed: seed, Options: opts})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	var toAct []engine.Seat
	var legal []engine.Action
	n := 0
	for !st.Terminal() {
		toAct = st.ToAct(toAct[:0])
		legal = st.Legal(toAct[0], legal[:0])
		if err := st.Apply(toAct[0], legal[r.IntN(len(legal))]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return st, n
}

func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// BenchmarkRandomPlayout plays whole 4-seat random games at the default options (turn cap
// 400), listing the legal actions before every action, and reports allocations and time per
// action: wall time, and the process's CPU time, which a busy shared machine inflates less.
//
//	go test ./engine/pantropia -run XXX -bench RandomPlayout -cpu 1
func BenchmarkRandomPlayout(b *testing.B) {
	actions := 0
	start, cpu := mallocs(), cpuNanos()
	for i := 0; b.Loop(); i++ {
		_, n := playRandom(b, 4, uint64(i), nil)
		actions += n
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
	b.ReportMetric(float64(mallocs()-start)/float64(actions), "allocs/action")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(actions), "ns/action")
	if cpu > 0 {
		b.ReportMetric(float64(cpuNanos()-cpu)/float64(actions), "cpu-ns/action")
	}
}

// midgame is a 4-seat position after a few hundred random actions.
func midgame(b testing.TB) *state {
	s, _ := playRandom(b, 4, 3, map[string]string{"turn_cap": "60"})
	st := s.(*state)
	st.phase = PhaseMain
	for p := range st.pl {
		st.pl[p].chips = rich()
	}
	return st
}

// BenchmarkProduction resolves a colored roll over a full sphere of structures.
func BenchmarkProduction(b *testing.B) {
	s := midgame(b)
	for x := 0; x < NumIntersections; x++ {
		if s.site[x] < 0 {
			s.build(int8(x%4), x, x%3 == 0)
		}
	}
	s.events = eventLog{}
	s.log(event{})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.events.chunks[0], s.events.n = s.events.chunks[0][:0], 0 // reuse the log's one chunk
		s.produce(Color(i%6), Color((i/6)%6), false)
	}
}

// BenchmarkLegalMain lists the active player's main-phase actions in a busy position.
func BenchmarkLegalMain(b *testing.B) {
	s := midgame(b)
	buf := make([]engine.Action, 0, 1024)
	b.ReportAllocs()
	for b.Loop() {
		buf = s.Legal(engine.Seat(s.active), buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "actions")
}

// BenchmarkLegalPlayout lists the actions of the positions a random playout meets (every
// 7th decision of a few seeded 4-seat games), in turn: the mix BenchmarkRandomPlayout lists.
func BenchmarkLegalPlayout(b *testing.B) {
	var positions []*state
	for seed := uint64(1); seed <= 3; seed++ {
		st, err := engine.New("pantropia", engine.Config{Seats: 4, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 1))
		var legal []engine.Action
		for i := 0; !st.Terminal(); i++ {
			seat := st.ToAct(nil)[0]
			if i%7 == 0 {
				positions = append(positions, st.Clone().(*state))
			}
			legal = st.Legal(seat, legal[:0])
			if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	buf := make([]engine.Action, 0, 1024)
	listed := 0
	b.ReportAllocs()
	cpu := cpuNanos()
	for i := 0; b.Loop(); i++ {
		s := positions[i%len(positions)]
		buf = s.Legal(engine.Seat(s.decider()), buf[:0])
		listed += len(buf)
	}
	b.ReportMetric(float64(listed)/float64(b.N), "actions/op")
	if cpu > 0 {
		b.ReportMetric(float64(cpuNanos()-cpu)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkRingTargets computes where a player may place a ring.
func BenchmarkRingTargets(b *testing.B) {
	s := midgame(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.ringTargets(s.active)
	}
}

// BenchmarkClone copies a late-game state (with its event log) and applies one action.
func BenchmarkClone(b *testing.B) {
	s := midgame(b)
	b.ReportAllocs()
	for b.Loop() {
		c := s.Clone()
		_ = c.Apply(engine.Seat(s.active), End())
	}
}

// BenchmarkEvaluate scores all four seats of a busy position: each seat by Evaluate, which
// works out every seat's production and projection again for each, and all at once by
// EvaluateSplit, as the search scores them.
//
//	go test ./engine/pantropia -run '^$' -bench Evaluate
func BenchmarkEvaluate(b *testing.B) {
	s := midgame(b)
	s.pl[1].chips, s.pl[2].chips = [NumColors]int32{}, [NumColors]int32{Red: 2}
	rewards := make([]float64, 0, maxSeats)
	b.Run("each", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rewards = rewards[:0]
			for p := range s.seats {
				rewards = append(rewards, s.Evaluate(engine.Seat(p)))
			}
		}
	})
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rewards = EvaluateSplit(s, rewards[:0])
		}
	})
}

// BenchmarkGreedyPolicy is the search's greedy policy choosing among a busy position's
// main-phase actions (rings, builds, trades, the end of the turn).
func BenchmarkGreedyPolicy(b *testing.B) {
	s := midgame(b)
	legal := s.Legal(engine.Seat(s.active), nil)
	g, r := NewGreedy(), rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		g.Act(s, engine.Seat(s.active), legal, r)
	}
	b.ReportMetric(float64(len(legal)), "actions")
}
