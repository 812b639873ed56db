package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
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
)

// soakChildEnv, set, makes the test binary run `orrery` with these arguments separated by US (0x1f)
// (TestMain): the chaos soak's server is a child process it can kill -9.
const soakChildEnv = "ORRERY_SOAK_CHILD"

// soakDebugEnv, set in the soak server's environment, is an address where the child serves
// what the soak reads of it: its goroutines (/debug/pprof/goroutine) and a full garbage
// collection returning memory to the OS (/debug/gc). goleak cannot run inside a process the
// test kills, so the soak counts the server's goroutines from outside.
const soakDebugEnv = "ORRERY_SOAK_DEBUG"

func serveSoakDebug(addr string) {
	if addr == "" {
		return
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak debug:", err)
		os.Exit(2)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/goroutine", pprof.Index)
	mux.HandleFunc("/debug/pprof/heap", pprof.Index)
	mux.HandleFunc("/debug/gc", func(w http.ResponseWriter, _ *http.Request) {
		runtime.GC()
		debug.FreeOSMemory()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Fprintln(w, ms.HeapInuse)
	})
	go http.Serve(lis, mux)
}

var soakFull = flag.Bool("full", false, "chaos soak at full size (1,000 matches); also ORRERY_FULL=1")

// soakServer is `orrery serve` in a child process, on a fixed address and database.
type soakServer struct {
	t    *testing.T
	addr string
	db   string
	cmd  *exec.Cmd
	env  []string // more environment for the server
	rss  []int64  // the child's resident set in KiB, sampled at each start and at the end
	// debug is the child's debug address (soakDebugEnv); web reads it, without keeping
	// connections that would count among the child's goroutines.
	debug string
	web   http.Client
}

func (s *soakServer) start() {
	s.t.Helper()
	args := []string{"serve", "--addr", s.addr, "--db", s.db, "--house", "0", "--metrics-addr", "",
		"--max-creates-per-minute", "100000", "--log-level", "error"}
	s.cmd = exec.Command(os.Args[0], "-test.run=^$")
	s.cmd.Env = append(append(os.Environ(), s.env...), soakChildEnv+"="+strings.Join(args, "\x1f"))
	if s.debug != "" {
		s.cmd.Env = append(s.cmd.Env, soakDebugEnv+"="+s.debug)
	}
	log, err := os.OpenFile(s.db+".log", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	defer log.Close()
	s.cmd.Stderr = log // the server's own log, beside its database
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	// Ready when it accepts connections; a child that died at start never will (its log says
	// why).
	for deadline := time.Now().Add(2 * time.Minute); ; {
		c, err := net.Dial("tcp", s.addr)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the server did not start; see %s.log", s.db)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// freeAddr is a loopback address free a moment ago, for a server that restarts on it.
func freeAddr(t *testing.T) string {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	return lis.Addr().String()
}

// kill ends the server as a crash would: SIGKILL, nothing flushed.
func (s *soakServer) kill() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// sampleRSS records the child's resident set.
func (s *soakServer) sampleRSS() {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, "VmRSS: %d kB", &kb); err == nil {
			s.rss = append(s.rss, kb)
		}
	}
}

// get reads a debug page of the child.
func (s *soakServer) get(path string) string {
	s.t.Helper()
	resp, err := s.web.Get("http://" + s.debug + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

// goroutines is the child's goroutine count and their stacks grouped.
func (s *soakServer) goroutines() (int, string) {
	s.t.Helper()
	dump := s.get("/debug/pprof/goroutine?debug=1")
	var n int
	if _, err := fmt.Sscanf(dump, "goroutine profile: total %d", &n); err != nil {
		s.t.Fatalf("goroutine profile: %v", err)
	}
	return n, dump
}

// settled collects the child's garbage, returns memory to the OS, and reports its heap in
// use (bytes) and its resident set (KiB).
func (s *soakServer) settled() (heap, rss int64) {
	s.t.Helper()
	if _, err := fmt.Sscan(s.get("/debug/gc"), &heap); err != nil {
		s.t.Fatal(err)
	}
	s.sampleRSS()
	return heap, s.rss[len(s.rss)-1]
}

// stallBot answers like random, but sits out every 40th decision past its deadline.
type stallBot struct {
	bots.Bot
	n atomic.Int64
}

func (b *stallBot) Act(d *orreryv1.Decision) *orreryv1.Answer {
	if b.n.Add(1)%40 == 0 {
		time.Sleep(time.Until(d.GetDeadline().AsTime()) + 50*time.Millisecond)
	}
	return b.Bot.Act(d)
}

// TestChaos_SoakKillRestart runs matches of all four games on one `orrery serve` child
// process with bots that stall, drop and rejoin, send garbage and never read, spectators
// that never read, and kills the server with SIGKILL three times, restarting it on the same
// database. Every match must finish and every replay verify; afterwards the server must hold
// no more goroutines than a fresh one, and a clean round of the same matches played a second
// time must leave its memory within 10% of where that round started. Small by default (12 matches,
// about a minute and a half on 2 cores); -full (or ORRERY_FULL=1) plays 1,000,
// ORRERY_SOAK_MATCHES=N plays N.
func TestChaos_SoakKillRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("the chaos soak runs a server process")
	}
	n := 12
	if *soakFull || os.Getenv("ORRERY_FULL") == "1" {
		n = 1000
	}
	if v, err := strconv.Atoi(os.Getenv("ORRERY_SOAK_MATCHES")); err == nil && v > 0 {
		n = v
	}
	addr := freeAddr(t)
	debugAddr := freeAddr(t)
	for debugAddr == addr { // a port free a moment ago may be handed out twice
		debugAddr = freeAddr(t)
	}
	srv := &soakServer{t: t, addr: addr, db: filepath.Join(t.TempDir(), "soak.db"), debug: debugAddr,
		web: http.Client{Transport: &http.Transport{DisableKeepAlives: true}}}
	srv.start()
	defer srv.kill()
	// A fresh server's goroutines and memory: where the last server must come back to once
	// every match has finished and every client has gone.
	baseGoroutines, _ := srv.goroutines()
	baseHeap, baseRSS := srv.settled()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := orreryv1.NewArenaServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	started := time.Now()

	games := soakGames
	var (
		wg       sync.WaitGroup
		finished atomic.Int64
		ids      = make([]string, n)
	)
	chaos, chaosCancel := context.WithCancel(ctx) // the misbehaving clients, ended at the end
	defer chaosCancel()
	for i := range n {
		g := games[i%len(games)]
		seed := uint64(i + 1)
		created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: g.name, Seats: g.seats, Seed: &seed,
			Clock: &orreryv1.Clock{PerMove: durationpb.New(300 * time.Millisecond), TimeBank: durationpb.New(time.Second)}})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = created.GetMatchId()
		// A spectator that never reads, and on some matches a stream holding a seat that
		// never reads until the real bot replaces it.
		go func() {
			if w, err := client.Watch(chaos, &orreryv1.WatchRequest{MatchId: created.GetMatchId()}); err == nil {
				<-chaos.Done()
				_ = w
			}
		}()
		if i%5 == 0 {
			// Joined before the real bot starts, so that the bot always replaces it (the other
			// order would replace the bot, which then rightly stops with Aborted).
			if p, err := client.Play(chaos); err == nil {
				p.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: created.GetSeats()[0].GetToken()}}})
				p.Recv() // joined; it never reads again
			}
		}
		if i%7 == 0 { // garbage on the wire
			go func() {
				desc := &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}
				if cs, err := conn.NewStream(chaos, desc, orreryv1.ArenaService_Play_FullMethodName, grpc.ForceCodec(garbageCodec{})); err == nil {
					cs.SendMsg([]byte{0x0f, 0xff, 0xff})
					cs.RecvMsg(new([]byte))
				}
			}()
		}
		for seat, st := range created.GetSeats() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var bot bots.Bot = random.New(seed*10 + uint64(seat))
				if (i+seat)%3 == 0 {
					bot = &stallBot{Bot: bot}
				}
				o := sdk.Options{MaxBackoff: 300 * time.Millisecond, Reconnects: -1}
				if (i+seat)%4 == 1 { // drops its stream now and then, and rejoins
					for round := 0; ; round++ {
						short, stop := context.WithTimeout(ctx, time.Duration(50+round*50)*time.Millisecond)
						end, _ := sdk.Play(short, conn, st.GetToken(), bot, o)
						stop()
						if end != nil || ctx.Err() != nil {
							return
						}
						if got, err := client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()}); err == nil &&
							got.GetMatch().GetStatus() == orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
							return
						}
					}
				}
				if _, err := sdk.Play(ctx, conn, st.GetToken(), bot, o); err != nil {
					t.Errorf("match %s seat %d: %v", created.GetMatchId(), seat, err)
				}
			}()
		}
		go func() {
			for {
				got, err := client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
				if err == nil && got.GetMatch().GetStatus() == orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
					finished.Add(1)
					return
				}
				if ctx.Err() != nil {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		}()
	}
	// Three crashes, at a quarter, a half and three quarters of the matches finished.
	for k := 1; k <= 3; k++ {
		for finished.Load() < int64(n*k/4) && ctx.Err() == nil {
			time.Sleep(20 * time.Millisecond)
		}
		srv.kill()
		srv.start()
		srv.sampleRSS()
	}
	wg.Wait()
	chaosCancel()
	for finished.Load() < int64(n) && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
	srv.sampleRSS()
	peak := slices.Max(srv.rss)
	for _, id := range ids {
		r, err := client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
		if err != nil {
			t.Errorf("match %s: %v", id, err)
			continue
		}
		if err := verify(io.Discard, r); err != nil {
			t.Errorf("match %s does not verify: %v", id, err)
		}
	}
	conn.Close() // every client has gone
	goroutines := srv.awaitGoroutines(ctx, baseGoroutines)
	soakHeap, soakRSS := srv.settled()

	// Every finished match leaves memory. The server's caches (the typed actions of each
	// configured game: up to 65,536 each, some 50 MiB for Full-Contact Catan's) hold more
	// than a fresh server's, and fill further with actions the chaos round never saw. So
	// the measure is two clean rounds of the same matches with deterministic bots: the first
	// warms the caches with their actions, and the second, playing the same games again,
	// must leave the heap and the resident set within 10% of where it started.
	playClean(ctx, t, addr, n)
	srv.awaitGoroutines(ctx, baseGoroutines)
	warmHeap, warmRSS := srv.settled()
	playClean(ctx, t, addr, n)
	srv.awaitGoroutines(ctx, baseGoroutines)
	heap, rss := srv.settled()
	if f := os.Getenv("ORRERY_SOAK_HEAP"); f != "" { // where the memory is, for a person to read
		if err := os.WriteFile(f, []byte(srv.get("/debug/pprof/heap?gc=1")), 0o644); err != nil {
			t.Error(err)
		}
	}
	if float64(heap) > 1.1*float64(warmHeap) || float64(rss) > 1.1*float64(warmRSS) {
		t.Errorf("%d more matches left the server at %d KiB of heap and %d KiB resident, from %d and %d",
			n, heap>>10, rss, warmHeap>>10, warmRSS)
	}
	t.Logf("chaos soak: %d matches, 3 kill -9 restarts, %v; server RSS (KiB) at each start and after: %v (peak sampled %d); "+
		"goroutines %d fresh, %d after; heap/RSS KiB fresh %d/%d, after the soak %d/%d, after a clean round %d/%d, after a second %d/%d",
		n, time.Since(started).Round(time.Second), srv.rss, peak, baseGoroutines, goroutines,
		baseHeap>>10, baseRSS, soakHeap>>10, soakRSS, warmHeap>>10, warmRSS, heap>>10, rss)
}

