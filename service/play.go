package service

import (
	"context"
	"errors"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// Play is one seat's stream. The first request joins with a seat token; the server then
// sends what the seat has missed, its current decision, and everything after, and applies its
// answers. Failures inside the match are ActionRejected messages; the stream goes on.
func (s *Server) Play(stream grpc.BidiStreamingServer[orreryv1.PlayRequest, orreryv1.PlayResponse]) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return recvStatus(err)
	}
	join := first.GetJoin()
	if join == nil {
		return errNoJoin
	}
	if join.GetToken() == "" {
		return errEmptyToken
	}
	s.mu.Lock()
	ref, ok := s.byToken[hashToken(join.GetToken())]
	s.mu.Unlock()
	if !ok {
		return errBadToken
	}
	m, seat := ref.m, ref.seat
	gen := m.connect(seat)
	defer m.disconnect(seat, gen)

	m.mu.Lock()
	cursor := m.seats[seat].delivered
	m.mu.Unlock()
	if join.EventsSeen != nil {
		if cursor = join.GetEventsSeen(); cursor < 0 {
			return status.Errorf(codes.InvalidArgument, "join: events_seen %d is negative", cursor)
		}
	}
	joined := &orreryv1.Joined{
		MatchId: m.id, Seat: int32(seat), Game: m.game, Seats: int32(len(m.seats)), Options: m.cfg.Options,
		SeedHash: m.seedHash, Clock: clockProto(m.clock), TimeoutPolicy: m.policy,
	}
	if err := stream.Send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Joined{Joined: joined}}); err != nil {
		return err
	}

	answers, recvErr := receive(ctx, stream)
	sent := ""
	for {
		v := m.viewFor(seat, gen, cursor, sent, 0)
		if v.replaced {
			return errReplaced
		}
		cursor = v.cursor
		if len(v.events) > 0 && v.decision == nil {
			if err := stream.Send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Events{Events: &orreryv1.EventBatch{Events: v.events}}}); err != nil {
				return err
			}
		}
		if v.ended != nil {
			return stream.Send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Ended{Ended: v.ended}})
		}
		if v.decision != nil {
			v.decision.Events = v.events
			if err := stream.Send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Decision{Decision: v.decision}}); err != nil {
				return err
			}
			sent = v.decision.GetDecisionId()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done():
			return errShuttingDown
		case <-v.changed:
		case req, ok := <-answers:
			if !ok {
				return recvStatus(<-recvErr)
			}
			resp := s.handle(m, seat, req)
			if acc := resp.GetAccepted(); acc != nil {
				// The events the action caused ride on its acknowledgement: one message.
				acc.Events, cursor = m.deliver(seat, cursor)
			}
			if err := stream.Send(resp); err != nil {
				return err
			}
		}
	}
}

// handle answers one request after the join.
func (s *Server) handle(m *match, seat engine.Seat, req *orreryv1.PlayRequest) *orreryv1.PlayResponse {
	ans := req.GetAnswer()
	if ans == nil {
		reason := "expected an answer; this stream has already joined"
		if req.GetMsg() == nil {
			reason = "empty request: set answer"
		}
		s.metrics.Rejects.WithLabelValues(m.game, orreryv1.RejectCode_REJECT_CODE_MALFORMED.String()).Inc()
		return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: &orreryv1.ActionRejected{
			Code: orreryv1.RejectCode_REJECT_CODE_MALFORMED, Reason: reason,
		}}}
	}
	notation, rej := m.answer(seat, ans)
	if rej != nil {
		return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: rej}}
	}
	return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Accepted{Accepted: &orreryv1.ActionAccepted{
		DecisionId: ans.GetDecisionId(), Notation: notation,
	}}}
}

