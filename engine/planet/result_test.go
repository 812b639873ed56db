package planet

import (
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestResult_SentenceNamesWinners: the result's sentence, written without fmt, reads as
// before: one winner, a shared win with the seats listed in brackets, the safety cap noted.
func TestResult_SentenceNamesWinners(t *testing.T) {
	tests := []struct {
		name   string
		scores []Score
		ranks  []int
		reason engine.EndReason
		want   string
	}{
		{"one winner", []Score{{Objective: 5, Animals: 8, Cards: 6}, {Animals: 3, Cards: 3}}, []int{1, 2}, engine.EndNormal,
			"seat 0 wins with 13 points and 6 animals"},
		{"shared", []Score{{Animals: 2, Cards: 2}, {Animals: 2, Cards: 2}, {Animals: 1, Cards: 1}, {Animals: 2, Cards: 2}}, []int{1, 1, 4, 1}, engine.EndNormal,
			"seats [0 1 3] share the win with 2 points and 2 animals each"},
		{"cap", []Score{{Animals: 1, Cards: 1}, {Animals: 4, Cards: 2}}, []int{2, 1}, engine.EndCap,
			"seat 1 wins with 4 points and 2 animals (the safety cap ended the game)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resultSentence(tt.scores, engine.Result{Ranks: tt.ranks, Reason: tt.reason}); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
