package icetraders

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

func TestTmpStats(t *testing.T) {
	for _, seats := range []int{2, 4, 6} {
		ends := map[pb.EndKind]int{}
		evs := map[string]int{}
		total := 0
		maxLegal := 0
		N := 100
		for seed := uint64(1); seed <= uint64(N); seed++ {
			st, _ := engine.New(Name, engine.Config{Seats: seats, Seed: seed})
			s := st.(*State)
			r := rand.New(rand.NewPCG(seed, 1))
			n := 0
			for !s.Terminal() {
				seat, a := survivorPick(s, r)
				if err := s.Apply(seat, a); err != nil { t.Fatal(err) }
				n++
			}
			total += n
			ends[s.end]++
			for _, e := range s.events {
				if e.kind == evConcentration { evs[fmt.Sprint(e.conc, e.effect)]++ }
				if e.kind == evTurnedEvil { evs["turnedEvil"]++ }
				if e.kind == evRevealed { evs["revealed"]++ }
				if e.kind == evAction { evs[kindName(e.a.Kind)]++ }
			}
		}
		t.Logf("seats %d: avg actions %d, maxLegal %d, ends %v, events %v", seats, total/N, maxLegal, ends, evs)
	}
}
