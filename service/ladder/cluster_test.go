package ladder

import (
	"context"
	"encoding/json"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/orrery/orrery/bots"
	botladder "github.com/orrery/orrery/bots/ladder"
	"github.com/orrery/orrery/bots/random"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/store/pgtest"
)

// clusterNode is one in-process node of a cluster's ladder: an arena and its ladder on a
// shared PostgreSQL database, served on a loopback port so that the other node reaches it.
type clusterNode struct {
	db    *store.DB
	arena *service.Server
	lad   *Ladder
	conn  *grpc.ClientConn
}

func startClusterNode(t *testing.T, id, target string) *clusterNode {
	t.Helper()
	db, err := store.Open(target)
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	n := &clusterNode{db: db}
	lad, err := New(Config{DB: db, Tick: 20 * time.Millisecond, FillAfter: time.Hour, Games: []string{testGame},
		Cluster: &Cluster{Node: id, TTL: 3 * time.Second, Reach: nodeReach{n}}})
	if err != nil {
		t.Fatal(err)
	}
	arena, err := service.New(service.Config{Store: db, Ladder: lad, Names: lad,
		Node: &service.Node{ID: id, Addr: lis.Addr().String(), LeaseTTL: 3 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	n.arena, n.lad = arena, lad
	if err := lad.Start(arena); err != nil {
		t.Fatal(err)
	}
	gs := service.NewGRPCServer(arena, service.GRPCOptions{Authorize: lad.Authorizer(nil), Register: lad.Register})
	go gs.Serve(lis)
	n.conn, err = grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		n.conn.Close()
		lad.Close()
		gs.Stop()
		arena.Close()
		db.Close()
	})
	return n
}

// TestCluster_TwoNodesOneLadder runs the ladder on two in-process nodes of one PostgreSQL
// database, with four registered bots' streams split between them: one matchmaker forms
// matches of bots from both nodes, each bot's seat is relayed to the node that runs the
// match, and the stored ratings are the model's applied to the stored results in the order
// the matches were created, each match once.
func TestCluster_TwoNodesOneLadder(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	nodes := []*clusterNode{startClusterNode(t, "a", target), startClusterNode(t, "b", target)}
	names := []string{"wa", "xa", "ya", "za"}
	keys := map[string]string{}
	reg := orreryv1.NewLadderServiceClient(nodes[0].conn)
	for _, name := range names {
		r, err := reg.RegisterBot(context.Background(), &orreryv1.RegisterBotRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		keys[name] = r.GetApiKey()
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			botladder.Run(ctx, nodes[i%2].conn, botladder.Options{APIKey: keys[name], Games: []string{testGame}, MaxBackoff: 100 * time.Millisecond,
				NewBot: func(j *orreryv1.Joined) (bots.Bot, error) { return random.New(uint64(j.GetSeat())), nil }})
		})
	}
	rated := func() int {
		var n int
		nodes[1].db.SQL().QueryRow(`SELECT COUNT(*) FROM rated_matches`).Scan(&n)
		return n
	}
	eventually(t, "three ladder matches rated", func() bool { return rated() >= 3 })
	cancel()
	wg.Wait()
	for _, n := range nodes {
		n.lad.Close() // nothing more is rated while the test reads
	}

	// Every match seated all four bots, two of them on each node's streams.
	d := nodes[0].lad.db
	rows, err := d.Query(`SELECT lm.match_id, lm.bot_ids, res.result FROM ladder_matches lm JOIN matches m ON m.id = lm.match_id
		JOIN results res ON res.match_rowid = m.rowid_ JOIN rated_matches r ON r.match_id = lm.match_id ORDER BY m.rowid_`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	m := nodes[0].lad.model
	want := map[int64]Rating{}
	games := map[int64]int{}
	for rows.Next() {
		var id, botIDs, result string
		if err := rows.Scan(&id, &botIDs, &result); err != nil {
			t.Fatal(err)
		}
		var ids []int64
		var res store.Result
		if err := json.Unmarshal([]byte(botIDs), &ids); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(result), &res); err != nil {
			t.Fatal(err)
		}
		if len(ids) != 4 {
			t.Errorf("match %s seated %d bots, want the four", id, len(ids))
		}
		before := make([]Rating, len(ids))
		for i, b := range ids {
			before[i] = m.New()
			if r, ok := want[b]; ok {
				before[i] = r
			}
		}
		for i, r := range m.Rate(before, res.Ranks) {
			want[ids[i]] = r
			games[ids[i]]++
		}
	}
	stored, err := d.ratings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for id, r := range want {
		got := stored[id][testGame]
		if got.Rating != r || got.games != games[id] {
			t.Errorf("bot %d: stored %+v after %d games, want %+v after %d (creation order, once each)", id, got.Rating, got.games, r, games[id])
		}
	}
}

