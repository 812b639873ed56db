package hosted_test

import (
	"context"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/orrery/orrery/bots"
	icetradersbot "github.com/orrery/orrery/bots/icetraders"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/hosted"
	"github.com/orrery/orrery/service/ladder"
)

// counted counts a bot's decisions.
type counted struct {
	bot bots.Bot
	n   *atomic.Int64
}

func (c counted) Act(d *orreryv1.Decision) *orreryv1.Answer {
	c.n.Add(1)
	return c.bot.Act(d)
}

// BenchmarkHosted_GreedyIceTraders plays whole 4-seat IceTraders matches of the greedy bot on
// every seat, in one run: the Go kit's build of it hosted, the same bot native in process
// (as house bots play), and the same bot over loopback gRPC (as a connected bot plays); and
// the C kit's greedy hosted, a bot of its own (it scores notations, not positions).
// decisions/s counts every seat's decisions.
func BenchmarkHosted_GreedyIceTraders(b *testing.B) {
	const seats = 4
	arena, err := service.New(service.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer arena.Close()
	greedy := hosted.TestModule(b, "bots/wasm/go/icetraders-greedy")
	cGreedy := hosted.CModule(b, "c-icetraders-greedy", "icetraders_greedy.c", "greedy.c", "orrery.c")
	gs := service.NewGRPCServer(arena, service.GRPCOptions{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go gs.Serve(lis)
	defer gs.Stop()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()

	// A seat is prepared (a hosted bot instantiated: BenchmarkHosted_Instantiate's cost)
	// before the match's time starts, then played.
	type seatFunc func(ctx context.Context, seed uint64, n *atomic.Int64) (play func(token string) error)
	hostedWay := func(m *hosted.Module) seatFunc {
		return func(ctx context.Context, seed uint64, n *atomic.Int64) func(string) error {
			bot, err := m.Start(ctx, seed)
			if err != nil {
				b.Fatal(err)
			}
			return func(token string) error {
				defer bot.Close(context.Background())
				return playHosted(ctx, arena, token, bot, seed, n, b)
			}
		}
	}
	for _, way := range []struct {
		name string
		seat seatFunc
	}{
		{"hosted-go", hostedWay(greedy)},
		{"hosted-c", hostedWay(cGreedy)},
		{"native", func(ctx context.Context, seed uint64, n *atomic.Int64) func(string) error {
			return func(token string) error {
				return ladder.PlayInProcess(ctx, arena, token, counted{icetradersbot.NewGreedy(seed), n}, 0)
			}
		}},
		{"grpc", func(ctx context.Context, seed uint64, n *atomic.Int64) func(string) error {
			return func(token string) error {
				_, err := sdk.Play(ctx, conn, token, counted{icetradersbot.NewGreedy(seed), n}, sdk.Options{})
				return err
			}
		}},
	} {
		b.Run(way.name, func(b *testing.B) {
			var decisions atomic.Int64
			var spent, cpuSpent time.Duration
			moduleCPU.Store(0)
			for i := 0; b.Loop(); i++ {
				seed := uint64(100 + i%8) // the same matches for every way
				ctx := context.Background()
				created, err := arena.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "icetraders", Seats: seats, Seed: &seed})
				if err != nil {
					b.Fatal(err)
				}
				plays := make([]func(string) error, seats)
				for s := range seats {
					plays[s] = way.seat(ctx, seed*8+uint64(s), &decisions)
				}
				began, cpu := time.Now(), processCPU()
				var wg sync.WaitGroup
				for s := range seats {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if err := plays[s](created.GetSeats()[s].GetToken()); err != nil {
							b.Error(err)
						}
					}()
				}
				if _, err := arena.AwaitEnd(ctx, created.GetMatchId()); err != nil {
					b.Fatal(err)
				}
				wg.Wait()
				spent += time.Since(began)
				cpuSpent += processCPU() - cpu
			}
			n := float64(decisions.Load())
			b.ReportMetric(n/spent.Seconds(), "decisions/s")
			// The process's CPU a decision (the server's, the bots' and, over gRPC, the
			// client's): unlike the rate, it hardly moves with the machine's load.
			b.ReportMetric(float64(cpuSpent.Microseconds())/n, "cpu-µs/decision")
			if m := moduleCPU.Load(); m > 0 {
				b.ReportMetric(float64(m)/1e3/n, "module-µs/decision")
			}
		})
	}
}

// playHosted plays a seat with a started hosted bot, counting its decisions.
func playHosted(ctx context.Context, arena *service.Server, token string, bot *hosted.Bot, seed uint64, n *atomic.Int64, b *testing.B) error {
	st, err := arena.Attach(token, nil)
	if err != nil {
		return err
	}
	defer st.Detach()
	return hosted.Play(ctx, st, bot, hosted.PlayConfig{Seed: seed, OnStep: func(s hosted.Step) {
		if s.Verdict != nil {
			b.Errorf("verdict %v\n%s", s.Verdict, bot.Stderr())
		}
		n.Add(1)
		moduleCPU.Add(int64(s.CPU))
	}})
}

// moduleCPU sums the hosted bots' own CPU, as the host measured it decision by decision.
var moduleCPU atomic.Int64

// processCPU is the CPU time this process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHosted_Instantiate starts a seat of the Go kit's greedy IceTraders bot (to its
// first read of stdin) and closes it, and reports the memory a live seat holds: its linear
// memory, and the Go heap it adds, linear memory included, measured over 16 live seats.
func BenchmarkHosted_Instantiate(b *testing.B) {
	for _, kit := range []struct {
		name string
		m    func(testing.TB) *hosted.Module
	}{
		{"go", func(t testing.TB) *hosted.Module { return hosted.TestModule(t, "bots/wasm/go/icetraders-greedy") }},
		{"c", func(t testing.TB) *hosted.Module {
			return hosted.CModule(t, "c-icetraders-greedy", "icetraders_greedy.c", "greedy.c", "orrery.c")
		}},
	} {
		b.Run(kit.name, func(b *testing.B) {
			m := kit.m(b)
			ctx := context.Background()
			for i := 0; b.Loop(); i++ {
				bot, err := m.Start(ctx, uint64(i))
				if err != nil {
					b.Fatal(err)
				}
				bot.Close(ctx)
			}
			b.StopTimer()
			const live = 16
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			seats := make([]*hosted.Bot, live)
			var linear uint64
			for i := range seats {
				bot, err := m.Start(ctx, uint64(i))
				if err != nil {
					b.Fatal(err)
				}
				seats[i] = bot
				linear += bot.MemoryBytes()
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			for _, bot := range seats {
				bot.Close(ctx)
			}
			b.ReportMetric(float64(linear)/live/(1<<20), "linear-MiB/seat")
			b.ReportMetric(float64(after.HeapInuse+after.StackInuse-before.HeapInuse-before.StackInuse)/live/(1<<20), "heap-MiB/seat")
		})
	}
}
