package planet

import (
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
)

// Perturb changes, in st, only what seat may not know [rule: Hidden information]: the
// objectives of the other seats (and the cards nobody holds), the order and contents of the
// unrevealed stacks 1-10, and the face-down mystery animals (swapped with cards out of play).
//
// It serves tests only: the conformance suite's perturbation test, and the search bot's,
// which must choose the same on a perturbed state. It changes st itself (pass a clone) and
// returns it, or nil when seat had nothing hidden to change.
func Perturb(st engine.State, seat engine.Seat, r *rand.Rand) engine.State {
	s := st.(*state)

	// Objectives: every card but the viewer's own is secret until the end.
	if !s.over && s.objN > 0 {
		var pool []int8
		var holders []int
		for i := 0; i < int(s.objN); i++ {
			if i < int(s.seats) && engine.Seat(i) == seat {
				continue
			}
			pool = append(pool, s.objDeal[i])
			holders = append(holders, i)
		}
		r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		for k, i := range holders {
			s.objDeal[i] = pool[k]
			if i < int(s.seats) {
				s.planets[i].objective = pool[k]
			}
		}
	}

	// Stacks turn+1..10 are face down: shuffle their tiles among them.
	var tiles []int16
	for i := int(s.turn); i < TileStacks; i++ {
		tiles = append(tiles, s.stacks[i][:s.stackN[i]]...)
	}
	r.Shuffle(len(tiles), func(i, j int) { tiles[i], tiles[j] = tiles[j], tiles[i] })
	for i := int(s.turn); i < TileStacks; i++ {
		n := copy(s.stacks[i][:s.stackN[i]], tiles)
		tiles = tiles[n:]
	}

	// Face-down mystery animals trade places with each other and with the cards out of play.
	inPlay := make([]bool, len(s.d.Animals))
	for _, c := range s.cards {
		inPlay[c.id] = true
	}
	var ids []int16
	var slots []int
	for i, c := range s.cards {
		if c.faceDown {
			ids = append(ids, c.id)
			slots = append(slots, i)
		}
	}
	if len(slots) > 0 {
		for id, in := range inPlay {
			if !in {
				ids = append(ids, int16(id))
			}
		}
		r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		for k, i := range slots {
			s.cards[i].id = ids[k]
		}
	}
	return s
}
