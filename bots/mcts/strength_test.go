package mcts_test

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/bots/mcts"
	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/games"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

var full = flag.Bool("full", false, "strength benchmarks at full size: 200 games per game at the default budget")

// envInt reads a positive integer from the environment, or def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// timed wraps a bot to count its decisions, its time and how often the search overruled
// the prior.
type timed struct {
	b          bots.Bot
	n          int
	overruled  int
	spent      time.Duration
	iterations int
	searched   int           // decisions that were searched (not left to the prior)
	cpu        time.Duration // the process's CPU time in searched decisions
}

func (t *timed) Act(d *orreryv1.Decision) *orreryv1.Answer {
	start, cpu := time.Now(), cpuTime()
	a := t.b.Act(d)
	t.spent += time.Since(start)
	t.n++
	if m, ok := t.b.(*mcts.Bot); ok {
		st := m.LastStats()
		if st.Overruled {
			t.overruled++
		}
		if st.Iterations > 0 {
			t.iterations += st.Iterations
			t.searched++
			t.cpu += cpuTime() - cpu
		}
	}
	return a
}

// cpuTime is the process's user and system CPU time: the players of local.Play take turns
// on one goroutine, so its growth during a decision is that decision's work on one core,
// however loaded the machine is.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// duplicateSets plays sets seat-rotated duplicate sets of game, one mcts against greedy in
// every other seat: each set is one seed played once with mcts in each seat. It returns the
// games mcts won (a shared first place counts its share) and the games played.
func duplicateSets(tb testing.TB, game string, sets int, cfg mcts.Config) (wins float64, games int, tm *timed) {
	return duplicateSetsOf(tb, mcts.Games()[game], 0, sets, cfg)
}

// duplicateSetsOf is duplicateSets for a game's search configured by hand, from set first on.
func duplicateSetsOf(tb testing.TB, g mcts.Game, first, sets int, cfg mcts.Config) (wins float64, games int, tm *timed) {
	const seats = 4
	tm = &timed{}
	for set := first; set < first+sets; set++ {
		seed := uint64(1000 + set)
		for at := 0; at < seats; at++ {
			c := cfg
			c.Seed = seed*7 + uint64(at)
			tm.b = mcts.New(g, c)
			st, _, err := local.Play(g.Name, engine.Config{Seats: seats, Seed: seed}, againstGreedy(tb, g.Name, seed, at, tm))
			if err != nil {
				tb.Fatalf("%s set %d seat %d: %v", g.Name, set, at, err)
			}
			if r := st.Result(); r.Ranks[at] == 1 {
				wins += 1 / float64(len(r.Winners()))
			}
			games++
		}
	}
	return wins, games, tm
}

// againstGreedy seats bot at seat at of a four-seat match of game whose seed is seed, and
// the built-in greedy bot, seeded from seed and its seat, in every other.
func againstGreedy(tb testing.TB, game string, seed uint64, at int, bot bots.Bot) []bots.Bot {
	tb.Helper()
	players := make([]bots.Bot, 4)
	for s := range players {
		if s == at {
			players[s] = bot
			continue
		}
		g, err := builtin.New(game, "greedy", seed*31+uint64(s))
		if err != nil {
			tb.Fatal(err)
		}
		players[s] = g
	}
	return players
}

// strength prints mcts's win rate against three greedy bots in seat-rotated duplicate sets
// and its mean time per decision. Small by default (one set of four games at 200 iterations a
// decision); -args -full plays 50 sets (200 games) at the default 100 ms budget. The
// environment narrows it: ORRERY_MCTS_SETS, ORRERY_MCTS_ITERATIONS, ORRERY_MCTS_BUDGET_MS
// (a time budget instead of iterations), ORRERY_MCTS_DEPTH (the playout depth; -1: none),
// ORRERY_MCTS_UNIFORM_PLAYOUTS=1 (uniform playouts in place of the game's policy),
// ORRERY_MCTS_OVERRULE and ORRERY_MCTS_SURE (the margin, and the standard errors, by which the
// search must beat the prior bot to overrule it), ORRERY_MCTS_TREE_DEPTH (own moves kept in the
// tree) and ORRERY_MCTS_BRANCH_REPLIES=1 (the tree branches over replies the game models).
//
//	go test ./bots/mcts -run '^$' -bench Strength_Planet -benchtime 1x -args -full
func strength(b *testing.B, game string) {
	sets, cfg := 1, mcts.Config{Iterations: envInt("ORRERY_MCTS_ITERATIONS", 200)}
	if *full {
		sets, cfg = 50, mcts.Config{}
	}
	sets = envInt("ORRERY_MCTS_SETS", sets)
	if v, err := strconv.Atoi(os.Getenv("ORRERY_MCTS_DEPTH")); err == nil {
		cfg.Depth = v // negative: no playouts
	}
	cfg.Widen = envInt("ORRERY_MCTS_WIDEN", 0)
	cfg.GreedyPlayouts = os.Getenv("ORRERY_MCTS_GREEDY_PLAYOUTS") == "1"
	cfg.UniformPlayouts = os.Getenv("ORRERY_MCTS_UNIFORM_PLAYOUTS") == "1"
	cfg.TreeDepth = envInt("ORRERY_MCTS_TREE_DEPTH", 0)
	cfg.BranchReplies = os.Getenv("ORRERY_MCTS_BRANCH_REPLIES") == "1"
	if v, err := strconv.ParseFloat(os.Getenv("ORRERY_MCTS_OVERRULE"), 64); err == nil {
		cfg.Overrule = v
	}
	if v, err := strconv.ParseFloat(os.Getenv("ORRERY_MCTS_SURE"), 64); err == nil {
		cfg.Sure = v
	}
	if ms := envInt("ORRERY_MCTS_BUDGET_MS", 0); ms > 0 {
		cfg.Iterations, cfg.Budget = 0, time.Duration(ms)*time.Millisecond
	}
	for b.Loop() {
		cpu := cpuTime()
		wins, games, tm := duplicateSets(b, game, sets, cfg)
		cpu = cpuTime() - cpu
		b.ReportMetric(wins/float64(games), "winrate")
		b.ReportMetric(float64(tm.spent.Milliseconds())/float64(max(tm.n, 1)), "ms/decision")
		fmt.Printf("%s: mcts won %.1f of %d games (%.1f%%), %d decisions, %.2f ms each, %d overruling greedy\n",
			game, wins, games, 100*wins/float64(games), tm.n, float64(tm.spent.Microseconds())/1000/float64(max(tm.n, 1)), tm.overruled)
		fmt.Printf("%s: %.1f CPU-s a game (every seat), %.1f of them mcts's, %.0f mcts decisions a game, %.0f searched\n",
			game, cpu.Seconds()/float64(games), tm.spent.Seconds()/float64(games), float64(tm.n)/float64(games), float64(tm.searched)/float64(games))
		if tm.searched > 0 {
			fmt.Printf("%s: %d decisions searched, %.0f iterations each, %.0f iterations per CPU-second\n",
				game, tm.searched, float64(tm.iterations)/float64(tm.searched), float64(tm.iterations)/tm.cpu.Seconds())
		}
	}
}

func BenchmarkStrength_IceTraders(b *testing.B)       { strength(b, "icetraders") }
func BenchmarkStrength_Planet(b *testing.B)           { strength(b, "planet") }
func BenchmarkStrength_PanTropia(b *testing.B)        { strength(b, "pantropia") }
func BenchmarkStrength_FullContactCatan(b *testing.B) { strength(b, "fccatan") }
