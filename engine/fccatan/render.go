package fccatan

import (
	"strconv"

	"github.com/orrery/orrery/engine"
)

// Render builds its text with appends rather than fmt: bots in process get a decision (and
// its text) every tick.

// appendMetres writes (x.xx,y.yy) for a point in centimetres (never negative on the field).
func appendMetres(b []byte, v Vec) []byte {
	b = append(b, '(')
	b = appendCM(b, v.X)
	b = append(b, ',')
	b = appendCM(b, v.Y)
	return append(b, ')')
}

func appendCM(b []byte, cm int32) []byte {
	if cm < 0 {
		b = append(b, '-')
		cm = -cm
	}
	b = strconv.AppendInt(b, int64(cm/100), 10)
	b = append(b, '.', byte('0'+cm%100/10), byte('0'+cm%10))
	return b
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

func appendCounts(b []byte, n [numRes]int16) []byte {
	for r := 0; r < numRes; r++ {
		if r > 0 {
			b = append(b, ", "...)
		}
		b = append(b, resNames[r]...)
		b = append(b, ' ')
		b = appendInt(b, int(n[r]))
	}
	return b
}

func offerText(o *offer) string {
	var g, w [numRes]int16
	for r := 0; r < numRes; r++ {
		g[r], w[r] = int16(o.give[r]), int16(o.want[r])
	}
	b := []byte("team ")
	b = appendInt(b, int(o.from))
	b = append(b, " offers team "...)
	b = appendInt(b, int(o.to))
	b = append(b, ' ')
	b = append(b, formatCounts(g[:])...)
	b = append(b, " for "...)
	b = append(b, formatCounts(w[:])...)
	return string(b)
}

// Render is the text form of Observe(seat): the clock, every team, the piles, the hoops and
// the offers seat may see. Positions are metres from the bottom-left corner, y up the field.
func (s *State) Render(seat engine.Seat) string {
	if seat < 0 || int(seat) >= s.c.teams {
		seat = engine.Spectator
	}
	c := s.c
	b := make([]byte, 0, 2048)
	b = append(b, "Full-Contact Catan, "...)
	b = append(b, c.ruleset...)
	b = append(b, " ruleset: "...)
	b = appendInt(b, c.winVP)
	b = append(b, " VP win; field "...)
	b = appendInt(b, int(c.field.Width/100))
	b = append(b, " x "...)
	b = appendInt(b, int(c.field.Height/100))
	b = append(b, " m, positions (x,y) in m, y up the field\n"...)
	switch s.phase {
	case PhaseSetup:
		b = append(b, "Setup: team "...)
		b = appendInt(b, int(s.setupSeat))
		b = append(b, " picks a start hoop and names its knights\n"...)
	case PhaseTick:
		left := (c.ticksPerRound - int(s.tick)) * c.tickMS
		b = append(b, "Round "...)
		b = appendInt(b, int(s.round))
		b = append(b, " of "...)
		b = appendInt(b, c.roundCap)
		b = append(b, ", tick "...)
		b = appendInt(b, int(s.tick))
		b = append(b, " of "...)
		b = appendInt(b, c.ticksPerRound)
		b = append(b, ", "...)
		b = appendInt(b, left/1000)
		b = append(b, '.')
		b = appendInt(b, left%1000/100)
		b = append(b, " s left\n"...)
	case PhaseOver:
		b = append(b, "Over after round "...)
		b = appendInt(b, int(s.round))
		b = append(b, ": "...)
		b = append(b, s.Result().Detail...)
		b = append(b, '\n')
	case PhaseOffer, PhaseReply:
		b = append(b, "Market after round "...)
		b = appendInt(b, int(s.round))
		b = append(b, ", trade step "...)
		b = appendInt(b, int(s.tradeStep))
		b = append(b, " of "...)
		b = appendInt(b, c.tradeSteps)
		b = append(b, ": "...)
		b = append(b, s.phase.String()...)
		b = append(b, '\n')
	case PhaseCardChoice:
		b = append(b, "Market after round "...)
		b = appendInt(b, int(s.round))
		b = append(b, ": team "...)
		b = appendInt(b, int(s.pendingSeat))
		b = append(b, " decides its "...)
		b = append(b, cardNames[s.pendingCard]...)
		b = append(b, " card\n"...)
	case PhaseDiscard:
		b = append(b, "Market after round "...)
		b = appendInt(b, int(s.round))
		b = append(b, ": the robber (team "...)
		b = appendInt(b, int(s.pendingSeat))
		b = append(b, "'s card); teams discard half their balls\n"...)
	default:
		b = append(b, "Round "...)
		b = appendInt(b, int(s.round))
		b = append(b, ": "...)
		b = append(b, s.phase.String()...)
		b = append(b, '\n')
	}
	if seat >= 0 {
		b = append(b, "You are team "...)
		b = appendInt(b, int(seat))
		switch {
		case s.wallTick() && s.teams[seat].done:
			b = append(b, " (intents sent for this tick; a new send replaces them until the tick resolves)"...)
		case s.simultaneous() && s.teams[seat].done:
			b = append(b, " (answered; waiting for the others)"...)
		}
		b = append(b, '\n')
	}
	for t := 0; t < c.teams; t++ {
		b = s.appendTeam(b, t, seat)
	}
	b = append(b, "Piles:"...)
	for p := range c.field.Piles {
		b = append(b, c.pileLabels[p]...)
		b = appendInt(b, int(s.piles[p]))
		b = append(b, ';')
	}
	b = append(b, "\nHoops:"...)
	for h := range c.field.Hoops {
		b = append(b, c.hoopLabels[h]...)
		switch s.building[h] {
		case settlement:
			b = append(b, " settlement of team "...)
			b = appendInt(b, int(s.owner[h]))
		case city:
			b = append(b, " city of team "...)
			b = appendInt(b, int(s.owner[h]))
		default:
			b = append(b, " free"...)
		}
		b = append(b, ';')
	}
	b = append(b, "\nDeck: "...)
	b = appendInt(b, s.deckLeft())
	b = append(b, " cards left; markets without a purchase: "...)
	b = appendInt(b, int(s.idle))
	b = append(b, '\n')
	if s.phase == PhaseReply {
		for i := int(s.stepOffers); i < len(s.offers); i++ {
			if o := &s.offers[i]; o.seenBy(seat) {
				b = append(b, "Offer: "...)
				b = append(b, offerText(o)...)
				b = append(b, '\n')
			}
		}
	}
	return string(b)
}

func (s *State) appendTeam(b []byte, t int, seat engine.Seat) []byte {
	tm := &s.teams[t]
	b = append(b, "Team "...)
	b = appendInt(b, t)
	b = append(b, ": "...)
	b = appendInt(b, int(tm.vp))
	b = append(b, " VP; "...)
	b = appendCounts(b, tm.res)
	if tm.start >= 0 {
		b = append(b, "; start h"...)
		b = appendInt(b, int(tm.start))
	}
	if tm.ncards > 0 {
		b = append(b, "; cards"...)
		for k := 0; k < int(tm.ncards); k++ {
			b = append(b, ' ')
			b = append(b, cardNames[tm.cards[k]]...)
		}
	}
	if s.phase == PhaseDiscard && tm.discard > 0 {
		b = append(b, "; must discard "...)
		b = appendInt(b, int(tm.discard))
	}
	b = append(b, '\n')
	for i := 0; i < int(tm.size); i++ {
		av := &tm.av[i]
		b = append(b, "  s"...)
		b = appendInt(b, t)
		b = append(b, 'a')
		b = appendInt(b, i)
		if tm.start < 0 {
			b = append(b, " waiting for setup\n"...)
			continue
		}
		if av.knight {
			b = append(b, " knight at "...)
		} else {
			b = append(b, " runner at "...)
		}
		b = appendMetres(b, av.pos)
		if av.vel != (Vec{}) {
			b = append(b, " running ("...)
			b = appendInt(b, int(av.vel.X))
			b = append(b, ',')
			b = appendInt(b, int(av.vel.Y))
			b = append(b, ") cm/s"...)
		}
		if av.carry != noRes {
			b = append(b, ", carrying "...)
			b = append(b, resNames[av.carry]...)
		} else if av.collected {
			b = append(b, ", collected this round"...)
		}
		if av.frozen {
			b = append(b, ", FROZEN"...)
		}
		if av.markers > 0 {
			b = append(b, ", "...)
			b = appendInt(b, int(av.markers))
			b = append(b, " settlement marker(s)"...)
		}
		if int(seat) == t {
			b = append(b, "; intent "...)
			b = appendIntent(b, s.order(t, i))
		}
		b = append(b, '\n')
	}
	return b
}

// labels precomputes the static text of the piles and hoops.
func (c *config) labels() {
	for p, spot := range c.field.Piles {
		b := []byte(" p")
		b = appendInt(b, p)
		b = append(b, ' ')
		b = append(b, spot.Resource.String()...)
		b = append(b, ' ')
		b = appendMetres(b, spot.Pos)
		b = append(b, " x"...)
		c.pileLabels = append(c.pileLabels, string(b))
	}
	for h, hp := range c.field.Hoops {
		b := []byte(" h")
		b = appendInt(b, h)
		b = append(b, ' ')
		b = appendMetres(b, hp.Center)
		c.hoopLabels = append(c.hoopLabels, string(b))
	}
}
