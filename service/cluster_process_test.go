package service

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/seedcommit"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/store/pgtest"
)

// clusterNodeEnv, when set to "ID|ADDR|DB", makes TestClusterNode serve as node ID of a
// cluster on DB until killed: TestCluster runs its nodes as processes of their own.
const clusterNodeEnv = "ORRERY_TEST_CLUSTER_NODE"

// clusterTTL is the nodes' lease: short, so that the test waits little for a takeover. The
// full run loads the machine enough that renewals take seconds: it keeps the default lease.
func clusterTTL() time.Duration {
	if os.Getenv("ORRERY_FULL") != "" {
		return cluster.DefaultLeaseTTL
	}
	return 3 * time.Second
}

func TestClusterNode(t *testing.T) {
	spec := os.Getenv(clusterNodeEnv)
	if spec == "" {
		t.Skip("only as TestCluster's node process")
	}
	f := strings.SplitN(spec, "|", 3)
	db, err := store.Open(f[2])
	if err != nil {
		t.Fatal(err)
	}
	// One test client creates every match: the per-caller limit would refuse the full run.
	// Warnings and errors (a fence, a refused write) go to the test's output.
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})).With("node", f[0])
	srv, err := New(Config{Store: db, Logger: logger, Node: &Node{ID: f[0], Addr: f[1], LeaseTTL: clusterTTL()},
		Limits: limits.Config{CreatesPerMinute: 1000, LivePerCaller: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", f[1])
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("ready")
	NewGRPCServer(srv, GRPCOptions{}).Serve(lis)
}

type clusterNode struct {
	id, addr string
	cmd      *exec.Cmd
	conn     *grpc.ClientConn
}

func startNode(t *testing.T, id, target string) *clusterNode {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestClusterNode$")
	cmd.Env = append(os.Environ(), clusterNodeEnv+"="+id+"|"+addr+"|"+target)
	dieWithParent(cmd)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("node %s: %q %v", id, line, err)
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &clusterNode{id: id, addr: addr, cmd: cmd, conn: conn}
}

// TestCluster_KilledNodesMatchesFinishOnTheOthers starts three nodes as processes on one
// PostgreSQL database, creates matches on each, and plays them with bots that connect to the
// nodes round robin, whichever node owns their match (through sdk.Nodes, with every node's
// address: the node a bot reaches relays its stream to the owner). It kills one node
// (SIGKILL) while its matches are mid-game, and checks that every match finishes (the killed
// node's on the node that took it over, its bots rejoining through the next address) and that
// every replay verifies. It logs the failover time: from the kill to the first decision a
// bot of the killed node's matches receives after it. 12 matches by default; ORRERY_FULL=1
// plays 300.
func TestCluster_KilledNodesMatchesFinishOnTheOthers(t *testing.T) {
	n := 12
	if os.Getenv("ORRERY_FULL") != "" {
		n = 300
	}
	target := pgtest.Shared(t).NewDB(t)
	db, err := store.Open(target) // the test's own view of the database
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	nodes := []*clusterNode{startNode(t, "n0", target), startNode(t, "n1", target), startNode(t, "n2", target)}
	addrs := make([]string, len(nodes))
	for i, nd := range nodes {
		addrs[i] = nd.addr
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a broken test's bound
	defer cancel()

	// The bots of the matches on n0 hold their third decision until n0 is dead, so that the
	// kill lands mid-game.
	killed := make(chan struct{})
	var killedAt time.Time
	var firstAfter atomic.Int64 // UnixNano of the first decision after the kill, of n0's matches
	var held sync.WaitGroup
	var created []*orreryv1.CreateMatchResponse
	for i := range n {
		nd := nodes[i%len(nodes)]
		resp, err := orreryv1.NewArenaServiceClient(nd.conn).CreateMatch(ctx, &orreryv1.CreateMatchRequest{
			Game: testGame, Seats: testSeats, Seed: seed(uint64(100 + i))})
		if err != nil {
			t.Fatal(err)
		}
		created = append(created, resp)
		if nd.id == "n0" {
			held.Add(1)
		}
	}

	var wg sync.WaitGroup
	errs := make(chan error, n*testSeats)
	onNode := make([]int, len(nodes)) // how many bots start on each node
	bot := 0
	for i, c := range created {
		var decisions atomic.Int32
		var once sync.Once
		onN0 := i%len(nodes) == 0
		for seat, s := range c.GetSeats() {
			// Round robin over the nodes, whatever node owns the match: each bot's list of
			// addresses starts at its node.
			first := bot % len(nodes)
			bot++
			onNode[first]++
			conn, err := sdk.Dial(append(append([]string{}, addrs[first:]...), addrs[:first]...),
				grpc.WithTransportCredentials(insecure.NewCredentials()))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			r := random.New(uint64(i*10 + seat))
			b := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
				if onN0 {
					select {
					case <-killed:
						now := time.Now().UnixNano()
						for old := firstAfter.Load(); (old == 0 || now < old) && !firstAfter.CompareAndSwap(old, now); {
							old = firstAfter.Load()
						}
					default:
						if decisions.Add(1) >= 3 {
							once.Do(held.Done)
							<-killed
						}
					}
				}
				return r.Act(d)
			})
			wg.Go(func() {
				_, err := sdk.Play(ctx, conn, s.GetToken(), b, sdk.Options{Reconnects: -1, MaxBackoff: 500 * time.Millisecond})
				if err != nil {
					err = fmt.Errorf("match %d (%s) seat %d: %w", i, c.GetMatchId(), seat, err)
				}
				errs <- err
			})
		}
	}
	held.Wait()
	killedAt = time.Now()
	nodes[0].cmd.Process.Kill() // no clean shutdown: its leases simply stop being renewed
	nodes[0].cmd.Wait()
	close(killed)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}

	takenOver := 0
	for i, c := range created {
		id := c.GetMatchId()
		live := nodes[1+i%2]
		rep, err := orreryv1.NewArenaServiceClient(live.conn).GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
		if err != nil {
			t.Errorf("match %d (%s): replay: %v", i, id, err)
			continue
		}
		if rep.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FINISHED || len(rep.GetMatch().GetResult().GetRanks()) != testSeats {
			t.Errorf("match %d: %v, want finished with ranks", i, rep.GetMatch())
		}
		if err := seedcommit.Verify(rep.GetMatch().GetSeedHash(), rep.GetSeed(), rep.GetSeedSalt()); err != nil || rep.GetSeed() != uint64(100+i) {
			t.Errorf("match %d: seed %d does not verify: %v", i, rep.GetSeed(), err)
		}
		stored, err := LoadReplay(ctx, db, id)
		if err != nil || len(stored.GetEvents()) != len(rep.GetEvents()) || stored.GetFinalText() != rep.GetFinalText() {
			t.Errorf("match %d: stored replay differs from the served one (%v)", i, err)
		}
		if i%len(nodes) == 0 {
			takenOver++
		}
	}
	if takenOver == 0 {
		t.Error("no match of the killed node")
	}
	t.Logf("%d matches on 3 nodes, bots starting on the nodes %v (round robin); %d taken over from the killed node", n, onNode, takenOver)
	if f := firstAfter.Load(); f != 0 {
		t.Logf("failover: %v from the kill to the first decision of a taken-over match (lease %v)", time.Unix(0, f).Sub(killedAt).Round(time.Millisecond), clusterTTL())
	}
}
