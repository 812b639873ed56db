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
// match, played by two random bots, with 200 garbage seats (each of a match of its own and a
// client of its own, sending 50 answers a second that no decision asked for, 10,000 a second
// in all, and rejoining whenever the server closes its stream), over the same rate without
// them, on one server, in turns. The garbage clients run twice: in this process (load-ratio,
// their CPU taken from the server's) and in a child process (load-ratio-separate, as on a
// real deployment, where the garbage clients' CPU is not the server's); target >= 0.5. The
// rejected answers the garbage seats got through, per second, show the limit at work.
func BenchmarkGarbageSeatsRatio(b *testing.B) {
	window := 2 * time.Second
	if os.Getenv("CI") == "true" {
		window = 500 * time.Millisecond
	}
	_, conn, stop := serve(b, Config{Limits: limits.Config{LiveMatches: 1 << 30, CreatesPerMinute: 1 << 30, LivePerCaller: 1 << 30}})
	defer stop()
	inProcess := func(tokens []string) garbageClients { return startGarbage(b, conn.Target(), tokens) }
	separate := func(tokens []string) garbageClients { return startChildGarbage(b, conn.Target(), tokens) }
	var in, out garbageRun
	for range b.N {
		in.measure(b, conn, window, "in-process", inProcess)
		out.measure(b, conn, window, "separate-process", separate)
	}
	b.ReportMetric(in.ratio(), "load-ratio")
	b.ReportMetric(out.ratio(), "load-ratio-separate")
	b.ReportMetric(in.rejectRate(), "garbage-rejects/s")
	b.ReportMetric(out.rejectRate(), "garbage-rejects/s-separate")
}

const garbageSeats = 200

// garbageRun sums one way of running the garbage clients over the benchmark's rounds.
type garbageRun struct {
	ratios   []float64
	rejected int64
	time     time.Duration
}

// measure is one round: the unrelated rate alone, then with garbageSeats seats' clients
// started by start.
func (r *garbageRun) measure(b *testing.B, conn *grpc.ClientConn, window time.Duration, name string, start func([]string) garbageClients) {
	alone := decisionRate(b, conn, window)
	arena := orreryv1.NewArenaServiceClient(conn)
	var tokens []string
	for g := range garbageSeats {
		created, err := arena.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats, Seed: seed(uint64(g + 1))})
		if err != nil {
			b.Fatal(err)
		}
		tokens = append(tokens, created.GetSeats()[0].GetToken())
	}
	garbage := start(tokens)
	defer garbage.stop()
	for deadline := time.Now().Add(time.Minute); garbage.counts().joins < garbageSeats; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) { // a child that died says why on stderr
			b.Fatalf("%s: %d of %d garbage seats joined in a minute", name, garbage.counts().joins, garbageSeats)
		}
	}
	time.Sleep(500 * time.Millisecond) // every seat has joined, and the garbage flows
	before, began := garbage.counts(), time.Now()
	loaded := decisionRate(b, conn, window)
	elapsed := time.Since(began)
	after := garbage.counts()
	r.time += elapsed
	r.rejected += after.rejected - before.rejected
	r.ratios = append(r.ratios, loaded/alone)
	b.Logf("%s: alone %.0f decisions/s, with %d garbage seats %.0f (ratio %.2f), %d rejections, %d joins, %d errors in %v",
		name, alone, garbageSeats, loaded, loaded/alone, after.rejected-before.rejected, after.joins, after.errs, elapsed.Round(time.Millisecond))
}

func (r *garbageRun) ratio() float64 {
	sum := 0.0
	for _, x := range r.ratios {
		sum += x
	}
	return sum / float64(len(r.ratios))
}

func (r *garbageRun) rejectRate() float64 { return float64(r.rejected) / r.time.Seconds() }

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

// sendGarbage joins token's seat and sends answers to no decision, 50 a second, until ctx
// ends, rejoining when the server closes the stream; it counts the rejections it reads.
func sendGarbage(ctx context.Context, arena orreryv1.ArenaServiceClient, token string, g *inProcessGarbage) {
	garbage := &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "garbage", Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 1 << 20}}}}
	for ctx.Err() == nil {
		stream, err := arena.Play(ctx)
		if err != nil {
			if ctx.Err() == nil {
				g.errs.Add(1)
			}
			return
		}
		g.joins.Add(1)
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
					g.rejected.Add(1)
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
