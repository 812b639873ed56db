package pantropia

import (
	"fmt"

	"github.com/orrery/orrery/engine"
)

func illegal(format string, args ...any) error {
	return fmt.Errorf("%w: %s", engine.ErrIllegalAction, fmt.Sprintf(format, args...))
}

var errNotYours = fmt.Errorf("%w: another seat owes the decision", engine.ErrNotYourTurn)

// Apply validates a in full, then plays it; on error nothing has changed.
func (s *state) Apply(seat engine.Seat, a engine.Action) error {
	if s.phase == PhaseOver {
		return fmt.Errorf("%w: the game has ended", engine.ErrGameOver)
	}
	if seat < 0 || int(seat) >= int(s.seats) || int8(seat) != s.decider() {
		return errNotYours
	}
	p := int8(seat)
	if err := s.validate(p, a); err != nil {
		return err
	}
	s.do(p, a)
	return nil
}

func inRange(v int16, n int) bool { return v >= 0 && int(v) < n }

// phaseKinds says which action kinds each phase takes.
func phaseTakes(ph Phase, kind uint16) bool {
	switch ph {
	case PhaseSetup:
		return kind == KindSettle
	case PhaseWindow:
		return kind == KindReact
	case PhaseBlack:
		return kind == KindTerraform || kind == KindPantropy
	case PhaseMain:
		switch kind {
		case KindEarth, KindOffer, KindRing, KindHabitat, KindArcology, KindShuttle, KindBuy, KindPlay, KindEnd:
			return true
		}
	case PhaseOffer:
		return kind == KindReply
	case PhaseMirror:
		return kind == KindRing
	case PhaseShade:
		return kind == KindRemove
	case PhaseTechno:
		return kind == KindAbandon || kind == KindDiscard
	}
	return false
}

var errMalformed = illegal("malformed action")

