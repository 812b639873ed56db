package service

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/match"
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
//
// The handler's goroutine only waits for the stream's end, so that it can return (and gRPC
// end the stream) even while a Recv or a send to a bot that does not read is blocked. It
// does nothing deeper, so that its stack, which lives as long as the stream, stays at its
// smallest: serve, on a goroutine of its own, joins; read, on another started once the
// seat has joined, reads and applies the bot's answers; a further goroutine, which runs
// only while the seat has something new (Seat.wakeLocked), sends the replies, the events
// and the decisions.
func (s *Server) Play(stream PlayStream) error {
	end := make(chan error, 2) // from serve or read, and from the sender
	go s.serve(stream, end)
	select {
	case err := <-end:
		// A bot that closed its side before the end was sent every reply first, then
		// errHalfClosed: rejoin with the token.
		return streamStatus(err)
	case <-s.ctx.Done():
		return errShuttingDown
	}
}

// serve joins a Play stream's seat, or serves a ladder or relayed stream, and gives the
// stream's end on end unless the seat joined: then the seat's reader and sender give it.
func (s *Server) serve(stream PlayStream, end chan<- error) {
	seat, err := s.joinStream(stream)
	if seat == nil {
		end <- err
		return
	}
	seat.Stream(stream.Send, end)
	// The reader lasts as long as the stream, on a goroutine whose stack has not grown to
	// join (Attach, the Joined message), so that it stays at its smallest.
	go func() {
		defer seat.Detach()
		// When the bot closes its side, the sender gives the end, once it has sent every
		// reply.
		if err := read(seat, stream); !errors.Is(err, match.ErrStreamClosed) {
			end <- err
		}
	}()
}

// joinStream reads a Play stream's first request and joins its seat, sending Joined; it
// returns no seat, and how the stream ends, for a ladder or relayed stream (served to its
// end here) or a join that failed.
func (s *Server) joinStream(stream PlayStream) (*Seat, error) {
	first, err := stream.Recv()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, recvStatus(err)
	}
	if lj := first.GetLadder(); lj != nil {
		if s.cfg.Ladder == nil {
			return nil, status.Error(codes.FailedPrecondition, "this server runs no ladder")
		}
		return nil, s.cfg.Ladder.ServeLadder(stream, lj)
	}
	join := first.GetJoin()
	if join == nil {
		return nil, errNoJoin
	}
	if s.cluster != nil && join.GetToken() != "" {
		// A token names its match (seatToken); one from before that is found by its hash.
		if conn, err := s.cluster.SeatElsewhere(stream.Context(), tokenMatch(join.GetToken()), hashToken(join.GetToken())); err != nil {
			return nil, err
		} else if conn != nil {
			return nil, s.cluster.RelayPlay(stream, first, conn)
		}
	}
	seat, err := s.Attach(join.GetToken(), join.EventsSeen)
	// A seat whose stream was closed for its rejected answers is held until its budget has
	// refilled (joinHold at most), then let in: a bot that rejoins at once in a loop then
	// costs the server a join for each closing, not thousands a second.
	var spent *limits.Spent
	if errors.As(err, &spent) {
		hold := time.NewTimer(min(spent.Wait, joinHold))
		select {
		case <-hold.C:
		case <-stream.Context().Done():
			hold.Stop()
			return nil, status.FromContextError(stream.Context().Err()).Err()
		}
		seat, err = s.Attach(join.GetToken(), join.EventsSeen)
	}
	if err != nil {
		return nil, err
	}
	seat.SetReceive(join.GetReceive())
	if err := stream.Send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Joined{Joined: seat.Joined()}}); err != nil {
		seat.Detach()
		return nil, err
	}
	return seat, nil
}

// joinHold is how long a join of a seat whose budget of rejected answers is spent waits for
// it to refill before it is refused.
const joinHold = 5 * time.Second