// receive reads a stream's requests on its own goroutine, so the send loop can wait on the
// match and the bot at once. The channel closes when the stream ends; recvErr then holds
// nil for a clean close or the error.
func receive[Req any](ctx context.Context, stream interface{ Recv() (*Req, error) }) (<-chan *Req, <-chan error) {
	out := make(chan *Req, 8)
	errc := make(chan error, 1)
	go func() {
		defer close(out)
		for {
			req, err := stream.Recv()
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				errc <- err
				return
			}
			select {
			case out <- req:
			case <-ctx.Done():
				errc <- ctx.Err()
				return
			}
		}
	}()
	return out, errc
}

// Watch streams the public view of a match: a view after each change, the public events,
// and the end with the revealed seed.
func (s *Server) Watch(req *orreryv1.WatchRequest, stream grpc.ServerStreamingServer[orreryv1.WatchResponse]) error {
	ctx := stream.Context()
	m := s.lookup(req.GetMatchId())
	if m == nil {
		var err error
		if m, err = s.load(ctx, req.GetMatchId()); err != nil {
			return err
		}
	}
	if req.GetFromEvent() < 0 {
		return status.Errorf(codes.InvalidArgument, "from_event %d is negative", req.GetFromEvent())
	}
	cursor, ply := req.GetFromEvent(), int64(-1)
	for {
		v := m.viewFor(engine.Spectator, 0, cursor, "", ply)
		if v.spectate != nil {
			if err := stream.Send(&orreryv1.WatchResponse{Msg: &orreryv1.WatchResponse_View{View: v.spectate}}); err != nil {
				return err
			}
			ply = v.ply
		}
		if len(v.events) > 0 {
			if err := stream.Send(&orreryv1.WatchResponse{Msg: &orreryv1.WatchResponse_Events{Events: &orreryv1.EventBatch{Events: v.events}}}); err != nil {
				return err
			}
		}
		cursor = v.cursor
		if v.ended != nil {
			return stream.Send(&orreryv1.WatchResponse{Msg: &orreryv1.WatchResponse_Ended{Ended: v.ended}})
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done():
			return errShuttingDown
		case <-v.changed:
		}
	}
}

// load rebuilds a finished match evicted from memory, for watching; it is not kept.
func (s *Server) load(ctx context.Context, id string) (*match, error) {
	if s.store == nil {
		return nil, matchNotFound(id)
	}
	rec, err := s.store.Match(ctx, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, matchNotFound(id)
		}
		return nil, toStatus(err)
	}
	st, steps, err := s.replay(ctx, rec)
	if err != nil {
		return nil, status.Errorf(codes.DataLoss, "replay of %s: %v", id, err)
	}
	m := &match{
		srv: s, id: rec.ID, game: rec.Game, seedHash: rec.SeedHash, names: rec.Names,
		cfg: engine.Config{Seats: rec.Seats, Seed: rec.Seed, Options: rec.Options},
		st:  st, steps: steps, seats: make([]seatState, rec.Seats), changed: make(chan struct{}),
		ended: true, endedAt: rec.Ended, created: rec.Created,
	}
	for i := 0; i < st.EventCount(); i++ {
		m.events = append(m.events, eventRef{engine: i})
	}
	if rec.Result != nil && rec.Result.Reason != int32(orreryv1.EndReason_END_REASON_NORMAL) && rec.Result.Reason != int32(orreryv1.EndReason_END_REASON_CAP) {
		m.result = engine.Result{Ranks: rec.Result.Ranks, Scores: rec.Result.Scores, Reason: engineReason(rec.Result.Reason), Detail: rec.Result.Detail}
	} else {
		m.result = st.Result()
	}
	return m, nil
}

func engineReason(r int32) engine.EndReason {
	switch orreryv1.EndReason(r) {
	case orreryv1.EndReason_END_REASON_NORMAL:
		return engine.EndNormal
	case orreryv1.EndReason_END_REASON_CAP:
		return engine.EndCap
	case orreryv1.EndReason_END_REASON_FORFEIT:
		return engine.EndForfeit
	}
	return engine.EndAborted
}
