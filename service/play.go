package service

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// PlayStream is the server side of a Play stream.
type PlayStream = grpc.BidiStreamingServer[orreryv1.PlayRequest, orreryv1.PlayResponse]

// LadderServer serves Play streams that open with a LadderJoin. The ladder plugs in here.
type LadderServer interface {
	ServeLadder(stream PlayStream, join *orreryv1.LadderJoin) error
}

// Play is one seat's stream. The first request joins with a seat token; the server then
// sends what the seat has missed, its current decision, and everything after, and applies its
// answers. Failures inside the match are ActionRejected messages; the stream goes on.
func (s *Server) Play(stream PlayStream) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return recvStatus(err)
	}
	if lj := first.GetLadder(); lj != nil {
		if s.cfg.Ladder == nil {
			return status.Error(codes.FailedPrecondition, "this server runs no ladder")
		}
		return s.cfg.Ladder.ServeLadder(stream, lj)
	}
	join := first.GetJoin()
	if join == nil {
		return errNoJoin
	}
	seat, err := s.Attach(join.GetToken(), join.EventsSeen)
	if err != nil {
		return err
	}
	seat.SetReceive(join.GetReceive())
	defer seat.Detach()
	if err := stream.Send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Joined{Joined: seat.Joined()}}); err != nil {
		return err
	}
	// Answers are applied on the receiving goroutine itself: the next seat's decision then
	// waits for no other goroutine than its own stream's.
	closed := make(chan struct{})
	recvErr := make(chan error, 1)
	go func() {
		defer close(closed)
		for {
			req, err := stream.Recv()
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				recvErr <- recvStatus(err)
				return
			}
			seat.Answer(req)
		}
	}()
	err = seat.serve(ctx, nil, closed, stream.Send)
	if errors.Is(err, errStreamClosed) {
		return <-recvErr
	}
	return err
}

// errStreamClosed says the bot closed its side of the stream.
var errStreamClosed = errors.New("stream closed by the client")

// Seat is one connected seat of a match, driven by Run. Play drives one; the ladder drives
// many over a single stream.
type Seat struct {
	srv    *Server
	m      *match
	seat   engine.Seat
	gen    int64
	cursor int64
	outbox []*orreryv1.PlayResponse // replies to answers, not yet sent; guarded by m.mu
	queued atomic.Bool              // outbox is not empty: read by the stream loop without m.mu
	recv   *orreryv1.Receive        // what the bot asked to receive; nil: everything
}

// SetReceive sets what the seat's stream carries (nil: everything). Call it before Run.
func (st *Seat) SetReceive(r *orreryv1.Receive) { st.recv = r }

// Attach connects to the seat that token names, replacing any older connection of it.
// eventsSeen, if set, is how many events the bot has already seen.
func (s *Server) Attach(token string, eventsSeen *int64) (*Seat, error) {
	if token == "" {
		return nil, errEmptyToken
	}
	if eventsSeen != nil && *eventsSeen < 0 {
		return nil, status.Errorf(codes.InvalidArgument, "join: events_seen %d is negative", *eventsSeen)
	}
	h := hashToken(token)
	s.mu.Lock()
	ref, ok := s.byToken[h]
	s.mu.Unlock()
	if !ok {
		return s.attachStored(h, eventsSeen)
	}
	return s.attach(ref.m, ref.seat, eventsSeen), nil
}

// attach connects a stream to seat of m, from eventsSeen or from what the seat was last sent.
func (s *Server) attach(m *match, seat engine.Seat, eventsSeen *int64) *Seat {
	st := &Seat{srv: s, m: m, seat: seat, gen: m.connect(seat)}
	m.mu.Lock()
	st.cursor = m.seats[seat].delivered
	m.mu.Unlock()
	if eventsSeen != nil {
		st.cursor = *eventsSeen
	}
	return st
}

