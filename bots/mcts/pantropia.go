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
