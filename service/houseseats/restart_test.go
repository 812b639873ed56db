package houseseats

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/builtin"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/ladder"
	"github.com/orrery/orrery/service/store"
)

// serving is one run of a server, and a client of it.
type serving struct {
	client orreryv1.ArenaServiceClient
	conn   *grpc.ClientConn
	stop   func()
}

// serve starts a server on db (nil: none) as `orrery serve` does: the server resumes what
// db holds, then the built-in bots start, if withBots.
func serve(t *testing.T, db *store.DB, withBots bool) serving {
	t.Helper()
	cfg := service.Config{Store: db}
	var hs *Seats
	if withBots {
		hs = New(func(game, name string, seed uint64) (ladder.Player, error) { return builtin.New(game, name, seed) }, builtin.Names, nil)
		cfg.HouseSeats = hs
	}
	srv, err := service.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if hs != nil {
		hs.Start(srv)
	}
	gs := service.NewGRPCServer(srv, service.GRPCOptions{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go gs.Serve(lis)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		conn.Close()
		gs.Stop()
		if hs != nil {
			hs.Close()
		}
		srv.Close()
	}
	t.Cleanup(stop)
	return serving{client: orreryv1.NewArenaServiceClient(conn), conn: conn, stop: stop}
}

// playMoves joins token's seat and answers its decisions with their first legal action:
// moves of them, returning once the next decision has come (the match then waits for this
// seat), or to the end if moves is 0. It returns the end, if it came.
func playMoves(t *testing.T, ctx context.Context, client orreryv1.ArenaServiceClient, token string, moves int) *orreryv1.MatchEnded {
	t.Helper()
	stream, err := client.Play(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.CloseSend()
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: token}}}); err != nil {
		t.Fatal(err)
	}
	for played := 0; ; {
		msg, err := stream.Recv()
		if err != nil {
			t.Fatalf("after %d moves: %v", played, err)
		}
		if e := msg.GetEnded(); e != nil {
			return e
		}
		if d := msg.GetDecision(); d != nil {
			if moves > 0 && played == moves {
				return nil
			}
			a := &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}
			if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: a}}); err != nil {
				t.Fatal(err)
			}
			played++
		}
	}
}

// TestCreateMatch_BotsReseatedAfterRestart: a match whose bot seats the request made is
// stopped mid-match with the server, waiting for the client's seat; the restarted server
// seats the same bots again (their seats are connected before the client's returns), and
// they play on to the end: every step of their seats, before and after, is the bot's own
// choice, never the timeout policy's. The clock is long enough that no timeout can happen
// in the test.
func TestCreateMatch_BotsReseatedAfterRestart(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "orrery.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	first := serve(t, db, true)
	// A game the bots' luck ends within a few moves tests no restart: another is made.
	var created *orreryv1.CreateMatchResponse
	var token string
	for attempt := 0; ; attempt++ {
		if attempt == 20 {
			t.Fatal("20 matches ended within 2 moves of seat 1")
		}
		seed := uint64(11 + attempt)
		c, err := first.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "icetraders", Seats: 3, Seed: &seed,
			Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Hour)}, TimeoutPolicy: orreryv1.TimeoutPolicy_TIMEOUT_POLICY_RANDOM,
			Bots: []*orreryv1.SeatBot{{Seat: 0, Bot: "greedy"}, {Seat: 2, Bot: "random"}}})
		if err != nil {
			t.Fatal(err)
		}
		if e := playMoves(t, ctx, first.client, c.GetSeats()[0].GetToken(), 2); e == nil {
			created, token = c, c.GetSeats()[0].GetToken()
			break
		}
	}
	first.stop()
	before, err := db.Steps(ctx, created.GetMatchId())
	if err != nil {
		t.Fatal(err)
	}

	second := serve(t, db, true)
	for {
		m, err := second.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
		if err != nil {
			t.Fatal(err)
		}
		if m.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
			t.Fatalf("the resumed match is %v", m.GetMatch().GetStatus())
		}
		si := m.GetMatch().GetSeatInfo()
		if si[0].GetConnected() && si[2].GetConnected() {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the bots' seats are not taken again after the restart: %v", si)
		case <-time.After(10 * time.Millisecond):
		}
	}
	ended := playMoves(t, ctx, second.client, token, 0)
	if r := ended.GetResult().GetReason(); ended == nil || (r != orreryv1.EndReason_END_REASON_NORMAL && r != orreryv1.EndReason_END_REASON_CAP) {
		t.Fatalf("after the restart the match ended %v: want it played out by the rules", ended.GetResult())
	}
	steps, err := db.Steps(ctx, created.GetMatchId())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if s.TimedOut != 0 {
			t.Errorf("step %d of seat %d was the timeout policy's (%d)", s.Seq, s.Seat, s.TimedOut)
		}
	}
	if len(steps) <= len(before) {
		t.Errorf("%d steps before the restart, %d in all: the match did not go on", len(before), len(steps))
	}
}
