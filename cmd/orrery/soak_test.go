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
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
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
	// webAddr is where it serves the web page: a free port of its own, not the default
	// 8080 another server on the machine may hold.
	webAddr string
	rss     []int64 // the child's resident set in KiB, sampled at each start and at the end
	// debug is the child's debug address (soakDebugEnv); web reads it, without keeping
	// connections that would count among the child's goroutines.
	debug string
	web   http.Client
	// starts is how long each start took to accept connections (resuming its matches).
	starts []time.Duration
}

func (s *soakServer) start() {
	s.t.Helper()
	// The ladder's registered bots never wait for house bots, and its clock is long enough
	// that none is played out while the server resumes its matches and the bots reconnect
	// (soakLadder). The soak is one client creating every match, so its limits per caller
	// are the server's.
	args := []string{"serve", "--addr", s.addr, "--db", s.db, "--house", "0", "--metrics-addr", "", "--web-addr", s.webAddr,
		"--max-creates-per-minute", "100000", "--max-matches", "100000", "--max-matches-per-caller", "100000", "--log-level", "error", "--ladder-fill-after", "24h", "--ladder-per-move", "1m"}
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
	started := time.Now()
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	defer func() { s.starts = append(s.starts, time.Since(started).Round(time.Millisecond)) }()
	// Ready when it accepts gRPC connections and its web page answers (the gateway gzips its
	// files before it serves: a server measured before that is not yet a whole one); a child
	// that died at start never will be (its log says why).
	for deadline := time.Now().Add(2 * time.Minute); ; {
		c, err := net.Dial("tcp", s.addr)
		if err == nil {
			c.Close()
			if s.webAddr == "" { // a server started without its web page is whole once gRPC answers
				return
			}
			if resp, err := s.web.Get("http://" + s.webAddr + "/"); err == nil {
				resp.Body.Close()
				return
			}
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

// cpu is the CPU time the running child has used (utime and stime of /proc/PID/stat, in
// clock ticks of 10 ms).
func (s *soakServer) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	_, rest, _ := strings.Cut(string(b), ") ") // the command name may hold spaces
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
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
	n      atomic.Int64
	stalls *atomic.Int64 // counts the stalls
}

func (b *stallBot) Act(d *orreryv1.Decision) *orreryv1.Answer {
	if b.n.Add(1)%40 == 0 {
		b.stalls.Add(1)
		time.Sleep(time.Until(d.GetDeadline().AsTime()) + 50*time.Millisecond)
	}
	return b.Bot.Act(d)
}

// TestChaos_SoakKillRestart runs matches of all four games on one `orrery serve` child
// process with bots that stall, drop and rejoin, send garbage and never read, spectators
// that never read, and kills the server with SIGKILL three times, restarting it on the same
// database, each time while ladder matches are mid-game. Registered bots play the server's
// ladder throughout (soakLadder). Every match must finish and every replay verify; every
// ladder match is rated, and every bot's rating equals that of a clean run of the same
// ladder schedule on a fresh server; afterwards the server must hold no more goroutines than
// a fresh one, and a clean round of the same matches played a second time must leave its
// memory within 10% of where that round started. Small by default (12 matches, about a
// minute and a half on 2 cores); -full (or ORRERY_FULL=1) plays 1,000, ORRERY_SOAK_MATCHES=N
// plays N.
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
	webAddr := freeAddr(t)
	for debugAddr == addr || webAddr == addr || webAddr == debugAddr { // a port free a moment ago may be handed out twice
		debugAddr, webAddr = freeAddr(t), freeAddr(t)
	}
	srv := &soakServer{t: t, addr: addr, db: filepath.Join(t.TempDir(), "soak.db"), debug: debugAddr, webAddr: webAddr,
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
	// A hung soak's bound: generous, as the machine is shared.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute+time.Duration(n)*8*time.Second)
	defer cancel()
	started := time.Now()
	cpu0 := cpuTimes()
	var phases []string
	phase := func(name string, since time.Time) {
		phases = append(phases, fmt.Sprintf("%s %v", name, time.Since(since).Round(time.Second)))
	}
	// One ladder match at a time for each bot: with six bots and four seats a match, the
	// ladder plays one match at a time, through the three kills, each of which cuts one. At
	// full size the server is so busy that a ladder match of PanTropia or Full-Contact Catan
	// (4,500 to 5,000 decisions at the ladder's options) lasted the whole chaos, so there the
	// ladder plays the short games, two matches at once each, and rates hundreds.
	var ladderGames []string
	ladderAtOnce := 1
	if n >= 100 {
		ladderGames, ladderAtOnce = []string{"icetraders", "planet"}, 2
	}
	ladder := startSoakLadder(ctx, t, srv.db, conn, ladderGames, ladderAtOnce)

	games := soakGames
	var (
		wg       sync.WaitGroup
		finished atomic.Int64
		ids      = make([]string, n)
		// the faults injected, by kind
		drops, stalls, garbage, deaf, watchers atomic.Int64
	)
	chaos, chaosCancel := context.WithCancel(ctx) // the misbehaving clients, ended at the end
	defer chaosCancel()
	createSoakMatch := func(i int) bool {
		g := games[i%len(games)]
		seed := uint64(i + 1)
		created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: g.name, Seats: g.seats, Seed: &seed, Options: g.options,
			Clock: &orreryv1.Clock{PerMove: durationpb.New(300 * time.Millisecond), TimeBank: durationpb.New(time.Second)}},
			grpc.WaitForReady(true)) // the server may be restarting
		if err != nil {
			t.Errorf("create match %d: %v", i, err)
			return false
		}
		ids[i] = created.GetMatchId()
		// A spectator that never reads, and on some matches a stream holding a seat that
		// never reads until the real bot replaces it.
		go func() {
			if w, err := client.Watch(chaos, &orreryv1.WatchRequest{MatchId: created.GetMatchId()}); err == nil {
				watchers.Add(1)
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
				deaf.Add(1)
			}
		}
		if i%7 == 0 { // garbage on the wire
			go func() {
				desc := &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}
				if cs, err := conn.NewStream(chaos, desc, orreryv1.ArenaService_Play_FullMethodName, grpc.ForceCodec(garbageCodec{})); err == nil {
					cs.SendMsg([]byte{0x0f, 0xff, 0xff})
					garbage.Add(1)
					cs.RecvMsg(new([]byte))
				}
			}()
		}
		// The match has finished once every seat's bot has seen its end (MatchEnded is sent
		// only once the result is stored), or, for a bot that drops, its status says so.
		var seats sync.WaitGroup
		for seat, st := range created.GetSeats() {
			wg.Add(1)
			seats.Go(func() {
				defer wg.Done()
				var bot bots.Bot = random.New(seed*10 + uint64(seat))
				if (i+seat)%3 == 0 {
					bot = &stallBot{Bot: bot, stalls: &stalls}
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
						drops.Add(1)
						if got, err := client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()}); err == nil &&
							got.GetMatch().GetStatus() == orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
							return
						}
					}
				}
				if _, err := sdk.Play(ctx, conn, st.GetToken(), bot, o); err != nil {
					t.Errorf("match %s seat %d: %v", created.GetMatchId(), seat, err)
				}
			})
		}
		go func() {
			seats.Wait()
			finished.Add(1)
		}()
		return true
	}
	// The matches are created while the first ones play and the kills come (on a busy
	// server, creating 1,000 takes minutes); a kill waits for the match being created, so
	// that none is half-created when the server dies (its id lost with the answer).
	var creating sync.Mutex
	var createFailed atomic.Bool
	createdAll := make(chan struct{})
	go func() {
		defer close(createdAll)
		for i := range n {
			creating.Lock()
			ok := createSoakMatch(i)
			creating.Unlock()
			if !ok {
				createFailed.Store(true)
				return
			}
		}
	}()
	// Three crashes, at a quarter, a half and three quarters of the matches finished, each
	// while a ladder match is mid-game.
	for k := 1; k <= 3 && !createFailed.Load(); k++ {
		for finished.Load() < int64(n*k/4) && ctx.Err() == nil && !createFailed.Load() {
			time.Sleep(20 * time.Millisecond)
		}
		creating.Lock()
		ladder.awaitMidGame(ctx)
		srv.kill()
		srv.start()
		srv.sampleRSS()
		creating.Unlock()
		t.Logf("kill %d at %v: %d of %d matches finished, ladder matches running at each kill %v; restarted in %v, RSS %d KiB",
			k, time.Since(started).Round(time.Second), finished.Load(), n, ladder.cut, srv.starts[len(srv.starts)-1], srv.rss[len(srv.rss)-1])
	}
	<-createdAll
	if createFailed.Load() {
		t.FailNow()
	}
	// The ladder has rated through the three kills: its bots leave, and the soak plays the
	// seats of its last matches, while the chaos plays on.
	ladder.finish(ctx)
	t.Logf("ladder over at %v", time.Since(started).Round(time.Second))
	wg.Wait()
	chaosCancel()
	phase("chaos", started)
	t.Logf("chaos over at %v: %d drops, %d stalls", time.Since(started).Round(time.Second), drops.Load(), stalls.Load())
	srv.sampleRSS()
	peak := slices.Max(srv.rss)
	verifyStarted := time.Now()
	reasons := map[orreryv1.EndReason]int{}
	verified := 0
	for _, id := range ids {
		r, err := client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
		if err != nil {
			t.Errorf("match %s: %v", id, err)
			continue
		}
		if st := r.GetMatch().GetStatus(); st != orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
			t.Errorf("match %s: %v, want finished", id, st)
		}
		reasons[r.GetMatch().GetResult().GetReason()]++
		if err := verify(io.Discard, r); err != nil {
			t.Errorf("match %s does not verify: %v", id, err)
			continue
		}
		verified++
	}
	phase("verify", verifyStarted)
	t.Logf("verified %d of %d at %v", verified, n, time.Since(started).Round(time.Second))
	ratingsStarted := time.Now()
	rated := ladder.check(ctx, addr)
	phase("clean run of the ladder's schedule", ratingsStarted)
	conn.Close() // every client has gone
	goroutines := srv.awaitGoroutines(ctx, baseGoroutines)
	soakHeap, soakRSS := srv.settled()

	// Every finished match leaves memory. The server's caches (the typed actions of each
	// configured game: up to 65,536 each, some 50 MiB for Full-Contact Catan's) hold more
	// than a fresh server's, and fill further with actions the chaos round never saw; the
	// legal lists shared across matches (wire.ActionCache.SharedList, a fixed set of slots)
	// take a list the second time it is seen. So the measure is three clean rounds of the
	// same matches with deterministic bots: the first two warm the caches with their actions
	// and lists, and the third, playing the same games again, must leave the heap and the
	// resident set within 10% of where the second did (1 MiB and 16 MiB at least).
	// ORRERY_SOAK_HEAP=FILE writes the heap's profile before the last round (FILE.warm) and
	// after it (FILE): where the memory is, for a person to read.
	dumpHeap := func(suffix string) {
		if f := os.Getenv("ORRERY_SOAK_HEAP"); f != "" {
			if err := os.WriteFile(f+suffix, []byte(srv.get("/debug/pprof/heap?gc=1")), 0o644); err != nil {
				t.Error(err)
			}
		}
	}
	cleanStarted := time.Now()
	playClean(ctx, t, addr, n)
	srv.awaitGoroutines(ctx, baseGoroutines)
	firstHeap, firstRSS := srv.settled()
	playClean(ctx, t, addr, n)
	srv.awaitGoroutines(ctx, baseGoroutines)
	warmHeap, warmRSS := srv.settled()
	dumpHeap(".warm")
	playClean(ctx, t, addr, n)
	srv.awaitGoroutines(ctx, baseGoroutines)
	heap, rss := srv.settled()
	phase("three clean rounds", cleanStarted)
	t.Logf("three clean rounds over at %v: heap/RSS KiB %d/%d, %d/%d, then %d/%d", time.Since(started).Round(time.Second), firstHeap>>10, firstRSS, warmHeap>>10, warmRSS, heap>>10, rss)
	dumpHeap("")
	// A small run's heap is a few MiB, where bounded buffers that grow to the largest batch
	// they have held (the store writer's) move it more than 10%; and SQLite (modernc) keeps
	// its page cache and in-memory temporary tables outside the Go heap, at the high-water
	// mark of its biggest query so far (CI saw the resident set rise 8 MiB with the heap
	// flat); the store's compaction buffers (store.KeptBytes, 3.3 MiB) are not kept
	// after a compaction larger than they are and made again by the next, so a round can
	// read as megabytes gained with nothing leaked (CI saw 1.7 MiB, in the writer's). Each gets a floor, which a full
	// run's 10% passes.
	if heap > warmHeap+max(warmHeap/10, 1<<20+int64(store.KeptBytes)) || rss > warmRSS+max(warmRSS/10, 16<<10) {
		t.Errorf("%d more matches left the server at %d KiB of heap and %d KiB resident, from %d and %d",
			n, heap>>10, rss, warmHeap>>10, warmRSS)
	}
	cpu := cpuTimes().sub(cpu0)
	cpu.server = srv.cpu()
	t.Logf("chaos soak: %d matches (%d finished, %d verified, end reasons %v), %d ladder matches rated; 3 kill -9 restarts (starts took %v); "+
		"faults: %d drops, %d stalls, %d garbage streams, %d seat streams that never read, %d spectators that never read; "+
		"wall %v (%s); CPU %s; server RSS (KiB) at each start and after: %v (peak sampled %d); "+
		"goroutines %d fresh, %d after; heap/RSS KiB fresh %d/%d, after the soak %d/%d, after clean rounds %d/%d, %d/%d, %d/%d",
		n, finished.Load(), verified, reasons, rated, srv.starts,
		drops.Load(), stalls.Load(), garbage.Load(), deaf.Load(), watchers.Load(),
		time.Since(started).Round(time.Second), strings.Join(phases, ", "), cpu, srv.rss, peak, baseGoroutines, goroutines,
		baseHeap>>10, baseRSS, soakHeap>>10, soakRSS, firstHeap>>10, firstRSS, warmHeap>>10, warmRSS, heap>>10, rss)
}

