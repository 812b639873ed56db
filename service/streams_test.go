package service

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/match"
)

// A bot that sends and never reads fills its stream's queue: the server closes the stream
// with ResourceExhausted naming the limit, and keeps the seat, which rejoins and plays on.
func TestStreamQueue_BotThatDoesNotReadIsDisconnectedSeatKept(t *testing.T) {
	// The rejected-answer budget is raised out of the way: this is the queue's limit, and
	// which of the two a slow run meets first is a race.
	h := newHarness(t, Config{Limits: limits.Config{StreamQueue: 16, RejectsPerSecond: 1 << 20, RejectBurst: 1 << 20}})
	created := h.create(&orreryv1.CreateMatchRequest{Seats: 2})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stream := h.join(ctx, created.GetSeats()[0].GetToken())

	// Requests the server must reply to (each is rejected), sent without reading a reply,
	// until the server's send to this bot blocks (the buffers of the transport are full)
	// and the replies pile up.
	const most = 200_000
	sent := make(chan int, 1)
	go func() {
		n := 0
		for ; n < most; n++ {
			if stream.Send(&orreryv1.PlayRequest{}) != nil {
				break // the server closed the stream
			}
		}
		sent <- n
	}()
	connected := func() bool {
		got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
		if err != nil {
			t.Fatal(err)
		}
		return got.GetMatch().GetSeatInfo()[0].GetConnected()
	}
	for connected() {
		select {
		case n := <-sent:
			if n == most && connected() {
				t.Fatalf("%d requests sent without reading a reply, and the server still holds the stream", n)
			}
		case <-time.After(10 * time.Millisecond):
		}
	}
	// The replies sent before the limit are all there, then the stream's end.
	var err error
	replies := 0
	for err == nil {
		var resp *orreryv1.PlayResponse
		if resp, err = stream.Recv(); err == nil {
			if resp.GetDecision() == nil && resp.GetRejected() == nil {
				t.Fatalf("reply %d: %v, want a rejection", replies, resp)
			}
			replies++
		}
	}
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "--max-stream-queue") {
		t.Errorf("after %d replies: %v, want ResourceExhausted naming --max-stream-queue", replies, err)
	}

	// The seat is kept: it rejoins and gets its decision.
	again := h.join(ctx, created.GetSeats()[0].GetToken())
	if d, _ := nextDecision(t, again); d.GetSeat() != 0 {
		t.Errorf("decision for seat %d after rejoining, want 0", d.GetSeat())
	}
	got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	if err != nil || got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
		t.Errorf("match after the disconnect: %v %v, want running", got.GetMatch().GetStatus(), err)
	}
}

// countedGame is testGame counting the public events and views the engine builds: what
// spectators cost the match, under its lock. Its public text is padded to spectatorPad, so
// that a spectator that does not read blocks the server's sends to it within a few views.
type countedGame struct{ engine.Game }

// spectatorPad is the size of countedGame's public text: a whole match of testGame's own
// views (about 20 KiB) fits in the flow-control window and the server's write quota (64 KiB
// each), so a spectator that did not read would fall behind only if its stream's goroutine
// happened to lag the match; a few padded views fill them, and it falls behind for sure.
const spectatorPad = 32 << 10

var spectatorBuilds atomic.Int64

func (g countedGame) Info() engine.Info {
	info := g.Game.Info()
	info.Name = "test-counted"
	return info
}

func (g countedGame) New(cfg engine.Config) (engine.State, error) {
	st, err := g.Game.New(cfg)
	return countedState{st}, err
}

type countedState struct{ engine.State }

func (s countedState) Events(seat engine.Seat, from int, buf []proto.Message) []proto.Message {
	if seat == engine.Spectator {
		spectatorBuilds.Add(1)
	}
	return s.State.Events(seat, from, buf)
}

func (s countedState) Observe(seat engine.Seat) proto.Message {
	if seat == engine.Spectator {
		spectatorBuilds.Add(1)
	}
	return s.State.Observe(seat)
}

func (s countedState) Render(seat engine.Seat) string {
	text := s.State.Render(seat)
	if seat == engine.Spectator && len(text) < spectatorPad {
		text += strings.Repeat(" ", spectatorPad-len(text))
	}
	return text
}

func (s countedState) Clone() engine.State { return countedState{s.State.Clone()} }

func init() {
	g, err := engine.Lookup(testGame)
	if err != nil {
		panic(err)
	}
	engine.Register(countedGame{g})
}

