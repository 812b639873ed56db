package mcts

import "github.com/orrery/orrery/engine/planet"

// planetReply models the other seats as the greedy players they most often are: each places
// the tile greedy would (planet.Reply, scored without a clone per placement).
func planetReply() Policy {
	var p planet.Reply
	return p.Choose
}
