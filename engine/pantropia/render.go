package pantropia

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
)

func colorsText(c [NumColors]int16) string {
	var b []byte
	for i, n := range c {
		if n != 0 {
			if len(b) > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendInt(b, int64(n), 10)
			b = append(b, ' ')
			b = append(b, colorNames[i]...)
		}
	}
	if len(b) == 0 {
		return "nothing"
	}
	return string(b)
}

// Events builds the typed events from..EventCount()-1 as seat sees them: a drawn card's kind
// is shown only to its drawer.
func (s *state) Events(seat engine.Seat, from int, buf []proto.Message) []proto.Message {
	if from < 0 {
		from = 0
	}
	for i := from; i < s.events.n; i++ {
		buf = append(buf, s.eventProto(seat, s.events.at(i)))
	}
	return buf
}

func (s *state) eventProto(seat engine.Seat, e *event) *pb.Event {
	m := &pb.Event{Kind: pb.EventKind(e.kind), Seat: int32(e.seat), OtherSeat: int32(e.other)}
	p := fmt.Sprintf("p%d", e.seat)
	switch e.kind {
	case evSettle:
		m.Intersection, m.Strut, m.Chips = int32(e.a), int32(e.b), pbChips16(e.chips)
		m.Text = fmt.Sprintf("%s settled at i%d with %d rings on s%d and took %s", p, e.a, e.c, e.b, colorsText(e.chips))
	case evRoll:
		perm := pb.Color_COLOR_BLACK
		if Color(e.a) != Black {
			perm = pbColor(Color(e.a))
		}
		m.Color, m.Die, m.Color2 = perm, pb.Die(e.b+1), pbColor(Color(e.c))
		m.Text = fmt.Sprintf("%s rolled %s on the d8 and %s on the %s", p, Color(e.a), Color(e.c), dieNames[e.b])
	case evProduce:
		m.Chips = pbChips16(e.chips)
		m.Text = fmt.Sprintf("%s produced %s", p, colorsText(e.chips))
	case evLudditePass:
		m.Text = p + " did not react"
	case evLuddite:
		m.Count = int32(e.b)
		what := "card"
		if e.b == 1 {
			what = "black roll"
		}
		m.Text = fmt.Sprintf("%s played Luddite Legislation against p%d's %s", p, e.other, what)
	case evTerraform:
		m.Die, m.Die2 = pb.Die(e.a+1), pb.Die(e.b+1)
		m.Text = fmt.Sprintf("%s terraformed and swapped the %s and the %s", p, dieNames[e.a], dieNames[e.b])
	case evPantropy:
		m.Slot, m.Slot2 = int32(e.a), int32(e.b)
		if e.a < 0 {
			m.Count = -1
			m.Text = p + " chose Pantropy, but no slot holds the rolled color"
		} else {
			m.Text = fmt.Sprintf("%s chose Pantropy and swapped menu slots %s and %s", p, s.cfg.slotName[e.a], s.cfg.slotName[e.b])
		}
	case evEarth:
		m.Chips, m.Chips2 = pbChips16(e.chips), pbChips16(e.chips2)
		m.Text = fmt.Sprintf("%s traded %s to Earth for %s", p, colorsText(e.chips), colorsText(e.chips2))
	case evOffer:
		m.Chips, m.Chips2 = pbChips16(e.chips), pbChips16(e.chips2)
		m.Text = fmt.Sprintf("%s offered p%d %s for %s", p, e.other, colorsText(e.chips), colorsText(e.chips2))
	case evAccept, evDecline:
		m.Chips, m.Chips2 = pbChips16(e.chips), pbChips16(e.chips2)
		verb := "accepted"
		if e.kind == evDecline {
			verb = "declined"
		}
		m.Text = fmt.Sprintf("%s %s p%d's offer", p, verb, e.other)
	case evRing:
		m.Joint = int32(e.a)
		m.Count = int32(e.b)
		m.Text = fmt.Sprintf("%s placed a ring on j%d", p, e.a)
		if e.other >= 0 {
			m.Text += fmt.Sprintf(", replacing p%d's", e.other)
		}
		if e.b == 1 {
			m.Text += " (Orbital Mirror)"
		}
	case evHabitat, evArcology, evShuttle, evDemote, evAbandon, evShuttleReturned:
		m.Intersection = int32(e.a)
		m.Text = fmt.Sprintf(map[uint8]string{
			evHabitat: "%s built a habitat at i%d", evArcology: "%s built an arcology at i%d",
			evShuttle: "%s hung its shuttle at i%d", evDemote: "%s's arcology at i%d was demoted",
			evAbandon: "%s's arcology site at i%d was left empty", evShuttleReturned: "%s's shuttle at i%d returned to supply",
		}[e.kind], p, e.a)
	case evBuy:
		m.Text = p + " bought a card"
	case evDraw:
		if seat == engine.Seat(e.seat) {
			m.Card = pb.CardKind(e.a)
			m.Text = fmt.Sprintf("%s drew %s", p, cardTitles[e.a])
		} else {
			m.Text = p + " drew a card"
		}
	case evCountdown:
		m.Card, m.Count = pb.CardKind_CARD_KIND_TECHNOCALYPSE, int32(e.a)
		m.Text = fmt.Sprintf("%s drew a Technocalypse: the countdown is at %d", p, e.a)
	case evPlay, evCancelled:
		a := e.played()
		m.Card = pb.CardKind(a.Arg[0])
		m.Action = s.ActionProto(a).(*pb.Action)
		if e.kind == evPlay {
			m.Text = fmt.Sprintf("%s played: %s", p, s.FormatAction(a))
		} else {
			m.Text = fmt.Sprintf("%s's %s was cancelled and leaves the game", p, cardTitles[a.Arg[0]])
		}
	case evRemove:
		m.Joint = int32(e.a)
		m.Text = fmt.Sprintf("%s removed p%d's ring from j%d", p, e.other, e.a)
	case evShadeSkip:
		m.Text = p + " removed no ring"
	case evMirrorSkip:
		m.Text = p + " had no joint to build on"
	case evShuttleMoved:
		m.Intersection = int32(e.a)
		m.Text = fmt.Sprintf("%s moved p%d's shuttle to i%d", p, e.other, e.a)
	case evAquifer:
		m.Chips = pbChips16(e.chips)
		m.Text = fmt.Sprintf("%s took %s from p%d", p, colorsText(e.chips), e.other)
	case evComet:
		m.Slot, m.Color = int32(e.a), pbColor(Color(e.b))
		m.Text = fmt.Sprintf("%s recolored menu slot %s to %s", p, s.cfg.slotName[e.a], Color(e.b))
	case evElevator:
		m.Text = p + " paid one chip of each color and holds the Space Elevator"
	case evTechnocalypse:
		m.Text = "Technocalypse! Arcologies are demoted, the Space Elevator is discarded, big hands are halved"
	case evElevatorDiscarded:
		m.Text = p + "'s Space Elevator was discarded"
	case evDiscard:
		m.Chips = pbChips16(e.chips)
		m.Text = fmt.Sprintf("%s discarded %s", p, colorsText(e.chips))
	case evEndTurn:
		m.Text = p + " passed the die"
	case evGameOver:
		m.Text = "game over: " + s.detail
	}
	return m
}

