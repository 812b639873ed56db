package fccatan

import (
	"fmt"
	"strings"

	"github.com/orrery/orrery/engine"
)

func metres(v Vec) string {
	return fmt.Sprintf("(%d.%02d,%d.%02d)", v.X/100, abs32(v.X%100), v.Y/100, abs32(v.Y%100))
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func speed(v Vec) string {
	if v == (Vec{}) {
		return ""
	}
	return fmt.Sprintf(" running (%+d,%+d) cm/s", v.X, v.Y)
}

func countsText(n [numRes]int16) string {
	return fmt.Sprintf("wood %d, brick %d, ore %d, sheep %d", n[Wood], n[Brick], n[Ore], n[Sheep])
}

func offerText(o *offer) string {
	var g, w [numRes]int16
	for r := 0; r < numRes; r++ {
		g[r], w[r] = int16(o.give[r]), int16(o.want[r])
	}
	return fmt.Sprintf("team %d offers team %d %s for %s", o.from, o.to, formatCounts(g[:]), formatCounts(w[:]))
}

// Render is the text form of Observe(seat): the clock, every team, the piles, the hoops and
// the offers seat may see. Positions are metres from the bottom-left corner, y up the field.
func (s *State) Render(seat engine.Seat) string {
	if seat < 0 || int(seat) >= s.c.teams {
		seat = engine.Spectator
	}
	var b strings.Builder
	c := s.c
	fmt.Fprintf(&b, "Full-Contact Catan, %s ruleset: %d VP win; field %d x %d m, positions (x,y) in m, y up the field\n", c.ruleset, c.winVP, c.field.Width/100, c.field.Height/100)
	switch s.phase {
	case PhaseSetup:
		fmt.Fprintf(&b, "Setup: team %d picks a start hoop and names its knights\n", s.setupSeat)
	case PhaseTick:
		left := (c.ticksPerRound - int(s.tick)) * c.tickMS
		fmt.Fprintf(&b, "Round %d of %d, tick %d of %d, %d.%d s left\n", s.round, c.maxRounds, s.tick, c.ticksPerRound, left/1000, left%1000/100)
	case PhaseOver:
		fmt.Fprintf(&b, "Over after round %d: %s\n", s.round, s.Result().Detail)
	case PhaseOffer, PhaseReply:
		fmt.Fprintf(&b, "Market after round %d, trade step %d of %d: %s\n", s.round, s.tradeStep, c.tradeSteps, s.phase)
	case PhaseCardChoice:
		fmt.Fprintf(&b, "Market after round %d: team %d decides its %s card\n", s.round, s.pendingSeat, cardNames[s.pendingCard])
	case PhaseDiscard:
		fmt.Fprintf(&b, "Market after round %d: the robber (team %d's card); teams discard half their balls\n", s.round, s.pendingSeat)
	default:
		fmt.Fprintf(&b, "Round %d: %s\n", s.round, s.phase)
	}
	if seat >= 0 {
		fmt.Fprintf(&b, "You are team %d", seat)
		if s.simultaneous() && s.teams[seat].done {
			b.WriteString(" (answered; waiting for the others)")
		}
		b.WriteByte('\n')
	}
	for t := 0; t < c.teams; t++ {
		tm := &s.teams[t]
		fmt.Fprintf(&b, "Team %d: %d VP; %s", t, tm.vp, countsText(tm.res))
		if tm.start >= 0 {
			fmt.Fprintf(&b, "; start h%d", tm.start)
		}
		if tm.ncards > 0 {
			b.WriteString("; cards")
			for k := 0; k < int(tm.ncards); k++ {
				b.WriteString(" " + cardNames[tm.cards[k]])
			}
		}
		if s.phase == PhaseDiscard && tm.discard > 0 {
			fmt.Fprintf(&b, "; must discard %d", tm.discard)
		}
		b.WriteByte('\n')
		for i := 0; i < int(tm.size); i++ {
			av := &tm.av[i]
			role := "runner"
			if av.knight {
				role = "knight"
			}
			if tm.start < 0 {
				fmt.Fprintf(&b, "  s%da%d waiting for setup\n", t, i)
				continue
			}
			fmt.Fprintf(&b, "  s%da%d %s at %s%s", t, i, role, metres(av.pos), speed(av.vel))
			if av.carry != noRes {
				fmt.Fprintf(&b, ", carrying %s", av.carry)
			} else if av.collected {
				b.WriteString(", collected this round")
			}
			if av.frozen {
				b.WriteString(", FROZEN")
			}
			if av.markers > 0 {
				fmt.Fprintf(&b, ", %d settlement marker(s)", av.markers)
			}
			if int(seat) == t {
				var ib strings.Builder
				formatIntent(&ib, av.order)
				fmt.Fprintf(&b, "; intent %s", ib.String())
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString("Piles:")
	for p, spot := range c.field.Piles {
		fmt.Fprintf(&b, " p%d %s %s x%d;", p, spot.Resource, metres(spot.Pos), s.piles[p])
	}
	b.WriteString("\nHoops:")
	for h, hp := range c.field.Hoops {
		fmt.Fprintf(&b, " h%d %s", h, metres(hp.Center))
		switch s.building[h] {
		case settlement:
			fmt.Fprintf(&b, " settlement of team %d", s.owner[h])
		case city:
			fmt.Fprintf(&b, " city of team %d", s.owner[h])
		default:
			b.WriteString(" free")
		}
		b.WriteByte(';')
	}
	fmt.Fprintf(&b, "\nDeck: %d cards left; markets without a purchase: %d\n", s.deckLeft(), s.idle)
	if s.phase == PhaseReply {
		for i := int(s.stepOffers); i < len(s.offers); i++ {
			if o := &s.offers[i]; o.seenBy(seat) {
				b.WriteString("Offer: " + offerText(o) + "\n")
			}
		}
	}
	return b.String()
}
