package service

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/limits"
)

// childServeEnv, when set, makes TestChildServer serve an arena on the address it names
// until killed: BenchmarkMatchMemory measures the server in a process of its own, so that
// the clients' memory does not count.
const childServeEnv = "ORRERY_TEST_CHILD_SERVE"

func TestChildServer(t *testing.T) {
	addr := os.Getenv(childServeEnv)
	if addr == "" {
		t.Skip("only as BenchmarkMatchMemory's child process")
	}
	// The benchmark's matches are far past the default limits on live and created matches.
	srv, err := New(Config{Limits: limits.Config{LiveMatches: 1 << 30, CreatesPerMinute: 1 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("ready")
	NewGRPCServer(srv, GRPCOptions{}).Serve(lis)
}

// rssKiB is a process's resident set size.
func rssKiB(tb testing.TB, pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return n
		}
	}
	tb.Fatal("no VmRSS")
	return 0
}

// quota lets the seats of one match answer its first n decisions between them; then every
// seat falls silent, so the match stays live mid-game.
type quota struct {
	left atomic.Int64
	done sync.Once
	wg   *sync.WaitGroup
	stop <-chan struct{} // closed when the benchmark ends
}

// act answers d with bot while the match's quota lasts, and blocks silently after.
func (q *quota) act(bot bots.Bot, d *orreryv1.Decision) *orreryv1.Answer {
	left := q.left.Add(-1)
	if left == 0 {
		q.done.Do(q.wg.Done)
	}
	if left < 0 {
		<-q.stop // silent until the benchmark ends
	}
	return bot.Act(d)
}

// BenchmarkMatchMemory reports the server's resident memory per live 4-seat IceTraders
// match, with 10,000 matches (ORRERY_MEMORY_MATCHES to change; ORRERY_MEMORY_CONNS=seat for a
// client connection per seat): "waiting-KiB/match" once
// every seat has joined and holds its first decision, "playing-KiB/match" once each match
// has played six decisions and sits in play. The server runs in a child
// process; run with -benchtime 1x.
func BenchmarkMatchMemory(b *testing.B) {
	n := 10000
	if v := os.Getenv("ORRERY_MEMORY_MATCHES"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildServer$")
	cmd.Env = append(os.Environ(), childServeEnv+"="+addr)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		b.Fatalf("child server: %q %v", line, err)
	}
	// 64 client connections share the seats unless ORRERY_MEMORY_CONNS says otherwise
	// ("seat": one connection per seat, as bots connect, each with the server's buffers).
	nconns := 64
	if v := os.Getenv("ORRERY_MEMORY_CONNS"); v == "seat" {
		nconns = 4 * n
	} else if v != "" {
		nconns, _ = strconv.Atoi(v)
	}
	conns := make([]*grpc.ClientConn, nconns)
	for i := range conns {
		if conns[i], err = grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials())); err != nil {
			b.Fatal(err)
		}
		defer conns[i].Close()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := orreryv1.NewArenaServiceClient(conns[0])
	if _, err := client.ListGames(ctx, &orreryv1.ListGamesRequest{}); err != nil {
		b.Fatal(err)
	}
	time.Sleep(time.Second)
	base := rssKiB(b, cmd.Process.Pid)
	created := make([]*orreryv1.CreateMatchResponse, n)
	for i := range created {
		s := uint64(i)
		if created[i], err = client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: 4, Seed: &s,
			Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Hour)}}); err != nil {
			b.Fatal(err)
		}
	}
	// Every seat joins and waits at its first decision; then each match plays six decisions
	// and its seats fall silent.
	var joined, played sync.WaitGroup
	var errs atomic.Int64
	release := make(chan struct{})
	for i, c := range created {
		q := &quota{wg: &played, stop: ctx.Done()}
		q.left.Store(6 + 1)
		played.Add(1)
		for j, s := range c.GetSeats() {
			joined.Add(1)
			first := true
			bot := random.New(uint64(i*4 + j))
			wrapped := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
				if first {
					first = false
					joined.Done()
					<-release
				}
				return q.act(bot, d)
			})
			go func() {
				if _, err := sdk.Play(ctx, conns[(i*4+j)%len(conns)], s.GetToken(), wrapped, sdk.Options{}); err != nil && ctx.Err() == nil {
					errs.Add(1)
				}
			}()
		}
	}
	// Seats that owe nothing yet (IceTraders opens with simultaneous choices, so every seat
	// does) are all waiting on their first decision here.
	joined.Wait()
	time.Sleep(2 * time.Second)
	waiting := rssKiB(b, cmd.Process.Pid)
	close(release)
	played.Wait()
	time.Sleep(2 * time.Second)
	playing := rssKiB(b, cmd.Process.Pid)
	if errs.Load() > 0 {
		b.Errorf("%d seats failed", errs.Load())
	}
	b.ReportMetric(float64(waiting-base)/float64(n), "waiting-KiB/match")
	b.ReportMetric(float64(playing-base)/float64(n), "playing-KiB/match")
	b.ReportMetric(float64(base), "base-KiB")
}
