package gateway

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/sdk"
	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/games"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/hosted"
	"github.com/orrery/orrery/service/houseseats"
	"github.com/orrery/orrery/service/ladder"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/strength"
	"github.com/orrery/orrery/service/tournament"
	"github.com/orrery/orrery/service/training"
	"github.com/orrery/orrery/service/view"
)

// arena is an in-process arena on a loopback port with the web server in front of it, as
// `orrery serve` wires them. Every response the web server sends is recorded, so a test can
// check what a browser received.
type arena struct {
	t      *testing.T
	srv    *service.Server
	conn   *grpc.ClientConn
	client orreryv1.ArenaServiceClient
	web    *httptestServer

	mu   sync.Mutex               // guards sent
	sent map[string]*bytes.Buffer // request path → response bytes
}

type arenaOptions struct {
	houseMatches int      // > 0: a ladder with house bots keeping this many matches running
	houseGames   []string // the games the ladder runs; nil: every game
	web          Config   // the web server's names, origins, limits and vouch key
	limits       limits.Config
	// authorize, if set, sees every gRPC call the gateway makes (the server's auth hook).
	authorize service.Authorizer
	adminKey  string // the ladder's admin key; "": none
	hosted    bool   // the ladder hosts bots' modules (service/hosted)
}

func newArena(t *testing.T, o arenaOptions) *arena {
	t.Helper()
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	// As serve wires it: a ladder (house matches only if asked for) and the views.
	cfg := ladder.Config{DB: db, Games: o.houseGames, House: houseBots(), HouseMatches: o.houseMatches, HousePace: 20 * time.Millisecond, AdminKey: o.adminKey}
	if o.hosted {
		rt, err := hosted.NewRuntime(context.Background(), hosted.Limits{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rt.Close(context.Background()) }) // after the ladder's, below
		cfg.Hosted = hosted.NewLibrary(rt, db)
		// A seat that broke a limit plays on by the timeout policy: short moves end its
		// match, and record its seat, soon.
		cfg.Clock = &orreryv1.Clock{PerMove: durationpb.New(100 * time.Millisecond), TimeBank: durationpb.New(time.Second)}
	}
	lad, err := ladder.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Tournaments as serve runs them: built-in entrants played in process, registered ones on
	// their ladder streams.
	var srv *service.Server
	tours, err := tournament.New(tournament.Config{DB: db, Bots: lad,
		NewBot: func(game, name string, seed uint64) (tournament.Player, error) { return builtin.New(game, name, seed) },
		PlayIn: func(ctx context.Context, token string, p tournament.Player) error {
			return ladder.PlayInProcess(ctx, srv, token, p, 0)
		}})
	if err != nil {
		t.Fatal(err)
	}
	// Strength tests as serve runs them, beside the tournaments.
	sprts, err := strength.New(strength.Config{DB: db, Bots: lad,
		NewBot: func(game, name string, seed uint64) (strength.Player, error) { return builtin.New(game, name, seed) },
		PlayIn: func(ctx context.Context, token string, p strength.Player) error {
			return ladder.PlayInProcess(ctx, srv, token, p, 0)
		}})
	if err != nil {
		t.Fatal(err)
	}
	// Built-in bots for the seats a CreateMatch gives them, as serve seats them.
	seats := houseseats.New(func(game, name string, seed uint64) (ladder.Player, error) { return builtin.New(game, name, seed) }, builtin.Names, nil)
	srv, err = service.New(service.Config{Store: db, Ladder: lad, Seeds: service.SeedGates{tours, sprts}, HouseSeats: seats, Limits: o.limits, Gateway: o.web.Vouch})
	if err != nil {
		t.Fatal(err)
	}
	seats.Start(srv)
	if err := lad.Start(srv); err != nil {
		t.Fatal(err)
	}
	tours.Start(srv)
	sprts.Start(srv)
	views := view.New(srv)
	gs := service.NewGRPCServer(srv, service.GRPCOptions{Authorize: o.authorize, Register: func(g *grpc.Server) {
		views.Register(g)
		lad.Register(g)
		tours.Register(g)
		sprts.Register(g)
		training.New(training.Config{}).Register(g)
	}})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go gs.Serve(lis)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	a := &arena{t: t, srv: srv, conn: conn, client: orreryv1.NewArenaServiceClient(conn), sent: make(map[string]*bytes.Buffer)}
	h, err := Handler(conn, o.web)
	if err != nil {
		t.Fatal(err)
	}
	a.web = startHTTP(t, a.record(h))
	t.Cleanup(func() {
		a.web.close()
		tours.Close()
		sprts.Close()
		lad.Close()
		seats.Close()
		srv.Close()
		gs.Stop()
		conn.Close()
		db.Close()
	})
	return a
}

// record tees every response body into a.sent.
func (a *arena) record(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&teeWriter{ResponseWriter: w, a: a, path: r.URL.Path}, r)
	})
}

