// Package sdk plays one seat of an Orrery match over gRPC: it joins with the seat token,
// hands each decision to a bots.Bot, sends the answer, and rejoins with backoff if the stream
// drops (exponential, with full jitter: see bots/backoff), so a Go bot is one function.
package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/backoff"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// Options tune Play. The zero value is ready to use.
type Options struct {
	// OnJoined, OnEvent and OnRejected observe the stream.
	OnJoined   func(*orreryv1.Joined)
	OnEvent    func(*orreryv1.Event)
	OnRejected func(*orreryv1.ActionRejected)
	// MaxBackoff caps the wait between reconnects (default 5s); each wait is drawn at random
	// below a cap that starts at 50ms and doubles, so seats dropped together rejoin apart.
	MaxBackoff time.Duration
	// Reconnects caps consecutive failed reconnects (default 20; negative: no limit).
	Reconnects int
	// Receive is what the decisions carry; nil asks the bot (bots.Receiver), and a bot that
	// does not say gets everything, quietly (Receive.quiet): Play has no use for an
	// ActionAccepted, since the next decision says the answer was applied, and the events a
	// seat has not seen ride on its next decision (OnEvent sees them then) or come just
	// before the match's end: one message a decision.
	Receive *orreryv1.Receive
}

// Play plays the seat that token names until the match ends, and returns how it ended.
func Play(ctx context.Context, conn grpc.ClientConnInterface, token string, bot bots.Bot, o Options) (*orreryv1.MatchEnded, error) {
	if o.MaxBackoff == 0 {
		o.MaxBackoff = 5 * time.Second
	}
	if o.Reconnects == 0 {
		o.Reconnects = 20
	}
	client := orreryv1.NewArenaServiceClient(conn)
	seen := int64(-1) // unknown: let the server send what it has not delivered
	wait := backoff.New(50*time.Millisecond, o.MaxBackoff)
	failures := 0
	for {
		ended, progressed, err := playOnce(ctx, client, token, bot, &seen, o)
		if ended != nil || err == nil {
			return ended, err
		}
		if !retryable(err) || ctx.Err() != nil {
			return nil, err
		}
		if progressed {
			failures = 0
			wait.Reset()
		}
		failures++
		if o.Reconnects > 0 && failures > o.Reconnects {
			return nil, fmt.Errorf("sdk: gave up after %d reconnects: %w", o.Reconnects, err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait.Next()):
		}
	}
}

// retryable reports whether a stream error is worth a rejoin: the network or the server
// going away, not a refusal.
func retryable(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.Unknown, codes.Internal, codes.DeadlineExceeded, codes.ResourceExhausted:
		return true
	}
	return errors.Is(err, io.ErrUnexpectedEOF)
}

// quiet is the Receive of a bot that does not say what it wants.
var quiet = &orreryv1.Receive{Quiet: true}

var errNoEnd = status.Error(codes.Unavailable, "stream closed before the match ended")

