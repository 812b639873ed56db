package mcts

import (
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// icetradersPosition is a seeded random game of four seats played to the first real choice at
// or after ply, with the state and that seat's decision.
func icetradersPosition(t *testing.T, seed uint64, ply int) (engine.State, *orreryv1.Decision) {
	t.Helper()
	st, err := engine.New(icetraders.Name, engine.Config{Seats: 4, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 5))
	for i := 0; !st.Terminal(); i++ {
		seat := st.ToAct(nil)[0]
		legal := st.Legal(seat, nil)
		if len(legal) > 1 && i >= ply {
			return st, wire.Decision(st, seat, legal, int64(i))
		}
		if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("seed %d: the game ended before ply %d", seed, ply)
	return nil, nil
}

// TestSearch_OtherSeatsReplyByTheModelNotByBranching: with a game's Reply, the tree holds the
// searching seat's moves alone, the model is asked only for the other seats, and the tree
// grows below the root's moves (the searching seat's next turns); TreeDepth 1 keeps it to the
// root's moves.
func TestSearch_OtherSeatsReplyByTheModelNotByBranching(t *testing.T) {
	for _, ply := range []int{2, 12} {
		_, d := icetradersPosition(t, 3, ply)
		me := engine.Seat(d.GetSeat())
		for _, depth := range []int{0, 1} {
			g := Games()[icetraders.Name]
			asked := map[engine.Seat]int{}
			model := GreedyReply(icetradersEvaluate())
			g.Reply = func() Policy {
				p := model()
				return func(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action {
					asked[seat]++
					return p(st, seat, legal, r)
				}
			}
			g.TreeDepth = depth
			b := New(g, Config{Iterations: 400, Seed: 1, Exhaustive: true})
			b.Act(d)
			if b.LastStats().Iterations != 400 {
				t.Fatalf("ply %d depth %d: %d iterations, want 400", ply, depth, b.LastStats().Iterations)
			}
			if asked[me] > 0 || len(asked) == 0 {
				t.Errorf("ply %d depth %d: the model was asked %v, want only seats other than %d", ply, depth, asked, me)
			}
			for i, nd := range b.nodes {
				if nd.seat != me {
					t.Fatalf("ply %d depth %d: node %d is seat %d's move in seat %d's tree", ply, depth, i, nd.seat, me)
				}
			}
			deeper := 0
			for k := range b.kids {
				if k.parent != 0 {
					deeper++
				}
			}
			switch {
			case depth == 1 && deeper > 0:
				t.Errorf("ply %d: TreeDepth 1 kept %d nodes below the root's moves", ply, deeper)
			case depth == 0 && deeper == 0:
				t.Errorf("ply %d: no node below the root's moves after 400 iterations", ply)
			}
		}
	}
}

// TestGreedyReply_PlaysTheActionItsEvaluationScoresBest: the model's reply is an action whose
// state one action ahead scores best for the seat replying.
func TestGreedyReply_PlaysTheActionItsEvaluationScoresBest(t *testing.T) {
	evaluate := icetradersEvaluate()
	reply := GreedyReply(evaluate)()
	r := rand.New(rand.NewPCG(1, 2))
	for _, ply := range []int{0, 5, 10, 15} {
		st, d := icetradersPosition(t, 9, ply)
		seat := engine.Seat(d.GetSeat())
		legal := st.Legal(seat, nil)
		best := -1.0
		for _, a := range legal {
			ahead := st.Clone()
			if ahead.Apply(seat, a) == nil {
				best = max(best, evaluate(ahead, seat))
			}
		}
		a := reply(st, seat, legal, r)
		ahead := st.Clone()
		if err := ahead.Apply(seat, a); err != nil {
			t.Fatalf("ply %d: the reply %v is not playable: %v", ply, a, err)
		}
		if got := evaluate(ahead, seat); got != best {
			t.Errorf("ply %d: the reply scores %v, the best action %v", ply, got, best)
		}
	}
}
