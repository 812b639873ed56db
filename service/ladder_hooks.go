package service

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// AwaitEnd waits until match id ends and returns its summary: the result, and each seat's
// timeouts. The ladder rates a match and counts its bots' timeouts from it, even when no
// seat of the match is connected. A match no longer in memory is read from the store; one
// that is neither in memory nor finished there is FailedPrecondition.
func (s *Server) AwaitEnd(ctx context.Context, id string) (*orreryv1.MatchSummary, error) {
	for {
		m := s.reg.lookup(id)
		if m == nil {
			got, err := s.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
			if err != nil {
				return nil, err
			}
			if got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
				return nil, status.Errorf(codes.FailedPrecondition, "match %q is not running on this server", id)
			}
			return got.GetMatch(), nil
		}
		sum, changed := m.Await()
		if sum != nil {
			return sum, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.ctx.Done():
			return nil, errShuttingDown
		case <-changed:
		}
	}
}

// Holds reports whether match id is running in this server's memory: on a node of a
// cluster, whether this node runs it now. The ladder plays a match's house seats where the
// match runs.
func (s *Server) Holds(id string) bool {
	m := s.reg.lookup(id)
	return m != nil && !m.Over()
}