// strutLabels are the static heads of the strut lines of Render: " s12 red i3-i7:".
var strutLabels = func() (l [NumStruts]string) {
	for st, g := range Geo.Struts {
		l[st] = fmt.Sprintf(" s%d %s i%d-i%d:", st, g.Color, g.A, g.B)
	}
	return l
}()

// Render is the text form of Observe(seat).
func (s *state) Render(seat engine.Seat) string {
	var b strings.Builder
	b.Grow(4096)
	who := "spectator"
	if seat >= 0 {
		who = fmt.Sprintf("p%d", seat)
	}
	fmt.Fprintf(&b, "PanTropia, turn %d of %d, phase %s, active p%d, you are %s\n", s.turn+1, s.cfg.turnCap, phaseNames[s.phase], s.active, who)
	if d := s.decider(); d >= 0 {
		fmt.Fprintf(&b, "Waiting for p%d.\n", d)
	} else {
		fmt.Fprintf(&b, "Game over: %s.\n", s.detail)
	}
	if r := s.lastRoll; r.valid {
		fmt.Fprintf(&b, "Last roll: p%d rolled %s on the d8 and %s on the %s.\n", r.seat, r.permanent, r.swappable, dieNames[r.die])
	}
	switch s.phase {
	case PhaseWindow:
		what := "the black roll"
		if !s.pendBlack {
			what = "the card: " + s.FormatAction(s.pending)
		}
		fmt.Fprintf(&b, "Luddite window: p%d may cancel p%d's %s.\n", s.windowAt, s.windowBy, what)
	case PhaseOffer:
		fmt.Fprintf(&b, "Offer: p%d gives %s to p%d for %s.\n", s.active, colorsText(s.offer.give), s.offer.to, colorsText(s.offer.take))
	case PhaseMirror:
		fmt.Fprintf(&b, "Orbital Mirror: p%d builds %d free ring(s).\n", s.cur, s.mirrorLeft)
	case PhaseShade:
		fmt.Fprintf(&b, "Solar Shade: p%d may remove one ring.\n", s.cur)
	case PhaseTechno:
		fmt.Fprintf(&b, "Technocalypse: p%d abandons %d site(s), discards %d chip(s).\n", s.cur, s.abandon[s.cur], s.discard[s.cur])
	}
	b.WriteString("Players:\n")
	for p := int8(0); p < s.seats; p++ {
		pl := &s.pl[p]
		var chips [NumColors]int16
		for i, n := range pl.chips {
			chips[i] = int16(min(n, 32767))
		}
		shuttle := "in supply"
		if pl.shuttle >= 0 {
			shuttle = fmt.Sprintf("at i%d", pl.shuttle)
		}
		fmt.Fprintf(&b, " p%d: rings %d, habitats %d (%d left), arcologies %d (%d left), shuttle %s, cards %d, die %s",
			p, pl.rings, pl.habitats, supplyHabitats-pl.habitats, pl.arcologies, supplyArcologies-pl.arcologies, shuttle, pl.handSize(), dieNames[s.dieOf(p)])
		if s.elevator == p {
			b.WriteString(", Space Elevator")
		}
		b.WriteString("\n     chips: ")
		b.WriteString(colorsText(chips))
		b.WriteString("\n     menu:")
		for it := 0; it < numItems; it++ {
			f := int(s.cfg.itemFirst[it])
			b.WriteByte(' ')
			b.WriteString(itemNames[it])
			for k := f; k < f+int(s.cfg.itemSlots[it]); k++ {
				if k == f {
					b.WriteByte('=')
				} else {
					b.WriteByte('+')
				}
				b.WriteString(pl.menu[k].String())
			}
		}
		b.WriteString("\n")
	}
	if seat >= 0 && int(seat) < int(s.seats) {
		var cards []string
		for k := OrbitalMirror; k < numCards; k++ {
			for i := int8(0); i < s.pl[seat].hand[k]; i++ {
				cards = append(cards, cardTitles[k])
			}
		}
		if len(cards) == 0 {
			cards = []string{"no cards"}
		}
		fmt.Fprintf(&b, "Your hand: %s\n", strings.Join(cards, ", "))
	}
	var reserve []string
	for d, h := range s.dieHolder {
		if h < 0 {
			reserve = append(reserve, dieNames[d])
		}
	}
	techno := 0
	for i := int8(0); i < s.deckN; i++ {
		if s.deck[i] == Technocalypse {
			techno++
		}
	}
	fmt.Fprintf(&b, "Dice in reserve: %s. Deck %d (%d Technocalypse), countdown %d/%d, reserve %d, lost %d.\n",
		strings.Join(reserve, " "), s.deckN, techno, s.countdown, countdownEnd, s.reserve, s.lost)
	b.WriteString("Structures:")
	none := true
	for x, o := range s.site {
		if o < 0 {
			continue
		}
		none = false
		kind := "habitat"
		if s.arco[x] {
			kind = "arcology"
		}
		cs := Geo.Intersections[x].Colors
		fmt.Fprintf(&b, " i%d(%s/%s)=p%d %s;", x, cs[0], cs[1], o, kind)
	}
	if none {
		b.WriteString(" none")
	}
	b.WriteString("\nStruts (owner of each joint, . empty), ")
	b.WriteString(itoa(s.emptyJoints()))
	b.WriteString(" empty joints:\n")
	for st := range Geo.Struts {
		b.WriteString(strutLabels[st])
		for k := 0; k < 3; k++ {
			b.WriteByte(' ')
			if o := s.joints[3*st+k]; o >= 0 {
				b.WriteByte(byte('0' + o))
			} else {
				b.WriteByte('.')
			}
		}
		if st%3 == 2 {
			b.WriteByte('\n')
		} else {
			b.WriteString("  ")
		}
	}
	return b.String()
}