// rusage is the CPU time of the test process and of its waited-for children (the servers).
type rusage struct{ self, children, server time.Duration }

func cpuTimes() rusage {
	var self, children syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	tv := func(r *syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return rusage{self: tv(&self), children: tv(&children)}
}

func (r rusage) sub(o rusage) rusage {
	return rusage{self: r.self - o.self, children: r.children - o.children}
}

func (r rusage) String() string {
	return fmt.Sprintf("test process %v (its clients and the clean runs), the killed servers %v, the last server %v",
		r.self.Round(time.Second), r.children.Round(time.Second), r.server.Round(time.Second))
}

// soakGames are the soak's games, played in turn.
//
// The soak tests the server, not the games, so the two long games are shortened: a random
// Full-Contact Catan game at its default 10 ticks a second takes 11,000 to 14,000 decisions,
// three quarters of all the soak's, and at 2 ticks a second still ends by the rules after
// some 2,300; PanTropia's random games (some 4,000 decisions) end at a cap of 100 turns,
// scored as they stand, so that the soak's matches end both by the rules and by the cap.
var soakGames = []struct {
	name    string
	seats   int32
	options map[string]string
}{{"icetraders", 3, nil}, {"planet", 2, nil}, {"pantropia", 3, map[string]string{"turn_cap": "100"}}, {"fccatan", 3, map[string]string{"tick_rate": "2"}}}

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
		created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: g.name, Seats: g.seats, Seed: &seed, Options: g.options,
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
