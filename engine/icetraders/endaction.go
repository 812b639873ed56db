package icetraders

import (
	"fmt"

	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// The end of an action: eliminations, the next turn, the end of the game.

// afterStep ends the action unless a choice or sacrifice use is still owed.
func (s *State) afterStep(sn int) {
	if s.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_UNSPECIFIED {
		return
	}
	if s.sac.active {
		if s.sac.left > 0 && s.hasUse(sn) {
			return
		}
		s.sac = sacrifice{}
	}
	s.endAction(sn, false)
}

// endAction closes sn's turn: eliminations (checked once, after everything the action caused:
// Precise resolution 1), then the next turn or the caps.
func (s *State) endAction(sn int, passed bool) {
	s.players[sn].turns++
	s.turn++
	if passed {
		s.passes++
	} else {
		s.passes = 0
	}
	s.eliminate(sn)
	if s.phase == phaseOver {
		return
	}
	s.nextTurn()
}

// eliminate removes every player who lost their last large ship (or their last ship, if they
// never had a large one), and resolves credit and the wins in Precise resolution 2's order.
func (s *State) eliminate(actor int) {
	// Every seat's fleet in one pass over the ships: this runs after every action.
	var ships, large [maxSeats]int
	for i := range s.ships {
		if o := s.ships[i].owner; o >= 0 && int(o) < maxSeats {
			ships[o]++
			if s.ships[i].piece.Size == Large {
				large[o]++
			}
		}
	}
	var out uint8
	for i := range s.players {
		p := &s.players[i]
		if p.out || !p.placed {
			continue
		}
		if (p.everLarge && large[i] == 0) || ships[i] == 0 {
			out |= 1 << i
		}
	}
	if out == 0 {
		return
	}
	credited := out&(1<<actor) == 0
	by := int8(-1)
	if credited {
		by = int8(actor)
	}
	goodFell := false
	for i := range s.players {
		if out&(1<<i) == 0 {
			continue
		}
		p := &s.players[i]
		p.out, p.outBy = true, by
		goodFell = goodFell || p.align == Good
		for j := range s.ships {
			if int(s.ships[j].owner) == i {
				s.ships[j].owner = -1
			}
		}
		s.log(event{kind: evEliminated, seat: int8(i), by: by})
	}
	if credited {
		if !s.shown {
			s.shown = true
			s.log(event{kind: evRevealed, aligns: s.alignments()})
		}
		if s.players[actor].align == Evil {
			s.finish(pb.EndKind_END_KIND_EVIL_WINS, 1<<actor)
			return
		}
		if goodFell {
			s.players[actor].align = Evil
			s.players[actor].turnedEvil = true
			s.log(event{kind: evTurnedEvil, seat: int8(actor)})
		}
	}
	everEvil, evilLeft, alive := false, false, 0
	var good, survivors uint8
	for i := range s.players {
		p := &s.players[i]
		if p.align == Evil {
			everEvil = true
			evilLeft = evilLeft || !p.out
		} else if !p.out || !s.cfg.goodWinAliveOnly {
			good |= 1 << i
		}
		if !p.out {
			alive++
			survivors |= 1 << i
		}
	}
	switch {
	case everEvil && !evilLeft:
		s.finish(pb.EndKind_END_KIND_GOOD_WINS, good)
	case alive == 1:
		s.finish(pb.EndKind_END_KIND_LAST_SURVIVOR, survivors)
	case alive == 0:
		s.finish(pb.EndKind_END_KIND_NO_SURVIVOR, 0)
	}
}

// alignments snapshots every seat's alignment.
func (s *State) alignments() (al [6]Alignment) {
	for i := range s.players {
		al[i] = s.players[i].align
	}
	return al
}

// nextTurn passes the turn to the next player still in the game, unless a cap ends the match.
func (s *State) nextTurn() {
	alive := 0
	var survivors uint8
	for i := range s.players {
		if !s.players[i].out {
			alive++
			survivors |= 1 << i
		}
	}
	if int(s.passes) >= s.cfg.passRounds*alive {
		s.finish(pb.EndKind_END_KIND_PASS_CAP, survivors)
		return
	}
	n := int(s.cur)
	for {
		n = (n + 1) % len(s.players)
		if !s.players[n].out {
			break
		}
	}
	if int(s.players[n].turns) >= s.cfg.turnCap {
		s.finish(pb.EndKind_END_KIND_TURN_CAP, survivors)
		return
	}
	s.cur = int8(n)
}

// finish ends the match; every alignment is revealed in the result.
func (s *State) finish(kind pb.EndKind, winners uint8) {
	s.phase = phaseOver
	s.end = kind
	s.winners = winners
	s.sac = sacrifice{}
	s.pend = pending{}
	s.log(event{kind: evOver, aligns: s.alignments()})
}

// endDetail is the result's sentence.
func (s *State) endDetail() string {
	w := ""
	for i := range s.players {
		if s.winners&(1<<i) != 0 {
			if w != "" {
				w += ", "
			}
			w += fmt.Sprintf("seat %d", i)
		}
	}
	switch s.end {
	case pb.EndKind_END_KIND_EVIL_WINS:
		return "Evil " + w + " eliminated another player and wins"
	case pb.EndKind_END_KIND_GOOD_WINS:
		if w == "" {
			return "no Evil player is left, but no Good player either"
		}
		return "no Evil player is left: Good wins (" + w + ")"
	case pb.EndKind_END_KIND_LAST_SURVIVOR:
		return w + " is the last survivor and wins"
	case pb.EndKind_END_KIND_NO_SURVIVOR:
		return "the last players were eliminated together: nobody wins"
	case pb.EndKind_END_KIND_TURN_CAP:
		return fmt.Sprintf("turn cap of %d turns per player: a draw among %s", s.cfg.turnCap, w)
	case pb.EndKind_END_KIND_PASS_CAP:
		return fmt.Sprintf("%d full rounds of passes: a draw among %s", s.cfg.passRounds, w)
	}
	return "the match is still running"
}