// MarshalBinary writes the whole state, hidden cards, random source and log included.
func (s *state) MarshalBinary() ([]byte, error) {
	rng, err := s.rng.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, 2048+s.events.n*64)
	b = append(b, rng...)
	put := func(v ...int64) {
		for _, x := range v {
			b = binary.AppendVarint(b, x)
		}
	}
	put(int64(s.phase), int64(s.seats), int64(s.active), int64(s.turn), int64(s.lastFill), int64(s.setupStep),
		int64(b2i(s.cardPlayed)), int64(s.offersMade), int64(s.deckN), int64(s.reserve), int64(s.countdown),
		int64(s.lost), int64(s.elevator), int64(s.windowBy), int64(s.windowAt), int64(b2i(s.pendBlack)),
		int64(s.cur), int64(s.mirrorLeft), int64(s.shadeDone), int64(s.reason))
	b = append(b, s.detail...)
	for _, o := range s.joints {
		put(int64(o))
	}
	for x := range s.site {
		put(int64(s.site[x]), int64(b2i(s.arco[x])))
	}
	for p := range s.pl {
		pl := &s.pl[p]
		for _, c := range pl.chips {
			put(int64(c))
		}
		put(int64(pl.rings), int64(pl.habitats), int64(pl.arcologies), int64(pl.shuttle))
		for _, h := range pl.hand {
			put(int64(h))
		}
		for _, m := range pl.menu {
			put(int64(m))
		}
		put(int64(s.abandon[p]), int64(s.discard[p]))
	}
	for _, h := range s.dieHolder {
		put(int64(h))
	}
	for _, c := range s.deck {
		put(int64(c))
	}
	r := s.lastRoll
	put(int64(r.seat), int64(r.permanent), int64(r.die), int64(r.swappable), int64(b2i(r.valid)))
	put(int64(s.offer.to))
	for c := 0; c < NumColors; c++ {
		put(int64(s.offer.give[c]), int64(s.offer.take[c]))
	}
	put(int64(s.pending.Kind))
	for _, a := range s.pending.Arg {
		put(int64(a))
	}
	put(int64(s.events.n))
	for i := 0; i < s.events.n; i++ {
		e := s.events.at(i)
		put(int64(e.kind), int64(e.seat), int64(e.other), int64(e.a), int64(e.b), int64(e.c))
		for c := 0; c < NumColors; c++ {
			put(int64(e.chips[c]), int64(e.chips2[c]))
		}
		played := e.played()
		put(int64(played.Kind))
		for _, a := range played.Arg {
			put(int64(a))
		}
	}
	return b, nil
}

// DefaultAction is the timeout answer where the game has a natural one: decline an offer,
// pass a Luddite window, remove no ring, end the turn.
func (s *state) DefaultAction(seat engine.Seat) (engine.Action, bool) {
	if s.phase == PhaseOver || int8(seat) != s.decider() {
		return engine.Action{}, false
	}
	switch s.phase {
	case PhaseWindow:
		return React(false), true
	case PhaseOffer:
		return Reply(false), true
	case PhaseShade:
		return Remove(-1), true
	case PhaseMain:
		return End(), true
	}
	return engine.Action{}, false
}

var _ engine.Defaulter = (*state)(nil)
var _ engine.Omniscient = (*state)(nil)
