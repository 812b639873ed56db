package strength

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	botladder "github.com/orrery/orrery/bots/ladder"
	_ "github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/ladder"
	"github.com/orrery/orrery/service/store"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testGame is the game these tests play: fast, 2 to 6 seats.
const testGame = "icetraders"

// env is an arena with a ladder and the strength tests, served over bufconn, as serve wires
// them.
type env struct {
	t      *testing.T
	db     *store.DB
	arena  *service.Server
	lad    *ladder.Ladder
	tests  *Service
	conn   *grpc.ClientConn
	client orreryv1.ArenaServiceClient
	ladder orreryv1.LadderServiceClient
	sprts  orreryv1.SPRTServiceClient
	stop   func()
}

// newEnv starts an arena, a ladder and the strength tests on db (a fresh in-memory store if
// nil). stop closes them as a server shutting down does; cleanup calls it if the test has not.
func newEnv(t *testing.T, db *store.DB) *env {
	t.Helper()
	if db == nil {
		var err error
		if db, err = store.Open(":memory:"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
	}
	lad, err := ladder.New(ladder.Config{DB: db, Games: []string{testGame}, Tick: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, db: db, lad: lad}
	tests, err := New(Config{DB: db, Bots: lad,
		NewBot: func(game, name string, seed uint64) (Player, error) { return builtin.New(game, name, seed) },
		PlayIn: func(ctx context.Context, token string, p Player) error {
			return ladder.PlayInProcess(ctx, e.arena, token, p, 0)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	arena, err := service.New(service.Config{Store: db, Ladder: lad, Seeds: service.SeedGates{tests}})
	if err != nil {
		t.Fatal(err)
	}
	e.arena, e.tests = arena, tests
	if err := lad.Start(arena); err != nil {
		t.Fatal(err)
	}
	if err := tests.Start(arena); err != nil {
		t.Fatal(err)
	}
	gs := service.NewGRPCServer(arena, service.GRPCOptions{Authorize: lad.Authorizer(nil),
		Register: func(g *grpc.Server) { lad.Register(g); tests.Register(g) }})
	lis := bufconn.Listen(1 << 20)
	go gs.Serve(lis)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	e.conn = conn
	e.client, e.ladder, e.sprts = orreryv1.NewArenaServiceClient(conn), orreryv1.NewLadderServiceClient(conn), orreryv1.NewSPRTServiceClient(conn)
	var once sync.Once
	e.stop = func() {
		once.Do(func() {
			conn.Close()
			tests.Close()
			lad.Close()
			gs.Stop()
			arena.Close()
		})
	}
	t.Cleanup(e.stop)
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

// connect plays a registered bot on a tournaments-only ladder stream with built-in bot
// builtinBot, as its author's program would, until the test ends.
func (e *env) connect(key, builtinBot string) {
	e.t.Helper()
	e.connectWith(key, func(j *orreryv1.Joined) (bots.Bot, error) {
		return builtin.New(j.GetGame(), builtinBot, uint64(j.GetSeat())+1)
	})
}

// connectWith is connect with the bot newBot makes for each match; it returns a stop that
// closes the stream, which cleanup calls too.
func (e *env) connectWith(key string, newBot func(j *orreryv1.Joined) (bots.Bot, error)) (stop func()) {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	connected := make(chan struct{})
	var once sync.Once
	go func() {
		defer close(done)
		botladder.Run(ctx, e.conn, botladder.Options{APIKey: key, TournamentsOnly: true, MaxMatches: 8,
			OnConnect: func(int) { once.Do(func() { close(connected) }) },
			NewBot:    newBot})
	}()
	var stopOnce sync.Once
	stop = func() { stopOnce.Do(func() { cancel(); <-done }) }
	e.t.Cleanup(stop)
	select {
	case <-connected:
	case <-time.After(time.Minute): // a hung test's bound, not a measurement
		e.t.Fatal("the bot's ladder stream never connected")
	}
	return stop
}

// start starts a test.
func (e *env) start(req *orreryv1.StartSPRTRequest) *orreryv1.SPRT {
	e.t.Helper()
	resp, err := e.sprts.StartSPRT(context.Background(), req)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.GetSprt()
}

func (e *env) get(id string) *orreryv1.SPRT {
	e.t.Helper()
	resp, err := e.sprts.GetSPRT(context.Background(), &orreryv1.GetSPRTRequest{SprtId: id})
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.GetSprt()
}

// watch follows a test with WatchSPRT until until says so or the test ends, and returns the
// last message.
func (e *env) watch(id string, until func(*orreryv1.SPRT) bool) *orreryv1.SPRT {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a hung test's bound
	defer cancel()
	w, err := e.sprts.WatchSPRT(ctx, &orreryv1.WatchSPRTRequest{SprtId: id})
	if err != nil {
		e.t.Fatal(err)
	}
	for {
		msg, err := w.Recv()
		if err != nil {
			e.t.Fatalf("watch %s: %v", id, err)
		}
		s := msg.GetSprt()
		if s.GetStatus() != orreryv1.SPRTStatus_SPRT_STATUS_RUNNING || (until != nil && until(s)) {
			return s
		}
	}
}
