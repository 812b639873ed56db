package fccatan

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/orrery/orrery/engine"
)

// mallocs is the process's allocation count so far.
func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// BenchmarkRandomPlayout plays whole default-rules lockstep games with uniform choices from
// the legal lists; it reports games/s and allocations per action.
func BenchmarkRandomPlayout(b *testing.B) {
	var (
		legal []engine.Action
		toAct []engine.Seat
	)
	actions := 0
	b.ReportAllocs()
	start := mallocs()
	for i := 0; i < b.N; i++ {
		st, _ := engine.New("fccatan", engine.Config{Seats: 4, Seed: uint64(i)})
		r := rand.New(rand.NewPCG(uint64(i), 9))
		for !st.Terminal() {
			toAct = st.ToAct(toAct[:0])
			seat := toAct[0]
			legal = st.Legal(seat, legal[:0])
			if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
			actions++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
	b.ReportMetric(float64(mallocs()-start)/float64(actions), "allocs/action")
}

// BenchmarkTick resolves one tick of 16 running players (4 teams of 4): the four teams' intents
// and the resolution. Every player runs between a pile and its city, picking up and tagging.
func BenchmarkTick(b *testing.B) {
	st, _ := engine.New("fccatan", engine.Config{Seats: 4, Seed: 1, Options: map[string]string{"round_seconds": "600"}})
	base := st.(*State)
	for t := 0; t < 4; t++ {
		if err := base.Apply(engine.Seat(t), SetupAction(t, 0b11)); err != nil {
			b.Fatal(err)
		}
	}
	var acts [2][4]engine.Action // out to a pile, back home
	for t := 0; t < 4; t++ {
		var out, home [maxAvatars]Intent
		for i := 0; i < maxAvatars; i++ {
			p := base.c.field.Piles[(t*3+i)%12].Pos
			out[i] = to(p).PickUp()
			home[i] = to(base.c.field.Hoops[t].Center)
			if i < 2 {
				out[i], home[i] = out[i].Tag(), home[i].Tag()
			}
		}
		acts[0][t], acts[1][t] = IntentsAction(out[:]...), IntentsAction(home[:]...)
	}
	s := base.Clone().(*State)
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		if s.tick >= 5000 {
			b.StopTimer()
			s = base.Clone().(*State)
			b.StartTimer()
		}
		leg := int(s.tick/60) % 2
		for t := 0; t < 4; t++ {
			if err := s.Apply(engine.Seat(t), acts[leg][t]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLegalTick lists one team's intents in a tick.
func BenchmarkLegalTick(b *testing.B) {
	s := started(&testing.T{}, 4, nil)
	var buf []engine.Action
	b.ReportAllocs()
	for n := 0; n < b.N; n++ {
		buf = s.Legal(1, buf[:0])
	}
}

// BenchmarkNew creates a match: the options, the reachability check (every start hoop to the
// nearest pile of every resource and back, tick by tick) and the starting state.
func BenchmarkNew(b *testing.B) {
	for _, ruleset := range []string{RulesetSeed, RulesetPublished} {
		b.Run(ruleset, func(b *testing.B) {
			b.ReportAllocs()
			cfg := engine.Config{Seats: 4, Seed: 1, Options: map[string]string{"ruleset": ruleset}}
			for i := 0; i < b.N; i++ {
				if _, err := engine.New("fccatan", cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheckReach is the reachability check alone, on the default map in a 20-second round.
func BenchmarkCheckReach(b *testing.B) {
	c, err := newConfig(engine.Config{Seats: 4})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := c.checkReach(); err != nil {
			b.Fatal(err)
		}
	}
}
