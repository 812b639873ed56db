package icetraders

import (
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
)

// survivorPick is a random policy that avoids eliminating its own seat when it can, so that
// playouts last long enough to reach concentrations, hyperspaces and reveals.
func survivorPick(s *State, r *rand.Rand) (engine.Seat, engine.Action) {
	toAct := s.ToAct(nil)
	seat := toAct[r.IntN(len(toAct))]
	legal := s.Legal(seat, nil)
	r.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
	for _, a := range legal {
		if a.Kind == KindPass && len(legal) > 1 {
			continue
		}
		c := s.clone()
		if err := c.Apply(seat, a); err != nil {
			panic(err)
		}
		if !c.players[seat].out || c.phase == phaseOver {
			return seat, a
		}
	}
	return seat, legal[0]
}
