package mcts

import (
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestStopTime_KeepsWithinTheDeadline: the search stops at its budget, or before the
// decision's deadline less a margin, whichever is first; an iteration budget still stops
// before the deadline.
func TestStopTime_KeepsWithinTheDeadline(t *testing.T) {
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *orreryv1.Decision {
		return &orreryv1.Decision{Deadline: timestamppb.New(start.Add(d))}
	}
	for _, tc := range []struct {
		name string
		cfg  Config
		d    *orreryv1.Decision
		want time.Duration // from start; 0 means no limit
	}{
		{"budget, no deadline", Config{}, &orreryv1.Decision{}, DefaultBudget},
		{"budget within a far deadline", Config{}, at(10 * time.Second), DefaultBudget},
		{"deadline before the budget", Config{}, at(80 * time.Millisecond), 50 * time.Millisecond},
		{"a long deadline keeps a tenth", Config{Budget: time.Minute}, at(2 * time.Second), 1800 * time.Millisecond},
		{"iterations, no deadline", Config{Iterations: 100}, &orreryv1.Decision{}, 0},
		{"iterations within a deadline", Config{Iterations: 100}, at(time.Second), 900 * time.Millisecond},
		{"deadline already passed", Config{}, at(-time.Second), -time.Second - 30*time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New(Game{}, tc.cfg)
			got := b.stopTime(tc.d, start)
			if tc.want == 0 {
				if !got.IsZero() {
					t.Errorf("stop at %v, want no limit", got.Sub(start))
				}
				return
			}
			if got.Sub(start) != tc.want {
				t.Errorf("stop at %v, want %v", got.Sub(start), tc.want)
			}
		})
	}
}