// attachStored is Attach for a token of no match in memory. A seat of a stored match is
// always recognised: the seat of an ended match (released from memory, or ended before a
// restart) is told how it ended, with the events it missed; the seat of a failed match is
// told it failed. Only a token of no stored match is unknown.
func (s *Server) attachStored(h [32]byte, eventsSeen *int64) (*Seat, error) {
	if s.store == nil {
		return nil, errBadToken
	}
	ctx := context.Background()
	hash := hex.EncodeToString(h[:])
	rec, err := s.store.MatchByToken(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errBadToken
	}
	if err != nil {
		return nil, toStatus(err)
	}
	seat := engine.Seat(slices.Index(rec.TokenHashes, hash))
	l := s.locateStored(rec)
	switch {
	case l.m != nil: // it came into memory meanwhile (created or resumed a moment ago)
		return s.attach(l.m, seat, eventsSeen), nil
	case l.orphan || rec.Failed():
		return nil, matchFailed(rec.ID)
	case rec.Result == nil:
		return nil, status.Errorf(codes.Unavailable, "match %q is starting; try again", rec.ID)
	}
	m, err := s.load(ctx, rec)
	if err != nil {
		return nil, err
	}
	return s.attach(m, seat, eventsSeen), nil
}

// MatchID is the seat's match.
func (st *Seat) MatchID() string { return st.m.id }

// Detach marks the seat disconnected, unless a newer connection has replaced it.
func (st *Seat) Detach() { st.m.disconnect(st.seat, st.gen) }

// Joined is the confirmation a bot gets on joining.
func (st *Seat) Joined() *orreryv1.Joined {
	m := st.m
	return &orreryv1.Joined{
		MatchId: m.id, Seat: int32(st.seat), Game: m.game, Seats: int32(len(m.seats)), Options: m.cfg.Options,
		SeedHash: m.seedHash, Clock: clockProto(m.clock), TimeoutPolicy: m.policy,
	}
}

// Run sends the seat what it has missed, each decision it owes and the events as they come,
// and applies the answers that arrive on answers, until the match ends (nil), the answers
// channel closes (errStreamClosed), a send fails, or ctx ends.
func (st *Seat) Run(ctx context.Context, answers <-chan *orreryv1.PlayRequest, send func(*orreryv1.PlayResponse) error) error {
	return st.serve(ctx, answers, nil, send)
}

// Answer applies one request from the bot and queues the reply for the seat's stream.
func (st *Seat) Answer(req *orreryv1.PlayRequest) {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	resp := st.srv.handleLocked(m, st.seat, req)
	st.outbox = append(st.outbox, resp)
	st.queued.Store(true)
	if resp.GetAccepted() == nil {
		m.notifyLocked() // an accepted answer has woken everyone already
	}
}

// serve is Run, with answers applied either here (from answers) or by Answer on the
// receiving goroutine, in which case closed says when the bot has closed its side.
func (st *Seat) serve(ctx context.Context, answers <-chan *orreryv1.PlayRequest, closed <-chan struct{}, send func(*orreryv1.PlayResponse) error) error {
	m, s := st.m, st.srv
	sent := ""
	for {
		for _, r := range st.takeReplies() {
			if err := send(r); err != nil {
				return err
			}
		}
		v := m.viewFor(st.seat, st.gen, st.cursor, sent, 0, st.recv)
		if v.replaced {
			return errReplaced
		}
		st.cursor = v.cursor
		if len(v.events) > 0 && v.decision == nil {
			if err := send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Events{Events: &orreryv1.EventBatch{Events: v.events, MatchId: m.id}}}); err != nil {
				return err
			}
		}
		if v.ended != nil {
			v.ended.Seat = int32(st.seat)
			return send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Ended{Ended: v.ended}})
		}
		if v.decision != nil {
			v.decision.Events = v.events
			if err := send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Decision{Decision: v.decision}}); err != nil {
				return err
			}
			sent = v.decision.GetDecisionId()
		}
		// A reply queued after takeReplies but before viewFor woke a channel this loop no
		// longer holds: send it now rather than at the match's next change.
		if st.queued.Load() {
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done():
			return errShuttingDown
		case <-closed:
			for _, r := range st.takeReplies() {
				send(r)
			}
			return errStreamClosed
		case <-v.changed:
		case req, ok := <-answers:
			if !ok {
				return errStreamClosed
			}
			st.Answer(req)
		}
	}
}

