package service

import (
	"context"
	"errors"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/store"
)

// located is a match as the server finds it: in memory, or only in the store. Every RPC that
// shows a match to a viewer (GetMatch, ListMatches, Watch, GetReplay) starts here, so what a
// viewer sees follows from one reading of the match's true state.
type located struct {
	m   *match.Match // in memory: running, or recently ended
	rec *store.Match // only stored: ended and evicted, failed, or not running here
	// orphan: stored as running but not in memory on this server, which resumed (or failed)
	// every match stored before it started. It is shown as failed and never served.
	orphan bool
}

// locate finds match id in memory or in the store.
func (s *Server) locate(ctx context.Context, id string) (located, error) {
	if m := s.reg.lookup(id); m != nil {
		return located{m: m}, nil
	}
	if s.store == nil {
		return located{}, matchNotFound(id)
	}
	rec, err := s.store.Match(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return located{}, matchNotFound(id)
	}
	if err != nil {
		return located{}, toStatus(err)
	}
	return s.locateStored(rec), nil
}

// locateStored is a stored match, in memory if it is there.
func (s *Server) locateStored(rec *store.Match) located {
	if m := s.reg.lookup(rec.ID); m != nil {
		return located{m: m}
	}
	// A match created since the start is in memory a moment after it is stored. On a node
	// of a cluster, a running match not in memory runs on another node (or is being taken
	// over): never an orphan.
	return located{rec: rec, orphan: s.cluster == nil && rec.Result == nil && rec.Created.Before(s.started)}
}

// elsewhere is the node to relay a call about a located match to: the owner of a running
// match this node does not hold. nil: answer here.
func (s *Server) elsewhere(ctx context.Context, l located) (grpc.ClientConnInterface, error) {
	if l.m != nil || l.rec.Result != nil || s.cluster == nil {
		return nil, nil
	}
	conn, local, err := s.cluster.Owner(ctx, l.rec.ID)
	if err != nil || local {
		return nil, err
	}
	return conn, nil
}

// summary describes the match.
func (l located) summary() *orreryv1.MatchSummary {
	if l.m != nil {
		return l.m.Summary()
	}
	sum := summaryFromStore(l.rec)
	if l.orphan {
		sum.Status = orreryv1.MatchStatus_MATCH_STATUS_FAILED
		sum.Result = &orreryv1.Result{Reason: orreryv1.EndReason_END_REASON_FAILED, Detail: failedDetail}
	}
	return sum
}

// watchable is the match a spectator may follow: one in memory, or a finished one rebuilt
// from the store. A failed match, or a running one this server does not hold, is refused:
// it has no public view to give, and its seed and hidden state stay secret.
func (s *Server) watchable(ctx context.Context, l located) (*match.Match, error) {
	switch {
	case l.m != nil:
		return l.m, nil
	case l.orphan || l.rec.Failed():
		return nil, matchFailed(l.rec.ID)
	case l.rec.Result == nil:
		return nil, status.Errorf(codes.Unavailable, "match %q is starting; try again", l.rec.ID)
	}
	return s.load(ctx, l.rec)
}
