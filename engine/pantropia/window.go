package pantropia

import "github.com/orrery/orrery/engine"

// askable reports whether a Luddite window asks seat q: by default every seat holding any
// card (so being asked reveals nothing), or only Luddite holders.
func (s *state) askable(q int8) bool {
	if s.cfg.askAll {
		return s.pl[q].handSize() > 0
	}
	return s.pl[q].hand[Luddite] > 0
}

// nextAsked is the next seat after from, clockwise and before the window's trigger, that the
// window asks; -1 when none is left (resolution 8).
func (s *state) nextAsked(from int8) int8 {
	for q := s.next(from); q != s.windowBy; q = s.next(q) {
		if s.askable(q) {
			return q
		}
	}
	return -1
}

// openWindow starts a Luddite window after a card play or a black roll.
func (s *state) openWindow(by int8, black bool, card engine.Action) {
	s.windowBy = by
	s.pendBlack = black
	s.pending = card
	if q := s.nextAsked(by); q >= 0 {
		s.phase = PhaseWindow
		s.windowAt = q
		return
	}
	s.closeWindow()
}

// closeWindow resolves what nobody cancelled.
func (s *state) closeWindow() {
	if s.pendBlack {
		s.pendBlack = false
		s.phase = PhaseBlack
		return
	}
	a := s.pending
	s.pending = engine.Action{}
	s.resolveCard(s.active, a)
}

// playLuddite cancels the pending card (lost) or black roll (nothing produced), and shuffles
// the Luddite into the deck with a Technocalypse from the reserve.
func (s *state) playLuddite(p int8) {
	s.pl[p].hand[Luddite]--
	s.log(event{kind: evLuddite, seat: p, other: s.windowBy, b: b2i16(s.pendBlack)})
	if !s.pendBlack {
		s.lost++
		s.log(playEvent(evCancelled, s.windowBy, s.pending))
	}
	s.pendBlack = false
	s.pending = engine.Action{}
	s.toBottom(Luddite)
	if s.reserve > 0 {
		s.reserve--
		s.toBottom(Technocalypse)
	}
	s.shuffleDeck()
	s.phase = PhaseMain
}
