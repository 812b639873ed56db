package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestSPRT_OnAServerAHostedBotIsTestedAndFollowed: `orrery sprt --server` has the server test
// a hosted bot (the C kit's random, uploaded with orrery bot upload) against the built-in
// greedy, and follows it with the progress line to its decision: random is not stronger (H0).
// Each pair's candidate game is played by the hosted module, as its recorded seats say;
// --pairs writes the pairs with their matches, and --follow prints the same result again.
// --stop ends a running test undecided.
func TestSPRT_OnAServerAHostedBotIsTestedAndFollowed(t *testing.T) {
	dir := t.TempDir()
	random := clangWasm(t, dir, "random", "random.c", "orrery.c")
	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: filepath.Join(dir, "o.db"), ladder: &ladderOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.stop()
	addr := a.lis.Addr().String()
	ctx := context.Background()
	var out bytes.Buffer
	if err := runCmd(ctx, "bot", &out, []string{"register", "wasm-random", "--server", addr}); err != nil {
		t.Fatal(err)
	}
	_, key, _ := strings.Cut(out.String(), "api key: ")
	key, _, _ = strings.Cut(key, "\n")
	// Two versions: the test pins the one it is given for all its games.
	for range 2 {
		if err := runCmd(ctx, "bot", &out, []string{"upload", "wasm-random", "--wasm", random, "--game", "icetraders", "--key", key, "--server", addr}); err != nil {
			t.Fatal(err)
		}
	}

	pairs := filepath.Join(dir, "pairs.jsonl")
	out.Reset()
	var progress bytes.Buffer
	args := []string{"sprt", "--server", addr, "--game", "icetraders", "--candidate", "wasm-random", "--baseline", "greedy",
		"--candidate-version", "1", "--seats", "2", "--elo0", "0", "--elo1", "50", "--max-games", "400", "--parallel", "2", "--pairs", pairs, "--json"}
	if err := execute(ctx, &out, &progress, args); err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	var res sprtResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if res.Status != "finished" || res.Decision != "H0" || res.CandidateVersion != 1 || res.Elo >= 0 || res.LLR > res.LLRLower || res.SprtID == "" {
		t.Fatalf("random against greedy on the server: %s", out.String())
	}
	if !strings.Contains(progress.String(), "the server runs test "+res.SprtID) || !strings.Contains(progress.String(), "games, LLR ") {
		t.Errorf("progress: %q", progress.String())
	}
	// The hosted module played the tested seat of each pair's candidate game.
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	bot, err := orreryv1.NewLadderServiceClient(conn).GetBot(ctx, &orreryv1.GetBotRequest{Name: "wasm-random"})
	if err != nil {
		t.Fatal(err)
	}
	hosted := map[string]int32{}
	for _, s := range bot.GetHostedSeats() {
		hosted[s.GetMatchId()] = s.GetSeat()
		if s.GetVersion() != 1 {
			t.Errorf("match %s played module version %d; the test pinned 1", s.GetMatchId(), s.GetVersion())
		}
	}
	f, err := os.Open(pairs)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := 0
	var last struct {
		Seat           int    `json:"seat"`
		CandidateMatch string `json:"candidate_match"`
		BaselineMatch  string `json:"baseline_match"`
	}
	for sc := bufio.NewScanner(f); sc.Scan(); lines++ {
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil || last.CandidateMatch == "" || last.BaselineMatch == "" {
			t.Fatalf("--pairs line %d: %s (%v)", lines+1, sc.Text(), err)
		}
	}
	if lines != res.Pairs {
		t.Errorf("--pairs holds %d pairs of %d", lines, res.Pairs)
	}
	if seat, ok := hosted[last.CandidateMatch]; !ok || int(seat) != last.Seat {
		t.Errorf("the last pair's candidate game %s: hosted seats %v, want seat %d", last.CandidateMatch, hosted, last.Seat)
	}
	if _, ok := hosted[last.BaselineMatch]; ok {
		t.Errorf("the hosted bot played the baseline's game %s", last.BaselineMatch)
	}

	out.Reset()
	if err := execute(ctx, &out, &progress, []string{"sprt", "--server", addr, "--follow", res.SprtID, "--json"}); err != nil {
		t.Fatal(err)
	}
	var again sprtResult
	if err := json.Unmarshal(out.Bytes(), &again); err != nil || again.Decision != res.Decision || again.Games != res.Games || again.LLR != res.LLR {
		t.Errorf("--follow of the finished test: %s (%v), first %+v", out.String(), err, res)
	}

	// A test far from deciding, stopped from the command line.
	start, err := orreryv1.NewSPRTServiceClient(conn).StartSPRT(ctx, &orreryv1.StartSPRTRequest{Game: "icetraders",
		Candidate: "random", Baseline: "random", Seats: 2, MaxGames: 100000, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := execute(ctx, &out, &progress, []string{"sprt", "--server", addr, "--stop", start.GetSprt().GetSprtId()}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "stopped undecided after") {
		t.Errorf("--stop printed:\n%s", out.String())
	}
}
