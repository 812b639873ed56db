package pantropia

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
)

// playthrough plays a short seeded game (random choices, ending the turn a quarter of the
// time in the main phase) and writes every decision: the acting seat's Render and the action.
func playthrough(t *testing.T, seats int, seed uint64) string {
	s := newGame(t, seats, seed, map[string]string{"turn_cap": "6"})
	r := rand.New(rand.NewPCG(seed, 99))
	var b strings.Builder
	fmt.Fprintf(&b, "# PanTropia golden playthrough: %d seats, seed %d, turn_cap 6\n", seats, seed)
	for n := 1; !s.Terminal(); n++ {
		d := s.decider()
		legal := s.Legal(engine.Seat(d), nil)
		a := legal[r.IntN(len(legal))]
		if s.phase == PhaseMain && r.IntN(4) == 0 {
			a = End()
		}
		fmt.Fprintf(&b, "\n## decision %d, p%d\n%s> %s\n", n, d, s.Render(engine.Seat(d)), s.FormatAction(a))
		mustApply(t, s, d, a)
	}
	res := s.Result()
	fmt.Fprintf(&b, "\n## result\n%s\nscores %v ranks %v reason %v: %s\n", s.Render(engine.Spectator), res.Scores, res.Ranks, res.Reason, res.Detail)
	return b.String()
}

func TestGolden_Playthroughs(t *testing.T) {
	for _, c := range []struct {
		seats int
		seed  uint64
	}{{3, 1}, {4, 2}, {4, 3}} {
		name := filepath.Join("testdata", fmt.Sprintf("playthrough_%d.txt", c.seed))
		got := playthrough(t, c.seats, c.seed)
		enginetest.Golden(t, name, got)
	}
}