// validate checks a for seat p, who owes the decision, without changing anything.
func (s *state) validate(p int8, a engine.Action) error {
	if a.Kind == kindNone || a.Kind >= numKinds {
		return errMalformed
	}
	for i := argsUsed(a); i < len(a.Arg); i++ {
		if a.Arg[i] != 0 {
			return errMalformed
		}
	}
	if !phaseTakes(s.phase, a.Kind) {
		return illegal("a %s action does not answer the %s decision", kindNames[a.Kind], phaseNames[s.phase])
	}
	me := &s.pl[p]
	switch a.Kind {
	case KindSettle:
		if !s.setupSite(int(a.Arg[0]), int(a.Arg[1])) {
			return illegal("no setup habitat at that intersection with rings on that strut")
		}
	case KindReact:
		switch a.Arg[0] {
		case 0:
		case 1:
			if me.hand[Luddite] == 0 {
				return illegal("you hold no Luddite Legislation")
			}
		default:
			return errMalformed
		}
	case KindTerraform:
		d1, d2 := a.Arg[0], a.Arg[1]
		if !inRange(d1, NumDice) || !inRange(d2, NumDice) || d1 >= d2 {
			return illegal("terraforming names two different dice, smaller first")
		}
		if s.dieHolder[d1] < 0 && s.dieHolder[d2] < 0 {
			return illegal("at least one of the two dice must be held by a player")
		}
	case KindPantropy:
		c := s.lastRoll.swappable
		from, to := a.Arg[0], a.Arg[1]
		canSwap := false
		for i := 0; i < s.cfg.slots; i++ {
			canSwap = canSwap || me.menu[i] == c
		}
		other := false
		for i := 0; i < s.cfg.slots; i++ {
			other = other || me.menu[i] != c
		}
		canSwap = canSwap && other
		if from == -1 && to == -1 {
			if canSwap {
				return illegal("a slot of the rolled color can be swapped, so Pantropy must swap")
			}
			break
		}
		if !inRange(from, s.cfg.slots) || !inRange(to, s.cfg.slots) {
			return illegal("no such menu slot")
		}
		if me.menu[from] != c {
			return illegal("slot %s does not hold the rolled color %s", s.cfg.slotName[from], c)
		}
		if me.menu[to] == c {
			return illegal("slot %s holds the rolled color too", s.cfg.slotName[to])
		}
	case KindEarth:
		give, take := a.Arg[0], a.Arg[1]
		if !inRange(give, NumColors) || !inRange(take, NumColors) || give == take {
			return illegal("an Earth trade gives one color for another")
		}
		if r := s.earthRate(p, Color(give)); me.chips[give] < r {
			return illegal("you need %d %s for Earth", r, Color(give))
		}
	case KindOffer:
		return s.validateOffer(p, a)
	case KindReply:
		if a.Arg[0] != 0 && a.Arg[0] != 1 {
			return errMalformed
		}
	case KindRing:
		j := a.Arg[0]
		if !inRange(j, NumJoints) {
			return illegal("no such joint")
		}
		if s.phase == PhaseMain {
			if err := s.affords(p, ItemAtmosphere); err != nil {
				return err
			}
		}
		if me.rings >= supplyRings {
			return illegal("no rings left in your supply")
		}
		if t := s.ringTargets(p); !t.has(j) {
			if r := s.reach(p); r.has(j) {
				return illegal("joint j%d holds another player's ring, and you may replace one only when no empty joint is open to you", j)
			}
			return illegal("joint j%d is not next to your connected atmosphere", j)
		}
	case KindHabitat:
		x := a.Arg[0]
		if !inRange(x, NumIntersections) {
			return illegal("no such intersection")
		}
		if err := s.affords(p, ItemHabitat); err != nil {
			return err
		}
		if me.habitats >= supplyHabitats {
			return illegal("no habitats left in your supply")
		}
		if !s.habitatSite(p, int(x)) {
			return illegal("no habitat may go at i%d", x)
		}
	case KindArcology:
		x := a.Arg[0]
		if !inRange(x, NumIntersections) || s.site[x] != p || s.arco[x] {
			return illegal("an arcology replaces one of your habitats")
		}
		if err := s.affords(p, ItemArcology); err != nil {
			return err
		}
		if me.arcologies >= supplyArcologies {
			return illegal("no arcologies left in your supply")
		}
	case KindShuttle:
		x := a.Arg[0]
		if !inRange(x, NumIntersections) || s.site[x] < 0 {
			return illegal("a shuttle hangs on a habitat or arcology")
		}
		if me.shuttle >= 0 {
			return illegal("your shuttle is already on the sphere")
		}
		if err := s.affords(p, ItemShuttle); err != nil {
			return err
		}
	case KindBuy:
		if s.deckN == 0 {
			return illegal("the deck is empty")
		}
		if err := s.affords(p, ItemCard); err != nil {
			return err
		}
	case KindPlay:
		return s.validatePlay(p, a)
	case KindRemove:
		j := a.Arg[0]
		if j != -1 && (!inRange(j, NumJoints) || s.joints[j] < 0) {
			return illegal("Solar Shade removes a ring from the sphere, or nothing (-1)")
		}
	case KindAbandon:
		x := a.Arg[0]
		if s.abandon[p] == 0 {
			return illegal("you have no sites to abandon")
		}
		if !inRange(x, NumIntersections) || s.site[x] != p || !s.arco[x] {
			return illegal("abandon one of your arcology sites")
		}
	case KindDiscard:
		c, n := a.Arg[0], a.Arg[1]
		if s.abandon[p] > 0 {
			return illegal("abandon your sites first")
		}
		if !inRange(c, NumColors) || n < 1 {
			return illegal("discard one or more chips of a color")
		}
		if int32(n) > me.chips[c] || n > s.discard[p] {
			return illegal("you hold %d %s and owe %d discards", me.chips[c], Color(c), s.discard[p])
		}
	case KindEnd:
	}
	return nil
}

func (s *state) affords(p int8, item int) error {
	if !covers(chipBytes(&s.pl[p].chips), s.prices(p)[item]) {
		return illegal("you cannot pay for %s", itemNames[item])
	}
	return nil
}

