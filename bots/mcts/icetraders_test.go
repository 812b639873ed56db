package mcts

import (
	"math/rand/v2"
	"testing"

	icetradersbot "github.com/orrery/orrery/bots/icetraders"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// roundOut plays a on a copy of st for seat, then the other seats' greedy replies until seat
// is to act again, and reports whether seat was eliminated by then.
func roundOut(st *icetraders.State, seat engine.Seat, a engine.Action, r *rand.Rand) bool {
	var p icetradersbot.Policy
	sim := st.Clone().(*icetraders.State)
	if sim.Apply(seat, a) != nil {
		return true
	}
	for !sim.Terminal() {
		s := sim.ToAct(nil)[0]
		if s == seat && !sim.MidAction() {
			break
		}
		if sim.Apply(s, p.Choose(sim, int(s), sim.Legal(s, nil), r)) != nil {
			break
		}
	}
	_, _, out := sim.PlayerStatus(int(seat))
	return out
}

// punished plays a seeded four-seat match by greedy's policy to the first play decision
// where greedy's own choice is answered, within the round, by the seat's elimination; it
// returns that state and decision, or nil if the match ends first.
func punished(t *testing.T, seed uint64) (*icetraders.State, *orreryv1.Decision) {
	t.Helper()
	st0, err := engine.New(icetraders.Name, engine.Config{Seats: 4, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	st := st0.(*icetraders.State)
	var p icetradersbot.Policy
	play, sim := rand.New(rand.NewPCG(seed, 3)), rand.New(rand.NewPCG(seed, 4))
	for ply := 0; !st.Terminal(); ply++ {
		seat := st.ToAct(nil)[0]
		legal := st.Legal(seat, nil)
		if len(legal) > 1 && legal[0].Kind > icetraders.KindRepick {
			d := wire.Decision(st, seat, legal, int64(ply))
			g := icetradersbot.NewGreedy(seed).Act(d)
			if roundOut(st, seat, legal[g.GetLegalIndex()], sim) {
				return st, d
			}
		}
		if err := st.Apply(seat, p.Choose(st, int(seat), legal, play)); err != nil {
			t.Fatal(err)
		}
	}
	return nil, nil
}

// TestAct_IceTradersAvoidsTheMoveGreedyRepliesPunish: in matches greedy plays against itself,
// the match is most often lost by a move after which another greedy player eliminates its
// maker within the round; the search, whose other seats answer as greedy does, sees that
// reply and plays a move that survives the round.
func TestAct_IceTradersAvoidsTheMoveGreedyRepliesPunish(t *testing.T) {
	for _, seed := range []uint64{1, 3, 8} {
		st, d := punished(t, seed)
		if st == nil {
			t.Fatalf("seed %d: no move of greedy's was punished", seed)
		}
		seat := engine.Seat(d.GetSeat())
		b := New(icetradersGame(), Config{Iterations: 420, Seed: seed})
		a := b.Act(d)
		legal := st.Legal(seat, nil)
		if !b.LastStats().Overruled {
			t.Errorf("seed %d: the search kept greedy's choice", seed)
			continue
		}
		chosen := legal[a.GetLegalIndex()]
		if roundOut(st, seat, chosen, rand.New(rand.NewPCG(seed, 5))) {
			t.Errorf("seed %d: the search chose %s, after which the seat is eliminated too", seed, icetraders.FormatAction(chosen))
		}
	}
}
