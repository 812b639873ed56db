package planet

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
)

// BenchmarkRandomPlayout plays whole 4-seat games with uniform random legal actions and
// reports actions and games per second and allocations per action (New's setup included).
// The cpu- metrics count the process's CPU time instead of wall time (see cpuTime).
//
//	go test ./engine/planet -run XXX -bench . -cpu 1 -benchmem
func BenchmarkRandomPlayout(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var legal []engine.Action
	actions := 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	defer lockThread()()
	cpu0 := cpuTime()
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
	cpu := cpuTime() - cpu0
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
	if cpu > 0 {
		b.ReportMetric(float64(actions)/(float64(cpu)/1e9), "actions/cpu-s")
	}
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(actions), "allocs/action")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}

// reportCPU reports the benchmark's CPU time per operation when the returned function runs
// (deferred, after the loop), beside the wall time a shared machine inflates.
func reportCPU(b *testing.B) func() {
	unlock := lockThread()
	cpu0 := cpuTime()
	return func() {
		if cpu := cpuTime() - cpu0; cpu > 0 {
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		}
		unlock()
	}
}

// BenchmarkLegal lists the actions of a 4-seat game's first pick (5 tiles on 12 free faces in
// 5 rotations, the longest list a game has) and of the first pick of turn 8 (5 faces free).
func BenchmarkLegal(b *testing.B) {
	for _, turn := range []int8{1, 8} {
		b.Run(fmt.Sprintf("turn%d", turn), func(b *testing.B) {
			st, err := engine.New("planet", engine.Config{Seats: 4, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 1))
			buf := make([]engine.Action, 0, 300)
			for st.(*state).turn < turn || st.(*state).picks > 0 {
				seat := engine.Seat(st.(*state).toAct())
				buf = st.Legal(seat, buf[:0])
				if err := st.Apply(seat, buf[r.IntN(len(buf))]); err != nil {
					b.Fatal(err)
				}
			}
			seat := engine.Seat(st.(*state).toAct())
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				buf = st.Legal(seat, buf[:0])
			}
			b.ReportMetric(float64(len(buf)), "actions")
		})
	}
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
	defer reportCPU(b)()
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

// renderState is the state the render benchmarks draw: turn 7 of 12, four seats.
func renderState(b *testing.B) *state {
	st, err := engine.New("planet", engine.Config{Seats: 4, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	var legal []engine.Action
	for st.(*state).turn < 7 {
		seat := engine.Seat(st.(*state).toAct())
		legal = st.Legal(seat, legal[:0])
		if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
			b.Fatal(err)
		}
	}
	return st.(*state)
}

// BenchmarkRender draws a seat's text view of a mid-game state (turn 7 of 12, four seats), the
// observation included.
//
//	go test ./engine/planet -run XXX -bench Render -cpu 1 -benchmem
func BenchmarkRender(b *testing.B) {
	st := renderState(b)
	b.ReportAllocs()
	defer reportCPU(b)()
	n := 0
	for i := 0; b.Loop(); i++ {
		n += len(st.Render(engine.Seat(i % 4)))
	}
	if n == 0 {
		b.Fatal("empty render")
	}
}

// BenchmarkRenderObservation draws the text of an observation already built, as the server
// does for every decision (it sends the typed observation too).
func BenchmarkRenderObservation(b *testing.B) {
	st := renderState(b)
	var obs [4]proto.Message
	for i := range obs {
		obs[i] = st.Observe(engine.Seat(i))
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	n := 0
	for i := 0; b.Loop(); i++ {
		n += len(st.RenderObservation(obs[i%4]))
	}
	b.ReportMetric(float64(n)/float64(b.N), "bytes/op")
}

// BenchmarkObserve builds a seat's typed view of the same state.
func BenchmarkObserve(b *testing.B) {
	st := renderState(b)
	b.ReportAllocs()
	defer reportCPU(b)()
	for i := 0; b.Loop(); i++ {
		_ = st.Observe(engine.Seat(i % 4))
	}
}

// TestPlayout_NoAllocationPerAction: once a match is set up, listing and applying actions
// allocates nothing until the final scoring, so random playouts and search bots pay only for
// New and the result.
func TestPlayout_NoAllocationPerAction(t *testing.T) {
	const runs = 3
	states := make([]engine.State, runs+1) // AllocsPerRun calls f once more to warm up
	for i := range states {
		st, err := engine.New("planet", engine.Config{Seats: 4, Seed: uint64(i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		states[i] = st
	}
	legal := make([]engine.Action, 0, 300)
	r := rand.New(rand.NewPCG(9, 9))
	next := 0
	allocs := testing.AllocsPerRun(runs, func() {
		st := states[next].(*state)
		next++
		for st.turn < TurnsPerGame { // every turn but the last, which scores the game
			seat := engine.Seat(st.toAct())
			legal = st.Legal(seat, legal[:0])
			if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations in 11 turns of play, want 0", allocs)
	}
}
