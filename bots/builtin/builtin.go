// Package builtin lists Orrery's built-in bots by game and name.
package builtin

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/orrery/orrery/bots"
	fccatanbot "github.com/orrery/orrery/bots/fccatan"
	icetradersbot "github.com/orrery/orrery/bots/icetraders"
	"github.com/orrery/orrery/bots/mcts"
	pantropiabot "github.com/orrery/orrery/bots/pantropia"
	planetbot "github.com/orrery/orrery/bots/planet"
	"github.com/orrery/orrery/bots/random"
)

// AnyGame is the game of a bot that plays every game.
const AnyGame = "*"

// Entry is one built-in bot.
type Entry struct {
	Game string // a game name, or AnyGame
	Name string
	Help string
	New  func(seed uint64) bots.Bot
}

// Entries lists the built-in bots. Each game's bots add their line here.
func Entries() []Entry {
	return []Entry{
		{Game: AnyGame, Name: "random", Help: "uniform seeded pick among the legal actions", New: random.New},
		{Game: "fccatan", Name: "greedy", Help: "runners to the most needed pile and home, knights intercepting carriers, buys the most VP", New: fccatanbot.NewGreedy},
		{Game: "icetraders", Name: "greedy", Help: "chooses Evil and simulates each action one ply: hunts lone ships, guards its last critical ship", New: icetradersbot.NewGreedy},
		{Game: "pantropia", Name: "greedy", Help: "plans placements by expected production, spreads atmosphere toward contested joints, trades for what its next ring lacks", New: pantropiabot.NewGreedy},
		{Game: "fccatan", Name: "mcts", Help: "plans its team's intents by playing 40 ticks ahead with every team steered as greedy steers, a player it sends elsewhere keeping that order 6 ticks; starts from greedy's plan; plans again when the field changes (a ball, a tag, a contact, or 20 ticks on); greedy in the market", New: mctsBot("fccatan")},
		{Game: "icetraders", Name: "mcts", Help: "judges its best 16 moves, greedy's among them, by where the other seats' greedy answers leave it, over states sampled from its own view; keeps greedy's choice unless another is clearly better; 100 ms a decision within the clock (env " + IterationsEnv + "=N: N iterations instead)", New: mctsBot("icetraders")},
		{Game: "pantropia", Name: "mcts", Help: mctsHelp, New: mctsBot("pantropia")},
		{Game: "planet", Name: "mcts", Help: mctsHelp, New: mctsBot("planet")},
		{Game: "planet", Name: "greedy", Help: "tries every placement against the animals to come and its objective", New: planetbot.NewGreedy},
	}
}

const mctsHelp = "Monte Carlo tree search over states sampled from its own view, starting from greedy's choice; 100 ms a decision within the clock (env " + IterationsEnv + "=N: N iterations instead)"

// IterationsEnv names the environment variable that gives the mcts bots an iteration budget
// per decision in place of their time budget: a tournament measured with it plays the same
// however loaded the machine is. Its value is N for every game, or game=N pairs separated by
// commas (games not named keep the time budget), since 100 ms buys each game a different
// number of iterations.
const IterationsEnv = "ORRERY_MCTS_ITERATIONS"

// mctsBot makes the search bot of game at its default budget, or at the iteration budget in
// IterationsEnv.
func mctsBot(game string) func(seed uint64) bots.Bot {
	return func(seed uint64) bots.Bot {
		return mcts.MustNew(game, mcts.Config{Seed: seed, Iterations: Iterations(os.Getenv(IterationsEnv), game)})
	}
}

// Iterations reads game's iteration budget from an IterationsEnv value: 0 when it sets none.
func Iterations(env, game string) int {
	if !strings.Contains(env, "=") {
		n, _ := strconv.Atoi(strings.TrimSpace(env))
		return max(n, 0)
	}
	for pair := range strings.SplitSeq(env, ",") {
		g, v, _ := strings.Cut(pair, "=")
		if strings.TrimSpace(g) == game {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return max(n, 0)
		}
	}
	return 0
}

// New makes the bot called name for game, seeded with seed.
func New(game, name string, seed uint64) (bots.Bot, error) {
	for _, e := range Entries() {
		if e.Name == name && (e.Game == game || e.Game == AnyGame) {
			return e.New(seed), nil
		}
	}
	return nil, fmt.Errorf("no built-in bot %q for %s (have: %v)", name, game, Names(game))
}

// Names lists the bots that play game, sorted.
func Names(game string) []string {
	var names []string
	for _, e := range Entries() {
		if e.Game == game || e.Game == AnyGame {
			names = append(names, e.Name)
		}
	}
	sort.Strings(names)
	return names
}
