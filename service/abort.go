package service

import (
	"context"
	"crypto/subtle"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/cluster"
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

// maxAbortReason bounds the reason an AbortMatch call puts in the result.
const maxAbortReason = 200

// adminCaller marks a context whose call carried the server's admin key (AdminKey).
type adminCaller struct{}

// isAdmin says whether ctx's call carried the server's admin key.
func isAdmin(ctx context.Context) bool { return ctx.Value(adminCaller{}) != nil }

// AbortMatch ends a running match as aborted, for the server's admin (the admin key) or for
// its creator, who shows the creator token CreateMatch returned, or every seat's token:
// whoever holds them all could end the match by playing it out anyway, so the abort gives
// them nothing more. On a cluster it is relayed to
// the match's owner with the caller's metadata.
func (s *Server) AbortMatch(ctx context.Context, req *orreryv1.AbortMatchRequest) (*orreryv1.AbortMatchResponse, error) {
	id, reason := req.GetMatchId(), strings.TrimSpace(req.GetReason())
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "match_id is required")
	}
	if len(reason) > maxAbortReason {
		return nil, status.Errorf(codes.InvalidArgument, "reason is %d bytes; at most %d", len(reason), maxAbortReason)
	}
	at, err := s.locate(ctx, id)
	if err != nil {
		return nil, err
	}
	if conn, err := s.elsewhere(ctx, at); err != nil {
		return nil, err
	} else if conn != nil {
		resp, err := orreryv1.NewArenaServiceClient(conn).AbortMatch(s.cluster.ForwardContext(ctx), req)
		return resp, cluster.RelayStatus(err)
	}
	who := "the server's admin"
	if !isAdmin(ctx) {
		if err := s.creatorOf(at, req); err != nil {
			return nil, err
		}
		who = "its creator"
	}
	if at.m == nil || at.m.Ended() {
		return nil, status.Errorf(codes.FailedPrecondition, "match %s is not running: nothing to abort", id)
	}
	detail := "aborted by " + who
	if reason != "" {
		detail += ": " + reason
	}
	at.m.Abort(detail)
	s.log.Info("match aborted", "match", id, "by", who)
	// The result is told once stored: wait for it, so that the answer shows the match ended.
	for {
		sum, changed := at.m.Await()
		if sum != nil {
			return &orreryv1.AbortMatchResponse{Match: sum}, nil
		}
		select {
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		case <-changed:
		}
	}
}

// creatorOf checks that req carries the creator token of the match at, or every seat's
// token of it, in seat order.
func (s *Server) creatorOf(at located, req *orreryv1.AbortMatchRequest) error {
	tokens := req.GetSeatTokens()
	if len(tokens) == 0 && req.GetCreatorToken() == "" {
		return status.Error(codes.PermissionDenied, "aborting a match takes the server's admin key (authorization: bearer KEY), "+
			"or, from its creator, the creator_token or every seat's token, as CreateMatch returned them")
	}
	if at.m == nil {
		return status.Errorf(codes.FailedPrecondition, "match is not running: nothing to abort")
	}
	if t := req.GetCreatorToken(); t != "" {
		want, got := s.reg.creator(at.m.ID()), hashToken(t)
		if want == ([32]byte{}) || subtle.ConstantTimeCompare(want[:], got[:]) != 1 {
			return status.Error(codes.PermissionDenied, "creator_token is not this match's creator token")
		}
		return nil
	}
	if len(tokens) != at.m.Seats() {
		return status.Errorf(codes.PermissionDenied, "%d seat tokens for a match of %d seats: the creator gives every seat's", len(tokens), at.m.Seats())
	}
	for i, t := range tokens {
		ref, ok := s.reg.seat(hashToken(t))
		if !ok || ref.e.m != at.m || int(ref.seat) != i {
			return status.Errorf(codes.PermissionDenied, "seat_tokens[%d] is not seat %d's token of this match", i, i)
		}
	}
	return nil
}
