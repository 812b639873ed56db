package hosted

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/fccatan"
	"github.com/orrery/orrery/engine/icetraders"
	"github.com/orrery/orrery/engine/pantropia"
	"github.com/orrery/orrery/engine/planet"
	"github.com/orrery/orrery/proto/wire"
)

// TestHosted_PerturbationDoesNotReachTheModule plays seeded random games of every game and,
// at each decision, changes only what the deciding seat may not know: the line that reaches
// the module (the probe answers with its hash) must not change by a byte.
func TestHosted_PerturbationDoesNotReachTheModule(t *testing.T) {
	skipShort(t)
	b := start(t, module(t, probe), 1)
	for _, g := range []struct {
		name    string
		seats   int
		perturb func(engine.State, engine.Seat, *rand.Rand) engine.State
	}{
		{"icetraders", 4, icetraders.Perturb},
		{"pantropia", 3, pantropia.Perturb},
		{"planet", 3, planet.Perturb},
		{"fccatan", 4, fccatan.Perturb},
	} {
		t.Run(g.name, func(t *testing.T) {
			game, err := engine.Lookup(g.name)
			if err != nil {
				t.Fatal(err)
			}
			changed := 0
			for seed := uint64(1); seed <= 2; seed++ {
				st, err := game.New(engine.Config{Seats: g.seats, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				r := rand.New(rand.NewPCG(seed, 9))
				for ply := int64(0); ply < 40 && !st.Terminal(); ply++ {
					seats := st.ToAct(nil)
					seat := seats[r.IntN(len(seats))]
					legal := st.Legal(seat, nil)
					if p := g.perturb(st.Clone(), seat, r); p != nil && ply%2 == 0 {
						changed++
						a := echo(t, b, st, seat, ply)
						if pb := echo(t, b, p, seat, ply); pb != a {
							t.Fatalf("seed %d ply %d seat %d: the module read another line when only hidden information changed", seed, ply, seat)
						}
					}
					if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
						t.Fatal(err)
					}
				}
			}
			if changed == 0 {
				t.Errorf("Perturb never changed a state: the test compared nothing")
			}
		})
	}
}

// echo hands seat's decision in st to the probe and returns the hash of the line it read.
func echo(t *testing.T, b *Bot, st engine.State, seat engine.Seat, ply int64) string {
	t.Helper()
	d := wire.Decision(st, seat, st.Legal(seat, nil), ply)
	d.DecisionId, d.MatchId = "d", "echo"
	mv, err := b.Decide(d, 10*time.Second)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.Stderr())
	}
	return mv.Debug
}
