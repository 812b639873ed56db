package pantropia

import "github.com/orrery/orrery/engine"

func (s *state) toBottom(c Card) {
	s.deck[s.deckN] = c
	s.deckN++
}

// resolveCard carries out a card play that survived its window; the card goes to the
// bottom of the deck, the Space Elevator stays face up.
func (s *state) resolveCard(p int8, a engine.Action) {
	k := Card(a.Arg[0])
	s.phase = PhaseMain
	switch k {
	case OrbitalMirror:
		s.toBottom(k)
		s.cur = p
		s.mirrorLeft = 3
		s.advanceMirror()
	case SolarShade:
		s.toBottom(k)
		s.phase = PhaseShade
		s.cur = p
		s.shadeDone = 0
	case SpaceElevator:
		s.pay(p, [NumColors]int32{1, 1, 1, 1, 1, 1})
		if s.elevator >= 0 {
			s.log(event{kind: evElevatorDiscarded, seat: s.elevator})
			s.toBottom(SpaceElevator)
		}
		s.elevator = p
		s.log(event{kind: evElevator, seat: p})
	case ShuttleCard:
		s.toBottom(k)
		q, x := int8(a.Arg[1]), a.Arg[2]
		s.pl[q].shuttle = int8(x)
		s.log(event{kind: evShuttleMoved, seat: p, other: q, a: x})
	case Aquifer:
		s.toBottom(k)
		c := a.Arg[1]
		for q := int8(0); q < s.seats; q++ {
			if q == p || s.pl[q].chips[c] == 0 {
				continue
			}
			n := s.pl[q].chips[c]
			s.pl[q].chips[c] = 0
			s.pl[p].chips[c] += n
			e := event{kind: evAquifer, seat: p, other: q}
			e.chips[c] = int16(min(n, 32767))
			s.log(e)
		}
	case GuidedComet:
		s.toBottom(k)
		slot, c := a.Arg[1], a.Arg[2]
		s.pl[p].menu[slot] = Color(c)
		s.log(event{kind: evComet, seat: p, a: slot, b: c})
	}
}

// advanceMirror moves the Orbital Mirror on to the next builder who can build: the player
// owes 3 rings, then each other player 1, in seat order; a player with no joint is skipped.
func (s *state) advanceMirror() {
	for {
		if s.mirrorLeft > 0 && s.pl[s.cur].rings < supplyRings && s.hasRingTarget(s.cur) {
			s.phase = PhaseMirror
			return
		}
		if s.mirrorLeft > 0 {
			s.log(event{kind: evMirrorSkip, seat: s.cur})
		}
		s.cur = s.next(s.cur)
		if s.cur == s.active {
			s.phase = PhaseMain
			return
		}
		s.mirrorLeft = 1
	}
}

// draw gives p the top card; a Technocalypse goes face up into the countdown and p draws
// again, until a card or an empty deck (resolution 9).
func (s *state) draw(p int8) {
	for s.deckN > 0 {
		c := s.deck[0]
		copy(s.deck[:s.deckN-1], s.deck[1:s.deckN])
		s.deckN--
		s.deck[s.deckN] = cardNone
		if c != Technocalypse {
			s.pl[p].hand[c]++
			s.log(event{kind: evDraw, seat: p, a: int16(c)})
			return
		}
		s.countdown++
		s.log(event{kind: evCountdown, seat: p, a: int16(s.countdown)})
		if s.countdown >= countdownEnd {
			s.technocalypse()
		}
	}
}

// technocalypse demotes every arcology, discards the Space Elevator, sets the discards owed
// and returns the countdown to the reserve. Seats short of habitat pieces choose which sites
// stay empty (resolution 10) and seats with 11 or more chips choose their discards.
func (s *state) technocalypse() {
	s.log(event{kind: evTechnocalypse})
	if s.elevator >= 0 {
		s.log(event{kind: evElevatorDiscarded, seat: s.elevator})
		s.toBottom(SpaceElevator)
		s.elevator = -1
	}
	s.reserve += s.countdown
	s.countdown = 0
	for p := int8(0); p < s.seats; p++ {
		pl := &s.pl[p]
		if short := pl.arcologies - (supplyHabitats - pl.habitats); short > 0 {
			s.abandon[p] = short
		} else {
			s.demoteAll(p)
		}
		if t := pl.total(); t >= discardAt {
			s.discard[p] = int16(min((t+1)/2, 32767))
		}
	}
}

func (s *state) demoteAll(p int8) {
	for x := range s.site {
		if s.site[x] == p && s.arco[x] {
			s.arco[x] = false
			s.pl[p].arcologies--
			s.pl[p].habitats++
			s.log(event{kind: evDemote, seat: p, a: int16(x)})
		}
	}
}

// startTechno hands the decision to the first seat that owes Technocalypse choices, if any.
func (s *state) startTechno() {
	s.cur = s.active
	s.advanceTechno()
}

// advanceTechno picks, in seat order from the active player, the next seat that must
// abandon sites, then the next that must discard; with none left play goes on.
func (s *state) advanceTechno() {
	for k := int8(0); k < s.seats; k++ {
		q := (s.active + k) % s.seats
		if s.abandon[q] > 0 {
			s.phase, s.cur = PhaseTechno, q
			return
		}
	}
	for k := int8(0); k < s.seats; k++ {
		q := (s.active + k) % s.seats
		if s.discard[q] > 0 {
			s.phase, s.cur = PhaseTechno, q
			return
		}
	}
	s.phase = PhaseMain
}
