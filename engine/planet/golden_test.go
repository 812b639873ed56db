package planet

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
)

// TestGolden_Playthroughs replays seeded random games and compares every decision's render for
// the acting seat, the action taken and the result with testdata/playthrough_<seed>.txt.
// Regenerate with: go test ./engine/planet -run Golden -update
func TestGolden_Playthroughs(t *testing.T) {
	for _, tc := range []struct {
		seed  uint64
		seats int
		opts  map[string]string
	}{
		{1, 2, nil},
		{2, 3, map[string]string{OptMystery: "true"}},
		{3, 4, map[string]string{OptBeginners: "true"}},
	} {
		t.Run(fmt.Sprint(tc.seed), func(t *testing.T) {
			got := playthrough(t, tc.seed, tc.seats, tc.opts)
			path := filepath.Join("testdata", fmt.Sprintf("playthrough_%d.txt", tc.seed))
			enginetest.Golden(t, path, got)
		})
	}
}

func playthrough(t *testing.T, seed uint64, seats int, opts map[string]string) string {
	st, err := engine.New("planet", engine.Config{Seats: seats, Seed: seed, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	fmt.Fprintf(&b, "# planet, seed %d, %d seats, options %v\n", seed, seats, opts)
	var legal []engine.Action
	for ply := 0; !st.Terminal(); ply++ {
		seat := st.ToAct(nil)[0]
		legal = st.Legal(seat, legal[:0])
		a := legal[r.IntN(len(legal))]
		fmt.Fprintf(&b, "\n=== ply %d, seat %d, %d legal actions\n%s", ply, seat, len(legal), st.Render(seat))
		fmt.Fprintf(&b, ">>> %s\n", st.FormatAction(a))
		if err := st.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
	}
	res := st.Result()
	fmt.Fprintf(&b, "\n=== the end\n%s\nresult: ranks %v, scores %v, reason %v: %s\n", st.Render(engine.Spectator), res.Ranks, res.Scores, res.Reason, res.Detail)
	return b.String()
}
