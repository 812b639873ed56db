package mcts

import "github.com/orrery/orrery/engine/planet"

// planetReply models the other seats as the greedy players they most often are: each places
// a tile of the display the searching seat saw where greedy would (planet.Reply, scored
// without a clone per placement and remembered by position), and places at random on a
// display the sample drew, where greedy's placement would cost a search most of its
// iterations (positions there rarely repeat) for tiles nobody has seen.
func planetReply() Policy {
	p := &planet.Reply{Drawn: true}
	return p.Choose
}
