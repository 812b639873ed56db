//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// The foreign-language bots of bots/python, bots/js and bots/java play real matches against a
// real `orrery serve`: one Python seat, one JavaScript seat, one Java seat (in
// TestForeignBots_EveryGame), built-in Go bots in the rest. They need Debian's python3-grpcio
// and python3-protobuf, `npm ci --prefix bots/js`, and Debian's Java gRPC (foreign_java_test.go).

const foreignPython = "/usr/bin/python3" // Debian's, where python3-grpcio installs

// foreignOptions keep each game short; an option is set only if the game lists it.
var foreignOptions = map[string]map[string]string{
	"pantropia":  {"turn_cap": "30"},
	"fccatan":    {"round_cap": "2"},
	"icetraders": {"turn_cap": "30"},
}

// foreignEnv finds the two runtimes or skips the test, saying what to install.
func foreignEnv(t *testing.T) (root, node string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a server and Python and Node.js processes; not in -short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(foreignPython, "-c", "import grpc, google.protobuf").CombinedOutput(); err != nil {
		t.Skipf("%s cannot import grpc and protobuf (%v: %s); install them with: apt-get install -y python3-grpcio python3-protobuf",
			foreignPython, err, bytes.TrimSpace(out))
	}
	node, err = exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; the JavaScript bot needs Node.js 20 or later")
	}
	if _, err := os.Stat(filepath.Join(root, "bots", "js", "node_modules", "@grpc", "grpc-js")); err != nil {
		t.Skip("bots/js/node_modules is missing; install it with: npm ci --prefix bots/js")
	}
	return root, node
}

// foreignServer is an `orrery serve` process.
type foreignServer struct {
	cmd  *exec.Cmd
	addr string
	mu   sync.Mutex // guards log
	log  bytes.Buffer
	done chan struct{} // closed once the process has exited
}

var servingRE = regexp.MustCompile(`msg="orrery serving" grpc=(\S+)`)

// buildOrrery compiles this command once per test into dir.
func buildOrrery(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "orrery")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startServe runs `orrery serve` on addr (port 0: any) with the store at db, and waits until
// it logs its address.
func startServe(t *testing.T, bin, addr, db string) *foreignServer {
	t.Helper()
	s := &foreignServer{done: make(chan struct{})}
	s.cmd = exec.Command(bin, "serve", "--addr", addr, "--metrics-addr", "", "--web-addr", "", "--db", db, "--house", "0")
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.log.WriteString(line + "\n")
			s.mu.Unlock()
			if m := servingRE.FindStringSubmatch(line); m != nil {
				select {
				case got <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
		s.cmd.Wait()
	}()
	t.Cleanup(func() { s.stop(t) })
	select {
	case s.addr = <-got:
	case <-s.done:
		t.Fatalf("orrery serve exited before serving:\n%s", s.logText())
	case <-time.After(30 * time.Second):
		t.Fatalf("orrery serve did not log its address in 30s:\n%s", s.logText())
	}
	return s
}

func (s *foreignServer) logText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// stop ends the server as a deploy would: SIGTERM, then SIGKILL if it hangs.
func (s *foreignServer) stop(t *testing.T) {
	select {
	case <-s.done:
		return
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Errorf("orrery serve ignored SIGTERM for 10s; killing it")
		s.cmd.Process.Kill()
		<-s.done
	}
}

// foreignBot is one Python, JavaScript or Java seat, run as a process.
type foreignBot struct {
	lang string
	seat int32
	cmd  *exec.Cmd
	out  bytes.Buffer // stdout and stderr
	err  error
	done chan struct{}
}

func startForeign(t *testing.T, ctx context.Context, root, node, lang, addr, token string, seat int32) *foreignBot {
	t.Helper()
	b := &foreignBot{lang: lang, seat: seat, done: make(chan struct{})}
	switch lang {
	case "java":
		// --server after the command, as every client takes it.
		java, jar := javaJar(t, root)
		// A JVM that starts fast (no optimising compiler, the serial collector): a test
		// machine starts one per game at once, beside the other bots.
		b.cmd = exec.CommandContext(ctx, java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar,
			"play", "--server", addr, "--probe-reject", "--seed", fmt.Sprint(seat+1))
	case "python":
		b.cmd = exec.CommandContext(ctx, foreignPython, "-m", "orrery_bot", "--server", addr, "play", "--probe-reject", "--notes", "--seed", fmt.Sprint(seat+1))
		b.cmd.Dir = filepath.Join(root, "bots", "python")
	case "js":
		b.cmd = exec.CommandContext(ctx, node, "bot.js", "--server", addr, "play", "--probe-reject", "--notes", "--seed", fmt.Sprint(seat+1))
		b.cmd.Dir = filepath.Join(root, "bots", "js")
	}
	// The token goes in the environment, not argv, where ps would show it.
	b.cmd.Env = append(os.Environ(), "ORRERY_TOKEN="+token, "PYTHONDONTWRITEBYTECODE=1")
	b.cmd.Stdout, b.cmd.Stderr = &b.out, &b.out
	b.cmd.WaitDelay = 5 * time.Second
	if err := b.cmd.Start(); err != nil {
		t.Fatalf("%s bot: %v", lang, err)
	}
	go func() {
		defer close(b.done)
		b.err = b.cmd.Wait()
	}()
	return b
}

// playGo plays seat token with a built-in bot through the Go SDK.
func playGo(ctx context.Context, conn *grpc.ClientConn, token string, bot bots.Bot) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := sdk.Play(ctx, conn, token, bot, sdk.Options{})
		done <- err
	}()
	return done
}

