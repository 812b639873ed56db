package service

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"

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

// TestChildServer serves an arena for BenchmarkMatchMemory, and a debug endpoint beside it
// whose address it prints after "ready": the goroutine dump (/debug/pprof/goroutine), heap
// profiles (/debug/pprof/heap) and the memory after a full collection (/memory).
func TestChildServer(t *testing.T) {
	addr := os.Getenv(childServeEnv)
	if addr == "" {
		t.Skip("only as BenchmarkMatchMemory's child process")
	}
	runtime.MemProfileRate = 4096 // a heap profile fine enough to split a few KiB per match
	// The benchmark's matches are far past the default limits on live and created matches,
	// and its last seats may join long after its first matches were created.
	srv, err := New(Config{Limits: limits.Config{LiveMatches: 1 << 30, CreatesPerMinute: 1 << 30, LivePerCaller: 1 << 30, Unjoined: 24 * time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	dbg, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/memory", serveMemory)
	go http.Serve(dbg, mux)
	fmt.Println("ready", dbg.Addr().String())
	if os.Getenv(childBareEnv) != "" { // BenchmarkStreamMemory's bare gRPC server
		gs := grpc.NewServer()
		gs.RegisterService(&holdDesc, struct{}{})
		gs.Serve(lis)
		return
	}
	// A logger that formats each line, as a server's does, so that its cost counts.
	gs := NewGRPCServer(srv, GRPCOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	gs.RegisterService(&holdDesc, struct{}{}) // BenchmarkStreamMemory's streams, through the arena's interceptors
	gs.Serve(lis)
}

// childBareEnv, set with childServeEnv, makes TestChildServer serve holdDesc alone on a
// bare gRPC server, with none of the arena's options or interceptors.
const childBareEnv = "ORRERY_TEST_CHILD_BARE"

// holdDesc is BenchmarkStreamMemory's stream: its handler, on gRPC's goroutine for the
// stream and nothing else, answers each (empty) message with another, until the stream ends.
var holdDesc = grpc.ServiceDesc{
	ServiceName: "orrery.bench.Hold",
	HandlerType: (*any)(nil),
	Streams: []grpc.StreamDesc{{StreamName: "Hold", ServerStreams: true, ClientStreams: true,
		Handler: func(_ any, stream grpc.ServerStream) error {
			var msg emptypb.Empty
			for {
				if err := stream.RecvMsg(&msg); err != nil {
					return nil
				}
				if err := stream.SendMsg(&msg); err != nil {
					return err
				}
			}
		}}},
}

// memoryMetrics are the runtime/metrics /memory reports, after a full collection that also
// returns freed memory to the system (so that the RSS read next is the live memory's).
var memoryMetrics = []string{
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/stacks:bytes",
	"/memory/classes/total:bytes",
	"/sched/goroutines:goroutines",
	"/gc/stack/starting-size:bytes",
}

func serveMemory(w http.ResponseWriter, _ *http.Request) {
	// Each collection halves the stacks of goroutines that use under a quarter of theirs,
	// as a server's periodic collections do over time: a few give the stacks as they stay.
	for range 4 {
		runtime.GC()
	}
	debug.FreeOSMemory()
	samples := make([]metrics.Sample, len(memoryMetrics))
	for i, name := range memoryMetrics {
		samples[i].Name = name
	}
	metrics.Read(samples)
	for _, s := range samples {
		fmt.Fprintf(w, "%s %d\n", s.Name, s.Value.Uint64())
	}
}

// childMemory is what the child process holds: RSS after a full collection, and its
// runtime/metrics split.
type childMemory struct {
	rss, heap, stacks, total, goroutines int64
	startingStack                        int64 // the stack a new goroutine starts with
	threads                              int64 // OS threads, whose stacks count as stacks
}

func (c *child) memory(tb testing.TB) childMemory {
	body, err := c.get("/memory")
	if err != nil {
		tb.Fatalf("child server's memory: %v", err)
	}
	var m childMemory
	for line := range strings.Lines(body) {
		name, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		n, _ := strconv.ParseInt(v, 10, 64)
		switch name {
		case "/memory/classes/heap/objects:bytes":
			m.heap = n
		case "/memory/classes/heap/stacks:bytes":
			m.stacks = n
		case "/memory/classes/total:bytes":
			m.total = n
		case "/sched/goroutines:goroutines":
			m.goroutines = n
		case "/gc/stack/starting-size:bytes":
			m.startingStack = n
		}
	}
	m.rss = procStatus(tb, c.cmd.Process.Pid, "VmRSS") << 10
	m.threads = procStatus(tb, c.cmd.Process.Pid, "Threads")
	return m
}

// profile writes the child's heap profile and goroutine stacks to files named after
// ORRERY_MEMORY_PROFILE and phase, if that is set.
func (c *child) profile(tb testing.TB, phase string) {
	prefix := os.Getenv("ORRERY_MEMORY_PROFILE")
	if prefix == "" {
		return
	}
	for _, p := range []struct{ path, file string }{
		{"/debug/pprof/heap?gc=1", prefix + "-" + phase + ".heap"},
		{"/debug/pprof/goroutine?debug=1", prefix + "-" + phase + ".goroutines.txt"},
	} {
		body, err := c.get(p.path)
		if err == nil {
			err = os.WriteFile(p.file, []byte(body), 0o644)
		}
		if err != nil {
			tb.Fatalf("child server's profile: %v", err)
		}
	}
}

// child is BenchmarkMatchMemory's server process.
type child struct {
	cmd    *exec.Cmd
	debug  string        // its debug endpoint's address
	exited chan struct{} // closed when the process has ended
	err    error         // why, once exited is closed
}

func (c *child) get(path string) (string, error) {
	// No connection is kept, so that none outlives the benchmark (goleak).
	hc := http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := hc.Get("http://" + c.debug + path)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// startChild starts TestChildServer serving on addr, with env besides its own, its stderr
// on ours so that a crash is seen.
func startChild(tb testing.TB, addr string, env ...string) *child {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildServer$")
	cmd.Env = append(append(os.Environ(), childServeEnv+"="+addr), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	c := &child{cmd: cmd, exited: make(chan struct{})}
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "ready ") {
		cmd.Process.Kill()
		cmd.Wait()
		tb.Fatalf("child server: %q %v", line, err)
	}
	c.debug = strings.TrimSpace(strings.TrimPrefix(line, "ready "))
	go func() {
		io.Copy(os.Stderr, r) // whatever else it prints, so that it never blocks on a full pipe
		c.err = cmd.Wait()
		close(c.exited)
	}()
	return c
}

// startChildAnywhere is startChild on a free loopback port, which it returns; the child is
// killed when the test ends.
func startChildAnywhere(tb testing.TB, env ...string) (*child, string) {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	c := startChild(tb, addr, env...)
	tb.Cleanup(func() { c.cmd.Process.Kill(); <-c.exited })
	return c, addr
}

// dialChild opens n client connections to addr, closed when the test ends.
func dialChild(tb testing.TB, addr string, n int) []*grpc.ClientConn {
	tb.Helper()
	conns := make([]*grpc.ClientConn, n)
	for i := range conns {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { conn.Close() })
		conns[i] = conn
	}
	return conns
}

// memoryMatches is the matches the memory benchmarks hold: ORRERY_MEMORY_MATCHES, or 10,000.
func memoryMatches(tb testing.TB) int {
	v := os.Getenv("ORRERY_MEMORY_MATCHES")
	if v == "" {
		return 10000
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		tb.Fatalf("ORRERY_MEMORY_MATCHES=%q: want a number of matches, 1 or more", v)
	}
	return n
}

// procStatus is a field of a process's /proc status, as a number ("VmRSS" in KiB).
func procStatus(tb testing.TB, pid int, field string) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return n
		}
	}
	tb.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// Where a benchmark seat is.
const (
	seatConnecting int32 = iota // sdk.Play started, not joined
	seatJoined                  // joined, no decision yet
	seatHolding                 // holds its first decision
	seatAnswering               // answering its match's quota
	seatReturned                // sdk.Play returned
)

var seatStages = [...]string{"connecting", "joined", "holding its first decision", "answering", "returned"}

// memSeat is one seat of BenchmarkMatchMemory, as far as its bot has seen.
type memSeat struct {
	stage     atomic.Int32
	joins     atomic.Int32 // how many times it joined (more than once: it rejoined)
	decisions atomic.Int32 // decisions its bot was given
	mu        sync.Mutex   // guards end
	end       string       // how sdk.Play returned
}

// memMatch is one match of BenchmarkMatchMemory: its seats answer its first answers
// decisions between them; then every seat falls silent, so the match stays live mid-game.
type memMatch struct {
	id     string
	seats  [4]memSeat
	left   atomic.Int64 // answers still owed
	played atomic.Bool  // the quota is used up
}

// memRun is the state BenchmarkMatchMemory waits on, and reports when it stalls.
type memRun struct {
	matches  []*memMatch
	progress atomic.Int64 // counts every step of every seat, so that a stall shows
	holding  atomic.Int64 // seats holding their first decision
	played   atomic.Int64 // matches whose quota is used up
	failed   atomic.Int64 // seats whose sdk.Play returned before the benchmark ended
}

// act is a seat's bot: it holds the first decision until release closes, answers while the
// match's quota lasts, and blocks silently after, until stop closes.
func (r *memRun) act(m *memMatch, s *memSeat, bot bots.Bot, release, stop <-chan struct{}) bots.Func {
	return func(d *orreryv1.Decision) *orreryv1.Answer {
		s.decisions.Add(1)
		r.progress.Add(1)
		if s.stage.CompareAndSwap(seatJoined, seatHolding) {
			r.holding.Add(1)
			<-release
		}
		s.stage.Store(seatAnswering)
		left := m.left.Add(-1)
		if left == 0 && m.played.CompareAndSwap(false, true) {
			r.played.Add(1)
		}
		if left < 0 {
			<-stop // silent until the benchmark ends
		}
		return bot.Act(d)
	}
}

// wait waits until done reports true. It fails the benchmark, saying what it waited for,
// if the child server exits or nothing progresses for stall.
func (r *memRun) wait(b *testing.B, c *child, client orreryv1.ArenaServiceClient, phase string, stall time.Duration, done func() bool) {
	last, since := r.progress.Load(), time.Now()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for !done() {
		select {
		case <-c.exited:
			b.Fatalf("%s: the child server exited: %v\n%s", phase, c.err, r.stuck(client, 10))
		case <-tick.C:
		}
		if p := r.progress.Load(); p != last {
			last, since = p, time.Now()
		} else if time.Since(since) > stall {
			dump, err := c.get("/debug/pprof/goroutine?debug=1")
			if err != nil {
				dump = fmt.Sprintf("goroutine dump: %v", err)
			}
			where := "(not written)"
			if f, err := os.CreateTemp("", "orrery-memory-goroutines-*.txt"); err == nil {
				f.WriteString(dump)
				f.Close()
				where = f.Name()
			}
			head := strings.Join(strings.SplitN(dump, "\n", 80)[:min(79, strings.Count(dump, "\n"))], "\n")
			b.Fatalf("%s: nothing progressed for %v (ORRERY_MEMORY_STALL); %d seats holding their first decision of %d, %d matches played of %d, %d seats failed\n%s\nserver goroutines (all in %s):\n%s",
				phase, stall, r.holding.Load(), 4*len(r.matches), r.played.Load(), len(r.matches), r.failed.Load(), r.stuck(client, 10), where, head)
		}
	}
}

// stuck describes up to n matches not yet played, with each seat's stage and the server's
// view of the match.
func (r *memRun) stuck(client orreryv1.ArenaServiceClient, n int) string {
	var b strings.Builder
	counts := map[string]int{}
	for _, m := range r.matches {
		if m == nil || m.played.Load() {
			continue
		}
		for i := range m.seats {
			counts[seatStages[m.seats[i].stage.Load()]]++
		}
		if n == 0 {
			continue
		}
		n--
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		got, err := client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: m.id})
		cancel()
		fmt.Fprintf(&b, "match %s: %d answers owed; server: ", m.id, m.left.Load())
		if err != nil {
			fmt.Fprintf(&b, "%v\n", err)
		} else {
			g := got.GetMatch()
			fmt.Fprintf(&b, "%v ply %d %v\n", g.GetStatus(), g.GetPly(), g.GetResult())
		}
		for i := range m.seats {
			s := &m.seats[i]
			s.mu.Lock()
			fmt.Fprintf(&b, "  seat %d: %s, joined %d times, %d decisions, %s\n", i, seatStages[s.stage.Load()], s.joins.Load(), s.decisions.Load(), s.end)
			s.mu.Unlock()
		}
	}
	fmt.Fprintf(&b, "seats of the matches not yet played, by stage: %v", counts)
	return b.String()
}