func (s *state) validateOffer(p int8, a engine.Action) error {
	if a.Arg[13] != offerCheck(a) {
		return errMalformed
	}
	if int(s.offersMade) >= s.cfg.offersPerTurn {
		return illegal("no offers left this turn")
	}
	to, give, take := OfferParts(a)
	if to < 0 || to >= int(s.seats) || to == int(p) {
		return illegal("an offer names another player")
	}
	var gave, took bool
	for c := 0; c < NumColors; c++ {
		if give[c] < 0 || take[c] < 0 {
			return illegal("chip counts are not negative")
		}
		if give[c] > 0 && take[c] > 0 {
			return illegal("an offer does not give and take one color")
		}
		if int32(give[c]) > s.pl[p].chips[c] {
			return illegal("you hold %d %s", s.pl[p].chips[c], Color(c))
		}
		if int32(take[c]) > s.pl[to].chips[c] {
			return illegal("p%d holds %d %s", to, s.pl[to].chips[c], Color(c))
		}
		gave = gave || give[c] > 0
		took = took || take[c] > 0
	}
	if !gave || !took {
		return illegal("an offer gives and takes at least one chip")
	}
	return nil
}

func (s *state) validatePlay(p int8, a engine.Action) error {
	if s.cardPlayed {
		return illegal("you have played a card this turn")
	}
	k := Card(a.Arg[0])
	if k < OrbitalMirror || k >= numCards {
		return errMalformed
	}
	if k == Luddite {
		return illegal("Luddite Legislation is played only as a reaction")
	}
	if k == Technocalypse || s.pl[p].hand[k] == 0 {
		return illegal("you hold no %s", cardTitles[k])
	}
	switch k {
	case SpaceElevator:
		if !s.canPay(p, [NumColors]int32{1, 1, 1, 1, 1, 1}) {
			return illegal("a Space Elevator costs one chip of each color")
		}
	case ShuttleCard:
		q, x := a.Arg[1], a.Arg[2]
		if !inRange(q, int(s.seats)) || !s.shuttleMovable(p, int8(q)) {
			return illegal("the Shuttle card moves your shuttle, or another's off your structure")
		}
		if !inRange(x, NumIntersections) || s.site[x] < 0 || int8(x) == s.pl[q].shuttle {
			return illegal("move the shuttle to another structure")
		}
	case Aquifer:
		if !inRange(a.Arg[1], NumColors) {
			return illegal("name a color")
		}
	case GuidedComet:
		slot, c := a.Arg[1], a.Arg[2]
		if !inRange(slot, s.cfg.slots) || !inRange(c, NumColors) || s.pl[p].menu[slot] == Color(c) {
			return illegal("recolor a menu slot to another color")
		}
	}
	return nil
}

var kindNames = [numKinds]string{"none", "settle", "react", "terraform", "pantropy", "earth", "offer", "reply", "ring", "habitat", "arcology", "shuttle", "buy", "play", "remove", "abandon", "discard", "end"}

