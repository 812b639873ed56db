package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/house"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// testArena is an arena with a store on a loopback port, and a client of it.
func testArena(t *testing.T) (addr string, client orreryv1.ArenaServiceClient, a *arena) {
	t.Helper()
	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: filepath.Join(t.TempDir(), "o.db")})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := a.dial()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); a.stop() })
	return a.lis.Addr().String(), orreryv1.NewArenaServiceClient(conn), a
}

func TestMatches_ListsFiltersAndPrintsIDsAsStrings(t *testing.T) {
	addr, _, a := testArena(t)
	conn, err := a.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	for _, m := range []house.Match{
		{Game: "icetraders", Bots: []string{"greedy", "random"}},
		{Game: "planet", Bots: []string{"random", "random"}},
	} {
		if _, err := house.Play(ctx, conn, m); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args    []string
		want    []string
		wantNot []string
	}{
		{[]string{}, []string{"icetraders", "planet", "greedy, random", "ago"}, nil},
		{[]string{"--game", "planet"}, []string{"planet", "random, random"}, []string{"icetraders"}},
		{[]string{"--bot", "greedy"}, []string{"icetraders"}, []string{"planet"}},
		{[]string{"--status", "live"}, []string{"no matches"}, []string{"icetraders"}},
		{[]string{"--json", "--game", "icetraders"}, []string{`"match_id":\s+"m`, `"ply":\s+"\d+"`}, []string{"planet"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			if err := runCmd(ctx, "matches", &out, append(tt.args, "--server", addr)); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !regexp.MustCompile(w).MatchString(out.String()) {
					t.Errorf("no %q in:\n%s", w, out.String())
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(out.String(), w) {
					t.Errorf("%q in:\n%s", w, out.String())
				}
			}
		})
	}
	for _, bad := range [][]string{{"--status", "running"}, {"--limit", "0"}} {
		err := runCmd(ctx, "matches", io.Discard, append(bad, "--server", addr))
		if !isUsageError(err) {
			t.Errorf("%v: %v, want a usage error", bad, err)
		}
	}
}

// watchAMatch runs `orrery watch ID args...` into a pipe (not a terminal) from before the
// match's seats join until it ends, and returns the match id and what watch printed.
func watchAMatch(t *testing.T, args ...string) (string, string) {
	t.Helper()
	addr, client, a := testArena(t)
	ctx := context.Background()
	created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "icetraders", Seats: 2,
		SeatNames: []string{"greedy", "random"}, Clock: &orreryv1.Clock{PerMove: durationpb.New(5e9)}})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetMatchId()
	// The watcher starts before any seat joins, so it sees the match live, then to its end.
	pr, pw := io.Pipe()
	var out bytes.Buffer
	var wg sync.WaitGroup
	var watchErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		watchErr = runCmd(ctx, "watch", pw, append([]string{id, "--server", addr}, args...))
		pw.Close()
	}()
	first := bufio.NewReader(pr)
	line, err := first.ReadString('\n')
	if err != nil || !strings.Contains(line, "match "+id) || !strings.Contains(line, ", live") {
		t.Fatalf("first line %q (%v)", line, err)
	}
	out.WriteString(line)
	copied := make(chan struct{})
	go func() { io.Copy(&out, first); close(copied) }()
	conn, err := a.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var seats sync.WaitGroup
	for s, name := range []string{"greedy", "random"} {
		b, err := builtin.New("icetraders", name, uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		seats.Add(1)
		go func() {
			defer seats.Done()
			if _, err := sdk.Play(ctx, conn, created.GetSeats()[s].GetToken(), b, sdk.Options{}); err != nil {
				t.Error(err)
			}
		}()
	}
	seats.Wait()
	wg.Wait()
	<-copied
	if watchErr != nil {
		t.Fatal(watchErr)
	}
	for _, want := range []string{"seat 0 (greedy)", "\nended: ", "seed ", "orrery replay " + id} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in the watch output:\n%.2000s", want, out.String())
		}
	}
	return id, out.String()
}

func TestWatch_FollowsALiveMatchToItsEnd(t *testing.T) {
	id, out := watchAMatch(t, "--every", "0")
	if strings.Count(out, "match "+id+":") < 3 {
		t.Errorf("the view was drawn fewer than 3 times:\n%.2000s", out)
	}
}

