package service

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/limits"
)

// BenchmarkGarbageSeatsRatio is the load check: the rate of decisions of an unrelated
// match, played by two random bots, with 200 garbage seats (each of a match of its own,
// sending answers no decision asked for as fast as it can, and rejoining whenever the server
// closes its stream), over the same rate without them, on one server, in turns. Reported as
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
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for g := range garbageSeats {
			created, err := arena.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats, Seed: seed(uint64(g + 1))})
			if err != nil {
				b.Fatal(err)
			}
			wg.Add(1)
			go func(token string) {
				defer wg.Done()
				sendGarbage(ctx, arena, token, &rejected)
			}(created.GetSeats()[0].GetToken())
		}
		time.Sleep(200 * time.Millisecond) // the garbage is flowing
		before, start := rejected.Load(), time.Now()
		loaded := decisionRate(b, conn, window)
		garbageTime += time.Since(start)
		garbageRejects += rejected.Load() - before
		cancel()
		wg.Wait()
		ratios = append(ratios, loaded/alone)
	}
	sum := 0.0
	for _, r := range ratios {
		sum += r
	}
	b.ReportMetric(sum/float64(len(ratios)), "load-ratio")
	b.ReportMetric(float64(garbageRejects)/garbageTime.Seconds(), "garbage-rejects/s")
}

// decisionRate plays matches of two random bots for window and returns their decisions per
// second.
func decisionRate(b *testing.B, conn *grpc.ClientConn, window time.Duration) float64 {
	arena := orreryv1.NewArenaServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), window)
	defer cancel()
	var decisions atomic.Int64
	start := time.Now()
	for ctx.Err() == nil {
		created, err := arena.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats})
		if err != nil {
			b.Fatal(err)
		}
		var wg sync.WaitGroup
		for i, s := range created.GetSeats() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				bot := random.New(uint64(i))
				sdk.Play(ctx, conn, s.GetToken(), countingBot{bot, &decisions}, sdk.Options{})
			}()
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

// sendGarbage joins token's seat and sends answers to no decision until ctx ends, rejoining
// when the server closes the stream; it counts the rejections it reads.
func sendGarbage(ctx context.Context, arena orreryv1.ArenaServiceClient, token string, rejected *atomic.Int64) {
	garbage := &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "garbage", Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 1 << 20}}}}
	for ctx.Err() == nil {
		stream, err := arena.Play(ctx)
		if err != nil {
			return
		}
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
		for stream.Send(garbage) == nil {
		}
	}
}
