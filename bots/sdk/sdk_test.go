package sdk_test

import (
	"context"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/internal/streamcount"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	_ "github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// arena serves a fresh arena over bufconn and returns a client connection to it.
func arena(t *testing.T, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	srv, err := service.New(service.Config{})
	if err != nil {
		t.Fatal(err)
	}
	lis := bufconn.Listen(1 << 20)
	gs := service.NewGRPCServer(srv, service.GRPCOptions{})
	go gs.Serve(lis)
	opts = append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }))
	conn, err := grpc.NewClient("passthrough:///bufnet", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); srv.Close(); gs.Stop() })
	return conn
}

func create(t *testing.T, conn *grpc.ClientConn) *orreryv1.CreateMatchResponse {
	t.Helper()
	seed := uint64(3)
	c, err := orreryv1.NewArenaServiceClient(conn).CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{
		Game: "icetraders", Seats: 2, Seed: &seed, Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A bot whose answers are always rejected still finishes its match: the SDK falls back to the
// first listed action rather than let the clock run out.
func TestPlay_RejectedAnswerFallsBackToAListedAction(t *testing.T) {
	conn := arena(t)
	c := create(t, conn)
	var rejected atomic.Int32
	bad := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
		return &orreryv1.Answer{Choice: &orreryv1.Answer_LegalIndex{LegalIndex: int32(len(d.GetLegal()))}}
	})
	var wg sync.WaitGroup
	ends := make([]*orreryv1.MatchEnded, 2)
	for i, b := range []bots.Bot{bad, random.New(1)} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			ends[i], err = sdk.Play(context.Background(), conn, c.GetSeats()[i].GetToken(), b, sdk.Options{
				OnRejected: func(r *orreryv1.ActionRejected) {
					if r.GetCode() != orreryv1.RejectCode_REJECT_CODE_MALFORMED {
						t.Errorf("rejection %v", r)
					}
					rejected.Add(1)
				}})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if rejected.Load() == 0 || ends[0].GetResult() == nil {
		t.Errorf("%d rejections, end %v", rejected.Load(), ends[0])
	}
}

// A bot that does not say what it receives joins quietly: no ActionAccepted comes, and
// OnEvent still sees every event of the match, in order, from the decisions and the batch
// before the end.
func TestPlay_QuietUnlessTheBotSays(t *testing.T) {
	var counts streamcount.Counts
	conn := arena(t, counts.DialOption())
	c := create(t, conn)
	var wg sync.WaitGroup
	seqs := make([][]int64, 2)
	for i := range 2 {
		r := random.New(uint64(i))
		plain := bots.Func(r.Act) // not a bots.Receiver, as random is
		wg.Go(func() {
			end, err := sdk.Play(context.Background(), conn, c.GetSeats()[i].GetToken(), plain, sdk.Options{
				OnEvent: func(e *orreryv1.Event) { seqs[i] = append(seqs[i], e.GetSeq()) }})
			if err != nil || end.GetResult() == nil {
				t.Errorf("seat %d: %v, end %v", i, err, end)
			}
		})
	}
	wg.Wait()
	if counts.Accepted.Load() != 0 || counts.Decisions.Load() == 0 {
		t.Errorf("%d acceptances over %d decisions, want none", counts.Accepted.Load(), counts.Decisions.Load())
	}
	for i, seq := range seqs {
		for j, s := range seq {
			if s != int64(j) {
				t.Fatalf("seat %d saw events %v, want 0, 1, 2, ...", i, seq)
			}
		}
		if len(seq) == 0 || len(seq) != len(seqs[0]) {
			t.Errorf("seat %d saw %d events, seat 0 %d", i, len(seq), len(seqs[0]))
		}
	}
}

// A refusal is final: the SDK returns it at once instead of retrying.
func TestPlay_WrongTokenIsNotRetried(t *testing.T) {
	conn := arena(t)
	_, err := sdk.Play(context.Background(), conn, "not-a-token", random.New(1), sdk.Options{})
	if status.Code(err) != codes.Unauthenticated || strings.Contains(err.Error(), "gave up") {
		t.Fatalf("got %v, want Unauthenticated at the first try", err)
	}
}

// Cancelling the context ends Play promptly with the context's error.
func TestPlay_CancelStops(t *testing.T) {
	conn := arena(t)
	c := create(t, conn)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := sdk.Play(ctx, conn, c.GetSeats()[0].GetToken(), random.New(1), sdk.Options{})
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-done; status.Code(err) != codes.Canceled {
		t.Errorf("got %v, want Canceled", err)
	}
}
