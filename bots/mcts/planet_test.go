package mcts_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/orrery/orrery/bots/mcts"
)

// BenchmarkStrength_PlanetModels compares Planet's search with and without its model of the
// other seats' replies on the same duplicate sets (small by default: one set at 200
// iterations). ORRERY_MCTS_SETS, ORRERY_MCTS_ITERATIONS, ORRERY_MCTS_DEPTH,
// ORRERY_MCTS_TREE_DEPTH and ORRERY_MCTS_WIDEN narrow it; ORRERY_MCTS_BRANCH_REPLIES=1 turns
// the model off.
//
//	ORRERY_MCTS_SETS=5 ORRERY_MCTS_ITERATIONS=600 go test ./bots/mcts -run '^$' -bench Strength_PlanetModels -benchtime 1x
func BenchmarkStrength_PlanetModels(b *testing.B) {
	cfg := mcts.Config{Iterations: envInt("ORRERY_MCTS_ITERATIONS", 200)}
	sets := envInt("ORRERY_MCTS_SETS", 1)
	if v, err := strconv.Atoi(os.Getenv("ORRERY_MCTS_DEPTH")); err == nil {
		cfg.Depth = v
	}
	cfg.TreeDepth = envInt("ORRERY_MCTS_TREE_DEPTH", 0)
	cfg.Widen = envInt("ORRERY_MCTS_WIDEN", 0)
	cfg.BranchReplies = os.Getenv("ORRERY_MCTS_BRANCH_REPLIES") == "1"
	for b.Loop() {
		cpu := cpuTime()
		wins, games, tm := duplicateSets(b, "planet", sets, cfg)
		cpu = cpuTime() - cpu
		b.ReportMetric(wins/float64(games), "winrate")
		fmt.Printf("planet %+v: mcts won %.2f of %d games (%.1f%%), %d overruling greedy in %d decisions; %.2f CPU-s a game; %.0f iterations per CPU-second searched\n",
			cfg, wins, games, 100*wins/float64(games), tm.overruled, tm.n, cpu.Seconds()/float64(games), float64(tm.iterations)/tm.cpu.Seconds())
	}
}