func dialForeign(t *testing.T, addr string) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// checkForeignSeats checks the match ended by its rules and that every foreign seat chose its
// own actions: at least one step each, none played for it by the timeout policy. The Python
// and JavaScript seats play with --notes: each answer their strategy chose carries a note
// (Noted) naming it, kept with the step; the fallback after a rejection carries none.
func checkForeignSeats(t *testing.T, ctx context.Context, client orreryv1.ArenaServiceClient, matchID string, foreign []*foreignBot) {
	t.Helper()
	rep, err := client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: matchID})
	if err != nil {
		t.Fatalf("GetReplay: %v", err)
	}
	res := rep.GetMatch().GetResult()
	switch res.GetReason() {
	case orreryv1.EndReason_END_REASON_NORMAL, orreryv1.EndReason_END_REASON_CAP:
	default:
		t.Errorf("match ended %v (%s), want normal or cap", res.GetReason(), res.GetDetail())
	}
	foreignSeat := map[int32]bool{}
	for _, b := range foreign {
		foreignSeat[b.seat] = true
	}
	for _, s := range rep.GetSteps() {
		if !foreignSeat[s.GetSeat()] && s.GetNote() != "" {
			t.Errorf("seat %d, a Go bot's, has a note %q", s.GetSeat(), s.GetNote())
		}
	}
	for _, b := range foreign {
		steps, timedOut, noted := 0, 0, 0
		for i, s := range rep.GetSteps() {
			if s.GetSeat() != b.seat {
				continue
			}
			steps++
			if s.GetTimedOut() != orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
				timedOut++
			}
			if b.lang != "python" && b.lang != "js" {
				continue
			}
			switch note := s.GetNote(); {
			case strings.HasPrefix(note, b.lang+" ") && strings.HasSuffix(note, " legal"):
				noted++
			case note != "":
				t.Errorf("%s seat %d, step %d: note %q", b.lang, b.seat, i, note)
			case len(s.GetRejections()) == 0 && s.GetTimedOut() == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED:
				t.Errorf("%s seat %d, step %d: its strategy's answer carries no note", b.lang, b.seat, i)
			}
		}
		if (b.lang == "python" || b.lang == "js") && noted == 0 {
			t.Errorf("%s seat %d: none of its %d steps carries a note", b.lang, b.seat, steps)
		}
		if steps == 0 {
			t.Errorf("%s seat %d has no step in the replay", b.lang, b.seat)
		}
		if timedOut > 0 {
			t.Errorf("%s seat %d timed out %d times in %d steps", b.lang, b.seat, timedOut, steps)
		}
		t.Logf("%s seat %d: %d steps, ranks %v, %s", b.lang, b.seat, steps, res.GetRanks(), res.GetDetail())
	}
}

