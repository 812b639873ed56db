package fccatan

import (
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
)

// Perturb changes only what seat may not know: the order of the face-down deck, the other
// teams' intents (standing and just sent), and the trade offers seat is not part of.
//
// It serves tests only: the conformance suite's perturbation test, and the search bot's,
// which must choose the same on a perturbed state. It changes st itself (pass a clone) and
// returns it, or nil when seat had nothing hidden to change.
func Perturb(st engine.State, seat engine.Seat, r *rand.Rand) engine.State {
	s := st.(*State)
	before, _ := s.MarshalBinary()
	if rest := s.deck[s.deckTop:]; len(rest) > 1 {
		r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	}
	other := func(t int) bool { return t != int(seat) }
	for t := 0; t < s.c.teams; t++ {
		if !other(t) {
			continue
		}
		tm := &s.teams[t]
		if s.phase == PhaseTick {
			i := r.IntN(int(tm.size))
			o := &tm.av[i].order
			*o = To(int16(r.IntN(int(s.c.field.Width))), int16(r.IntN(int(s.c.field.Height)))).withFlags(o.Flags &^ (flagTo | flagVel))
			if tm.done {
				tm.pending.Arg[3*i] = int16(r.IntN(int(s.c.field.Width)))
				tm.pending.Arg[3*i+1] = int16(r.IntN(int(s.c.field.Height)))
				tm.pending.Arg[3*i+2] = tm.pending.Arg[3*i+2]&^flagVel | flagTo
			}
		}
		if s.phase == PhaseOffer && tm.done && tm.pending.Kind == kindOffer && other(int(tm.pending.Arg[0])) {
			rewant(&tm.pending.Arg, r)
		}
	}
	if s.phase == PhaseReply {
		for i := int(s.stepOffers); i < len(s.offers); i++ {
			if o := &s.offers[i]; !o.seenBy(seat) {
				var arg [15]int16
				for k := 0; k < numRes; k++ {
					arg[1+k], arg[5+k] = int16(o.give[k]), int16(o.want[k])
				}
				rewant(&arg, r)
				for k := 0; k < numRes; k++ {
					o.want[k] = int8(arg[5+k])
				}
			}
		}
	}
	after, _ := s.MarshalBinary()
	if string(before) == string(after) {
		return nil
	}
	return st
}

// rewant changes the wanted balls of an offer (Arg[1:5] give, Arg[5:9] want), keeping it valid.
func rewant(arg *[15]int16, r *rand.Rand) {
	for k := 0; k < numRes; k++ {
		arg[5+k] = 0
	}
	for {
		k := r.IntN(numRes)
		if arg[1+k] == 0 {
			arg[5+k] = int16(1 + r.IntN(3))
			return
		}
	}
}

func (i Intent) withFlags(f int16) Intent { i.Flags |= f; return i }
