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

// serving is one run of a server on db, with built-in bots, and a client of it.
type serving struct {
	client orreryv1.ArenaServiceClient
	stop   func()
}

// serve starts a server on db as `orrery serve` does: the server resumes what db holds,
// then the bots start.
func serve(t *testing.T, db *store.DB) serving {
	t.Helper()
	hs := New(func(game, name string, seed uint64) (ladder.Player, error) { return builtin.New(game, name, seed) }, builtin.Names, nil)
	srv, err := service.New(service.Config{Store: db, HouseSeats: hs})
	if err != nil {
		t.Fatal(err)
	}
	hs.Start(srv)
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
		hs.Close()
		srv.Close()
	}
	t.Cleanup(stop)
	return serving{client: orreryv1.NewArenaServiceClient(conn), stop: stop}
}

// playMoves joins token's seat and answers its decisions with their first legal action:
// moves of them, or to the end if moves is 0. It returns the end, if it came.
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
	for played := 0; moves == 0 || played < moves; {
		msg, err := stream.Recv()
		if err != nil {
			t.Fatalf("after %d moves: %v", played, err)
		}
		if e := msg.GetEnded(); e != nil {
			return e
		}
		if d := msg.GetDecision(); d != nil {
			a := &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}
			if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: a}}); err != nil {
				t.Fatal(err)
			}
			played++
		}
	}
	return nil
}

// TestCreateMatch_BotsReseatedAfterRestart: a match whose bot seats the request made is
// stopped mid-match with the server; the restarted server seats the same bots again, and
// they play on: every step of their seats, before and after, is the bot's own choice, never
// the timeout policy's. The clock is long enough that no timeout can happen in the test.
func TestCreateMatch_BotsReseatedAfterRestart(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "orrery.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	first := serve(t, db)
	seed := uint64(11)
	created, err := first.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "icetraders", Seats: 3, Seed: &seed,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Hour)}, TimeoutPolicy: orreryv1.TimeoutPolicy_TIMEOUT_POLICY_RANDOM,
		Bots: []*orreryv1.SeatBot{{Seat: 0, Bot: "greedy"}, {Seat: 2, Bot: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	token := created.GetSeats()[0].GetToken()
	if e := playMoves(t, ctx, first.client, token, 3); e != nil {
		t.Fatalf("the match ended in 3 moves of seat 1: %v", e.GetResult())
	}
	first.stop()
	before, err := db.Steps(ctx, created.GetMatchId())
	if err != nil {
		t.Fatal(err)
	}

	second := serve(t, db)
	ended := playMoves(t, ctx, second.client, token, 0)
	if r := ended.GetResult().GetReason(); ended == nil || (r != orreryv1.EndReason_END_REASON_NORMAL && r != orreryv1.EndReason_END_REASON_CAP) {
		t.Fatalf("after the restart the match ended %v: want it played out by the rules", ended.GetResult())
	}
	steps, err := db.Steps(ctx, created.GetMatchId())
	if err != nil {
		t.Fatal(err)
	}
	botsAfter := 0
	for i, s := range steps {
		if s.Seat != 1 && i >= len(before) {
			botsAfter++
		}
		if s.TimedOut != 0 {
			t.Errorf("step %d of seat %d was the timeout policy's (%d)", s.Seq, s.Seat, s.TimedOut)
		}
	}
	if botsAfter == 0 {
		t.Errorf("%d steps before the restart, %d in all: the bots made none after it", len(before), len(steps))
	}
}
