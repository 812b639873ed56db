package pantropia

import (
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestEvaluate_SeesProductionAtTheMenuPrice: with rings and pieces alike, a seat whose
// settlement yields its atmosphere colors stands better than one whose settlement yields
// colors no ring is bought with; a Pantropy that moves its atmosphere price onto colors it
// does not produce lowers its standing; chips of the price count, and at the end the result
// alone does.
func TestEvaluate_SeesProductionAtTheMenuPrice(t *testing.T) {
	// antipode is the second intersection of a color pair: a site like site(a, b).
	antipode := func(a, b Color) int { return int(Geo.PairSites[pairIndex(a, b)][1]) }
	atm := func(s *state, p int8, a, b Color) {
		f := s.cfg.itemFirst[ItemAtmosphere]
		s.pl[p].menu[f], s.pl[p].menu[f+1] = a, b
	}
	for _, tc := range []struct {
		name  string
		setup func(s *state)
		want  func(t *testing.T, s *state)
	}{
		{"yield of the price beats yield of other colors", func(s *state) {
			s.build(0, site(Red, Blue), false)
			s.build(1, site(Orange, Purple), false)
		}, func(t *testing.T, s *state) {
			if e0, e1 := s.Evaluate(0), s.Evaluate(1); e0 <= e1 {
				t.Errorf("red-blue settler %.3f, orange-purple settler %.3f: want the first higher", e0, e1)
			}
		}},
		{"a price moved off the colors produced", func(s *state) {
			s.build(0, site(Red, Blue), false)
			s.build(1, antipode(Red, Blue), false)
			atm(s, 1, Orange, Purple)
		}, func(t *testing.T, s *state) {
			if e0, e1 := s.Evaluate(0), s.Evaluate(1); e0 <= e1 {
				t.Errorf("at the printed price %.3f, priced in orange and purple %.3f: want the first higher", e0, e1)
			}
		}},
		{"chips of the price", func(s *state) {
			s.build(0, site(Yellow, Green), false)
			s.build(1, antipode(Yellow, Green), false)
			s.pl[0].chips = chips(4, 0, 0, 0, 4, 0)
			s.pl[1].chips = chips(0, 4, 0, 0, 0, 4)
		}, func(t *testing.T, s *state) {
			if e0, e1 := s.Evaluate(0), s.Evaluate(1); e0 <= e1 {
				t.Errorf("red and blue chips %.3f, orange and purple chips %.3f: want the first higher", e0, e1)
			}
		}},
		{"an arcology yields double", func(s *state) {
			s.build(0, site(Red, Green), true)
			s.build(1, antipode(Red, Green), false)
		}, func(t *testing.T, s *state) {
			if e0, e1 := s.Evaluate(0), s.Evaluate(1); e0 <= e1 {
				t.Errorf("arcology %.3f, habitat %.3f: want the arcology higher", e0, e1)
			}
		}},
		{"the end is the result", func(s *state) {
			s.build(0, site(Red, Blue), true)
			s.rings(1, 0, 1, 2)
			s.rings(2, 3, 4, 5)
			s.phase = PhaseOver
		}, func(t *testing.T, s *state) {
			for seat, want := range []float64{0, 1, 1} {
				if got := s.Evaluate(engine.Seat(seat)); got != want {
					t.Errorf("seat %d scores %v at the end, want %v", seat, got, want)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := blank(t, 3)
			tc.setup(s)
			for p := range s.seats {
				if v := s.Evaluate(engine.Seat(p)); v < 0 || v > 1 {
					t.Fatalf("seat %d scores %v, outside [0, 1]", p, v)
				}
			}
			tc.want(t, s)
		})
	}
}

// TestEvaluateSplit_SharesAWinBetweenTiedSeats: at the end a lone winner scores 1 and a win
// shared by k seats 1/k each; before the end every seat scores what Evaluate gives it.
func TestEvaluateSplit_SharesAWinBetweenTiedSeats(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rings [3][]int
		want  [3]float64
	}{
		{"a lone winner", [3][]int{nil, {0, 1, 2, 6}, {3, 4, 5}}, [3]float64{0, 1, 0}},
		{"a shared win", [3][]int{nil, {0, 1, 2}, {3, 4, 5}}, [3]float64{0, 0.5, 0.5}},
		{"all level", [3][]int{{7}, {0}, {3}}, [3]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := blank(t, 3)
			s.build(0, site(Red, Blue), true)
			s.build(1, site(Orange, Purple), false)
			for p, js := range tc.rings {
				s.rings(int8(p), js...)
			}
			s.pl[2].chips = chips(2, 0, 0, 0, 2, 0)
			got := EvaluateSplit(s, nil)
			for p := range 3 {
				if want := s.Evaluate(engine.Seat(p)); got[p] != want {
					t.Errorf("before the end, seat %d scores %v, Evaluate %v", p, got[p], want)
				}
			}
			s.phase = PhaseOver
			got = EvaluateSplit(s, got[:0])
			for p, want := range tc.want {
				if got[p] != want {
					t.Errorf("seat %d scores %v at the end, want %v", p, got[p], want)
				}
			}
		})
	}
}
