package mcts_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/bots/mcts"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/planet"
)

// BenchmarkStrength_PlanetModels compares Planet's search with and without its model of the
// other seats' replies on the same duplicate sets (small by default: one set at 200
// iterations). ORRERY_MCTS_SETS, ORRERY_MCTS_ITERATIONS, ORRERY_MCTS_DEPTH,
// ORRERY_MCTS_TREE_DEPTH and ORRERY_MCTS_WIDEN narrow it; ORRERY_MCTS_BRANCH_REPLIES=1 turns
// the model off; ORRERY_PLANET_DRAWN=0 has it place as greedy on drawn displays too, =tile
// greedy's placement of one tile drawn (planet.Reply's Drawn and DrawnTile);
// ORRERY_PLANET_FIRST_SET starts the sets further on.
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
	g := mcts.Games()["planet"]
	switch v := os.Getenv("ORRERY_PLANET_DRAWN"); v {
	case "0", "tile":
		g.Reply = func() mcts.Policy {
			p := &planet.Reply{Drawn: v == "tile", DrawnTile: v == "tile"}
			return p.Choose
		}
	}
	for b.Loop() {
		cpu := cpuTime()
		wins, games, tm := duplicateSetsOf(b, g, envInt("ORRERY_PLANET_FIRST_SET", 0), sets, cfg)
		cpu = cpuTime() - cpu
		b.ReportMetric(wins/float64(games), "winrate")
		fmt.Printf("planet %+v: mcts won %.2f of %d games (%.1f%%), %d overruling greedy in %d decisions; %.2f CPU-s a game; %.0f iterations per CPU-second searched\n",
			cfg, wins, games, 100*wins/float64(games), tm.overruled, tm.n, cpu.Seconds()/float64(games), float64(tm.iterations)/tm.cpu.Seconds())
	}
}

// BenchmarkSearch_PlanetModels is BenchmarkSearch for Planet's ways of modelling the other
// seats, at a few plies of a four-seat game: greedy's placement on the display seen and a
// random one on drawn displays (drawn, the game's), greedy's everywhere (greedy), and the
// tree branching over their placements (branch).
func BenchmarkSearch_PlanetModels(b *testing.B) {
	greedy := mcts.Games()["planet"]
	greedy.Reply = func() mcts.Policy {
		var p planet.Reply
		return p.Choose
	}
	for _, model := range []struct {
		name string
		g    mcts.Game
		cfg  mcts.Config
	}{
		{"drawn", mcts.Games()["planet"], mcts.Config{}},
		{"greedy", greedy, mcts.Config{}},
		{"branch", mcts.Games()["planet"], mcts.Config{BranchReplies: true}},
	} {
		for _, ply := range []int{5, 22, 39} {
			b.Run(fmt.Sprintf("%s/ply%d", model.name, ply), func(b *testing.B) {
				_, d := midGame(b, "planet", 4, ply)
				cfg := model.cfg
				cfg.Iterations, cfg.Seed, cfg.Exhaustive = 300, 1, true
				bot := mcts.New(model.g, cfg)
				iters, cpu := 0, cpuTime()
				for b.Loop() {
					bot.Act(d)
					iters += bot.LastStats().Iterations
				}
				b.ReportMetric(float64(iters)/(cpuTime()-cpu).Seconds(), "iterations/cpu-s")
			})
		}
	}
}

// BenchmarkBudget_Planet is what Planet's search does with its default 100 ms in real games
// against greedy: iterations a decision and the CPU it took, the per-decision work (greedy's
// choice, the determinizer, the widening) included. Searched to the end of the budget
// (Exhaustive), so iterations/cpu-s x 0.1 is the iteration budget that equals 100 ms of a core
// (ORRERY_MCTS_ITERATIONS for tournaments at equal time): BenchmarkSearch's rate, at 500
// iterations a decision, is lower by the per-decision work. ORRERY_MCTS_SETS games (4).
//
//	go test ./bots/mcts -run '^$' -bench Budget_Planet -benchtime 1x
func BenchmarkBudget_Planet(b *testing.B) {
	for b.Loop() {
		tm := &timed{}
		for set := 0; set < envInt("ORRERY_MCTS_SETS", 4); set++ {
			seed, at := uint64(2000+set), set%4
			tm.b = mcts.MustNew("planet", mcts.Config{Exhaustive: true, Seed: seed})
			players := againstGreedy(b, "planet", seed, at, tm)
			if _, _, err := local.Play("planet", engine.Config{Seats: 4, Seed: seed}, players); err != nil {
				b.Fatal(err)
			}
		}
		rate := float64(tm.iterations) / tm.cpu.Seconds()
		b.ReportMetric(rate, "iterations/cpu-s")
		fmt.Printf("planet at 100 ms: %d decisions searched, %.0f iterations and %.1f ms of CPU each (%.1f ms wall): %.0f iterations per CPU-second, %.0f in 100 ms of a core\n",
			tm.searched, float64(tm.iterations)/float64(tm.searched), tm.cpu.Seconds()*1000/float64(tm.searched),
			tm.spent.Seconds()*1000/float64(tm.n), rate, rate/10)
	}
}
