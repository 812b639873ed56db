// Package ladder plays a registered bot on an Orrery ladder: it connects once with the bot's
// API key, and plays every match the server seats it in over that one stream, a fresh
// bots.Bot per match, reconnecting with backoff (exponential, full jitter: bots/backoff) when
// the stream drops.
package ladder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/backoff"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// Options configure Run. APIKey and NewBot are required.
type Options struct {
	// APIKey is the bot's secret from LadderService.RegisterBot.
	APIKey string
	// Games to queue for; empty: every game the ladder runs.
	Games []string
	// MaxMatches is how many matches the bot plays at once (default 1).
	MaxMatches int
	// TournamentsOnly: play only server-run tournaments' matches, never the ladder's.
	TournamentsOnly bool
	// NewBot makes the bot for one match, told the game and seat.
	NewBot func(j *orreryv1.Joined) (bots.Bot, error)
	// OnJoined, OnEnded and OnRejected observe the stream; they run on its receiving
	// goroutine.
	OnJoined   func(*orreryv1.Joined)
	OnEnded    func(*orreryv1.MatchEnded)
	OnRejected func(*orreryv1.ActionRejected)
	// OnRetry is told why the stream ended and how long Run waits before reconnecting.
	OnRetry func(err error, wait time.Duration)
	// OnConnect is told each time the server has taken the stream's LadderJoin: the first
	// connection (n 0) and every reconnection after it (n 1, 2, ...).
	OnConnect func(n int)
	// MaxBackoff caps the wait between reconnects (default 30s).
	MaxBackoff time.Duration
	// Matches, if positive, ends Run (with nil) once that many matches have ended; the bot
	// leaves the ladder by closing its stream.
	Matches int
	// Receive is what every match's decisions carry; nil: everything, quietly (Run has no
	// use for ActionAccepted or a separate events batch: one message a decision).
	Receive *orreryv1.Receive
}