// waitForeign waits for a foreign bot to exit 0 and checks its own account of the match.
func waitForeign(t *testing.T, b *foreignBot, wantRejoin bool) {
	t.Helper()
	<-b.done
	out := b.out.String()
	if b.err != nil {
		t.Errorf("%s bot (seat %d) failed: %v\n%s", b.lang, b.seat, b.err, out)
		return
	}
	for _, want := range []string{"ended (END_REASON_", "rejected ", "falling back to legal[0]"} {
		if !strings.Contains(out, want) {
			t.Errorf("%s bot (seat %d) output lacks %q:\n%s", b.lang, b.seat, want, out)
		}
	}
	if strings.Contains(out, "event gap") {
		t.Errorf("%s bot (seat %d) missed or repeated events", b.lang, b.seat)
	}
	if wantRejoin && !regexp.MustCompile(`rejoins [1-9]`).MatchString(out) {
		t.Errorf("%s bot (seat %d) never rejoined:\n%s", b.lang, b.seat, out)
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("%s bot (seat %d) output:\n%s", b.lang, b.seat, out)
	}
}

// foreignMatch creates a match of game with the foreign bots langs in the first seats (Python
// in seat 0, JavaScript in seat 1, ...) and one or more built-in random bots after them.
func foreignMatch(t *testing.T, ctx context.Context, client orreryv1.ArenaServiceClient, info *orreryv1.GameInfo, langs ...string) (*orreryv1.CreateMatchResponse, int) {
	t.Helper()
	seats := min(max(len(langs)+1, int(info.GetMinSeats())), int(info.GetMaxSeats()))
	if seats < len(langs) {
		t.Skipf("%s takes at most %d seats; %d foreign bots need %d", info.GetName(), seats, len(langs), len(langs))
	}
	opts := map[string]string{}
	for _, o := range info.GetOptions() {
		if v, ok := foreignOptions[info.GetName()][o.GetName()]; ok {
			opts[o.GetName()] = v
		}
	}
	names := append([]string(nil), langs...)
	for len(names) < seats {
		names = append(names, "go-random")
	}
	created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{
		Game: info.GetName(), Seats: int32(seats), Options: opts, SeatNames: names,
		// The first decisions are issued at once, while the bots' runtimes still start (a
		// JVM, Python, Node.js, one of each per game, at once): a bank that covers a loaded
		// machine's start, so that no seat is played by the timeout policy.
		Clock: &orreryv1.Clock{PerMove: durationpb.New(5 * time.Second), TimeBank: durationpb.New(60 * time.Second)},
	})
	if err != nil {
		t.Fatalf("CreateMatch %s: %v", info.GetName(), err)
	}
	return created, seats
}

// TestForeignBots_EveryGame plays one match of every game that ListGames returns, with a
// Python, a JavaScript and a Java seat.
func TestForeignBots_EveryGame(t *testing.T) {
	root, node := foreignEnv(t)
	javaJar(t, root) // built before the clock of the matches starts
	dir := t.TempDir()
	srv := startServe(t, buildOrrery(t, dir), "127.0.0.1:0", filepath.Join(dir, "orrery.db"))
	conn := dialForeign(t, srv.addr)
	client := orreryv1.NewArenaServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel) // not defer: the parallel subtests run after this function returns
	games, err := client.ListGames(ctx, &orreryv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(games.GetGames()) == 0 {
		t.Fatal("ListGames returned no game")
	}
	for _, info := range games.GetGames() {
		t.Run(info.GetName(), func(t *testing.T) {
			t.Parallel()
			created, seats := foreignMatch(t, ctx, client, info, "python", "js", "java")
			tokens := created.GetSeats()
			// A foreign bot that dies early ends the match for everyone, rather than leaving
			// the other seats to play on against its timeouts.
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			py := startForeign(t, ctx, root, node, "python", srv.addr, tokens[0].GetToken(), 0)
			js := startForeign(t, ctx, root, node, "js", srv.addr, tokens[1].GetToken(), 1)
			jv := startForeign(t, ctx, root, node, "java", srv.addr, tokens[2].GetToken(), 2)
			failFast(cancel, py, js, jv)
			var goDone []<-chan error
			for i := 3; i < seats; i++ {
				bot, err := builtin.New(info.GetName(), "random", uint64(i))
				if err != nil {
					t.Fatal(err)
				}
				goDone = append(goDone, playGo(ctx, conn, tokens[i].GetToken(), bot))
			}
			for i, done := range goDone {
				if err := <-done; err != nil {
					t.Errorf("Go seat %d: %v", i+2, err)
				}
			}
			waitForeign(t, py, false)
			waitForeign(t, js, false)
			waitForeign(t, jv, false)
			checkForeignSeats(t, ctx, client, created.GetMatchId(), []*foreignBot{py, js, jv})
		})
	}
}