// Spectators that never read cost the match one public view and one batch of public events
// per change, however many they are, and each, when it reads at last, gets every public
// event and the newest view, not every view it missed.
func TestWatch_SpectatorsThatDoNotReadShareOneViewPerChange(t *testing.T) {
	h := newHarness(t, Config{Limits: limits.Config{SpectatorsPerCaller: 1 << 20}}) // every spectator is this test
	created := h.create(&orreryv1.CreateMatchRequest{Game: "test-counted"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Small flow-control windows: a spectator that does not read blocks the server's sends
	// to it after a few of the padded views (spectatorPad), as a slow one on a real network
	// does.
	client, conn := h.dial(grpc.WithInitialWindowSize(1<<16), grpc.WithInitialConnWindowSize(1<<16))
	defer conn.Close()
	const spectators = 16
	watches := make([]grpc.ServerStreamingClient[orreryv1.WatchResponse], spectators)
	for i := range watches {
		w, err := client.Watch(ctx, &orreryv1.WatchRequest{MatchId: created.GetMatchId()})
		if err != nil {
			t.Fatal(err)
		}
		watches[i] = w
	}
	// Every spectator has its first view before the match starts, so all of them watch it
	// whole.
	for _, w := range watches {
		if resp, err := w.Recv(); err != nil || resp.GetView().GetPly() != 0 {
			t.Fatalf("first view: %v %v", resp, err)
		}
	}
	spectatorBuilds.Store(0)
	if ends := h.playRandom(ctx, created, nil); ends[0].GetResult() == nil {
		t.Fatal("no result")
	}
	sum, err := h.srv.AwaitEnd(ctx, created.GetMatchId())
	if err != nil {
		t.Fatal(err)
	}
	plies := sum.GetPly()
	// One view and one batch of events per change (a change is a move, or the result stored).
	if builds := spectatorBuilds.Load(); builds > 2*(plies+2) {
		t.Errorf("%d spectators: %d public views and event batches built over %d moves, want at most %d", spectators, builds, plies, 2*(plies+2))
	}

	var wg sync.WaitGroup
	for i, w := range watches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			views, last, next := 0, int64(0), int64(0)
			for {
				resp, err := w.Recv()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Errorf("spectator %d: %v", i, err)
					return
				}
				switch m := resp.GetMsg().(type) {
				case *orreryv1.WatchResponse_View:
					views++
					last = m.View.GetPly()
				case *orreryv1.WatchResponse_Events:
					for _, e := range m.Events.GetEvents() {
						if e.GetSeq() != next {
							t.Errorf("spectator %d: event %d, want %d", i, e.GetSeq(), next)
						}
						next++
					}
				}
			}
			if last != plies {
				t.Errorf("spectator %d: last view at ply %d, want the newest, %d", i, last, plies)
			}
			if int64(views) >= plies {
				t.Errorf("spectator %d: %d views for %d moves: a spectator that fell behind is sent every view it missed", i, views, plies)
			}
		}()
	}
	wg.Wait()
}

// A stream's sender builds a seat's next decision in the message it sent last: every
// decision a bot receives is still exactly its seat's view of the match as it stood, with the
// parts the bot asked for, whatever the decision before it held.
func TestStream_EachDecisionIsBuiltAfreshInTheLastOnesMessage(t *testing.T) {
	for _, tc := range []struct {
		name string
		recv *orreryv1.Receive
	}{
		{"everything", nil},
		{"no text or lists", &orreryv1.Receive{OmitText: true, OmitLegal: true, OmitLegalNotation: true}},
		{"quiet", &orreryv1.Receive{Quiet: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Config{})
			created := h.create(&orreryv1.CreateMatchRequest{Seats: 2, Seed: seed(5)})
			check, checked := decisionChecker(t, h.srv.reg.lookup(created.GetMatchId()), tc.recv)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var wg sync.WaitGroup
			for i, s := range created.GetSeats() {
				r := random.New(uint64(i))
				bot := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer { check(engine.Seat(i), d); return r.Act(d) })
				wg.Go(func() {
					if _, err := sdk.Play(ctx, h.conn, s.GetToken(), bot, sdk.Options{Receive: tc.recv}); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			if n := checked(); n < 4 {
				t.Errorf("checked %d decisions; want the match's", n)
			}
		})
	}
}

// decisionChecker checks each decision a seat of m is sent against the seat's decision built
// afresh from the match as it stands, unless the match has moved on meanwhile; it also
// returns how many it checked.
func decisionChecker(t *testing.T, m *match.Match, recv *orreryv1.Receive) (func(engine.Seat, *orreryv1.Decision), func() int) {
	var mu sync.Mutex // guards checked
	checked := 0
	check := func(seat engine.Seat, d *orreryv1.Decision) {
		var want *orreryv1.Decision
		m.Inspect(func(in match.Inspection) {
			id, legal, ok := in.Owed(seat)
			if !ok || id != d.GetDecisionId() || d.GetPly() != int64(in.Plies) {
				return // the match moved on meanwhile (the other seat's simultaneous choice)
			}
			want = wire.DecisionFor(in.State, seat, legal, int64(in.Plies), nil, recv)
		})
		if want == nil {
			return
		}
		got := proto.CloneOf(d)
		got.DecisionId, got.MatchId, got.Deadline, got.TimeBank, got.Events, got.LastRoundTrip = "", "", nil, nil, nil, nil
		if !proto.Equal(got, want) {
			t.Errorf("seat %d, decision %s: got\n%v\nwant\n%v", seat, d.GetDecisionId(), got, want)
		}
		mu.Lock()
		checked++
		mu.Unlock()
	}
	return check, func() int { mu.Lock(); defer mu.Unlock(); return checked }
}
