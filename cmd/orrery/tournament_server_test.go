//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// serverTournamentGames is the size of TestServerTournament_ExternalGoBots: small in CI;
// ORRERY_FULL=1 plays 1,000 games (the figure the README reports).
func serverTournamentGames() int {
	if os.Getenv("ORRERY_FULL") != "" {
		return 1000
	}
	return 24
}

// TestServerTournament_ExternalGoBots has `orrery serve` run an IceTraders tournament
// between two registered bots, each an `orrery ladder --tournaments-only` process on its own
// ladder stream over loopback, and two built-in bots; then plays today's in-process
// tournament of the same size. It checks that every match ended and logs both wall times.
// ORRERY_FULL=1 makes it the 1,000-game measurement (go test ./cmd/orrery -run
// ServerTournament -v).
func TestServerTournament_ExternalGoBots(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and two bot processes; not in -short")
	}
	games := serverTournamentGames()
	dir := t.TempDir()
	bin := buildOrrery(t, dir)
	srv := startServe(t, bin, "127.0.0.1:0", filepath.Join(dir, "orrery.db"))
	conn := dialForeign(t, srv.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute) // a hung test's bound
	defer cancel()
	lad := orreryv1.NewLadderServiceClient(conn)
	var procs []*foreignBot
	for i, name := range []string{"alice", "bob"} {
		reg, err := lad.RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		b := &foreignBot{lang: name, done: make(chan struct{})}
		b.cmd = exec.CommandContext(ctx, bin, "ladder", "--server", srv.addr, "--bot", []string{"greedy", "random"}[i], "--tournaments-only")
		b.cmd.Env = append(os.Environ(), "ORRERY_API_KEY="+reg.GetApiKey())
		b.cmd.Stdout, b.cmd.Stderr = &b.out, &b.out
		b.cmd.WaitDelay = 5 * time.Second
		if err := b.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			defer close(b.done)
			b.err = b.cmd.Wait()
		}()
		procs = append(procs, b)
	}
	defer func() {
		for _, b := range procs {
			b.cmd.Process.Signal(os.Interrupt)
			<-b.done
		}
	}()
	for _, name := range []string{"alice", "bob"} {
		for {
			got, err := lad.GetBot(ctx, &orreryv1.GetBotRequest{Name: name})
			if err != nil {
				t.Fatal(err)
			}
			if got.GetBot().GetConnected() {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	var out bytes.Buffer
	req := &orreryv1.CreateTournamentRequest{
		Game: "icetraders", Entrants: []string{"alice", "bob", "greedy", "random"}, Games: int32(games), Parallel: 8,
	}
	if err := remoteTournament(ctx, &out, conn, srv.addr, req, newProgress(os.Stderr, false), true); err != nil {
		t.Fatalf("server tournament: %v\n%s", err, srv.logText())
	}
	var remote tournamentResult
	if err := json.Unmarshal(out.Bytes(), &remote); err != nil {
		t.Fatal(err)
	}
	if remote.Matches != games {
		t.Errorf("server tournament: %d matches, want %d", remote.Matches, games)
	}
	for _, s := range remote.Standings {
		if s.Matches != games {
			t.Errorf("%s played %d of %d matches", s.Entrant, s.Matches, games)
		}
	}
	t.Logf("server tournament, 2 external Go bots + 2 built-in, %d games, 4 seats, 8 at once: wall %.2fs, %.1f matches/s",
		games, remote.WallSeconds, float64(games)/remote.WallSeconds)

	local := exec.CommandContext(ctx, bin, "tournament", "--game", "icetraders", "--bots", "greedy,random,greedy,random",
		"--games", strconv.Itoa(games), "--parallel", "8", "--json", "--no-progress", "--db", filepath.Join(dir, "local.db"))
	localOut, err := local.Output()
	if err != nil {
		t.Fatalf("in-process tournament: %v", err)
	}
	var inproc tournamentResult
	if err := json.Unmarshal(localOut, &inproc); err != nil {
		t.Fatal(err)
	}
	if inproc.Matches != games {
		t.Errorf("in-process tournament: %d matches", inproc.Matches)
	}
	t.Logf("in-process tournament, 4 built-in bots over gRPC, %d games, 8 at once: wall %.2fs, %.1f matches/s",
		games, inproc.WallSeconds, float64(games)/inproc.WallSeconds)
}
