package service

import (
	"context"
	"crypto/subtle"
	"encoding/hex"
	"slices"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/store"
)

// CallerBots says which registered bot a call's key names (the ladder), so that a bot may
// read the notes of the seats it plays.
type CallerBots interface {
	// CallerBot is the identity (BotIdentities) of the bot whose key the call carries.
	CallerBot(ctx context.Context) (id int64, ok bool)
}

// errNotYourSeat refuses a seat's notes to anyone but that seat.
var errNotYourSeat = status.Error(codes.PermissionDenied,
	"a seat's notes are its own while the match runs: name the seat with its seat token, or call with the key of the bot that plays it")

// GetSeatNotes is one seat's own record of a match, for that seat alone: the caller shows the
// seat's token, or the key of the bot seated there. On a cluster it is relayed to the match's
// owner, which holds the running match's steps.
func (s *Server) GetSeatNotes(ctx context.Context, req *orreryv1.GetSeatNotesRequest) (*orreryv1.GetSeatNotesResponse, error) {
	id := req.GetMatchId()
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "match_id is required")
	}
	at, err := s.locate(ctx, id)
	if err != nil {
		return nil, err
	}
	if at.orphan {
		return nil, matchFailed(id)
	}
	if conn, err := s.elsewhere(ctx, at); err != nil {
		return nil, err
	} else if conn != nil {
		resp, err := orreryv1.NewArenaServiceClient(conn).GetSeatNotes(s.cluster.ForwardContext(ctx), req)
		return resp, cluster.RelayStatus(err)
	}
	seat, err := s.notesSeat(ctx, at, req)
	if err != nil {
		return nil, err
	}
	if req.Seat != nil && int(req.GetSeat()) != int(seat) {
		return nil, errNotYourSeat // a token names one seat, and only that one
	}
	out := &orreryv1.GetSeatNotesResponse{MatchId: id, Seat: int32(seat)}
	if at.m != nil {
		out.Steps, out.Running = at.m.SeatNotes(seat)
		return out, nil
	}
	// Ended and gone from memory: the stored log holds the same record.
	if at.rec.Failed() {
		return nil, matchFailed(id)
	}
	r, err := match.Replay(ctx, s.store, at.rec)
	if err != nil {
		return nil, status.Errorf(codes.DataLoss, "replay of %s: %v", id, err)
	}
	out.Steps = r.SeatNotes(seat)
	return out, nil
}

// notesSeat is the seat the caller of GetSeatNotes proves is theirs.
func (s *Server) notesSeat(ctx context.Context, at located, req *orreryv1.GetSeatNotesRequest) (engine.Seat, error) {
	id := req.GetMatchId()
	if tok := req.GetSeatToken(); tok != "" {
		h := hashToken(tok)
		if s.store == nil { // matches in memory only: their tokens are too
			if ref, ok := s.reg.seat(h); ok && ref.e.m.ID() == id {
				return ref.seat, nil
			}
			return 0, errNotYourSeat
		}
		rec, err := s.record(ctx, at)
		if err != nil {
			return 0, err
		}
		want := []byte(hex.EncodeToString(h[:]))
		for i, th := range rec.TokenHashes {
			if subtle.ConstantTimeCompare([]byte(th), want) == 1 {
				return engine.Seat(i), nil
			}
		}
		return 0, errNotYourSeat
	}
	if s.cfg.Callers == nil || s.store == nil {
		return 0, errNotYourSeat
	}
	bot, ok := s.cfg.Callers.CallerBot(ctx)
	if !ok {
		return 0, errNotYourSeat
	}
	rec, err := s.record(ctx, at)
	if err != nil {
		return 0, err
	}
	var mine []int
	for i, b := range rec.Bots {
		if b == bot {
			mine = append(mine, i)
		}
	}
	switch {
	case req.Seat != nil && slices.Contains(mine, int(req.GetSeat())):
		return engine.Seat(req.GetSeat()), nil
	case req.Seat != nil || len(mine) == 0:
		return 0, errNotYourSeat
	case len(mine) > 1:
		return 0, status.Errorf(codes.InvalidArgument, "the bot plays seats %v of match %s: give the seat", mine, id)
	}
	return engine.Seat(mine[0]), nil
}

// record is a located match's stored record.
func (s *Server) record(ctx context.Context, at located) (*store.Match, error) {
	if at.rec != nil {
		return at.rec, nil
	}
	rec, err := s.store.Match(ctx, at.m.ID())
	if err != nil {
		return nil, toStatus(err)
	}
	return rec, nil
}