// read applies each answer the bot sends at once (the next seat's decision then waits for
// no other goroutine; a quick house seat it wakes is played here too, Seat.AnswerHere),
// until the bot's side fails or closes (match.ErrStreamClosed).
func read(st *match.Seat, stream PlayStream) error {
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			// The bot closed its side: the replies queued for it are still sent, and the
			// sender then ends the stream with errStreamClosed.
			st.CloseSend()
			return match.ErrStreamClosed
		}
		if err != nil {
			return recvStatus(err)
		}
		if err := st.AnswerHere(req); err != nil {
			return err // the bot does not read its replies: the stream ends, the seat stays
		}
	}
}

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
	ref, ok := s.reg.seat(h)
	if !ok {
		return s.attachStored(tokenMatch(token), h, eventsSeen)
	}
	// A seat whose stream was closed for its rejected answers waits for its budget to refill:
	// rejoining at once to send more would cost the server a join each time.
	if err := ref.e.m.RejectBudget(ref.seat); err != nil {
		return nil, err
	}
	return ref.e.m.Connect(ref.seat, eventsSeen), nil
}

// attachStored is Attach for a token of no match in memory. A seat of a stored match is
// always recognised: the seat of an ended match (released from memory, or ended before a
// restart) is told how it ended, with the events it missed; the seat of a failed match is
// told it failed. Only a token of no stored match is unknown.
func (s *Server) attachStored(matchID string, h [32]byte, eventsSeen *int64) (*Seat, error) {
	if s.store == nil {
		return nil, errBadToken
	}
	ctx := context.Background()
	hash := hex.EncodeToString(h[:])
	rec, err := s.store.MatchByToken(ctx, matchID, hash)
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
		return l.m.Connect(seat, eventsSeen), nil
	case l.orphan || rec.Failed():
		return nil, matchFailed(rec.ID)
	case rec.Result == nil:
		return nil, status.Errorf(codes.Unavailable, "match %q is starting; try again", rec.ID)
	}
	m, err := s.load(ctx, rec)
	if err != nil {
		return nil, err
	}
	return m.Connect(seat, eventsSeen), nil
}

// Watch streams the public view of a match: a view after each change, the public events,
// and the end with the revealed seed.
func (s *Server) Watch(req *orreryv1.WatchRequest, stream grpc.ServerStreamingServer[orreryv1.WatchResponse]) error {
	ctx := stream.Context()
	at, err := s.locate(ctx, req.GetMatchId())
	if err != nil {
		return err
	}
	if conn, err := s.elsewhere(ctx, at); err != nil {
		return err
	} else if conn != nil {
		return s.cluster.RelayWatch(req, stream, conn)
	}
	m, err := s.watchable(ctx, at)
	if err != nil {
		return err
	}
	if req.GetFromEvent() < 0 {
		return status.Errorf(codes.InvalidArgument, "from_event %d is negative", req.GetFromEvent())
	}
	release, err := s.limits.WatchBy(m.ID(), s.caller(stream.Context()).Name)
	if err != nil {
		return err
	}
	defer release()
	// The views and events are built once per change for every spectator (publishLocked);
	// this stream only reads the newest, outside the match's lock, so a spectator that does
	// not read holds up nothing and, when it reads again, skips to the newest view.
	p, unfollow := m.Follow()
	defer unfollow()
	cursor, ply := req.GetFromEvent(), int64(-1)
	for {
		if p.Gone {
			return errGone(m.ID())
		}
		if p.Ply != ply {
			if err := stream.Send(&orreryv1.WatchResponse{Msg: &orreryv1.WatchResponse_View{View: p.View}}); err != nil {
				return err
			}
			ply = p.Ply
		}
		if cursor < int64(len(p.Events)) {
			if err := stream.Send(&orreryv1.WatchResponse{Msg: &orreryv1.WatchResponse_Events{Events: &orreryv1.EventBatch{Events: p.Events[cursor:]}}}); err != nil {
				return err
			}
			cursor = int64(len(p.Events))
		}
		if p.Ended != nil {
			return stream.Send(&orreryv1.WatchResponse{Msg: &orreryv1.WatchResponse_Ended{Ended: p.Ended}})
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done():
			return errShuttingDown
		case <-p.Changed:
		}
		p = m.Latest()
	}
}