// Run plays on the ladder behind conn until ctx ends (its error), the key is refused
// (Unauthenticated, or another status no retry can fix), or Options.Matches have ended (nil).
// A paused bot waits until its pause ends, then rejoins.
func Run(ctx context.Context, conn grpc.ClientConnInterface, o Options) error {
	if o.APIKey == "" || o.NewBot == nil {
		return errors.New("ladder: APIKey and NewBot are required")
	}
	if err := CheckKey(o.APIKey); err != nil {
		return fmt.Errorf("ladder: APIKey: %w", err)
	}
	if o.MaxBackoff == 0 {
		o.MaxBackoff = 30 * time.Second
	}
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "bearer "+o.APIKey)
	client := orreryv1.NewArenaServiceClient(conn)
	ladder := orreryv1.NewLadderServiceClient(conn)
	ended, connects := 0, 0
	retry := backoff.New(100*time.Millisecond, o.MaxBackoff)
	for {
		progressed, err := session(ctx, client, o, &ended, &connects)
		if err == nil || ctx.Err() != nil {
			if err == nil {
				return nil
			}
			return ctx.Err()
		}
		if progressed {
			retry.Reset()
		}
		wait := retry.Next()
		switch status.Code(err) {
		case codes.Unauthenticated, codes.PermissionDenied, codes.InvalidArgument, codes.Unimplemented, codes.NotFound:
			return err
		case codes.FailedPrecondition:
			// Paused: wait out the pause the server names.
			if got, gerr := ladder.GetBot(ctx, &orreryv1.GetBotRequest{}); gerr == nil && got.GetBot().GetPaused() {
				wait = max(time.Until(got.GetBot().GetPausedUntil().AsTime()), wait)
			}
		}
		if o.OnRetry != nil {
			o.OnRetry(err, wait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// match is one match in play on the stream.
type match struct {
	bot  bots.Bot
	in   chan *orreryv1.Decision // the latest decision, for the match's worker
	last string                  // the latest decision id, on the receiving goroutine
	cur  *orreryv1.Decision
}

var errClosed = status.Error(codes.Unavailable, "the ladder stream closed")

// JoinedHeader is the response header that says the server took the LadderJoin
// (service/ladder.JoinedHeader).
const JoinedHeader = "orrery-ladder-joined"

// session is one ladder stream: it joins, plays until the stream ends, and reports whether
// anything arrived.
func session(ctx context.Context, client orreryv1.ArenaServiceClient, o Options, ended, connects *int) (bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	stream, err := client.Play(ctx, grpc.ForceCodecV2(wire.Codec{Trusted: true}))
	if err != nil {
		cancel()
		return false, err
	}
	var sendMu sync.Mutex
	send := func(req *orreryv1.PlayRequest) error {
		sendMu.Lock()
		defer sendMu.Unlock()
		return stream.Send(req)
	}
	matches := make(map[string]*match)
	var wg sync.WaitGroup
	defer func() {
		for _, m := range matches {
			close(m.in)
		}
		cancel()
		wg.Wait()
	}()
	answer := func(a *orreryv1.Answer) {
		// A failed send shows up as the stream's error on Recv.
		_ = send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: a}})
	}
	join := &orreryv1.LadderJoin{Games: o.Games, MaxMatches: int32(o.MaxMatches), TournamentsOnly: o.TournamentsOnly, Receive: o.Receive}
	if join.Receive == nil {
		join.Receive = &orreryv1.Receive{Quiet: true}
	}
	if err := send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Ladder{Ladder: join}}); err != nil {
		_, err = stream.Recv()
		return false, err
	}
	// The headers come once the server has taken the join (a refusal ends the stream
	// instead, which Recv below reports).
	if md, err := stream.Header(); err == nil && len(md.Get(JoinedHeader)) > 0 {
		if o.OnConnect != nil {
			o.OnConnect(*connects)
		}
		*connects++
	}
	progressed := false
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return progressed, errClosed
		}
		if err != nil {
			return progressed, err
		}
		progressed = true
		switch msg := resp.GetMsg().(type) {
		case *orreryv1.PlayResponse_Joined:
			j := msg.Joined
			if o.OnJoined != nil {
				o.OnJoined(j)
			}
			b, err := o.NewBot(j)
			if err != nil {
				return progressed, status.Errorf(codes.InvalidArgument, "ladder: no bot for match %s (%s): %v", j.GetMatchId(), j.GetGame(), err)
			}
			if old := matches[j.GetMatchId()]; old != nil { // a resumed match: start afresh
				close(old.in)
			}
			m := &match{bot: b, in: make(chan *orreryv1.Decision, 1)}
			matches[j.GetMatchId()] = m
			wg.Add(1)
			go func() {
				defer wg.Done()
				for d := range m.in {
					a := act(m.bot, d)
					a.DecisionId, a.MatchId = d.GetDecisionId(), d.GetMatchId()
					answer(a)
				}
			}()
		case *orreryv1.PlayResponse_Decision:
			d := msg.Decision
			m := matches[d.GetMatchId()]
			if m == nil {
				continue
			}
			m.last, m.cur = d.GetDecisionId(), d
			// Only the latest decision is worth thinking about: replace one not yet taken.
			select {
			case m.in <- d:
			default:
				select {
				case <-m.in:
				default:
				}
				m.in <- d
			}
		case *orreryv1.PlayResponse_Rejected:
			rej := msg.Rejected
			if o.OnRejected != nil {
				o.OnRejected(rej)
			}
			// A rejected answer to the decision still owed: play its first listed action,
			// which is always legal, rather than lose the turn to the clock.
			m := matches[rej.GetMatchId()]
			if m != nil && m.cur != nil && rej.GetDecisionId() == m.last && rej.GetCode() != orreryv1.RejectCode_REJECT_CODE_STALE_DECISION && len(m.cur.GetLegal()) > 0 {
				answer(&orreryv1.Answer{DecisionId: m.last, MatchId: rej.GetMatchId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}})
				m.cur = nil
			}
		case *orreryv1.PlayResponse_Ended:
			e := msg.Ended
			if m := matches[e.GetMatchId()]; m != nil {
				close(m.in)
				delete(matches, e.GetMatchId())
			}
			if o.OnEnded != nil {
				o.OnEnded(e)
			}
			*ended++
			if o.Matches > 0 && *ended >= o.Matches {
				sendMu.Lock()
				err := stream.CloseSend()
				sendMu.Unlock()
				return progressed, err
			}
		}
	}
}

// act asks b for an answer; a panic or no answer picks the first legal action.
func act(b bots.Bot, d *orreryv1.Decision) (a *orreryv1.Answer) {
	defer func() {
		if r := recover(); r != nil || a == nil {
			a = bots.Index(d, 0)
		}
	}()
	return b.Act(d)
}

// CheckKey refuses a key gRPC cannot send in a header: one holding a byte outside printable
// ASCII (a pasted second line, say). Sent, it fails inside the gRPC library, with an
// Internal error that reads as if the server had failed.
func CheckKey(key string) error {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x20 || c > 0x7e {
			return fmt.Errorf("the key holds byte %#02x at position %d: a key is printable ASCII on one line", c, i)
		}
	}
	return nil
}

// Key attaches a bot's API key to ctx, for LadderService calls that act for the bot.
func Key(ctx context.Context, apiKey string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", fmt.Sprintf("bearer %s", apiKey))
}