// BenchmarkMatchMemory reports the server's memory per live 4-seat IceTraders match, with
// 10,000 matches (ORRERY_MEMORY_MATCHES to change; ORRERY_MEMORY_CONNS=seat for a client
// connection per seat): "waiting-" once every seat has joined and holds its first decision,
// "playing-" once each match has played six decisions and sits in play. For each, the RSS
// and the live heap and goroutine stacks after a full collection, per match, and the
// goroutines per match. The server runs in a child process; run with -benchtime 1x. If no
// seat progresses for ORRERY_MEMORY_STALL (default 2m) it fails, saying which seats of
// which matches it waited for, with the server's goroutines.
func BenchmarkMatchMemory(b *testing.B) {
	n := memoryMatches(b)
	stall := 2 * time.Minute
	if v := os.Getenv("ORRERY_MEMORY_STALL"); v != "" {
		var err error
		if stall, err = time.ParseDuration(v); err != nil {
			b.Fatalf("ORRERY_MEMORY_STALL: %v", err)
		}
	}
	c, addr := startChildAnywhere(b)
	// 64 client connections share the seats unless ORRERY_MEMORY_CONNS says otherwise
	// ("seat": one connection per seat, as bots connect, each with the server's buffers).
	nconns := 64
	if v := os.Getenv("ORRERY_MEMORY_CONNS"); v == "seat" {
		nconns = 4 * n
	} else if v != "" {
		nconns, _ = strconv.Atoi(v)
	}
	conns := dialChild(b, addr, nconns)
	ctx, cancel := context.WithCancel(context.Background())
	var seats sync.WaitGroup
	defer seats.Wait()
	defer cancel()
	client := orreryv1.NewArenaServiceClient(conns[0])
	if _, err := client.ListGames(ctx, &orreryv1.ListGamesRequest{}); err != nil {
		b.Fatal(err)
	}
	base := c.memory(b)
	// Each match's seats start as soon as it is created, join, and hold their first
	// decision (IceTraders opens with simultaneous choices, so every seat owes one); once
	// all hold theirs, each match plays six decisions and its seats fall silent.
	r := &memRun{matches: make([]*memMatch, n)}
	release := make(chan struct{})
	start := time.Now()
	for i := range r.matches {
		s := uint64(i)
		created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: 4, Seed: &s,
			Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Hour)}})
		if err != nil {
			b.Fatalf("creating match %d: %v", i, err)
		}
		m := &memMatch{id: created.GetMatchId()}
		m.left.Store(6 + 4) // the four first decisions, then six
		r.matches[i] = m
		for j, seat := range created.GetSeats() {
			st := &m.seats[j]
			bot := r.act(m, st, random.New(uint64(i*4+j)), release, ctx.Done())
			opts := sdk.Options{OnJoined: func(*orreryv1.Joined) {
				st.joins.Add(1)
				st.stage.CompareAndSwap(seatConnecting, seatJoined)
				r.progress.Add(1)
			}}
			seats.Add(1)
			go func() {
				defer seats.Done()
				ended, err := sdk.Play(ctx, conns[(i*4+j)%len(conns)], seat.GetToken(), bot, opts)
				st.stage.Store(seatReturned)
				if ctx.Err() != nil {
					return
				}
				r.failed.Add(1)
				r.progress.Add(1)
				st.mu.Lock()
				st.end = fmt.Sprintf("returned: %v", err)
				if ended != nil {
					st.end = fmt.Sprintf("returned: the match ended: %v", ended.GetResult())
				}
				st.mu.Unlock()
			}()
		}
	}
	r.wait(b, c, client, "joining", stall, func() bool { return r.holding.Load() == int64(4*n) })
	joined := time.Since(start)
	waiting := c.memory(b)
	c.profile(b, "waiting")
	close(release)
	start = time.Now()
	r.wait(b, c, client, "playing", stall, func() bool { return r.played.Load() == int64(n) })
	played := time.Since(start)
	playing := c.memory(b)
	c.profile(b, "playing")
	if f := r.failed.Load(); f > 0 {
		b.Errorf("%d seats failed\n%s", f, r.stuck(client, 10))
	}
	rejoins := 0
	for _, m := range r.matches {
		for i := range m.seats {
			rejoins += int(m.seats[i].joins.Load()) - 1
		}
	}
	b.Logf("%d matches, %d client connections: created and joined in %v, played in %v; %d rejoins; new goroutines' stacks %d, %d, %d bytes; OS threads %d, %d, %d",
		n, nconns, joined.Round(time.Millisecond), played.Round(time.Millisecond), rejoins, base.startingStack, waiting.startingStack, playing.startingStack,
		base.threads, waiting.threads, playing.threads)
	perMatch := func(v, base int64) float64 { return float64(v-base) / 1024 / float64(n) }
	for _, p := range []struct {
		name string
		m    childMemory
	}{{"waiting", waiting}, {"playing", playing}} {
		b.ReportMetric(perMatch(p.m.rss, base.rss), p.name+"-KiB/match")
		b.ReportMetric(perMatch(p.m.heap, base.heap), p.name+"-heap-KiB/match")
		b.ReportMetric(perMatch(p.m.stacks, base.stacks), p.name+"-stacks-KiB/match")
		b.ReportMetric(float64(p.m.goroutines-base.goroutines)/float64(n), p.name+"-goroutines/match")
	}
	b.ReportMetric(float64(base.rss>>10), "base-KiB")
}

