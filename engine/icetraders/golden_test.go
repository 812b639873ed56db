package icetraders

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
)

// TestGolden_Playthroughs replays seeded 4-seat games (the survivor policy, turn cap 12) and
// compares every decision's view for the acting seat, the action, and the result with
// testdata/playthrough_<seed>.txt. Regenerate with go test ./engine/icetraders -update.
func TestGolden_Playthroughs(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			got := playthrough(t, seed)
			path := filepath.Join("testdata", fmt.Sprintf("playthrough_%d.txt", seed))
			enginetest.Golden(t, path, got)
		})
	}
}

func playthrough(t *testing.T, seed uint64) string {
	st, err := engine.New(Name, engine.Config{Seats: 4, Seed: seed, Options: map[string]string{OptTurnCap: "12"}})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := rand.New(rand.NewPCG(seed, 11))
	var b strings.Builder
	fmt.Fprintf(&b, "# IceTraders playthrough, 4 seats, seed %d, turn_cap 12\n", seed)
	for ply := 0; !s.Terminal(); ply++ {
		seat, a := survivorPick(s, r)
		fmt.Fprintf(&b, "\n== ply %d: seat %d decides (%d legal)\n%s", ply, seat, len(s.Legal(seat, nil)), s.Render(seat))
		fmt.Fprintf(&b, "-> seat %d: %s\n", seat, FormatAction(a))
		if err := s.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
	}
	res := s.Result()
	fmt.Fprintf(&b, "\n== result: ranks %v, scores %v, reason %v: %s\n%s", res.Ranks, res.Scores, res.Reason, res.Detail, s.Render(engine.Spectator))
	return b.String()
}
