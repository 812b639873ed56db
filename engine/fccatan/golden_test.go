package fccatan

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
)

// goldens are short lockstep matches (one tick a second, short rounds) so the files stay
// readable: every decision's view for the team deciding, its action, and the result.
var goldens = []struct {
	seed  uint64
	seats int
	opts  map[string]string
}{
	{1, 3, map[string]string{"team_size": "3", "map": "published", "tick_rate": "1", "round_seconds": "8", "round_cap": "3", "trade_steps": "1"}},
	{2, 4, map[string]string{"ruleset": "published", "tick_rate": "1", "round_cap": "2", "trade_steps": "1"}},
	{3, 3, map[string]string{"team_size": "4,3,4", "knights": "any", "map": "published", "tick_rate": "1", "round_seconds": "8", "round_cap": "2", "trade_steps": "1"}},
}

// playthrough plays seeded uniform choices from the legal lists, every team answering each
// step in seat order (lockstep).
func playthrough(t *testing.T, seed uint64, seats int, opts map[string]string) string {
	st, err := engine.New("fccatan", engine.Config{Seats: seats, Seed: seed, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 2024))
	var b strings.Builder
	fmt.Fprintf(&b, "# fccatan seed %d, %d teams, options %v\n", seed, seats, opts)
	var legal []engine.Action
	for n := 1; !st.Terminal(); n++ {
		seat := st.ToAct(nil)[0]
		legal = st.Legal(seat, legal[:0])
		a := legal[r.IntN(len(legal))]
		fmt.Fprintf(&b, "\n## decision %d: team %d (%d legal)\n%s> %s\n", n, seat, len(legal), st.Render(seat), st.FormatAction(a))
		if err := st.Apply(seat, a); err != nil {
			t.Fatalf("decision %d: %v", n, err)
		}
	}
	res := st.Result()
	fmt.Fprintf(&b, "\n## result\nranks %v, scores %v, %v: %s\n", res.Ranks, res.Scores, res.Reason, res.Detail)
	return b.String()
}

func TestGolden_Playthroughs(t *testing.T) {
	for _, g := range goldens {
		path := filepath.Join("testdata", fmt.Sprintf("playthrough_%d.txt", g.seed))
		got := playthrough(t, g.seed, g.seats, g.opts)
		t.Run(fmt.Sprint(g.seed), func(t *testing.T) { enginetest.Golden(t, path, got) })
	}
}

// FuzzParseAction: whatever parses formats back to text that parses to the same action, and
// nothing panics.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{
		"pass", "setup h1 knights a0 a2", "deploy h0 h4 h4 h0",
		"intents a0:to(1200,3400)+pick a1:stay+tag a2:vel(300,-200) a3:to(0,0)+tag=s2a1",
		"offer s2 give wood=1 want ore=1", "accept s0,s3", "buy card, city h4 ore, marker a1>a2",
		"plenty wood=2,ore=1", "monopoly ore", "discard sheep=2", "barbarians h5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			return
		}
		text := FormatAction(a)
		b, err := ParseAction(text)
		if err != nil || b != a {
			t.Fatalf("%q parsed to %v, formatted %q, parsed back to %v, %v", s, a, text, b, err)
		}
		if _, err := ActionFromProto(ActionToProto(a)); err != nil && a.Kind != kindBuy {
			t.Logf("%q: %v", text, err) // out-of-range numbers are the typed decoder's to reject
		}
	})
}
