package icetraders

import (
	"github.com/orrery/orrery/engine"
)

// The opening: alignments, picks, repicks and the first placements.

// applyAlign records a secret alignment; once every seat has chosen, the picks begin.
func (s *State) applyAlign(sn int, a engine.Action) error {
	if a.Kind != KindAlign {
		return illegal("choose an alignment first")
	}
	al := Alignment(a.Arg[0])
	if a.Arg[0] != int16(Good) && a.Arg[0] != int16(Evil) {
		return illegal("alignment must be good or evil")
	}
	s.players[sn].align = al
	s.log(event{kind: evAction, seat: int8(sn), a: a})
	for i := range s.players {
		if s.players[i].align == Unknown {
			return nil
		}
	}
	s.phase = phasePicks
	return nil
}

// applyPicks records secret opening picks; once every seat has chosen, they are revealed.
func (s *State) applyPicks(sn int, a engine.Action) error {
	if a.Kind != KindPicks {
		return illegal("choose your opening picks first")
	}
	p1, ok1 := argPiece(a, 0)
	p2, ok2 := argPiece(a, 2)
	if !ok1 || !ok2 {
		return illegal("a pick is a color and a size")
	}
	if p1 == p2 && s.cfg.perKind < 2 {
		return illegal("the stash holds only one %s", p1)
	}
	p := &s.players[sn]
	p.picked = true
	p.revealed = [2]Piece{p1, p2}
	p.picks = p.revealed
	s.log(event{kind: evAction, seat: int8(sn), a: a})
	for i := range s.players {
		if !s.players[i].picked {
			return nil
		}
	}
	s.revealPicks()
	return nil
}

// revealPicks serves first picks in seat order, then second picks (Precise resolution 7), or
// under repick_order=pairs each seat's two picks in seat order; seats left unserved repick.
func (s *State) revealPicks() {
	try := func(i, slot int) {
		if p := &s.players[i]; s.stash[p.picks[slot].kind()] > 0 {
			s.serve(i, slot, p.picks[slot])
		}
	}
	if s.cfg.repickPairs {
		for i := range s.players {
			try(i, 0)
			try(i, 1)
		}
	} else {
		for slot := 0; slot < 2; slot++ {
			for i := range s.players {
				try(i, slot)
			}
		}
	}
	s.log(event{kind: evPicksRevealed})
	s.phase = phaseRepick
	if _, _, ok := s.repickSlot(); !ok {
		s.startPlay()
	}
}

// serve takes pick slot of seat from the stash as its opening system.
func (s *State) serve(seat, slot int, p Piece) {
	s.take(p)
	s.players[seat].picks[slot] = p
	s.players[seat].served[slot] = true
	s.insertLoc(location{id: int16(2*seat + slot), marker: p})
}

func (s *State) applyRepick(sn int, a engine.Action) error {
	if a.Kind != KindRepick {
		return illegal("choose a piece again: the stash could not serve your pick")
	}
	p, ok := argPiece(a, 0)
	if !ok {
		return illegal("a pick is a color and a size")
	}
	if s.stash[p.kind()] == 0 {
		return illegal("the stash has no %s left", p)
	}
	_, slot, _ := s.repickSlot()
	s.log(event{kind: evAction, seat: int8(sn), a: a})
	s.serve(sn, slot, p)
	s.players[sn].repicked[slot] = true
	if _, _, ok := s.repickSlot(); !ok {
		s.startPlay()
	}
	return nil
}

// connections counts how many other opening systems the opening system (seat, slot) connects to.
func (s *State) connections(seat, slot int) int {
	n := 0
	me := s.players[seat].picks[slot]
	for i := range s.players {
		for j := 0; j < 2; j++ {
			if (i != seat || j != slot) && Connected(me, s.players[i].picks[j]) {
				n++
			}
		}
	}
	return n
}

// firstPlayer is the seat whose first pick has the most connections; ties go to the tied
// seat whose second pick has the most (unless first_tiebreak=lowest_seat), then to the lowest
// seat.
func (s *State) firstPlayer() int {
	var conn [maxSeats][2]int // each counted once, not once per comparison
	for i := range s.players {
		conn[i] = [2]int{s.connections(i, 0), s.connections(i, 1)}
	}
	best := 0
	for i := 1; i < len(s.players); i++ {
		c1, b1 := conn[i][0], conn[best][0]
		if c1 > b1 || (c1 == b1 && !s.cfg.tiebreakSeat && conn[i][1] > conn[best][1]) {
			best = i
		}
	}
	return best
}

func (s *State) startPlay() {
	s.first = int8(s.firstPlayer())
	s.cur = s.first
	s.phase = phasePlay
	s.log(event{kind: evFirstPlayer, seat: s.first})
}
