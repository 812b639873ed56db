package icetraders

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
)

var update = flag.Bool("update", false, "rewrite the golden playthroughs in testdata/")

// TestGolden_Playthroughs replays seeded 4-seat games (the survivor policy, turn cap 12) and
// compares every decision's view for the acting seat, the action, and the result with
// testdata/playthrough_<seed>.txt. Regenerate with go test ./engine/icetraders -update.
func TestGolden_Playthroughs(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			got := playthrough(t, seed)
			path := filepath.Join("testdata", fmt.Sprintf("playthrough_%d.txt", seed))
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(gl) && i < len(wl); i++ {
					if gl[i] != wl[i] {
						t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s", path, i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("%s differs in length: %d lines, want %d", path, len(gl), len(wl))
			}
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