// do plays a validated action.
func (s *state) do(p int8, a engine.Action) {
	me := &s.pl[p]
	switch a.Kind {
	case KindSettle:
		x, st := a.Arg[0], a.Arg[1]
		s.site[x] = p
		me.habitats++
		e := event{kind: evSettle, seat: p, a: x, b: st}
		for k := int16(0); k < 3; k++ {
			if s.joints[3*st+k] < 0 { // a relaxed setup rings only the strut's empty joints
				s.placeRing(p, int(3*st+k))
				e.c++
			}
		}
		if s.setupStep >= s.seats { // the second habitat: one chip of each of its colors
			cs := Geo.Intersections[x].Colors
			me.chips[cs[0]]++
			me.chips[cs[1]]++
			e.chips[cs[0]]++
			e.chips[cs[1]]++
		}
		s.log(e)
		s.setupStep++
		s.startPlayAfterSetup()
	case KindReact:
		if a.Arg[0] == 0 {
			s.log(event{kind: evLudditePass, seat: p})
			if q := s.nextAsked(s.windowAt); q >= 0 {
				s.windowAt = q
			} else {
				s.closeWindow()
			}
			return
		}
		s.playLuddite(p)
	case KindTerraform:
		s.produce(0, s.lastRoll.swappable, true)
		d1, d2 := a.Arg[0], a.Arg[1]
		s.dieHolder[d1], s.dieHolder[d2] = s.dieHolder[d2], s.dieHolder[d1]
		s.log(event{kind: evTerraform, seat: p, a: d1, b: d2})
		s.phase = PhaseMain
	case KindPantropy:
		from, to := a.Arg[0], a.Arg[1]
		if from >= 0 {
			me.menu[from], me.menu[to] = me.menu[to], me.menu[from]
		}
		s.log(event{kind: evPantropy, seat: p, a: from, b: to})
		s.phase = PhaseMain
	case KindEarth:
		give, take := Color(a.Arg[0]), Color(a.Arg[1])
		r := s.earthRate(p, give)
		me.chips[give] -= r
		me.chips[take]++
		e := event{kind: evEarth, seat: p}
		e.chips[give] = int16(r)
		e.chips2[take] = 1
		s.log(e)
	case KindOffer:
		to, give, take := OfferParts(a)
		s.offer = offer{to: int8(to), give: give, take: take}
		s.offersMade++
		s.phase = PhaseOffer
		s.log(event{kind: evOffer, seat: p, other: int8(to), chips: give, chips2: take})
	case KindReply:
		o := s.offer
		kind := evDecline
		if a.Arg[0] == 1 {
			kind = evAccept
			for c := 0; c < NumColors; c++ {
				d := int32(o.take[c]) - int32(o.give[c])
				s.pl[s.active].chips[c] += d
				s.pl[o.to].chips[c] -= d
			}
		}
		s.log(event{kind: kind, seat: p, other: s.active, chips: o.give, chips2: o.take})
		s.offer = offer{}
		s.phase = PhaseMain
	case KindRing:
		if s.phase == PhaseMain {
			s.pay(p, s.cost(p, ItemAtmosphere))
		}
		old := s.placeRing(p, int(a.Arg[0]))
		s.log(event{kind: evRing, seat: p, other: old, a: a.Arg[0], b: b2i16(s.phase == PhaseMirror)})
		if s.checkFull() {
			return
		}
		if s.phase == PhaseMirror {
			s.mirrorLeft--
			s.advanceMirror()
		}
	case KindHabitat:
		s.pay(p, s.cost(p, ItemHabitat))
		s.site[a.Arg[0]] = p
		me.habitats++
		s.log(event{kind: evHabitat, seat: p, a: a.Arg[0]})
	case KindArcology:
		s.pay(p, s.cost(p, ItemArcology))
		s.arco[a.Arg[0]] = true
		me.habitats--
		me.arcologies++
		s.log(event{kind: evArcology, seat: p, a: a.Arg[0]})
	case KindShuttle:
		s.pay(p, s.cost(p, ItemShuttle))
		me.shuttle = int8(a.Arg[0])
		s.log(event{kind: evShuttle, seat: p, a: a.Arg[0]})
	case KindBuy:
		s.pay(p, s.cost(p, ItemCard))
		s.log(event{kind: evBuy, seat: p})
		s.draw(p)
		s.startTechno()
	case KindPlay:
		me.hand[a.Arg[0]]--
		s.cardPlayed = true
		s.log(event{kind: evPlay, seat: p, act: a})
		s.openWindow(p, false, a)
	case KindRemove:
		if j := a.Arg[0]; j >= 0 {
			owner := s.joints[j]
			s.setJoint(int(j), -1)
			s.pl[owner].rings--
			s.log(event{kind: evRemove, seat: p, other: owner, a: j})
		} else {
			s.log(event{kind: evShadeSkip, seat: p})
		}
		s.shadeDone++
		s.cur = s.next(s.cur)
		if s.shadeDone == s.seats {
			s.phase = PhaseMain
		}
	case KindAbandon:
		x := a.Arg[0]
		me.arcologies--
		s.log(event{kind: evAbandon, seat: p, a: x})
		s.removeStructure(int(x))
		s.abandon[p]--
		if s.abandon[p] == 0 {
			s.demoteAll(p)
		}
		s.advanceTechno()
	case KindDiscard:
		c, n := a.Arg[0], a.Arg[1]
		me.chips[c] -= int32(n)
		s.discard[p] -= n
		e := event{kind: evDiscard, seat: p}
		e.chips[c] = n
		s.log(e)
		s.advanceTechno()
	case KindEnd:
		s.endTurn()
	}
}

func b2i16(b bool) int16 { return int16(b2i(b)) }

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
		s.log(event{kind: evCancelled, seat: s.windowBy, act: s.pending})
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
