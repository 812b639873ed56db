package service

import (
	"context"

	"github.com/orrery/orrery/engine"
)

// Abort ends a running match as aborted, with detail as its reason. In-process callers use
// it for a match nobody can play any more: a ladder match whose seats' streams a restart
// closed would otherwise be played out by the clock and rated on its timeouts. A match not
// running here is left as it is.
func (s *Server) Abort(ctx context.Context, id, detail string) {
	m := s.lookup(id)
	if m == nil {
		return
	}
	now := s.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ended {
		return
	}
	m.finishLocked(now, engine.Result{Ranks: make([]int, len(m.seats)), Scores: make([]float64, len(m.seats)), Reason: engine.EndAborted, Detail: detail})
	m.refreshLocked(now)
	m.notifyLocked()
}
