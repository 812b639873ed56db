package pantropia

import (
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestPlayout_BuildsLikeAGreedyPlayer: the search's playout policy builds habitats before
// rings, trades with Earth only chips its atmosphere price can spare for a color it lacks, ends
// its turn with nothing useful to do, declines offers, and on black swaps its menu only to
// ease its atmosphere price, terraforming otherwise.
func TestPlayout_BuildsLikeAGreedyPlayer(t *testing.T) {
	black := func(s *state, swappable Color) {
		s.phase = PhaseBlack
		s.lastRoll = roll{seat: 0, permanent: Black, die: 0, swappable: swappable, valid: true}
	}
	for _, tc := range []struct {
		name  string
		setup func(s *state)
		want  func(t *testing.T, s *state, a engine.Action)
	}{
		{"a habitat before a ring", func(s *state) {
			x := site(Red, Blue)
			s.build(0, x, false)
			y := int(Geo.Intersections[x].Neighbors[0])
			st := strutBetween(x, y)
			s.rings(0, strutJoints(st, x)...)
			for _, z := range Geo.Intersections[y].Neighbors {
				if int(z) != x {
					s.rings(0, strutJoints(strutBetween(y, int(z)), y)...)
					break
				}
			}
			s.pl[0].chips = rich()
		}, func(t *testing.T, s *state, a engine.Action) {
			if a.Kind != KindHabitat {
				t.Errorf("played %v, want a habitat", a)
			}
		}},
		{"Earth gives a spare color for a missing one", func(s *state) {
			s.build(0, site(Red, Blue), false)
			s.pl[0].chips = chips(1, 0, 0, 0, 0, 6)
		}, func(t *testing.T, s *state, a engine.Action) {
			if a.Kind != KindEarth || Color(a.Arg[0]) != Purple || Color(a.Arg[1]) != Blue {
				t.Errorf("played %v, want purple to Earth for blue", a)
			}
		}},
		{"no Earth trade that leaves the price short", func(s *state) {
			s.build(0, site(Red, Blue), false)
			s.pl[0].chips = chips(5, 0, 0, 0, 0, 0) // five red for a blue would leave no red
		}, func(t *testing.T, s *state, a engine.Action) {
			if a.Kind != KindEnd {
				t.Errorf("played %v, want the end of the turn", a)
			}
		}},
		{"an offer declined", func(s *state) {
			s.pl[0].chips = chips(2, 0, 0, 0, 0, 0)
			s.pl[1].chips = chips(0, 0, 0, 0, 2, 0)
			mustApply(t, s, 0, Offer(1, [NumColors]int16{Red: 1}, [NumColors]int16{Blue: 1}))
		}, func(t *testing.T, s *state, a engine.Action) {
			if a.Kind != KindReply || a.Arg[0] != 0 {
				t.Errorf("played %v, want a decline", a)
			}
		}},
		{"a Pantropy that eases the atmosphere", func(s *state) {
			s.build(0, site(Orange, Green), true)
			black(s, Orange)
		}, func(t *testing.T, s *state, a engine.Action) {
			if a.Kind != KindPantropy {
				t.Fatalf("played %v, want a Pantropy", a)
			}
			mustApply(t, s, 0, a)
			if s.cost(0, ItemAtmosphere)[Orange] == 0 {
				t.Errorf("the atmosphere costs %v after %v, want orange in it", s.cost(0, ItemAtmosphere), a)
			}
		}},
		{"Terraforming when no swap eases it", func(s *state) {
			s.build(0, site(Red, Blue), true)
			black(s, Yellow)
		}, func(t *testing.T, s *state, a engine.Action) {
			if a.Kind != KindTerraform {
				t.Errorf("played %v, want a Terraforming", a)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := blank(t, 3)
			tc.setup(s)
			seat := s.ToAct(nil)[0]
			legal := s.Legal(seat, nil)
			if len(legal) == 0 {
				t.Fatal("no legal action")
			}
			tc.want(t, s, Playout(s, seat, legal, rand.New(rand.NewPCG(1, 2))))
		})
	}
}
