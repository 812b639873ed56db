package tournament

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/bots/builtin"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/ladder"
	"github.com/orrery/orrery/service/seedcommit"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/store/pgtest"
)

// clusterNode is one in-process node of a cluster's arena and tournaments on a shared
// PostgreSQL database, served on a loopback port so that the others relay to it.
type clusterNode struct {
	id      string
	arena   orreryv1.ArenaServiceClient
	tours   orreryv1.TournamentServiceClient
	service *Service
}

// startNode starts node id on target; its built-in entrants play through gate.
func startNode(t *testing.T, id, target string, gate *setGate) *clusterNode {
	t.Helper()
	db, err := store.Open(target)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var arena *service.Server
	tour, err := New(Config{DB: db,
		NewBot: func(game, name string, seed uint64) (Player, error) { return builtin.New(game, name, seed) },
		PlayIn: func(ctx context.Context, token string, p Player) error {
			match, _, _ := strings.Cut(token, ".")
			return ladder.PlayInProcess(ctx, arena, token, gated{Player: p, match: match, gate: gate}, 0)
		},
		Cluster: &Cluster{Pool: pool, Node: id, Watch: 2 * time.Second, Holds: func(m string) bool { return arena.Holds(m) }},
	})
	if err != nil {
		t.Fatal(err)
	}
	arena, err = service.New(service.Config{Store: db, Seeds: tour,
		Node: &service.Node{ID: id, Addr: lis.Addr().String(), LeaseTTL: 3 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tour.Start(arena); err != nil {
		t.Fatal(err)
	}
	gs := service.NewGRPCServer(arena, service.GRPCOptions{Register: tour.Register})
	go gs.Serve(lis)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		gate.stop()
		tour.Close()
		gs.Stop()
		arena.Close()
		pool.Close()
		db.Close()
	})
	return &clusterNode{id: id, arena: orreryv1.NewArenaServiceClient(conn), tours: orreryv1.NewTournamentServiceClient(conn), service: tour}
}

// setGate holds the second match of each duplicate set at its first decision, the first
// match having ended, until the test has polled every node: while it waits, the set has
// one match over and one running, and nothing moves on.
type setGate struct {
	db      *store.DB
	waiting chan string // a second match, held

	mu       sync.Mutex
	released map[string]bool // matches that play freely
	held     map[string]chan struct{}
	done     chan struct{}
	stopped  bool
}

func newSetGate(db *store.DB) *setGate {
	return &setGate{db: db, waiting: make(chan string, 16), released: map[string]bool{}, held: map[string]chan struct{}{}, done: make(chan struct{})}
}

// wait holds match's decision while it is a set's second match not yet released.
func (g *setGate) wait(match string) {
	g.mu.Lock()
	if g.released[match] || g.stopped {
		g.mu.Unlock()
		return
	}
	ch, ok := g.held[match]
	g.mu.Unlock()
	if !ok {
		var over int
		if err := g.db.SQL().QueryRow(`SELECT COUNT(*) FROM tournament_slots me JOIN tournament_slots o
			ON o.tournament_id = me.tournament_id AND o.round = me.round AND o.set_no = me.set_no
			WHERE me.match_id = ? AND o.ended = 1`, match).Scan(&over); err != nil || over == 0 {
			g.release(match) // the set's first match (Parallel 1: its other has not started)
			return
		}
		g.mu.Lock()
		if g.released[match] || g.stopped {
			// The match's other seat was held, and released, while this one asked the
			// store: held again, it was announced twice, and the second was never released.
			g.mu.Unlock()
			return
		}
		if ch, ok = g.held[match]; !ok {
			ch = make(chan struct{})
			g.held[match] = ch
			g.waiting <- match
		}
		g.mu.Unlock()
	}
	select {
	case <-ch:
	case <-g.done:
	}
}

func (g *setGate) release(match string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.released[match] = true
	if ch, ok := g.held[match]; ok {
		close(ch)
		delete(g.held, match)
	}
}

// stop lets every seat play on, for the nodes to close.
func (g *setGate) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.stopped {
		g.stopped = true
		close(g.done)
	}
}

// gated is a built-in entrant whose decisions pass the gate first.
type gated struct {
	Player
	match string
	gate  *setGate
}