// A seat assigned to a node that cannot play it (its bot's stream moved to another node just
// as the matchmaker read the streams, or the node died) is taken by the node where the bot's
// stream is, at its next tick: the bot joined before the seat existed, so its join did not
// take it up, and its clock would have run out waiting for the bot's next join.
func TestCluster_SeatsOfABotThatMovedAreTakenWhereItsStreamIs(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	nodes := []*clusterNode{startClusterNode(t, "a", target), startClusterNode(t, "b", target)}
	names := []string{"wm", "xm", "ym", "zm"}
	reg := orreryv1.NewLadderServiceClient(nodes[0].conn)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	ids := make([]int64, len(names))
	for i, name := range names {
		r, err := reg.RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		if err := nodes[0].db.SQL().QueryRow(`SELECT id FROM ladder_bots WHERE name = $1`, name).Scan(&ids[i]); err != nil {
			t.Fatal(err)
		}
		// Tournaments only: the matchmaker seats them in nothing of its own.
		wg.Go(func() {
			botladder.Run(ctx, nodes[1].conn, botladder.Options{APIKey: r.GetApiKey(), Games: []string{testGame}, TournamentsOnly: true,
				MaxBackoff: 100 * time.Millisecond, NewBot: func(j *orreryv1.Joined) (bots.Bot, error) { return random.New(uint64(j.GetSeat())), nil }})
		})
	}
	eventually(t, "the four streams published on b", func() bool {
		var n int
		nodes[0].db.SQL().QueryRow(`SELECT COUNT(*) FROM ladder_streams WHERE node_id = 'b'`).Scan(&n)
		return n == len(names)
	})
	// A match whose seats name nodes that do not play them: one that never picks (dead) and
	// one that left its seat ('').
	lm := &liveMatch{game: testGame, bots: ids, house: make([]*House, len(ids)), runner: make([]*conn, len(ids))}
	if err := nodes[0].lad.create(lm, []string{"gone", "gone", "", ""}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "b takes the match's four seats", func() bool {
		var n int
		nodes[0].db.SQL().QueryRow(`SELECT COUNT(*) FROM ladder_seats WHERE match_id = $1 AND node_id = 'b' AND picked = 1`, lm.id).Scan(&n)
		return n == len(ids)
	})
	eventually(t, "the match played to its end by the bots' streams on b", func() bool {
		got, err := orreryv1.NewArenaServiceClient(nodes[0].conn).GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: lm.id})
		return err == nil && got.GetMatch().GetStatus() == orreryv1.MatchStatus_MATCH_STATUS_FINISHED
	})
	got, err := orreryv1.NewArenaServiceClient(nodes[0].conn).GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: lm.id})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got.GetMatch().GetSeatInfo() {
		if s.GetTimeouts() > 0 {
			t.Errorf("seat %d timed out %d times", s.GetSeat(), s.GetTimeouts())
		}
	}
}

// nodeReach reaches the cluster of n's arena, made after the ladder (ladder.Reach).
type nodeReach struct{ n *clusterNode }

func (r nodeReach) Owner(ctx context.Context, match string) (grpc.ClientConnInterface, bool, error) {
	return r.n.arena.Cluster().Owner(ctx, match)
}

func (r nodeReach) ForwardContext(ctx context.Context) context.Context {
	return r.n.arena.Cluster().ForwardContext(ctx)
}
