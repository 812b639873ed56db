package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

func TestTournament_RoundRobinAndSwiss(t *testing.T) {
	tests := []struct {
		name        string
		args        []string
		matches     int
		entrants    []string
		recorded    bool
		wantInTable string
	}{
		{"round robin, the same bot twice", []string{"--game", "icetraders", "--bots", "random,greedy,random", "--games", "9", "--db", ""},
			9, []string{"random#1", "greedy", "random#2"}, true, ""},
		{"swiss with duplicate sets", []string{"--game", "icetraders", "--bots", "random,greedy,random,greedy", "--seats", "2", "--games", "7", "--format", "swiss", "--duplicate", "--db", ""},
			8, []string{"random#1", "greedy#1", "random#2", "greedy#2"}, true, ""},
		{"stored in a database file", []string{"--game", "planet", "--bots", "greedy,random", "--games", "4", "--db", "DB"},
			4, []string{"greedy", "random"}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--json", "--no-progress", "--seed", "5"}, tt.args...)
			for i, a := range args {
				if a == "DB" {
					args[i] = filepath.Join(t.TempDir(), "t.db")
				}
			}
			var out bytes.Buffer
			if err := runCmd(context.Background(), "tournament", &out, args); err != nil {
				t.Fatal(err)
			}
			var r tournamentResult
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if r.Matches != tt.matches || len(r.MatchIDs) != tt.matches || strings.Join(r.Entrants, ",") != strings.Join(tt.entrants, ",") {
				t.Errorf("%d matches %v, entrants %v; want %d and %v", r.Matches, len(r.MatchIDs), r.Entrants, tt.matches, tt.entrants)
			}
			ended := 0
			for reason, n := range r.EndReasons {
				if reason != "normal" && reason != "cap" {
					t.Errorf("%d matches ended %q", n, reason)
				}
				ended += n
			}
			if ended != r.Matches {
				t.Errorf("end_reasons %v count %d matches, want %d", r.EndReasons, ended, r.Matches)
			}
			if !regexp.MustCompile(`"seed": "5"`).Match(out.Bytes()) || regexp.MustCompile(`\.\d{5,}`).Match(out.Bytes()) {
				t.Errorf("want the seed as a string and at most 4 decimals:\n%s", out.String())
			}
			if (r.TournamentID != "") != tt.recorded {
				t.Errorf("tournament id %q", r.TournamentID)
			}
			played := 0
			for _, s := range r.Standings {
				played += s.Matches
				if s.WinLow > s.WinRate || s.WinHigh < s.WinRate || s.MeanRank < 1 {
					t.Errorf("standing %+v", s)
				}
			}
			if played != r.Matches*r.Seats {
				t.Errorf("standings count %d seats played, want %d", played, r.Matches*r.Seats)
			}
		})
	}
}

func TestTournament_TableAndBadFlags(t *testing.T) {
	var out bytes.Buffer
	if err := runCmd(context.Background(), "tournament", &out, []string{"--game", "icetraders", "--bots", "greedy,random", "--games", "4", "--db", "", "--no-progress"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"place", "win rate [95% CI]", "mean rank ± 95% CI", "greedy", "random", "wall time", "\nended: 4 ",
		"head to head: the row's share against the column", "% of 4"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	bad := [][]string{
		{"--bots", "random"},
		{"--game", "icetraders", "--bots", "random"},
		{"--game", "icetraders", "--bots", "nosuchbot,random"},
		{"--game", "icetraders", "--bots", "random,random", "--format", "knockout"},
		{"--game", "icetraders", "--bots", "random,random", "--seats", "3"},
	}
	for _, args := range bad {
		if err := runCmd(context.Background(), "tournament", &out, append(args, "--db", "")); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// TestServe_LadderStandingsMove: the arena as `orrery serve` starts it has house bots playing
// on the ladder at once; a registered bot joins with `orrery ladder` and shows in `orrery
// standings`.
func TestServe_LadderStandingsMove(t *testing.T) {
	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: filepath.Join(t.TempDir(), "o.db"),
		ladder: &ladderOptions{houseMatches: 2, fillAfter: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.stop()
	addr := a.lis.Addr().String()
	ctx := context.Background()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := orreryv1.NewLadderServiceClient(conn)
	rated := func(game, bot string) int {
		resp, err := client.GetLeaderboard(ctx, &orreryv1.GetLeaderboardRequest{Game: game})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range resp.GetEntries() {
			if bot == "" || e.GetBot() == bot {
				n += int(e.GetGames())
			}
		}
		return n
	}
	for deadline := time.Now().Add(60 * time.Second); rated("", "") == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no house match was rated")
		}
	}
	var out bytes.Buffer
	if err := runCmd(ctx, "standings", &out, []string{"--server", addr}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "house-") || !strings.Contains(out.String(), "mu ± sigma") {
		t.Errorf("standings:\n%s", out.String())
	}
	// A rating after a match or two is provisional: its score is marked, and the mark said.
	if !regexp.MustCompile(`\d\.\d\d\?`).MatchString(out.String()) || !strings.Contains(out.String(), "? provisional (sigma above 6") {
		t.Errorf("standings mark no provisional rating:\n%s", out.String())
	}
	out.Reset()
	if err := runCmd(ctx, "standings", &out, []string{"--server", addr, "--json"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"mu":`, `"sigma":`, `"score":`, `"provisional":\s+true`, `"games":`} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("standings --json lacks %s:\n%s", want, out.String())
		}
	}

	out.Reset()
	if err := runCmd(ctx, "bot", &out, []string{"register", "newcomer", "--server", addr}); err != nil {
		t.Fatal(err)
	}
	_, key, ok := strings.Cut(out.String(), "api key: ")
	if !ok {
		t.Fatalf("register printed:\n%s", out.String())
	}
	key, _, _ = strings.Cut(key, "\n")
	out.Reset()
	if err := runCmd(ctx, "ladder", &out, []string{"--server", addr, "--key", key, "--games", "icetraders", "--matches", "2", "--bot", "greedy"}); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), " ended: rank ") != 2 {
		t.Errorf("ladder printed:\n%s", out.String())
	}
	for deadline := time.Now().Add(60 * time.Second); rated("icetraders", "newcomer") < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the newcomer's matches were not rated")
		}
	}
	out.Reset()
	if err := runCmd(ctx, "standings", &out, []string{"--server", addr, "--game", "icetraders"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "newcomer") {
		t.Errorf("standings lack the newcomer:\n%s", out.String())
	}
	out.Reset()
	if err := runCmd(ctx, "bot", &out, []string{"info", "newcomer", "--server", addr}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "icetraders") || !strings.Contains(out.String(), "orrery replay ID") {
		t.Errorf("bot info:\n%s", out.String())
	}
}