func playOnce(ctx context.Context, client orreryv1.ArenaServiceClient, token string, bot bots.Bot, seen *int64, o Options) (*orreryv1.MatchEnded, bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := client.Play(ctx, grpc.ForceCodecV2(wire.Codec{Trusted: true}))
	if err != nil {
		return nil, false, err
	}
	join := &orreryv1.Join{Token: token, Receive: o.Receive}
	if o.Receive == nil {
		join.Receive = quiet
		if r, ok := bot.(bots.Receiver); ok {
			join.Receive = r.Receive()
		}
	}
	if *seen >= 0 {
		join.EventsSeen = seen
	}
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: join}}); err != nil {
		return nil, false, recvErr(stream)
	}
	// On a wall-clock match messages are read on their own goroutine, so that a decision is
	// answered only when nothing newer is waiting: a slow bot answers the latest decision,
	// not a backlog of stale ones. Turn-based matches read inline, one hop shorter.
	type received struct {
		resp *orreryv1.PlayResponse
		err  error
	}
	var msgs chan received
	startReader := func() {
		msgs = make(chan received, 64)
		go func() {
			for {
				resp, err := stream.Recv()
				select {
				case msgs <- received{resp, err}:
				case <-ctx.Done():
					return
				}
				if err != nil {
					return
				}
			}
		}()
	}
	ctxErr := func() received { return received{err: status.FromContextError(ctx.Err()).Err()} }
	// next returns the next message; unless block, only one already waiting.
	next := func(block bool) (received, bool) {
		switch {
		case msgs == nil && block:
			resp, err := stream.Recv()
			return received{resp, err}, true
		case msgs == nil:
			return received{}, false
		case block:
			select {
			case r := <-msgs:
				return r, true
			case <-ctx.Done():
				return ctxErr(), true
			}
		}
		select {
		case r := <-msgs:
			return r, true
		case <-ctx.Done():
			return ctxErr(), true
		default:
			return received{}, false
		}
	}
	progressed := false
	var current, owed *orreryv1.Decision // the last decision seen, and the one still to answer
	send := func(ans *orreryv1.PlayRequest) error {
		if err := stream.Send(ans); err != nil {
			// gRPC reports why a Send failed on Recv.
			for {
				r, _ := next(true)
				if r.err != nil {
					if errors.Is(r.err, io.EOF) {
						return errNoEnd
					}
					return r.err
				}
			}
		}
		return nil
	}
	for {
		r, ok := next(owed == nil)
		if !ok { // nothing newer waits: answer the decision owed
			ans := bot.Act(owed)
			if ans == nil {
				ans = bots.Index(owed, 0)
			}
			ans.DecisionId, ans.MatchId = owed.GetDecisionId(), owed.GetMatchId()
			owed = nil
			if err := send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: ans}}); err != nil {
				return nil, progressed, err
			}
			continue
		}
		if errors.Is(r.err, io.EOF) {
			return nil, progressed, errNoEnd
		}
		if r.err != nil {
			return nil, progressed, r.err
		}
		progressed = true
		switch msg := r.resp.GetMsg().(type) {
		case *orreryv1.PlayResponse_Joined:
			if o.OnJoined != nil {
				o.OnJoined(msg.Joined)
			}
			if msg.Joined.GetClock().GetWallClock() && msgs == nil {
				startReader()
			}
			if *seen < 0 {
				*seen = 0
			}
		case *orreryv1.PlayResponse_Events:
			events(msg.Events.GetEvents(), seen, o)
		case *orreryv1.PlayResponse_Decision:
			events(msg.Decision.GetEvents(), seen, o)
			current, owed = msg.Decision, msg.Decision
		case *orreryv1.PlayResponse_Accepted:
			events(msg.Accepted.GetEvents(), seen, o)
		case *orreryv1.PlayResponse_Rejected:
			rej := msg.Rejected
			if o.OnRejected != nil {
				o.OnRejected(rej)
			}
			// A rejected answer to the decision still owed: fall back to its first listed
			// action, which the server always accepts, rather than lose the turn to the clock.
			if current != nil && owed == nil && rej.GetDecisionId() == current.GetDecisionId() &&
				rej.GetCode() != orreryv1.RejectCode_REJECT_CODE_STALE_DECISION && bots.Count(current) > 0 {
				fallback := bots.Index(current, 0)
				fallback.MatchId = current.GetMatchId()
				current = nil
				if err := send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: fallback}}); err != nil {
					return nil, progressed, err
				}
			}
		case *orreryv1.PlayResponse_Ended:
			return msg.Ended, progressed, nil
		}
	}
}

// recvErr is the status behind a failed Send: gRPC reports it on Recv.
func recvErr(stream grpc.BidiStreamingClient[orreryv1.PlayRequest, orreryv1.PlayResponse]) error {
	for {
		if _, err := stream.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return errNoEnd
			}
			return err
		}
	}
}

func events(evs []*orreryv1.Event, seen *int64, o Options) {
	for _, e := range evs {
		*seen = e.GetSeq() + 1
		if o.OnEvent != nil {
			o.OnEvent(e)
		}
	}
}
