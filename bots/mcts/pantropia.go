package mcts

import (
	"math/rand/v2"

	pantropiabot "github.com/orrery/orrery/bots/pantropia"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/pantropia"
)

// pantropiaGame is PanTropia's search, each call with buffers of its own. Trading is left to
// greedy (trade, notOffer). After the searching seat's move every seat plays as the greedy
// players it meets do (pantropia.Greedy), the other seats' replies and the playout alike: the
// search is a rollout of greedy play after each candidate, so it overrules greedy's choice
// where greedy's own continuation shows another move better. Every seat is scored in one
// pass, a shared win split as tournaments count it (pantropia.EvaluateSplit).
//
// The candidates' trials are paired (Paired): the j-th of each is played on the same sample,
// so greedy's choice is overruled by the lead measured sample by sample, whose standard
// error in a setup is a fraction of the two means' (0.0024 against 0.0061, and far less for
// sites alike). That lets the margin drop from 0.05 to 0.01 without overruling on luck: most
// leads the search finds are under 0.02. It overrules 11 times a game where it did 6, most
// on black (11 of 18 Pantropy or Terraforming choices in two games). 200 games against three
// greedy at 5,000 iterations (about 90 ms a decision on one core), seed 16: win share 44.2%
// [37.5, 51.2]; on the same deals unpaired at a margin of 0.05, 35.3% [29.0, 42.2]. Seed 17:
// 43.5% [36.8, 50.4].
func pantropiaGame() Game {
	return Game{
		Name: "pantropia", Determinizer: pantropiaDeterminizer, Depth: 20, Prior: pantropiabot.NewGreedy,
		Searchable: notOffer, LeftToPrior: trade,
		Playout: greedyPolicy(), Reply: greedyPolicy, TreeDepth: 1, EvaluateAll: pantropia.EvaluateSplit,
		Paired: true, Overrule: 0.01,
	}
}

// greedyPolicy is a greedy policy with buffers of its own.
func greedyPolicy() Policy {
	g := pantropia.NewGreedy()
	return func(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action {
		return g.Act(st, seat, legal, r)
	}
}
