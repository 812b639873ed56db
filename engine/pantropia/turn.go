package pantropia

import "github.com/orrery/orrery/engine"

// startPlayAfterSetup starts the first turn once every setup placement is made. No seat is
// ever skipped: the setup rule relaxes instead (setupLevel).
func (s *state) startPlayAfterSetup() {
	if s.setupStep == 2*s.seats {
		s.lastFill = -1 // setup filled joints; the stall count starts with the first turn
		s.startTurn(0)
	}
}

// startTurn rolls the permanent die and seat's swappable die and resolves the roll.
func (s *state) startTurn(seat int8) {
	s.active = seat
	s.cardPlayed = false
	s.offersMade = 0
	perm := Color(s.intN(8))
	if perm > Black {
		perm = Black // the d8 has two black faces
	}
	d := s.dieOf(seat)
	face := s.intN(dieSides[d])
	var sw Color
	for c := Color(0); c < NumColors; c++ {
		face -= int(s.cfg.dice[d][c])
		if face < 0 {
			sw = c
			break
		}
	}
	s.resolveRoll(seat, perm, d, sw)
}

// resolveRoll resolves the roll of the permanent die (a color or black) with the swappable
// die d: production, or a Luddite window and then the roller's choice on black.
func (s *state) resolveRoll(seat int8, perm Color, d int8, sw Color) {
	s.lastRoll = roll{seat: seat, permanent: perm, die: d, swappable: sw, valid: true}
	s.log(event{kind: evRoll, seat: seat, a: int16(perm), b: int16(d), c: int16(sw)})
	if perm == Black {
		s.openWindow(seat, true, engine.Action{})
		return
	}
	s.produce(perm, sw, false)
	s.phase = PhaseMain
}

// stallTurns is how many whole turns have ended since the last turn in which an empty joint
// was filled: the count restarts at 0 with the turn after a fill.
func (s *state) stallTurns() int32 { return max(s.turn-s.lastFill-1, 0) }

// endTurn passes the permanent die, or ends the game at the turn cap or after a stall: the
// end of the turn that completes stall_rounds full rounds without a fill.
func (s *state) endTurn() {
	s.log(event{kind: evEndTurn, seat: s.active})
	s.turn++
	if int(s.turn) >= s.cfg.turnCap {
		s.finish(engine.EndCap, "the turn cap was reached")
		return
	}
	if s.cfg.stallRounds > 0 && int(s.stallTurns()) >= s.cfg.stallRounds*int(s.seats) {
		s.finish(engine.EndCap, "no empty joint was filled for "+itoa(s.cfg.stallRounds)+" rounds")
		return
	}
	s.startTurn(s.next(s.active))
}
