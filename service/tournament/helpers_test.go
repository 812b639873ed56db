package tournament

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/test/bufconn"

	"github.com/orrery/orrery/bots/builtin"
	_ "github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/ladder"
	"github.com/orrery/orrery/service/limits"
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

// testGame is the game these tests play: fast, 2 to 6 seats.
const testGame = "icetraders"

// env is an arena with a ladder and tournaments, served over bufconn.
type env struct {
	t      *testing.T
	admin  string
	arena  *service.Server
	lad    *ladder.Ladder
	tour   *Service
	conn   *grpc.ClientConn
	client orreryv1.ArenaServiceClient
	ladder orreryv1.LadderServiceClient
	tours  orreryv1.TournamentServiceClient
	stop   func()
}

// newEnv starts an arena, a ladder and the tournaments on db (a fresh in-memory store if
// nil). stop closes them as a server shutting down does; cleanup calls it if the test has not.
func newEnv(t *testing.T, db *store.DB, adminKey string) *env {
	t.Helper()
	return newEnvLimits(t, db, adminKey, limits.Config{})
}

// newEnvLimits is newEnv with the arena's limits.
func newEnvLimits(t *testing.T, db *store.DB, adminKey string, lim limits.Config) *env {
	t.Helper()
	if db == nil {
		var err error
		if db, err = store.Open(":memory:"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
	}
	lad, err := ladder.New(ladder.Config{DB: db, AdminKey: adminKey, Games: []string{testGame}, Tick: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, lad: lad, admin: adminKey}
	tour, err := New(Config{DB: db, AdminKey: adminKey, Bots: lad,
		NewBot: func(game, name string, seed uint64) (Player, error) { return builtin.New(game, name, seed) },
		PlayIn: func(ctx context.Context, token string, p Player) error {
			return ladder.PlayInProcess(ctx, e.arena, token, p, 0)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	arena, err := service.New(service.Config{Store: db, Ladder: lad, Seeds: tour, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	e.arena, e.tour = arena, tour
	if err := lad.Start(arena); err != nil {
		t.Fatal(err)
	}
	if err := tour.Start(arena); err != nil {
		t.Fatal(err)
	}
	var next service.Authorizer
	if adminKey != "" {
		next = service.AdminKey(adminKey)
	}
	gs := service.NewGRPCServer(arena, service.GRPCOptions{Authorize: lad.Authorizer(next),
		Register: func(g *grpc.Server) { lad.Register(g); tour.Register(g) }})
	lis := bufconn.Listen(1 << 20)
	go gs.Serve(lis)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	e.conn = conn
	e.client, e.ladder, e.tours = orreryv1.NewArenaServiceClient(conn), orreryv1.NewLadderServiceClient(conn), orreryv1.NewTournamentServiceClient(conn)
	var once sync.Once
	e.stop = func() {
		once.Do(func() {
			conn.Close()
			tour.Close()
			lad.Close()
			gs.Stop()
			arena.Close()
		})
	}
	t.Cleanup(e.stop)
	return e
}

func withKey(ctx context.Context, key string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "bearer "+key)
}

// register registers a bot and returns its API key.
func (e *env) register(name string) string {
	e.t.Helper()
	ctx := context.Background()
	if e.admin != "" {
		ctx = withKey(ctx, e.admin)
	}
	resp, err := e.ladder.RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: name})
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.GetApiKey()
}

// create creates a tournament.
func (e *env) create(ctx context.Context, req *orreryv1.CreateTournamentRequest) *orreryv1.Tournament {
	e.t.Helper()
	resp, err := e.tours.CreateTournament(ctx, req)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.GetTournament()
}

func (e *env) get(id string) *orreryv1.Tournament {
	e.t.Helper()
	resp, err := e.tours.GetTournament(context.Background(), &orreryv1.GetTournamentRequest{TournamentId: id})
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.GetTournament()
}

// waitFinished follows a tournament with WatchTournament until it has finished.
func (e *env) waitFinished(id string) *orreryv1.Tournament {
	e.t.Helper()
	w, err := e.tours.WatchTournament(context.Background(), &orreryv1.WatchTournamentRequest{TournamentId: id})
	if err != nil {
		e.t.Fatal(err)
	}
	for {
		msg, err := w.Recv()
		if err != nil {
			e.t.Fatalf("watch %s: %v", id, err)
		}
		if msg.GetTournament().GetStatus() == orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
			return e.get(id)
		}
	}
}

// client is a registered bot on a tournaments-only ladder stream: it answers every decision
// with the first legal action, except in the matches hold names, where it keeps the
// decision until release.
type client struct {
	t      *testing.T
	stream grpc.BidiStreamingClient[orreryv1.PlayRequest, orreryv1.PlayResponse]
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex // guards the fields below
	hold    func(match string, nth int) bool
	held    map[string]*orreryv1.Decision
	order   []string // matches in the order they were joined
	ended   map[string]*orreryv1.MatchEnded
	changed chan struct{}
}

func (e *env) connect(key string, hold func(match string, nth int) bool) *client {
	e.t.Helper()
	ctx, cancel := context.WithCancel(withKey(context.Background(), key))
	stream, err := e.client.Play(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Ladder{Ladder: &orreryv1.LadderJoin{TournamentsOnly: true}}}); err != nil {
		e.t.Fatal(err)
	}
	c := &client{t: e.t, stream: stream, cancel: cancel, done: make(chan struct{}), hold: hold,
		held: map[string]*orreryv1.Decision{}, ended: map[string]*orreryv1.MatchEnded{}, changed: make(chan struct{})}
	go c.run()
	e.t.Cleanup(c.close)
	return c
}

func (c *client) run() {
	defer close(c.done)
	for {
		msg, err := c.stream.Recv()
		if err != nil {
			if !errors.Is(err, io.EOF) && c.stream.Context().Err() == nil {
				c.t.Logf("client stream: %v", err)
			}
			return
		}
		c.mu.Lock()
		switch m := msg.GetMsg().(type) {
		case *orreryv1.PlayResponse_Joined:
			c.order = append(c.order, m.Joined.GetMatchId())
		case *orreryv1.PlayResponse_Decision:
			d := m.Decision
			nth := len(c.order)
			for i, id := range c.order {
				if id == d.GetMatchId() {
					nth = i
				}
			}
			if c.hold != nil && c.hold(d.GetMatchId(), nth) {
				c.held[d.GetMatchId()] = d
			} else if err := c.answer(d); err != nil {
				c.mu.Unlock()
				return
			}
		case *orreryv1.PlayResponse_Ended:
			c.ended[m.Ended.GetMatchId()] = m.Ended
		}
		close(c.changed)
		c.changed = make(chan struct{})
		c.mu.Unlock()
	}
}

func (c *client) answer(d *orreryv1.Decision) error {
	return c.stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{
		MatchId: d.GetMatchId(), DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}}})
}

// release stops holding and answers what is held.
func (c *client) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hold = nil
	for id, d := range c.held {
		if err := c.answer(d); err != nil {
			c.t.Errorf("answer: %v", err)
		}
		delete(c.held, id)
	}
}

// until waits for cond over the client's state, which it reads under the lock.
func (c *client) until(what string, cond func() bool) {
	c.t.Helper()
	timeout := time.After(2 * time.Minute) // a hung test's bound, not a measurement
	for {
		c.mu.Lock()
		ok, ch := cond(), c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-timeout:
			c.t.Fatalf("never reached: %s", what)
		}
	}
}

func (c *client) close() {
	c.cancel()
	<-c.done
}
