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
)

func TestSPRT_JSONGivesTheLLRItsBoundsEloGamesAndDecision(t *testing.T) {
	pairs := filepath.Join(t.TempDir(), "pairs.jsonl")
	args := []string{"--game", "icetraders", "--candidate", "greedy", "--baseline", "random", "--elo1", "50",
		"--seed", "3", "--max-games", "600", "--parallel", "2", "--pairs", pairs, "--json"}
	var out, progress bytes.Buffer
	if err := execute(context.Background(), &out, &progress, append([]string{"sprt"}, args...)); err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	for _, k := range []string{"llr", "llr_lower", "llr_upper", "elo", "elo_low", "elo_high", "los", "games", "decision"} {
		if _, ok := res[k]; !ok {
			t.Errorf("no %q in %s", k, out.String())
		}
	}
	if res["decision"] != "H1" || res["llr"].(float64) < res["llr_upper"].(float64) || res["elo"].(float64) <= 0 {
		t.Errorf("greedy against random: %s", out.String())
	}
	games := int(res["games"].(float64))
	if games%2 != 0 || games < 2 || games > 600 {
		t.Errorf("%d games", games)
	}
	if !strings.Contains(progress.String(), "games, LLR ") || !strings.Contains(progress.String(), ", H1") {
		t.Errorf("progress line: %q", progress.String())
	}
	f, err := os.Open(pairs)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := 0
	for sc := bufio.NewScanner(f); sc.Scan(); lines++ {
		var p struct {
			Deal      int   `json:"deal"`
			Candidate []int `json:"candidate_ranks"`
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil || p.Deal != lines || len(p.Candidate) != 4 {
			t.Fatalf("--pairs line %d: %s (%v)", lines+1, sc.Text(), err)
		}
	}
	if lines != games/2 {
		t.Errorf("--pairs holds %d pairs for %d games", lines, games)
	}

	// The same seed plays the same deals: the same decision at the same game, whatever
	// the parallelism.
	var again bytes.Buffer
	args[len(args)-4] = "1" // --parallel
	if err := execute(context.Background(), &again, &bytes.Buffer{}, append([]string{"sprt", "--no-progress"}, args...)); err != nil {
		t.Fatal(err)
	}
	var res2 map[string]any
	if err := json.Unmarshal(again.Bytes(), &res2); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"llr", "elo", "games", "decision", "pair_scores"} {
		if a, b := res[k], res2[k]; !jsonEqual(a, b) {
			t.Errorf("%s: %v, then %v with --parallel 1", k, a, b)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestSPRT_BadFlagsSayWhatIsWrong(t *testing.T) {
	for _, args := range [][]string{
		{"--game", "icetraders", "--candidate", "greedy"},
		{"--game", "nope", "--candidate", "greedy", "--baseline", "random"},
		{"--game", "icetraders", "--candidate", "greedy", "--baseline", "nobot"},
		{"--game", "icetraders", "--candidate", "greedy", "--baseline", "random", "--opponents", "random,random", "--seats", "4"},
		{"--game", "pantropia", "--candidate", "greedy", "--baseline", "random", "--seats", "2"},
		{"--game", "icetraders", "--candidate", "greedy", "--baseline", "random", "--elo0", "10", "--elo1", "5"},
		{"--game", "icetraders", "--candidate", "greedy", "--baseline", "random", "--alpha", "0.7"},
		{"--game", "icetraders", "--candidate", "greedy", "--baseline", "random", "--max-games", "-2"},
	} {
		if err := runCmd(context.Background(), "sprt", &bytes.Buffer{}, args); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