// failFast cancels the match's context as soon as one foreign bot fails.
func failFast(cancel context.CancelFunc, bots ...*foreignBot) {
	for _, b := range bots {
		go func() {
			<-b.done
			if b.err != nil {
				cancel()
			}
		}()
	}
}

// gateBot is a random bot that stops on its second decision until released, so the test can
// restart the server while the match is running.
type gateBot struct {
	bots.Bot
	n       int
	reached chan struct{}
	release chan struct{}
}

func (g *gateBot) Act(d *orreryv1.Decision) *orreryv1.Answer {
	g.n++
	if g.n == 2 {
		close(g.reached)
		<-g.release
	}
	return g.Bot.Act(d)
}

// TestForeignBots_RejoinAfterServerRestart stops the server in the middle of a Planet match and
// starts it again on the same address and store: both foreign bots must rejoin with their
// tokens and finish the match.
func TestForeignBots_RejoinAfterServerRestart(t *testing.T) {
	root, node := foreignEnv(t)
	dir := t.TempDir()
	bin := buildOrrery(t, dir)
	db := filepath.Join(dir, "orrery.db")
	// A fixed port, so the restarted server is where the bots left it.
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	srv := startServe(t, bin, addr, db)
	conn := dialForeign(t, addr)
	client := orreryv1.NewArenaServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	games, err := client.ListGames(ctx, &orreryv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var info *orreryv1.GameInfo
	for _, g := range games.GetGames() {
		if g.GetName() == "planet" {
			info = g
		}
	}
	if info == nil {
		t.Skip("planet is not registered")
	}
	created, seats := foreignMatch(t, ctx, client, info, "python", "js")
	tokens := created.GetSeats()
	py := startForeign(t, ctx, root, node, "python", addr, tokens[0].GetToken(), 0)
	js := startForeign(t, ctx, root, node, "js", addr, tokens[1].GetToken(), 1)
	gate := &gateBot{Bot: bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer { return bots.Index(d, 0) }),
		reached: make(chan struct{}), release: make(chan struct{})}
	goDone := playGo(ctx, conn, tokens[2].GetToken(), gate)
	for i := 3; i < seats; i++ {
		bot, _ := builtin.New("planet", "random", uint64(i))
		defer func(done <-chan error) { <-done }(playGo(ctx, conn, tokens[i].GetToken(), bot))
	}
	select {
	case <-gate.reached:
	case <-ctx.Done():
		t.Fatal("the Go seat never reached its second decision")
	}
	srv.stop(t)
	if !strings.Contains(srv.logText(), "orrery shutting down") {
		t.Errorf("the server did not shut down cleanly:\n%s", srv.logText())
	}
	time.Sleep(300 * time.Millisecond) // the bots see the stream drop and start backing off
	srv2 := startServe(t, bin, addr, db)
	close(gate.release)
	if err := <-goDone; err != nil {
		t.Errorf("Go seat: %v", err)
	}
	waitForeign(t, py, true)
	waitForeign(t, js, true)
	if !strings.Contains(srv2.logText(), "match resumed") {
		t.Errorf("the restarted server did not resume the match:\n%s", srv2.logText())
	}
	checkForeignSeats(t, ctx, client, created.GetMatchId(), []*foreignBot{py, js})
}

// TestForeignBots_UnitTests runs the Python and JavaScript bots' own unit tests (the
// strategies, an unknown game arm, answer forms).
func TestForeignBots_UnitTests(t *testing.T) {
	root, node := foreignEnv(t)
	for _, c := range []struct {
		name string
		dir  string
		cmd  []string
	}{
		{"python", "python", []string{foreignPython, "-m", "unittest", "discover", "-s", "tests"}},
		{"js", "js", []string{node, "--test", "test/"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(c.cmd[0], c.cmd[1:]...)
			cmd.Dir = filepath.Join(root, "bots", c.dir)
			cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", strings.Join(c.cmd, " "), err, out)
			}
		})
	}
}

// TestForeignBots_PythonCodeIsCurrent regenerates the committed Python protobuf code from
// proto/ and fails on a difference (bots/python/check_gen.sh). It needs Debian 12's protoc.
func TestForeignBots_PythonCodeIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs protoc; not in -short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"protoc", "grpc_python_plugin"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed; install it with: apt-get install -y protobuf-compiler protobuf-compiler-grpc libprotobuf-dev", tool)
		}
	}
	cmd := exec.Command("sh", filepath.Join(root, "bots", "python", "check_gen.sh"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("bots/python/check_gen.sh: %v\n%s", err, out)
	}
}
