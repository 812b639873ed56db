package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/orrery/orrery/bots/builtin"
)

// TestTournament_SearchBotAtAnIterationBudget: the strength check of the search bot, one mcts
// against three greedy in duplicate sets, runs from the command at an iteration budget (the
// environment's) and reports mcts's win rate.
func TestTournament_SearchBotAtAnIterationBudget(t *testing.T) {
	t.Setenv(builtin.IterationsEnv, "40")
	args := []string{"--json", "--no-progress", "--seed", "3", "--db", "", "--parallel", "2",
		"--game", "icetraders", "--bots", "mcts,greedy,greedy,greedy", "--games", "4", "--duplicate"}
	var out bytes.Buffer
	if err := runCmd(context.Background(), "tournament", &out, args); err != nil {
		t.Fatal(err)
	}
	var r tournamentResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	found := false
	for _, s := range r.Standings {
		if s.Entrant == "mcts" {
			found = true
			if s.Matches != 4 || s.WinRate < 0 || s.WinRate > 1 || s.WinLow > s.WinRate || s.WinHigh < s.WinRate {
				t.Errorf("mcts standing %+v, want 4 matches and a win rate within its interval", s)
			}
		}
	}
	if !found || !r.Duplicate {
		t.Fatalf("no mcts standing in duplicate sets:\n%s", out.String())
	}
}

// TestTournament_SearchBotReplaysFromItsSeed: a tournament with the search bot at an iteration
// budget plays the same matches from the same seed, however its seats' answers interleave
// (IceTraders' simultaneous choices arrive in any order; matches run two at a time).
func TestTournament_SearchBotReplaysFromItsSeed(t *testing.T) {
	t.Setenv(builtin.IterationsEnv, "30")
	run := func() []byte {
		args := []string{"--json", "--no-progress", "--seed", "5", "--db", "", "--parallel", "2",
			"--game", "icetraders", "--bots", "mcts,greedy,greedy,greedy", "--games", "8", "--duplicate"}
		var out bytes.Buffer
		if err := runCmd(context.Background(), "tournament", &out, args); err != nil {
			t.Fatal(err)
		}
		var r tournamentResult
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		standings, err := json.Marshal(r.Standings)
		if err != nil {
			t.Fatal(err)
		}
		return standings
	}
	first := run()
	for range 2 {
		if again := run(); !bytes.Equal(again, first) {
			t.Fatalf("the same seed gave\n%s\nand then\n%s", first, again)
		}
	}
}