// BenchmarkStreamMemory is the floor under BenchmarkMatchMemory: what a 4-seat match's four
// streams hold in a server that does nothing else, each stream opened, sent a message and
// answered, then held, its handler blocked in Recv on gRPC's one goroutine for the stream
// (holdDesc), the least any handler can hold. "orrery" serves them on the arena's own gRPC
// server (NewGRPCServer: its codec, windows, and the logging, auth and recovery interceptors
// every stream passes through); "bare" on a gRPC server with no options at all. Both run in
// a child process, as BenchmarkMatchMemory's server, and report KiB per match (four streams:
// RSS, heap and stacks after full collections) and goroutines per match;
// ORRERY_MEMORY_MATCHES sets the matches (10,000).
func BenchmarkStreamMemory(b *testing.B) {
	n := memoryMatches(b)
	for _, server := range []string{"orrery", "bare"} {
		b.Run(server, func(b *testing.B) {
			var env []string
			if server == "bare" {
				env = append(env, childBareEnv+"=1")
			}
			c, addr := startChildAnywhere(b, env...)
			conns := dialChild(b, addr, 64) // as BenchmarkMatchMemory's clients
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// Every connection open and used before the base is read, as the arena's are.
			for _, conn := range conns {
				holdStream(b, ctx, conn)
			}
			base := c.memory(b)
			for i := range 4 * n {
				holdStream(b, ctx, conns[i%len(conns)])
			}
			held := c.memory(b)
			perMatch := func(v, base int64) float64 { return float64(v-base) / 1024 / float64(n) }
			b.ReportMetric(perMatch(held.rss, base.rss), "KiB/match")
			b.ReportMetric(perMatch(held.heap, base.heap), "heap-KiB/match")
			b.ReportMetric(perMatch(held.stacks, base.stacks), "stacks-KiB/match")
			b.ReportMetric(float64(held.goroutines-base.goroutines)/float64(n), "goroutines/match")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// holdStream opens a holdDesc stream on conn, sends it a message and waits for the answer;
// the stream stays open until ctx ends.
func holdStream(tb testing.TB, ctx context.Context, conn *grpc.ClientConn) {
	cs, err := conn.NewStream(ctx, &holdDesc.Streams[0], "/orrery.bench.Hold/Hold")
	if err != nil {
		tb.Fatal(err)
	}
	var msg emptypb.Empty
	if err := cs.SendMsg(&msg); err != nil {
		tb.Fatal(err)
	}
	if err := cs.RecvMsg(&msg); err != nil {
		tb.Fatal(err)
	}
}
