package ladder_test

import (
	"context"
	"net"
	"strings"
	"sync"
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
	"github.com/orrery/orrery/bots/ladder"
	"github.com/orrery/orrery/bots/random"
	_ "github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	srvladder "github.com/orrery/orrery/service/ladder"
	"github.com/orrery/orrery/service/store"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// server is an arena with a ladder over bufconn whose connections a test can cut.
type server struct {
	conn *grpc.ClientConn

	mu    sync.Mutex // guards conns
	conns []net.Conn
}

func (s *server) cut() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.Close()
	}
	s.conns = nil
}

func newServer(t *testing.T, opts ...grpc.DialOption) (*server, string) {
	t.Helper()
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	house := make([]srvladder.House, 3)
	for i, name := range []string{"house-a", "house-b", "house-c"} {
		house[i] = srvladder.House{Bot: name, Game: "icetraders", New: func(seed uint64) srvladder.Player { return random.New(seed) }}
	}
	lad, err := srvladder.New(srvladder.Config{DB: db, House: house, FillAfter: time.Nanosecond, Tick: 5 * time.Millisecond,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}})
	if err != nil {
		t.Fatal(err)
	}
	arena, err := service.New(service.Config{Store: db, Ladder: lad})
	if err != nil {
		t.Fatal(err)
	}
	if err := lad.Start(arena); err != nil {
		t.Fatal(err)
	}
	gs := service.NewGRPCServer(arena, service.GRPCOptions{Authorize: lad.Authorizer(nil), Register: lad.Register})
	lis := bufconn.Listen(1 << 20)
	go gs.Serve(lis)
	s := &server{}
	opts = append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			c, err := lis.DialContext(ctx)
			if err == nil {
				s.mu.Lock()
				s.conns = append(s.conns, c)
				s.mu.Unlock()
			}
			return c, err
		}))
	s.conn, err = grpc.NewClient("passthrough:///bufnet", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.conn.Close()
		lad.Close()
		gs.Stop()
		arena.Close()
		db.Close()
	})
	reg, err := orreryv1.NewLadderServiceClient(s.conn).RegisterBot(context.Background(), &orreryv1.RegisterBotRequest{Name: "client-test"})
	if err != nil {
		t.Fatal(err)
	}
	return s, reg.GetApiKey()
}

func newBot(j *orreryv1.Joined) (bots.Bot, error) { return random.New(uint64(j.GetSeat())), nil }

// TestRun_QuietUnlessAsked: Run's stream asks for quiet matches unless Options.Receive says
// otherwise: no ActionAccepted comes, one message a decision.
func TestRun_QuietUnlessAsked(t *testing.T) {
	for _, c := range []struct {
		name    string
		receive *orreryv1.Receive
		quiet   bool
	}{{"default", nil, true}, {"asked for everything", &orreryv1.Receive{}, false}} {
		t.Run(c.name, func(t *testing.T) {
			var counts streamcount.Counts
			s, key := newServer(t, counts.DialOption())
			if err := ladder.Run(context.Background(), s.conn, ladder.Options{APIKey: key, Matches: 2, NewBot: newBot, Receive: c.receive}); err != nil {
				t.Fatal(err)
			}
			if counts.Decisions.Load() == 0 || (counts.Accepted.Load() == 0) != c.quiet {
				t.Errorf("%d acceptances over %d decisions; quiet %v", counts.Accepted.Load(), counts.Decisions.Load(), c.quiet)
			}
		})
	}
}

// TestRun_ReconnectsAndResumes: the network drops mid-match; Run reconnects with backoff, the
// server resumes the match on the new stream, and Run goes on to the matches it was asked for.
// OnConnect hears of the first connection and of each reconnection, before any match.
func TestRun_ReconnectsAndResumes(t *testing.T) {
	s, key := newServer(t)
	var retries, joins int
	var connects []int
	cutOnce := sync.OnceFunc(s.cut)
	err := ladder.Run(context.Background(), s.conn, ladder.Options{
		APIKey: key, Matches: 3, NewBot: newBot, MaxBackoff: 50 * time.Millisecond,
		OnJoined: func(*orreryv1.Joined) {
			joins++
			if joins == 2 {
				go cutOnce() // mid-match: the second match has just begun
			}
		},
		OnRetry:   func(err error, wait time.Duration) { retries++ },
		OnConnect: func(n int) { connects = append(connects, n) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if retries == 0 {
		t.Error("the stream was cut but Run never reconnected")
	}
	if len(connects) < 2 || connects[0] != 0 || connects[1] != 1 {
		t.Errorf("OnConnect heard %v; want the connection (0) and the reconnection (1) at least", connects)
	}
	if joins < 4 {
		t.Errorf("%d joins: want the cut match joined again besides 3 matches", joins)
	}
}

func TestRun_RefusedKeyEndsRun(t *testing.T) {
	s, key := newServer(t)
	err := ladder.Run(context.Background(), s.conn, ladder.Options{APIKey: "ork_not-a-key", NewBot: newBot})
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("Run with a wrong key: %v, want Unauthenticated", err)
	}
	if err := ladder.Run(context.Background(), s.conn, ladder.Options{}); err == nil {
		t.Error("Run without a key or bot factory: no error")
	}
	// A key gRPC cannot send ends Run at once, said as the key's fault, not as an Internal
	// error from the gRPC library that reads as the server's.
	err = ladder.Run(context.Background(), s.conn, ladder.Options{APIKey: key + "\n" + key, NewBot: newBot})
	if err == nil || status.Code(err) == codes.Internal || !strings.Contains(err.Error(), "byte 0x0a at position") {
		t.Errorf("Run with a key of two lines: %v", err)
	}
}

func TestRun_EndsWithItsContext(t *testing.T) {
	s, key := newServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	err := ladder.Run(ctx, s.conn, ladder.Options{APIKey: key, NewBot: newBot, OnJoined: func(*orreryv1.Joined) { cancel() }})
	if err != context.Canceled {
		t.Errorf("Run after cancel: %v, want context.Canceled", err)
	}
}