// TestWatch_PipedIsNotAFlood: not on a terminal, watch prints the view at most once every
// --every, and the final one: here the first and the last of the whole match.
func TestWatch_PipedIsNotAFlood(t *testing.T) {
	id, out := watchAMatch(t, "--every", "1h")
	if n := strings.Count(out, "match "+id+":"); n != 2 {
		t.Errorf("the view was drawn %d times, want 2 (the first and the final):\n%.2000s", n, out)
	}
}

func TestWatch_UnknownMatchSaysSo(t *testing.T) {
	addr, _, _ := testArena(t)
	var stderr bytes.Buffer
	err := execute(context.Background(), io.Discard, &stderr, []string{"watch", "no-such-match", "--server", addr})
	if err == nil || !strings.Contains(stderr.String(), "not found on "+addr) || strings.Contains(stderr.String(), "rpc error") {
		t.Errorf("err %v, stderr %q", err, stderr.String())
	}
}

func TestScreen_DrawsOnlyOnChange(t *testing.T) {
	for _, tty := range []bool{false, true} {
		var out bytes.Buffer
		s := &screen{w: &out, tty: tty}
		drawn := 0
		for _, text := range []string{"a\nb\n", "a\nb\n", "a\nc\n", "a\nc\n"} {
			if s.draw(text) {
				drawn++
			}
		}
		if drawn != 2 {
			t.Errorf("tty %v: drawn %d times, want 2", tty, drawn)
		}
		if tty && (strings.Count(out.String(), "\x1b[H") != 2 || !strings.Contains(out.String(), "c\x1b[K")) {
			t.Errorf("tty: not redrawn in place: %q", out.String())
		}
		if !tty && out.String() != "a\nb\n\na\nc\n" {
			t.Errorf("not a tty: %q", out.String())
		}
	}
}

func TestVersion_PrintsModuleCommitAndGo(t *testing.T) {
	var out bytes.Buffer
	printVersion(&out, &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-30T12:00:00Z"}, {Key: "vcs.modified", Value: "true"},
		{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"},
	}})
	want := "orrery v1.2.3\ncommit abc123 of 2026-11-30T12:00:00Z, with uncommitted changes\ngo1.26.8 linux/amd64\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	if err := runCmd(context.Background(), "version", &out, nil); err != nil || !strings.HasPrefix(out.String(), "orrery ") {
		t.Errorf("version: %v %q", err, out.String())
	}
}

func TestServe_PrintsWhereEverythingIsOnceReady(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := filepath.Join(t.TempDir(), "o.db")
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- runCmd(ctx, "serve", pw, []string{"--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--web-addr", "127.0.0.1:0", "--db", db, "--house", "0", "--log-level", "error"})
		pw.Close()
	}()
	lines := map[string]string{}
	sc := bufio.NewScanner(pr)
	for len(lines) < 5 && sc.Scan() {
		if what, where, ok := strings.Cut(strings.TrimSpace(sc.Text()), "  "); ok {
			lines[what] = strings.TrimSpace(where)
		}
	}
	if !strings.Contains(lines["database"], db) || !strings.Contains(lines["bots"], "orrery bot register NAME --server 127.0.0.1:") ||
		!strings.HasPrefix(lines["gRPC"], "127.0.0.1:") {
		t.Errorf("endpoints %q", lines)
	}
	if web, _, _ := strings.Cut(lines["web"], " "); !strings.HasPrefix(web, "http://127.0.0.1:") {
		t.Errorf("web: %q", lines["web"])
	} else if resp, err := http.Get(web + "v1/games"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("the web API at %q: %v", web, err)
	} else {
		resp.Body.Close()
	}
	resp, err := http.Get(lines["metrics"])
	if err != nil {
		t.Errorf("metrics at %q: %v", lines["metrics"], err)
	} else {
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("metrics: %s", resp.Status)
		}
	}
	cancel()
	go io.Copy(io.Discard, pr)
	if err := <-done; err != nil {
		t.Error(err)
	}
	if err := runCmd(context.Background(), "serve", io.Discard, []string{"--log-level", "loud", "--db", ""}); !isUsageError(err) {
		t.Errorf("--log-level loud: %v, want a usage error", err)
	}
}
