package match

import (
	"testing"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Spectators share one public view per change: the view is built once under the match's
// lock, however many watch, and rebuilt when the match moves on.
func TestSpectators_ShareOneViewPerChange(t *testing.T) {
	m := newTestMatch(t, testGame, 2, 1)
	m.mu.Lock()
	defer m.mu.Unlock()
	first := m.spectateLocked()
	if m.spectateLocked() != first {
		t.Error("a second spectator rebuilt the same view")
	}
	seat := m.st.ToAct(nil)[0]
	if err := m.applyLocked(time.Now(), seat, m.st.Legal(seat, nil)[0], orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED, &stepLab{}); err != nil {
		t.Fatal(err)
	}
	if next := m.spectateLocked(); next == first || next.GetPly() != 1 {
		t.Errorf("after a step the view is %v (ply %d)", next == first, next.GetPly())
	}
}
