package ladder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/random"
	_ "github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/store/pgtest"
)

func TestMain(m *testing.M) {
	code := pgtest.Run(m) // stops the shared PostgreSQL, if a test started one, before the leak check
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// testGame is the only game linked into these tests: fast, 2 to 6 seats.
const testGame = "icetraders"

// env is an arena with a ladder, served over bufconn with the ladder's authorizer.
type env struct {
	t      *testing.T
	db     *store.DB
	arena  *service.Server
	lad    *Ladder
	conn   *grpc.ClientConn
	client orreryv1.ArenaServiceClient
	ladder orreryv1.LadderServiceClient
}

// randomHouse is n house identities playing testGame at random.
func randomHouse(n int) []House {
	names := []string{"house-random", "house-random-2", "house-random-3", "house-random-4", "house-random-5"}
	out := make([]House, n)
	for i := range out {
		out[i] = House{Bot: names[i], Game: testGame, New: func(seed uint64) Player { return random.New(seed) }}
	}
	return out
}

// quick is a ladder config for tests: a fast matchmaker that fills with house bots at once,
// and a generous clock unless a test sets one.
func quick(cfg Config) Config {
	if cfg.Tick == 0 {
		cfg.Tick = 5 * time.Millisecond
	}
	if cfg.FillAfter == 0 {
		cfg.FillAfter = time.Nanosecond
	}
	if cfg.House == nil {
		cfg.House = randomHouse(3)
	}
	if cfg.Clock == nil {
		cfg.Clock = &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}
	}
	return cfg
}

// newEnv starts an arena and ladder on db (a fresh in-memory store if nil).
func newEnv(t *testing.T, db *store.DB, cfg Config, adminKey string) *env {
	t.Helper()
	if db == nil {
		var err error
		if db, err = store.Open(":memory:"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
	}
	cfg.DB = db
	cfg.AdminKey = adminKey
	lad, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	arena, err := service.New(service.Config{Store: db, Ladder: lad, Names: lad, Bots: lad})
	if err != nil {
		t.Fatal(err)
	}
	if err := lad.Start(arena); err != nil {
		t.Fatal(err)
	}
	var next service.Authorizer
	if adminKey != "" {
		next = service.AdminKey(adminKey)
	}
	gs := service.NewGRPCServer(arena, service.GRPCOptions{Authorize: lad.Authorizer(next), Register: lad.Register})
	lis := bufconn.Listen(1 << 20)
	go gs.Serve(lis)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, db: db, arena: arena, lad: lad, conn: conn,
		client: orreryv1.NewArenaServiceClient(conn), ladder: orreryv1.NewLadderServiceClient(conn)}
	t.Cleanup(func() {
		conn.Close()
		lad.Close()
		gs.Stop()
		arena.Close()
	})
	return e
}

// register registers a bot and returns its API key.
func (e *env) register(name string) string {
	e.t.Helper()
	resp, err := e.ladder.RegisterBot(context.Background(), &orreryv1.RegisterBotRequest{Name: name})
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.GetApiKey()
}

func withKey(ctx context.Context, key string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "bearer "+key)
}

type playStream = grpc.BidiStreamingClient[orreryv1.PlayRequest, orreryv1.PlayResponse]

// join opens a ladder stream for key.
func (e *env) join(ctx context.Context, key string, join *orreryv1.LadderJoin) playStream {
	e.t.Helper()
	stream, err := e.client.Play(withKey(ctx, key))
	if err != nil {
		e.t.Fatal(err)
	}
	// A stream the server has already refused (a revoked key) fails Send with io.EOF; its
	// status comes on Recv, which the caller reads.
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Ladder{Ladder: join}}); err != nil && !errors.Is(err, io.EOF) {
		e.t.Fatal(err)
	}
	return stream
}

// bot describes a bot over gRPC.
func (e *env) bot(name string) *orreryv1.GetBotResponse {
	e.t.Helper()
	resp, err := e.ladder.GetBot(context.Background(), &orreryv1.GetBotRequest{Name: name})
	if err != nil {
		e.t.Fatal(err)
	}
	return resp
}

// eventually polls cond until it holds; the test's own deadline bounds the wait. It asserts
// no duration: only that the state is reached.
// progressing waits for done as eventually does, but gives up only when progress (a count
// that grows as the work goes on, such as games rated) stands still for 45 s: work that is
// all CPU takes minutes on a loaded machine, and is stuck only when it stops moving.
func progressing(t *testing.T, what string, done func() (bool, int)) {
	t.Helper()
	last, since := -1, time.Now()
	for {
		ok, n := done()
		if ok {
			return
		}
		if n != last {
			last, since = n, time.Now()
		} else if time.Since(since) > 45*time.Second {
			t.Fatalf("never reached: %s (stuck at %d for 45 s)", what, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never reached: %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
