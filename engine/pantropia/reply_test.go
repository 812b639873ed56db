package pantropia

import (
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestGreedy_OffersNoTradeAndAllocatesNothing: every seat playing the greedy policy plays a
// game to its end without a trade offer, and a warm policy allocates nothing.
func TestGreedy_OffersNoTradeAndAllocatesNothing(t *testing.T) {
	for _, seats := range []int{3, 4} {
		st, err := engine.New("pantropia", engine.Config{Seats: seats, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		g, r := NewGreedy(), rand.New(rand.NewPCG(1, 2))
		var legal []engine.Action
		var toAct []engine.Seat
		allocs := -1.0
		for ply := 0; !st.Terminal(); ply++ {
			toAct = st.ToAct(toAct[:0])
			legal = st.Legal(toAct[0], legal[:0])
			if ply == 300 {
				allocs = testing.AllocsPerRun(20, func() { g.Act(st, toAct[0], legal, r) })
			}
			a := g.Act(st, toAct[0], legal, r)
			if a.Kind == KindOffer {
				t.Fatalf("%d seats, ply %d: the policy offered a trade", seats, ply)
			}
			if err := st.Apply(toAct[0], a); err != nil {
				t.Fatalf("%d seats, ply %d: %v", seats, ply, err)
			}
		}
		if r := st.(*state).reason; r != engine.EndNormal {
			t.Errorf("%d seats: the game ended by %v, want the sphere filled", seats, r)
		}
		if allocs != 0 {
			t.Errorf("%d seats: the policy allocates %.1f times a choice, want none", seats, allocs)
		}
	}
}

// TestGreedy_AnswersAnOfferByWhatItGains: asked, the policy accepts a missing atmosphere chip
// for a surplus one and refuses the reverse, as greedy weighs chips.
func TestGreedy_AnswersAnOfferByWhatItGains(t *testing.T) {
	for _, tc := range []struct {
		name       string
		give, take Color // what the active seat gives and takes
		accept     bool
	}{
		{"a missing red for a surplus green", Red, Green, true},
		{"a surplus green for its only red", Green, Red, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := blank(t, 4)
			s.pl[1].chips = [NumColors]int32{Red: 1, Green: 5}
			s.pl[0].chips = [NumColors]int32{Red: 3, Green: 3}
			s.phase = PhaseOffer
			s.offer = offer{to: 1}
			s.offer.give[tc.give], s.offer.take[tc.take] = 1, 1
			if tc.give == Red {
				s.pl[1].chips[Red] = 0
			}
			legal := s.Legal(1, nil)
			got := NewGreedy().Act(s, 1, legal, rand.New(rand.NewPCG(1, 1)))
			if got != Reply(tc.accept) {
				t.Errorf("the policy answered %s, want %s", s.FormatAction(got), s.FormatAction(Reply(tc.accept)))
			}
		})
	}
}
