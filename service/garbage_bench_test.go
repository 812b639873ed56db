package service

import (
	"context"
	"os"
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
	"github.com/orrery/orrery/service/limits"
)

// BenchmarkGarbageSeatsRatio is the load check: the rate of decisions of an unrelated
// match, played by two random bots, with 200 garbage seats (each of a match of its own and a
// client of its own, sending 50 answers a second that no decision asked for, 10,000 a second
// in all, and rejoining whenever the server closes its stream), over the same rate without
// them, on one server, in turns. Reported as
// load-ratio (target >= 0.5); the rejected answers the garbage seats got through, per second,
// show the limit at work.
func BenchmarkGarbageSeatsRatio(b *testing.B) {
	window := 2 * time.Second
	if os.Getenv("CI") == "true" {
		window = 500 * time.Millisecond
	}
	const garbageSeats = 200
	_, conn, stop := serve(b, Config{Limits: limits.Config{LiveMatches: 1 << 30, CreatesPerMinute: 1 << 30, LivePerCaller: 1 << 30}})
	defer stop()
	arena := orreryv1.NewArenaServiceClient(conn)
	var ratios []float64
	var rejected atomic.Int64
	var garbageTime time.Duration
	var garbageRejects int64
	for i := 0; i < b.N; i++ {
		alone := decisionRate(b, conn, window)
		b.Logf("alone: %.0f decisions/s", alone)
		ctx, cancel := context.WithCancel(context.Background())
		var tokens []string
		for g := range garbageSeats {
			created, err := arena.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats, Seed: seed(uint64(g + 1))})
			if err != nil {
				b.Fatal(err)
			}
			tokens = append(tokens, created.GetSeats()[0].GetToken())
		}
		// Each garbage seat is a client of its own, on a connection of its own.
		var wg sync.WaitGroup
		for _, token := range tokens {
			gc, err := grpc.NewClient(conn.Target(), grpc.WithTransportCredentials(insecure.NewCredentials()))
			if err != nil {
				b.Fatal(err)
			}
			wg.Go(func() {
				defer gc.Close()
				sendGarbage(ctx, orreryv1.NewArenaServiceClient(gc), token, &rejected)
			})
		}
		for garbageJoins.Load() < int64((i+1)*garbageSeats) {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond) // every seat has joined, and the garbage flows
		before, start := rejected.Load(), time.Now()
		loaded := decisionRate(b, conn, window)
		garbageTime += time.Since(start)
		garbageRejects += rejected.Load() - before
		cancel()
		wg.Wait()
		ratios = append(ratios, loaded/alone)
		b.Logf("with %d garbage seats: %.0f decisions/s, %d rejections, %d joins, %d errors, %v", garbageSeats, loaded, garbageRejects, garbageJoins.Load(), garbageErrs.Load(), time.Since(start))
	}
	sum := 0.0
	for _, r := range ratios {
		sum += r
	}
	b.ReportMetric(sum/float64(len(ratios)), "load-ratio")
	b.ReportMetric(float64(garbageRejects)/garbageTime.Seconds(), "garbage-rejects/s")
}

// decisionRate plays matches of two random bots, one after another, for window and returns
// their decisions per second. The matches are made before the window opens.
func decisionRate(b *testing.B, conn *grpc.ClientConn, window time.Duration) float64 {
	arena := orreryv1.NewArenaServiceClient(conn)
	var matches []*orreryv1.CreateMatchResponse
	for range 100 {
		created, err := arena.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats})
		if err != nil {
			b.Fatal(err)
		}
		matches = append(matches, created)
	}
	ctx, cancel := context.WithTimeout(context.Background(), window)
	defer cancel()
	var decisions atomic.Int64
	start := time.Now()
	for _, created := range matches {
		if ctx.Err() != nil {
			break
		}
		var wg sync.WaitGroup
		for i, s := range created.GetSeats() {
			wg.Go(func() {
				sdk.Play(ctx, conn, s.GetToken(), countingBot{random.New(uint64(i)), &decisions}, sdk.Options{})
			})
		}
		wg.Wait()
	}
	return float64(decisions.Load()) / time.Since(start).Seconds()
}

type countingBot struct {
	bots.Bot
	n *atomic.Int64
}

func (c countingBot) Act(d *orreryv1.Decision) *orreryv1.Answer {
	c.n.Add(1)
	return c.Bot.Act(d)
}

var garbageJoins, garbageErrs atomic.Int64

// sendGarbage joins token's seat and sends answers to no decision, 50 a second, until ctx
// ends, rejoining when the server closes the stream; it counts the rejections it reads.
func sendGarbage(ctx context.Context, arena orreryv1.ArenaServiceClient, token string, rejected *atomic.Int64) {
	garbage := &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "garbage", Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 1 << 20}}}}
	for ctx.Err() == nil {
		stream, err := arena.Play(ctx)
		if err != nil {
			if ctx.Err() == nil {
				garbageErrs.Add(1)
			}
			return
		}
		garbageJoins.Add(1)
		if stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: token}}}) != nil {
			continue
		}
		go func() {
			for {
				resp, err := stream.Recv()
				if err != nil {
					return
				}
				if resp.GetRejected() != nil {
					rejected.Add(1)
				}
			}
		}()
		// 50 messages a second a seat: 10,000 a second from 200 seats, as in the issue.
		tick := time.NewTicker(20 * time.Millisecond)
		for stream.Send(garbage) == nil {
			select {
			case <-tick.C:
			case <-ctx.Done():
			}
		}
		tick.Stop()
	}
}
