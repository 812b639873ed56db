package pantropia

import (
	"testing"
	"time"

	"github.com/orrery/orrery/engine"
)

// TestLudditeWindow_ShortDeadline: a seat asked in a Luddite window has the window's short
// deadline (reaction_ms), and every other decision keeps the match's clock.
func TestLudditeWindow_ShortDeadline(t *testing.T) {
	st, err := engine.New("pantropia", engine.Config{Seats: 3, Seed: 1, Options: map[string]string{"reaction_ms": "1500"}})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	if got := s.Budget(0); got != 0 {
		t.Errorf("outside a window: budget %v, want the match clock (0)", got)
	}
	s.phase = PhaseWindow
	if got := s.Budget(1); got != 1500*time.Millisecond {
		t.Errorf("in a window: budget %v, want 1.5s", got)
	}
	if _, err := engine.New("pantropia", engine.Config{Seats: 3, Seed: 1, Options: map[string]string{"reaction_ms": "soon"}}); err == nil {
		t.Errorf("reaction_ms=soon accepted")
	}
}
