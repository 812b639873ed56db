package planet

import (
	"math"
	"testing"
)

// TestEvaluation_ZeroIsEvaluateAll: the zero Evaluation scores every seat as EvaluateAll does,
// mid-game and at the end.
func TestEvaluation_ZeroIsEvaluateAll(t *testing.T) {
	for _, turns := range []int{1, 5, 9, TurnsPerGame} {
		s := newGame(t, 4, 13, nil)
		playTurns(t, s, turns)
		want := EvaluateAll(s, nil)
		for seat, got := range (Evaluation{}).All(s, nil) {
			if got != want[seat] {
				t.Errorf("after %d turns, seat %d: Evaluation{} %v, EvaluateAll %v", turns, seat, got, want[seat])
			}
		}
	}
}

// TestEvaluation_ScaleStretchesTheSameWorth: a smaller scale reads the same worth against the
// best rival (scale x logit of the score) further from an even 0.5, and leaves the end's 1
// and 0 as they are.
func TestEvaluation_ScaleStretchesTheSameWorth(t *testing.T) {
	for _, turns := range []int{3, 7, 11, TurnsPerGame} {
		s := newGame(t, 4, 21, nil)
		playTurns(t, s, turns)
		even := Evaluation{}.All(s, nil)
		sharp := Evaluation{Scale: 1.5}.All(s, nil)
		for seat := range even {
			if s.over {
				if sharp[seat] != even[seat] {
					t.Errorf("at the end, seat %d: %v at scale 1.5, %v at 3", seat, sharp[seat], even[seat])
				}
				continue
			}
			logit := func(v float64) float64 { return math.Log(v / (1 - v)) }
			if a, b := 1.5*logit(sharp[seat]), 3*logit(even[seat]); math.Abs(a-b) > 1e-9 {
				t.Errorf("after %d turns, seat %d: worth %.6f at scale 1.5, %.6f at 3", turns, seat, a, b)
			}
			if math.Abs(sharp[seat]-0.5) < math.Abs(even[seat]-0.5) {
				t.Errorf("after %d turns, seat %d: %v at scale 1.5 is nearer an even 0.5 than %v at 3", turns, seat, sharp[seat], even[seat])
			}
		}
	}
}
