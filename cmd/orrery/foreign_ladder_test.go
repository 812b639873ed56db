//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// startForeignLadder runs a Python or JavaScript bot on its ladder stream with key, queued
// for IceTraders, two matches at once, until ctx ends.
func startForeignLadder(t *testing.T, ctx context.Context, root, node, lang, addr, key string) *foreignBot {
	t.Helper()
	b := &foreignBot{lang: lang, seat: -1, done: make(chan struct{})}
	args := []string{"--server", addr, "ladder", "--games", "icetraders", "--max-matches", "2"}
	switch lang {
	case "python":
		b.cmd = exec.CommandContext(ctx, foreignPython, append([]string{"-m", "orrery_bot"}, args...)...)
		b.cmd.Dir = filepath.Join(root, "bots", "python")
	case "js":
		b.cmd = exec.CommandContext(ctx, node, append([]string{"bot.js"}, args...)...)
		b.cmd.Dir = filepath.Join(root, "bots", "js")
	}
	// The key goes in the environment, not argv, where ps would show it.
	b.cmd.Env = append(os.Environ(), "ORRERY_API_KEY="+key, "PYTHONDONTWRITEBYTECODE=1")
	b.cmd.Stdout, b.cmd.Stderr = &b.out, &b.out
	b.cmd.WaitDelay = 5 * time.Second
	if err := b.cmd.Start(); err != nil {
		t.Fatalf("%s ladder bot: %v", lang, err)
	}
	go func() {
		defer close(b.done)
		b.err = b.cmd.Wait()
	}()
	return b
}

// TestForeignBots_LadderAndTournament registers a Python and a JavaScript bot, which join the
// ladder with their API keys on one stream each, and has the server run a tournament of 8
// IceTraders games between them and two built-in bots (created and followed as `orrery
// tournament --server` does). Every tournament match finishes with the foreign seats playing
// their own moves, both bots are in the standings, and both get ladder ratings from the
// ladder matches they play on the same stream meanwhile.
func TestForeignBots_LadderAndTournament(t *testing.T) {
	root, node := foreignEnv(t)
	dir := t.TempDir()
	srv := startServe(t, buildOrrery(t, dir), "127.0.0.1:0", filepath.Join(dir, "orrery.db"))
	conn := dialForeign(t, srv.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	lad := orreryv1.NewLadderServiceClient(conn)
	keys := map[string]string{}
	for _, name := range []string{"py-bot", "js-bot"} {
		reg, err := lad.RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		keys[name] = reg.GetApiKey()
	}
	botCtx, stopBots := context.WithCancel(ctx)
	defer stopBots()
	py := startForeignLadder(t, botCtx, root, node, "python", srv.addr, keys["py-bot"])
	js := startForeignLadder(t, botCtx, root, node, "js", srv.addr, keys["js-bot"])
	failFast(cancel, py, js)
	for _, name := range []string{"py-bot", "js-bot"} {
		for {
			got, err := lad.GetBot(ctx, &orreryv1.GetBotRequest{Name: name})
			if err != nil {
				t.Fatal(err)
			}
			if got.GetBot().GetConnected() {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s never connected:\n%s\n%s", name, py.out.String(), js.out.String())
			case <-time.After(20 * time.Millisecond):
			}
		}
	}

	var out bytes.Buffer
	req := &orreryv1.CreateTournamentRequest{
		Game: "icetraders", Seats: 2, Entrants: []string{"py-bot", "js-bot", "greedy", "random"}, Games: 8, Parallel: 4,
		Options: foreignOptions["icetraders"],
		Clock:   &orreryv1.Clock{PerMove: durationpb.New(5 * time.Second), TimeBank: durationpb.New(20 * time.Second)},
	}
	if err := remoteTournament(ctx, &out, conn, srv.addr, req, newProgress(os.Stderr, false), false); err != nil {
		t.Fatalf("tournament: %v\n%s", err, srv.logText())
	}
	t.Logf("tournament:\n%s", out.String())
	list, err := orreryv1.NewTournamentServiceClient(conn).ListTournaments(ctx, &orreryv1.ListTournamentsRequest{})
	if err != nil || len(list.GetTournaments()) != 1 {
		t.Fatalf("ListTournaments: %v, %v", list, err)
	}
	tour, err := orreryv1.NewTournamentServiceClient(conn).GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: list.GetTournaments()[0].GetTournamentId()})
	if err != nil {
		t.Fatal(err)
	}
	tt := tour.GetTournament()
	if tt.GetMatchesEnded() != 8 || len(tt.GetMatches()) != 8 {
		t.Errorf("%d of %d matches ended", tt.GetMatchesEnded(), len(tt.GetMatches()))
	}
	arena := orreryv1.NewArenaServiceClient(conn)
	for _, m := range tt.GetMatches() {
		sum, err := arena.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: m.GetMatchId()})
		if err != nil {
			t.Fatal(err)
		}
		if sum.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
			t.Errorf("match %s: %v", m.GetMatchId(), sum.GetMatch().GetStatus())
		}
		for _, s := range sum.GetMatch().GetSeatInfo() {
			if strings.HasSuffix(s.GetName(), "-bot") && s.GetTimeouts() > 0 {
				t.Errorf("match %s: %s timed out %d times: it did not play its own moves", m.GetMatchId(), s.GetName(), s.GetTimeouts())
			}
		}
	}
	for _, name := range []string{"py-bot", "js-bot"} {
		found := false
		for _, s := range tt.GetStandings() {
			if s.GetEntrant() == name && s.GetMatches() > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("%s is not in the standings: %v", name, tt.GetStandings())
		}
		if !strings.Contains(out.String(), name) {
			t.Errorf("the printed standings lack %s", name)
		}
	}
	// Ladder ratings: the ladder seats both (with house bots) while they wait.
	for _, name := range []string{"py-bot", "js-bot"} {
		for {
			got, err := lad.GetBot(ctx, &orreryv1.GetBotRequest{Name: name})
			if err != nil {
				t.Fatal(err)
			}
			if r := got.GetRatings(); len(r) == 1 && r[0].GetGame() == "icetraders" && r[0].GetGames() >= 2 {
				t.Logf("%s: mu %.2f sigma %.2f after %d ladder matches", name, r[0].GetMu(), r[0].GetSigma(), r[0].GetGames())
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s has no icetraders rating after two ladder matches:\n%s", name, py.out.String()+js.out.String())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	stopBots()
	<-py.done
	<-js.done
	for _, b := range []*foreignBot{py, js} {
		if out := b.out.String(); !strings.Contains(out, "ended (END_REASON_") || strings.Contains(out, "Traceback") ||
			!strings.Contains(out, "connected to "+srv.addr+", on the ladder") {
			t.Errorf("%s ladder bot output (want its matches' ends, and the line saying it connected):\n%s", b.lang, out)
		}
	}
}
