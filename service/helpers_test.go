package service

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	_ "github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// testGame is the game the server tests play: turn-based, with hidden information.
const testGame = "icetraders"

const testSeats = 4

type harness struct {
	t      *testing.T
	srv    *Server
	client orreryv1.ArenaServiceClient
	conn   *grpc.ClientConn
	lis    *bufconn.Listener

	mu    sync.Mutex // guards conns
	conns []net.Conn
	drops atomic.Int32
}

// dropConnections cuts every client connection, as a network failure would.
func (h *harness) dropConnections() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.conns {
		c.Close()
		h.drops.Add(1)
	}
	h.conns = nil
}

// newHarness serves a fresh arena over bufconn: a real gRPC client, no network.
func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	return newHarnessWith(t, cfg, GRPCOptions{})
}

// newHarnessWith is newHarness with the gRPC server's options (an authorizer, say).
func newHarnessWith(t *testing.T, cfg Config, o GRPCOptions) *harness {
	t.Helper()
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lis := bufconn.Listen(1 << 20)
	gs := NewGRPCServer(srv, o)
	go gs.Serve(lis)
	h := &harness{t: t, srv: srv, lis: lis}
	h.client, h.conn = h.dial()
	t.Cleanup(func() {
		h.conn.Close()
		srv.Close()
		gs.Stop()
	})
	return h
}

// dial opens another client connection to the harness's server, with opts.
func (h *harness) dial(opts ...grpc.DialOption) (orreryv1.ArenaServiceClient, *grpc.ClientConn) {
	h.t.Helper()
	conn, err := grpc.NewClient("passthrough:///bufnet", append([]grpc.DialOption{
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			c, err := h.lis.DialContext(ctx)
			if err == nil {
				h.mu.Lock()
				h.conns = append(h.conns, c)
				h.mu.Unlock()
			}
			return c, err
		}),
		grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)...)
	if err != nil {
		h.t.Fatal(err)
	}
	return orreryv1.NewArenaServiceClient(conn), conn
}

func seed(v uint64) *uint64 { return &v }

// create makes a match of testGame with a generous clock unless one is given.
func (h *harness) create(req *orreryv1.CreateMatchRequest) *orreryv1.CreateMatchResponse {
	h.t.Helper()
	if req.Game == "" {
		req.Game = testGame
	}
	if req.Seats == 0 {
		req.Seats = testSeats
	}
	if req.Clock == nil {
		req.Clock = &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}
	}
	resp, err := h.client.CreateMatch(context.Background(), req)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp
}

// playRandom plays every seat of a match with random bots and returns the end each saw.
func (h *harness) playRandom(ctx context.Context, created *orreryv1.CreateMatchResponse, skip map[int]bool) []*orreryv1.MatchEnded {
	h.t.Helper()
	ends := make([]*orreryv1.MatchEnded, len(created.GetSeats()))
	errs := make(chan error, len(ends))
	n := 0
	for i, s := range created.GetSeats() {
		if skip[i] {
			continue
		}
		n++
		go func() {
			end, err := sdk.Play(ctx, h.conn, s.GetToken(), random.New(uint64(i)), sdk.Options{})
			ends[i] = end
			errs <- err
		}()
	}
	for ; n > 0; n-- {
		if err := <-errs; err != nil && ctx.Err() == nil {
			h.t.Error(err)
		}
	}
	return ends
}

// join opens a Play stream for token and reads the Joined message.
func (h *harness) join(ctx context.Context, token string) grpc.BidiStreamingClient[orreryv1.PlayRequest, orreryv1.PlayResponse] {
	h.t.Helper()
	stream, err := h.client.Play(ctx)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: token}}}); err != nil {
		h.t.Fatal(err)
	}
	resp, err := stream.Recv()
	if err != nil || resp.GetJoined() == nil {
		h.t.Fatalf("join: %v %v", resp, err)
	}
	return stream
}

// nextDecision reads until a decision arrives, collecting events on the way.
func nextDecision(t *testing.T, stream grpc.BidiStreamingClient[orreryv1.PlayRequest, orreryv1.PlayResponse]) (*orreryv1.Decision, []*orreryv1.Event) {
	t.Helper()
	var events []*orreryv1.Event
	for {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatalf("waiting for a decision: %v", err)
		}
		switch m := resp.GetMsg().(type) {
		case *orreryv1.PlayResponse_Decision:
			return m.Decision, append(events, m.Decision.GetEvents()...)
		case *orreryv1.PlayResponse_Events:
			events = append(events, m.Events.GetEvents()...)
		case *orreryv1.PlayResponse_Ended:
			t.Fatalf("match ended while waiting for a decision")
		}
	}
}

// answer sends an answer and returns the server's reply to it (accepted or rejected).
func answer(t *testing.T, stream grpc.BidiStreamingClient[orreryv1.PlayRequest, orreryv1.PlayResponse], ans *orreryv1.Answer) *orreryv1.PlayResponse {
	t.Helper()
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: ans}}); err != nil {
		t.Fatal(err)
	}
	for {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetAccepted() != nil || resp.GetRejected() != nil {
			return resp
		}
	}
}

func memStore(t *testing.T) *store.DB {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
