package icetraders

import (
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// concentrate resolves a concentration caused by catalyst ship cat, if five or more ships of
// its color now share its place (Precise resolution 4: checked after each single step).
func (s *State) concentrate(sn int, cat int16) {
	if cat < 0 {
		return
	}
	xi := s.shipIdx(int(cat))
	if xi < 0 {
		return
	}
	x := s.ships[xi]
	if s.colorAt(x.loc, x.piece.Color) < 5 {
		return
	}
	li := s.locIdx(int(x.loc))
	l := &s.locs[li]
	ev := event{kind: evConcentration, seat: int8(sn), loc: l.id, ship: x.id, hyper: l.hyper, conc: concOf(x.piece.Color)}
	if l.hyper {
		// Precise resolution 5: only five red discard everything; other colors do nothing.
		if x.piece.Color != Red {
			ev.effect = effNothingHyper
			s.log(ev)
			return
		}
		ev.effect = effDiscardAll
		s.log(ev)
		s.discardShipsAt(l.id)
		s.closeIfEmpty(l.id)
		return
	}
	switch x.piece.Color {
	case Red: // Armageddon
		ev.effect = effArmageddon
		s.log(ev)
		s.discardShipsAt(l.id)
		s.put(l.marker)
		if l.second.Size != 0 {
			s.put(l.second)
		}
		s.removeLocAt(li)
	case Yellow: // Hyperspace
		ev.effect = effHyperspace
		s.log(ev)
		s.put(l.marker)
		if l.second.Size != 0 {
			s.put(l.second)
		}
		l.hyper, l.marker, l.second = true, Piece{}, Piece{}
	case Blue: // Enterprise, optional
		switch {
		case l.second.Size != 0:
			ev.effect = effNothingDual
		case l.marker.Size == Small:
			ev.effect = effNothingSmall
		case !s.stashHasSmaller(l.marker.Size):
			ev.effect = effNothingStash
		default:
			ev.effect = effOffered
			s.pend = pending{kind: ev.conc, loc: l.id, catalyst: x.id}
		}
		s.log(ev)
	case Green: // Revolt, optional
		ev.effect = effNothingRevolt
		for i := range s.ships {
			t := &s.ships[i]
			if t.loc == l.id && t.id != x.id && int(t.owner) != sn {
				ev.effect = effOffered
				s.pend = pending{kind: ev.conc, loc: l.id, catalyst: x.id}
				break
			}
		}
		s.log(ev)
	}
}

func concOf(c Color) pb.ConcentrationKind {
	switch c {
	case Red:
		return pb.ConcentrationKind_CONCENTRATION_KIND_ARMAGEDDON
	case Yellow:
		return pb.ConcentrationKind_CONCENTRATION_KIND_HYPERSPACE
	case Blue:
		return pb.ConcentrationKind_CONCENTRATION_KIND_ENTERPRISE
	}
	return pb.ConcentrationKind_CONCENTRATION_KIND_REVOLT
}

func (s *State) stashHasSmaller(z Size) bool {
	for k := 0; k < numKinds; k++ {
		if pieceOfKind(k).Size < z && s.stash[k] > 0 {
			return true
		}
	}
	return false
}

// discardShipsAt returns every ship in location id to the stash.
func (s *State) discardShipsAt(id int16) {
	j := 0
	for i := range s.ships {
		if s.ships[i].loc == id {
			s.put(s.ships[i].piece)
			continue
		}
		s.ships[j] = s.ships[i]
		j++
	}
	s.ships = s.ships[:j]
}
