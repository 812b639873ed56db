package mcts_test

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots/mcts"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/fccatan"
	"github.com/orrery/orrery/engine/icetraders"
	"github.com/orrery/orrery/engine/pantropia"
	"github.com/orrery/orrery/engine/planet"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

var searched = []string{"fccatan", "icetraders", "pantropia", "planet"}

// midGame plays seeded random actions into a game of four seats and returns the first state
// at or after ply where the seat to act has a real choice, with that seat's decision (or the
// last such state, if the game ends first).
func midGame(t testing.TB, game string, seed uint64, ply int) (engine.State, *orreryv1.Decision) {
	t.Helper()
	st, err := engine.New(game, engine.Config{Seats: 4, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 3))
	var last engine.State
	var lastD *orreryv1.Decision
	for i := 0; !st.Terminal(); i++ {
		seat := st.ToAct(nil)[0]
		legal := st.Legal(seat, nil)
		if len(legal) > 1 {
			last, lastD = st.Clone(), wire.Decision(st, seat, legal, int64(i))
			if i >= ply {
				return last, lastD
			}
		}
		if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	if last == nil {
		t.Fatalf("%s seed %d: no seat ever had a choice", game, seed)
	}
	return last, lastD
}

func TestAct_SameSeedAndIterationsSameChoice(t *testing.T) {
	for _, game := range searched {
		t.Run(game, func(t *testing.T) {
			for _, ply := range []int{0, 30, 90, 400} {
				_, d := midGame(t, game, 7, ply)
				cfg := mcts.Config{Iterations: 150, Seed: 42}
				a := mcts.MustNew(game, cfg).Act(d).GetLegalIndex()
				b := mcts.MustNew(game, cfg)
				if got := b.Act(d).GetLegalIndex(); got != a {
					t.Errorf("ply %d: two bots chose %d and %d", ply, a, got)
				}
				if got := b.Act(d).GetLegalIndex(); got != a {
					t.Errorf("ply %d: the same bot chose %d, then %d", ply, a, got)
				}
				// A phase the game's determinizer leaves to the prior (a market, a setup) has no
				// search at all.
				// A search may stop early once its answer is settled, never late.
				if st := b.LastStats(); st.Iterations > cfg.Iterations || st.Failed > 0 {
					t.Errorf("ply %d: %+v, want at most %d iterations and no failed samples", ply, st, cfg.Iterations)
				}
			}
		})
	}
}

// perturbs is each game's own perturbation of what a seat may not know, the one its
// conformance suite runs.
var perturbs = map[string]func(engine.State, engine.Seat, *rand.Rand) engine.State{
	"fccatan":    fccatan.Perturb,
	"icetraders": icetraders.Perturb,
	"pantropia":  pantropia.Perturb,
	"planet":     planet.Perturb,
}

// TestAct_BlindToPerturbation: under the game's Perturb of everything the seat may not know,
// the bot's choice with the same seed and budget is the same: it never reads the true state.
func TestAct_BlindToPerturbation(t *testing.T) {
	for _, game := range searched {
		t.Run(game, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			changed := 0
			for _, ply := range []int{5, 40, 90} {
				st, d := midGame(t, game, 9, ply)
				seat := engine.Seat(d.GetSeat())
				cfg := mcts.Config{Iterations: 120, Seed: 3}
				bot := mcts.MustNew(game, cfg)
				want := bot.Act(d)
				searchedHere := bot.LastStats().Iterations > 0
				truth, _ := st.MarshalBinary()
				for i := 0; i < 3; i++ {
					p := perturbs[game](st.Clone(), seat, r)
					if p == nil {
						continue
					}
					if b, _ := p.MarshalBinary(); string(b) == string(truth) {
						continue
					}
					if searchedHere {
						changed++
					}
					pd := wire.Decision(p, seat, p.Legal(seat, nil), d.GetPly())
					if got := mcts.MustNew(game, cfg).Act(pd); !proto.Equal(got, want) {
						t.Errorf("ply %d perturbation %d: answered %v, want %v", ply, i, got, want)
					}
				}
			}
			if changed == 0 {
				t.Error("the perturbation never changed a searched position: nothing was tested")
			}
		})
	}
}

// TestAct_FullContactCatanPlansTicks: a tick is searched to the iteration budget with no
// failed sample; the market is left to greedy.
func TestAct_FullContactCatanPlansTicks(t *testing.T) {
	_, d := midGame(t, "fccatan", 5, 60)
	o := wire.GameObservation(d.GetObservation()).(*fccatanv1.Observation)
	if o.GetPhase() != fccatanv1.Phase_PHASE_TICK {
		t.Fatalf("ply 60 is in the %v, want a tick", o.GetPhase())
	}
	b := mcts.MustNew("fccatan", mcts.Config{Iterations: 200, Seed: 1, Exhaustive: true})
	if a := b.Act(d); a.GetChoice() == nil {
		t.Fatal("no answer")
	}
	if st := b.LastStats(); st.Iterations != 200 || st.Failed > 0 || st.Nodes < 10 {
		t.Errorf("%+v, want 200 iterations, no failed sample and a tree", st)
	}
}

// TestAct_WideningAndBotPlayouts: the optional root widening and bot playouts stay a
// function of the seed and the decision, and search to the iteration budget.
func TestAct_WideningAndBotPlayouts(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  mcts.Config
	}{
		{"widen", mcts.Config{Iterations: 60, Widen: 4, Seed: 5, Exhaustive: true}},
		{"bot playouts", mcts.Config{Iterations: 20, GreedyPlayouts: true, Depth: 6, Seed: 5, Exhaustive: true}},
	} {
		for _, game := range searched {
			t.Run(tc.name+"/"+game, func(t *testing.T) {
				_, d := midGame(t, game, 3, 60)
				a := mcts.MustNew(game, tc.cfg).Act(d)
				b := mcts.MustNew(game, tc.cfg)
				if got := b.Act(d); !proto.Equal(got, a) {
					t.Errorf("two bots answered %v and %v", a, got)
				}
				if st := b.LastStats(); st.Iterations != tc.cfg.Iterations || st.Failed > 0 {
					t.Errorf("%+v, want %d iterations and no failed sample", st, tc.cfg.Iterations)
				}
			})
		}
	}
}

// TestSearch_StopsWhenTheAnswerIsSettled: with iterations to spare, a search stops once its
// most visited action cannot be overtaken, and where that action is the prior's choice the
// answer is the one the whole budget gives.
func TestSearch_StopsWhenTheAnswerIsSettled(t *testing.T) {
	const budget = 3000
	for _, game := range []string{"icetraders", "planet"} {
		t.Run(game, func(t *testing.T) {
			stopped := 0
			for _, ply := range []int{10, 30, 60} {
				_, d := midGame(t, game, 11, ply)
				whole := mcts.MustNew(game, mcts.Config{Iterations: budget, Seed: 9, Exhaustive: true})
				want := whole.Act(d)
				early := mcts.MustNew(game, mcts.Config{Iterations: budget, Seed: 9})
				got := early.Act(d)
				st := early.LastStats()
				if st.Iterations > budget {
					t.Errorf("ply %d: %d iterations, over the budget of %d", ply, st.Iterations, budget)
				}
				if st.Iterations < whole.LastStats().Iterations {
					stopped++
					if !st.Overruled && !whole.LastStats().Overruled && !proto.Equal(got, want) {
						t.Errorf("ply %d: stopped early with %v, the whole budget gives %v", ply, got, want)
					}
				}
			}
			if stopped == 0 {
				t.Error("no search stopped early")
			}
		})
	}
}
