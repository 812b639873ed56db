package service

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/store/pgtest"
)

// benchNode serves node id of a cluster on target, in process, on a loopback port, with the
// limits out of the way; it returns the node's address.
func benchNode(tb testing.TB, target, id string) string {
	tb.Helper()
	db, err := store.Open(target)
	if err != nil {
		tb.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv, err := New(Config{Store: db, Node: &Node{ID: id, Addr: lis.Addr().String()},
		Limits: limits.Config{LiveMatches: 1 << 30, CreatesPerMinute: 1 << 30, LivePerCaller: 1 << 30}})
	if err != nil {
		tb.Fatal(err)
	}
	gs := NewGRPCServer(srv, GRPCOptions{})
	go gs.Serve(lis)
	tb.Cleanup(func() {
		srv.Close()
		gs.Stop()
		db.Close()
	})
	return lis.Addr().String()
}

// playSpread creates n 4-seat matches of testGame, match i through creators[i%len], then
// plays them all at once with random bots, seat k of all the bots through players(k), and
// returns the decisions made and the time the play took (creating is not timed).
func playSpread(tb testing.TB, creators []grpc.ClientConnInterface, players func(i, k int) grpc.ClientConnInterface, n int, seed uint64) (int64, time.Duration) {
	tb.Helper()
	ctx := context.Background()
	created := make([]*orreryv1.CreateMatchResponse, n)
	for i := range created {
		s := seed + uint64(i)
		var err error
		created[i], err = orreryv1.NewArenaServiceClient(creators[i%len(creators)]).CreateMatch(ctx, &orreryv1.CreateMatchRequest{
			Game: testGame, Seats: 4, Seed: &s, Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}})
		if err != nil {
			tb.Fatal(err)
		}
	}
	var decisions atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, n*4)
	start := time.Now()
	for i, c := range created {
		for j, s := range c.GetSeats() {
			bot := counted{random.New(seed + uint64(i*4+j)), &decisions}
			conn := players(i, i*4+j)
			wg.Go(func() {
				end, err := sdk.Play(ctx, conn, s.GetToken(), bot, sdk.Options{Reconnects: -1})
				if err == nil && end.GetResult() == nil {
					err = fmt.Errorf("match %s ended without a result", c.GetMatchId())
				}
				if err != nil {
					errs <- err
				}
			})
		}
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	for err := range errs {
		tb.Error(err)
	}
	return decisions.Load(), elapsed
}

// BenchmarkCluster plays the same load of simultaneous 4-seat matches of random bots, every
// step stored, three ways in one run, and reports decisions/s: one node on a SQLite file;
// three nodes in this process on one PostgreSQL database, each bot on the node that owns its
// match ("owner"); and the same three nodes with the bots spread over the nodes round robin,
// so that two streams in three are relayed to the owner ("any"). 30 matches by default;
// ORRERY_FULL=1 plays 1,000. Run with -benchtime 1x:
//
//	ORRERY_FULL=1 go test ./service -run '^$' -bench BenchmarkCluster -benchtime 1x
func BenchmarkCluster(b *testing.B) {
	n := 30
	if os.Getenv("ORRERY_FULL") != "" {
		n = 1000
	}
	dial := func(addr string) grpc.ClientConnInterface {
		c, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close() })
		return c
	}
	run := func(b *testing.B, creators []grpc.ClientConnInterface, players func(i, k int) grpc.ClientConnInterface) {
		var decisions int64
		var elapsed time.Duration
		for i := 0; i < b.N; i++ {
			d, e := playSpread(b, creators, players, n, uint64(i)*uint64(n))
			decisions += d
			elapsed += e
		}
		b.ReportMetric(float64(decisions)/elapsed.Seconds(), "decisions/s")
		b.ReportMetric(float64(n), "matches")
	}
	b.Run("sqlite-1node", func(b *testing.B) {
		db, err := store.Open(filepath.Join(b.TempDir(), "orrery.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() }) // after the server's own cleanup, which flushes
		_, conn := loopback(b, Config{Store: db})
		run(b, []grpc.ClientConnInterface{conn}, func(int, int) grpc.ClientConnInterface { return conn })
	})
	target := pgtest.Shared(b).NewDB(b)
	conns := make([]grpc.ClientConnInterface, 3)
	for i := range conns {
		conns[i] = dial(benchNode(b, target, fmt.Sprintf("n%d", i)))
	}
	b.Run("postgres-3nodes-owner", func(b *testing.B) {
		run(b, conns, func(i, _ int) grpc.ClientConnInterface { return conns[i%len(conns)] })
	})
	b.Run("postgres-3nodes-any", func(b *testing.B) {
		run(b, conns, func(_, k int) grpc.ClientConnInterface { return conns[k%len(conns)] })
	})
}
