package icetraders

import (
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
)

// Perturb changes, in st, what seat may not know: the other seats' alignments while
// unrevealed, and their opening picks while unrevealed (every seat's, for the spectator).
//
// It serves tests only: the conformance suite's perturbation test, and the search bot's,
// which must choose the same on a perturbed state. It changes st itself (pass a clone) and
// returns it, or nil when seat had nothing hidden to change.
func Perturb(st engine.State, seat engine.Seat, r *rand.Rand) engine.State {
	s := st.(*State)
	changed := false
	for i := range s.players {
		if engine.Seat(i) == seat || s.phase == phaseOver {
			continue
		}
		p := &s.players[i]
		if p.align != Unknown && !s.shown {
			p.align = Good + Alignment(r.IntN(2))
			changed = true
			for j := range s.events {
				e := &s.events[j]
				if e.kind == evAction && e.a.Kind == KindAlign && int(e.seat) == i {
					e.a = ChooseAlignment(p.align)
				}
			}
		}
		if p.picked && s.phase == phasePicks {
			p.revealed = [2]Piece{pieceOfKind(r.IntN(numKinds)), pieceOfKind(r.IntN(numKinds))}
			p.picks = p.revealed
			changed = true
			for j := range s.events {
				e := &s.events[j]
				if e.kind == evAction && e.a.Kind == KindPicks && int(e.seat) == i {
					e.a = ChoosePicks(p.revealed[0], p.revealed[1])
				}
			}
		}
	}
	if !changed {
		return nil
	}
	return s
}
