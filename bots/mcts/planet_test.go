package mcts

import (
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// planetDecision is seat-to-act's decision at the first pick of turn in a seeded four-seat
// game of random placements.
func planetDecision(t *testing.T, turn int) *orreryv1.Decision {
	t.Helper()
	st, err := engine.New("planet", engine.Config{Seats: 4, Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(12, 1))
	for ply := 0; ply < 4*(turn-1); ply++ {
		seat := st.ToAct(nil)[0]
		legal := st.Legal(seat, nil)
		if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	seat := st.ToAct(nil)[0]
	return wire.Decision(st, seat, st.Legal(seat, nil), int64(4*(turn-1)))
}

// TestSearch_PlanetOtherSeatsPlaceAsGreedy: Planet's search keeps only the searching seat's
// placements in its tree; the other seats' placements are the reply model's, asked for them
// alone.
func TestSearch_PlanetOtherSeatsPlaceAsGreedy(t *testing.T) {
	for _, turn := range []int{2, 6, 10} {
		d := planetDecision(t, turn)
		me := engine.Seat(d.GetSeat())
		g := Games()["planet"]
		if g.Reply == nil {
			t.Fatal("Planet's search has no model of the other seats")
		}
		asked := map[engine.Seat]int{}
		model := g.Reply
		g.Reply = func() Policy {
			p := model()
			return func(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action {
				asked[seat]++
				return p(st, seat, legal, r)
			}
		}
		b := New(g, Config{Iterations: 300, Seed: 1, Exhaustive: true})
		b.Act(d)
		if asked[me] > 0 || len(asked) != 3 {
			t.Errorf("turn %d: the model was asked %v, want the three seats other than %d", turn, asked, me)
		}
		for i, nd := range b.nodes {
			if nd.seat != me {
				t.Fatalf("turn %d: node %d is seat %d's placement in seat %d's tree", turn, i, nd.seat, me)
			}
		}
	}
}