func (p gated) Act(d *orreryv1.Decision) *orreryv1.Answer {
	p.gate.wait(p.match)
	return p.Player.Act(d)
}

// TestCluster_DuplicateSetSealedOnEveryNode is the reproduction: a node learned that a
// match was sealed only from a once-a-second sweep, so its GetReplay and Watch revealed the
// seed of a duplicate set's match while the set's other match ran. A duplicate tournament
// plays on three nodes, one match at a time; each time a set's first match has ended and its
// second holds at its first decision, every node is asked for the first's replay (refused)
// and watched to its end (the seed withheld). Once the tournament has finished, every node
// reveals every seed, which opens its match's commitment.
func TestCluster_DuplicateSetSealedOnEveryNode(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	db, err := store.Open(target) // the test's own view of the database
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	gate := newSetGate(db)
	var nodes []*clusterNode
	for _, id := range []string{"a", "b", "c"} {
		nodes = append(nodes, startNode(t, id, target, gate))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a hung test's bound
	defer cancel()
	const sets = 3
	created, err := nodes[0].tours.CreateTournament(ctx, &orreryv1.CreateTournamentRequest{Game: testGame, Seats: 2,
		Entrants: []string{"random", "greedy"}, Games: 2 * sets, Duplicate: true, Parallel: 1, Clock: slowClock()})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetTournamentId()

	for polled := 0; polled < sets; polled++ {
		var second string
		select {
		case second = <-gate.waiting:
		case <-ctx.Done():
			t.Fatalf("set %d: no second match came to its first decision", polled+1)
		}
		var first string
		if err := db.SQL().QueryRow(`SELECT o.match_id FROM tournament_slots me JOIN tournament_slots o
			ON o.tournament_id = me.tournament_id AND o.round = me.round AND o.set_no = me.set_no
			WHERE me.match_id = ? AND o.ended = 1`, second).Scan(&first); err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes {
			if _, err := n.arena.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: first}); status.Code(err) != codes.FailedPrecondition {
				t.Errorf("set %d: node %s's GetReplay of %s while %s runs: %v, want FailedPrecondition", polled+1, n.id, first, second, err)
			}
			if end := watchEnd(t, ctx, n, first); end.GetSeed() != 0 || end.GetSeedSalt() != "" || !end.GetSeedWithheld() {
				t.Errorf("set %d: node %s's Watch of %s while %s runs ended with seed %d, withheld %v", polled+1, n.id, first, second, end.GetSeed(), end.GetSeedWithheld())
			}
		}
		gate.release(second)
	}

	for {
		got, err := nodes[1].tours.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: id})
		if err != nil {
			t.Fatal(err)
		}
		if got.GetTournament().GetStatus() == orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
			if n := len(got.GetTournament().GetMatches()); n != 2*sets {
				t.Fatalf("the tournament finished with %d matches, want %d", n, 2*sets)
			}
			for _, m := range got.GetTournament().GetMatches() {
				for _, n := range nodes {
					rep, err := n.arena.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: m.GetMatchId()})
					if err != nil {
						t.Errorf("node %s: replay of %s once the sets ended: %v", n.id, m.GetMatchId(), err)
						continue
					}
					if err := seedcommit.Verify(rep.GetMatch().GetSeedHash(), rep.GetSeed(), rep.GetSeedSalt()); err != nil {
						t.Errorf("node %s: match %s's seed does not open its commitment: %v", n.id, m.GetMatchId(), err)
					}
				}
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("the tournament did not finish")
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// watchEnd watches match id on node n to its end.
func watchEnd(t *testing.T, ctx context.Context, n *clusterNode, id string) *orreryv1.MatchEnded {
	t.Helper()
	w, err := n.arena.Watch(ctx, &orreryv1.WatchRequest{MatchId: id})
	if err != nil {
		t.Fatalf("node %s: watch %s: %v", n.id, id, err)
	}
	for {
		msg, err := w.Recv()
		if err != nil {
			t.Fatalf("node %s: watch %s: %v", n.id, id, errors.Join(err, ctx.Err()))
		}
		if end := msg.GetEnded(); end != nil {
			return end
		}
	}
}