// received is everything the web server has sent so far, by request path, gzipped answers
// unpacked.
func (a *arena) received() map[string]string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make(map[string]string, len(a.sent))
	for k, v := range a.sent {
		path, zipped := strings.CutSuffix(k, gzipKey)
		body := v.String()
		if zipped {
			zr, err := gzip.NewReader(bytes.NewReader(v.Bytes()))
			if err != nil {
				a.t.Fatalf("%s: %v", path, err)
			}
			b, err := io.ReadAll(zr) // gzip.Reader reads one member after another
			if err != nil {
				a.t.Fatalf("%s: %v", path, err)
			}
			body = string(b)
		}
		out[path] += body
	}
	return out
}

// gzipKey marks the buffer of a path's gzipped answers.
const gzipKey = " (gzip)"

type teeWriter struct {
	http.ResponseWriter
	a    *arena
	path string
}

func (w *teeWriter) Write(p []byte) (int, error) {
	key := w.path
	if w.Header().Get("Content-Encoding") == "gzip" {
		key += gzipKey
	}
	w.a.mu.Lock()
	buf, ok := w.a.sent[key]
	if !ok {
		buf = &bytes.Buffer{}
		w.a.sent[key] = buf
	}
	buf.Write(p)
	w.a.mu.Unlock()
	return w.ResponseWriter.Write(p)
}

func (w *teeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets the WebSocket bridge reach the connection to hijack it.
func (w *teeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// httptestServer serves h on a loopback port.
type httptestServer struct {
	url  string
	hs   *http.Server
	done chan struct{}
}

func startHTTP(t *testing.T, h http.Handler) *httptestServer {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &httptestServer{url: "http://" + lis.Addr().String(), hs: &http.Server{Handler: h}, done: make(chan struct{})}
	go func() { s.hs.Serve(lis); close(s.done) }()
	return s
}

func (s *httptestServer) close() { s.hs.Close(); <-s.done }

// houseBots are the built-in bots of every game as ladder identities.
func houseBots() []ladder.House {
	var out []ladder.House
	for _, game := range engine.Names() {
		for _, name := range builtin.Names(game) {
			for round := range 4 {
				game, name := game, name
				id := "house-" + name
				if round > 0 {
					id = id + "-" + string(rune('1'+round))
				}
				out = append(out, ladder.House{Bot: id, Game: game, New: func(seed uint64) ladder.Player {
					b, err := builtin.New(game, name, seed)
					if err != nil {
						panic(err)
					}
					return b
				}})
			}
		}
	}
	return out
}

// create starts a match with a relaxed clock (no timeouts while a browser is slow).
func (a *arena) create(game string, seats int, seed uint64, names ...string) *orreryv1.CreateMatchResponse {
	a.t.Helper()
	resp, err := a.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{
		Game: game, Seats: int32(seats), Seed: &seed, SeatNames: names,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute), TimeBank: durationpb.New(5 * time.Minute)},
	})
	if err != nil {
		a.t.Fatal(err)
	}
	return resp
}

// gate holds bots back: they play freely until the gate is shut, then wait until it opens.
type gate struct {
	mu     sync.Mutex
	open   bool
	opened chan struct{}
}

func newGate(open bool) *gate {
	g := &gate{open: open, opened: make(chan struct{})}
	if open {
		close(g.opened)
	}
	return g
}

func (g *gate) wait(ctx context.Context) {
	g.mu.Lock()
	ch := g.opened
	g.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
	}
}

func (g *gate) shut() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open {
		g.open, g.opened = false, make(chan struct{})
	}
}

func (g *gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.open {
		g.open = true
		close(g.opened)
	}
}

// playSeats plays seats with built-in bots (the first of the game's), each pausing pace
// before a decision and waiting at g. choose, if set, may answer a decision first. It
// returns a wait for the bots to finish.
func (a *arena) playSeats(ctx context.Context, game string, tokens []*orreryv1.SeatToken, pace time.Duration, g *gate,
	choose func(d *orreryv1.Decision) *orreryv1.Answer) func() {
	return a.playSeatsAs(ctx, game, builtin.Names(game)[0], tokens, pace, g, choose)
}

// playSeatsAs is playSeats with the built-in bot named bot.
func (a *arena) playSeatsAs(ctx context.Context, game, bot string, tokens []*orreryv1.SeatToken, pace time.Duration, g *gate,
	choose func(d *orreryv1.Decision) *orreryv1.Answer) func() {
	var wg sync.WaitGroup
	for _, tok := range tokens {
		inner, err := builtin.New(game, bot, uint64(tok.GetSeat())+1)
		if err != nil {
			a.t.Fatal(err)
		}
		bot := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
			if g != nil {
				g.wait(ctx)
			}
			if pace > 0 {
				select {
				case <-time.After(pace):
				case <-ctx.Done():
				}
			}
			if choose != nil {
				if ans := choose(d); ans != nil {
					return ans
				}
			}
			return inner.Act(d)
		})
		wg.Add(1)
		go func(token string) {
			defer wg.Done()
			sdk.Play(ctx, a.conn, token, bot, sdk.Options{Reconnects: 2})
		}(tok.GetToken())
	}
	return wg.Wait
}