// soakGames are the soak's games, played in turn.
var soakGames = []struct {
	name  string
	seats int32
}{{"icetraders", 3}, {"planet", 2}, {"pantropia", 3}, {"fccatan", 3}}

// awaitGoroutines waits until the server holds no more goroutines than a fresh one (base):
// no goroutine of a match, a stream or a call outlives them. Streams end as their
// connections close, so this waits for that; past ctx it fails with the stacks.
func (s *soakServer) awaitGoroutines(ctx context.Context, base int) int {
	s.t.Helper()
	for {
		n, dump := s.goroutines()
		if n <= base {
			return n
		}
		if ctx.Err() != nil {
			s.t.Errorf("the server holds %d goroutines after every match finished, a fresh one %d:\n%s", n, base, dump)
			return n
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// playClean plays n matches of the soak's games and seeds with well-behaved random bots
// on a connection of its own, closed at the end.
func playClean(ctx context.Context, t *testing.T, addr string, n int) {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := orreryv1.NewArenaServiceClient(conn)
	var wg sync.WaitGroup
	for i := range n {
		g := soakGames[i%len(soakGames)]
		seed := uint64(i + 1)
		created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: g.name, Seats: g.seats, Seed: &seed,
			Clock: &orreryv1.Clock{PerMove: durationpb.New(300 * time.Millisecond), TimeBank: durationpb.New(time.Second)}})
		if err != nil {
			t.Fatal(err)
		}
		for seat, st := range created.GetSeats() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := sdk.Play(ctx, conn, st.GetToken(), random.New(seed*10+uint64(seat)), sdk.Options{}); err != nil {
					t.Errorf("clean match %s seat %d: %v", created.GetMatchId(), seat, err)
				}
			}()
		}
	}
	wg.Wait()
}

// garbageCodec puts bytes on the wire as they are.
type garbageCodec struct{}

func (garbageCodec) Marshal(v any) ([]byte, error)   { return v.([]byte), nil }
func (garbageCodec) Unmarshal(b []byte, v any) error { *(v.(*[]byte)) = b; return nil }
func (garbageCodec) Name() string                    { return "proto" }
