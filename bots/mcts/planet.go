package mcts

import (
	planetbot "github.com/orrery/orrery/bots/planet"
	"github.com/orrery/orrery/engine/planet"
)

// planetGame is Planet's search. Its hundreds of placements are widened to the best 16 by the
// evaluation one placement ahead (and greedy's): 2,000 iterations over 300 placements left
// each too few samples to ever beat greedy's choice by two standard errors. The other seats
// place as greedy would on the display seen, at random on drawn ones (planetReply); no
// playout: after their replies the state is scored as it stands (random playouts of 4
// placements scored worse: 28% against 40% on the same sets). The score is the evaluation's
// logistic at scale 1.5, not 3: the search's margins and exploration then stand for half as
// many points of worth (80-game duplicate screens at 11,600 iterations, seed 17: win share
// 34.4% at scale 6, 40.0% at 3, 43.5% at 1.5, 40.6% at 1, 37.5% at 0.6). Over 200 duplicate
// games against three greedy bots at 11,600 iterations (100 ms of a core), scale 1.5 against
// 3: 42.5% against 41.7% (seed 16), 43.0% against 41.8% (18), 36.7% against 35.8% (19); a
// small gain, each within the other's interval.
func planetGame() Game {
	return Game{
		Name: "planet", Determinizer: planetDeterminizer, Prior: planetbot.NewGreedy,
		Widen: 16, EvaluateAll: planet.Evaluation{Scale: 1.5}.All, Reply: planetReply,
	}
}

// planetReply models the other seats as the greedy players they most often are: each places
// a tile of the display the searching seat saw where greedy would (planet.Reply, scored
// without a clone per placement and remembered by position), and places at random on a
// display the sample drew, where greedy's placement would cost a search most of its
// iterations (positions there rarely repeat) for tiles nobody has seen.
func planetReply() Policy {
	p := &planet.Reply{Drawn: true}
	return p.Choose
}
