package pantropia

import (
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
)

// Perturb deals the cards seat may not see anew: every other seat's hand (keeping its size)
// and the whole deck order (Technocalypse cards stay in the deck, as they never reach a hand).
//
// It serves tests only: the conformance suite's perturbation test, and the search bot's,
// which must choose the same on a perturbed state. It changes st itself (pass a clone) and
// returns it, or nil when seat had nothing hidden to change.
func Perturb(st engine.State, seat engine.Seat, r *rand.Rand) engine.State {
	s := st.(*state)
	var pool []Card
	for p := int8(0); p < s.seats; p++ {
		if engine.Seat(p) == seat {
			continue
		}
		for k := OrbitalMirror; k < numCards; k++ {
			for i := int8(0); i < s.pl[p].hand[k]; i++ {
				pool = append(pool, k)
			}
		}
	}
	technos := 0
	for i := int8(0); i < s.deckN; i++ {
		if s.deck[i] == Technocalypse {
			technos++
		} else {
			pool = append(pool, s.deck[i])
		}
	}
	if len(pool) == 0 && technos == 0 {
		return nil
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for p := int8(0); p < s.seats; p++ {
		if engine.Seat(p) == seat {
			continue
		}
		n := s.pl[p].handSize()
		s.pl[p].hand = [numCards]int8{}
		for i := 0; i < n; i++ {
			s.pl[p].hand[pool[0]]++
			pool = pool[1:]
		}
	}
	deck := append(pool, make([]Card, technos)...)
	for i := len(pool); i < len(deck); i++ {
		deck[i] = Technocalypse
	}
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	copy(s.deck[:], deck)
	return s
}