// takeReplies takes the queued replies, the events each accepted action caused riding on
// its acknowledgement, so that the bot reads its result before anything after it.
func (st *Seat) takeReplies() []*orreryv1.PlayResponse {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	out := st.outbox
	st.outbox = nil
	st.queued.Store(false)
	if st.recv.GetQuiet() {
		// The next decision says the answer was applied, and carries the events.
		kept := out[:0]
		for _, r := range out {
			if r.GetAccepted() == nil {
				kept = append(kept, r)
			}
		}
		return kept
	}
	for _, r := range out {
		if acc := r.GetAccepted(); acc != nil && !st.recv.GetOmitEvents() {
			acc.Events, st.cursor = m.deliverLocked(st.seat, st.cursor)
		}
	}
	return out
}

// handleLocked answers one request after the join.
func (s *Server) handleLocked(m *match, seat engine.Seat, req *orreryv1.PlayRequest) *orreryv1.PlayResponse {
	ans := req.GetAnswer()
	if ans == nil {
		reason := "expected an answer; this stream has already joined"
		if req.GetMsg() == nil {
			reason = "empty request: set answer"
		}
		s.metrics.Rejects.WithLabelValues(m.game, orreryv1.RejectCode_REJECT_CODE_MALFORMED.String()).Inc()
		return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: &orreryv1.ActionRejected{
			Code: orreryv1.RejectCode_REJECT_CODE_MALFORMED, Reason: reason, MatchId: m.id,
		}}}
	}
	if id := ans.GetMatchId(); id != "" && id != m.id {
		return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: &orreryv1.ActionRejected{
			DecisionId: ans.GetDecisionId(), Code: orreryv1.RejectCode_REJECT_CODE_MALFORMED, MatchId: m.id,
			Reason: fmt.Sprintf("answer names match %q but this seat plays %q", id, m.id),
		}}}
	}
	notation, rej := m.answerLocked(seat, ans)
	if rej != nil {
		rej.MatchId = m.id
		return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: rej}}
	}
	return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Accepted{Accepted: &orreryv1.ActionAccepted{
		DecisionId: ans.GetDecisionId(), Notation: notation, MatchId: m.id,
	}}}
}

// Watch streams the public view of a match: a view after each change, the public events,
// and the end with the revealed seed.
func (s *Server) Watch(req *orreryv1.WatchRequest, stream grpc.ServerStreamingServer[orreryv1.WatchResponse]) error {
	ctx := stream.Context()
	at, err := s.locate(ctx, req.GetMatchId())
	if err != nil {
		return err
	}
	m, err := s.watchable(ctx, at)
	if err != nil {
		return err
	}
	if req.GetFromEvent() < 0 {
		return status.Errorf(codes.InvalidArgument, "from_event %d is negative", req.GetFromEvent())
	}
	release, err := s.limits.Watch(m.id)
	if err != nil {
		return err
	}
	defer release()
	cursor, ply := req.GetFromEvent(), int64(-1)
	for {
		v := m.viewFor(engine.Spectator, 0, cursor, "", ply, nil)
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

// load rebuilds a finished match released from memory, for a spectator or a seat that
// rejoins; it is not kept. Only watchable and attachStored call it, with a stored match that
// has a result and did not fail.
func (s *Server) load(ctx context.Context, rec *store.Match) (*match, error) {
	id := rec.ID
	r, err := s.replay(ctx, rec)
	if err != nil {
		return nil, status.Errorf(codes.DataLoss, "replay of %s: %v", id, err)
	}
	m := &match{
		srv: s, id: rec.ID, game: rec.Game, seedHash: rec.SeedHash, seedSalt: rec.SeedSalt, names: rec.Names,
		cfg: engine.Config{Seats: rec.Seats, Seed: rec.Seed, Options: rec.Options},
		st:  r.st, steps: r.steps, events: r.events, seats: make([]seatState, rec.Seats), changed: make(chan struct{}),
		ended: true, recorded: true, endedAt: rec.Ended, created: rec.Created,
	}
	if rec.Result != nil && rec.Result.Reason != int32(orreryv1.EndReason_END_REASON_NORMAL) && rec.Result.Reason != int32(orreryv1.EndReason_END_REASON_CAP) {
		m.result = engine.Result{Ranks: rec.Result.Ranks, Scores: rec.Result.Scores, Reason: engineReason(rec.Result.Reason), Detail: rec.Result.Detail}
	} else {
		m.result = r.st.Result()
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
