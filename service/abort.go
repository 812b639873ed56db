package service

import (
	"context"
)

// Abort ends a running match as aborted, with detail as its reason. In-process callers use
// it for a match nobody can play any more: a ladder match whose seats' streams a restart
// closed would otherwise be played out by the clock and rated on its timeouts. A match not
// running here is left as it is.
func (s *Server) Abort(ctx context.Context, id, detail string) {
	if m := s.reg.lookup(id); m != nil {
		m.Abort(detail)
	}
}
