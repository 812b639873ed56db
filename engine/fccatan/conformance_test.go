package fccatan

import (
	"testing"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
)

// checkBalls: balls are conserved, 12 of each resource in piles, in hands and in stocks, and no
// pile holds more than its capacity.
func checkBalls(t *testing.T, st engine.State) {
	s := st.(*State)
	var n [numRes]int
	for p, spot := range s.c.field.Piles {
		if int(s.piles[p]) > s.c.field.PileCapacity || s.piles[p] < 0 {
			t.Fatalf("pile %d holds %d balls", p, s.piles[p])
		}
		n[spot.Resource] += int(s.piles[p])
	}
	for tm := 0; tm < s.c.teams; tm++ {
		for r := 0; r < numRes; r++ {
			if s.teams[tm].res[r] < 0 {
				t.Fatalf("team %d holds %d %s", tm, s.teams[tm].res[r], Resource(r))
			}
			n[r] += int(s.teams[tm].res[r])
		}
		for i := range s.teams[tm].av {
			if c := s.teams[tm].av[i].carry; c != noRes {
				n[c]++
			}
		}
	}
	for r, k := range n {
		if k != s.c.field.BallsPerResource {
			t.Fatalf("%d %s balls exist, want %d", k, Resource(r), s.c.field.BallsPerResource)
		}
	}
}

func TestConformance(t *testing.T) {
	runs := []struct {
		name  string
		seeds int
		opts  map[string]string
	}{
		// Short rounds keep the random playouts quick; one tick a second lets random runners
		// reach the piles, so markets, cards and trades get exercised.
		{"short", 8, map[string]string{"round_seconds": "2", "tick_rate": "5", "top_speed_cm_s": "5000", "round_cap": "8"}},
		{"coarse", 4, map[string]string{"round_seconds": "20", "tick_rate": "1", "round_cap": "20", "idle_markets": "20"}},
		{"published", 6, map[string]string{"ruleset": "published", "tick_rate": "1", "team_size": "3", "knights": "any", "round_cap": "20", "idle_markets": "20"}},
	}
	for _, run := range runs {
		t.Run(run.name, func(t *testing.T) {
			enginetest.Run(t, enginetest.Suite{
				Game:      "fccatan",
				Options:   run.opts,
				Seeds:     run.seeds,
				Perturb:   Perturb,
				OpenEnded: true,
				Check:     checkBalls,
			})
		})
	}
}
