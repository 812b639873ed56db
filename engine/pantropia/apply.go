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

// argsZeroFrom reports whether a's arguments from n on are all zero. Most kinds use three
// at most, so the twelve after those are or-ed together, written out, before a loop looks
// at the rest.
func argsZeroFrom(a *engine.Action, n int) bool {
	_ = [1]struct{}{}[len(a.Arg)-15] // written out for fifteen arguments
	g := &a.Arg
	if n <= 3 {
		rest := g[3] | g[4] | g[5] | g[6] | g[7] | g[8] | g[9] | g[10] | g[11] | g[12] | g[13] | g[14]
		for i := n; i < 3; i++ {
			rest |= g[i]
		}
		return rest == 0
	}
	for _, v := range g[min(n, len(g)):] {
		if v != 0 {
			return false
		}
	}
	return true
}

// validate checks a for seat p, who owes the decision, without changing anything.
func (s *state) validate(p int8, a engine.Action) error {
	if a.Kind == kindNone || a.Kind >= numKinds {
		return errMalformed
	}
	if !argsZeroFrom(&a, argsUsed(a)) {
		return errMalformed
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
	to := int(a.Arg[0])
	if to < 0 || to >= int(s.seats) || to == int(p) {
		return illegal("an offer names another player")
	}
	if offerFits(&a, &s.pl[p].chips, &s.pl[to].chips) {
		return nil
	}
	// Which check fails, for its message.
	_, give, take := OfferParts(a)
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

// offerFits reports whether offer a passes every check of validateOffer's loop, in one pass
// without a branch: no count is negative, no color is both given and taken, the giver
// (mine) and the taker (theirs) hold what is asked of them, and each side gives a chip. (A
// holding below zero fails the loop too, and keeps the subtractions from overflowing.)
func offerFits(a *engine.Action, mine, theirs *[NumColors]int32) bool {
	var sign, both, gave, took int32 // sign: below zero when a count or what is left is
	for c := 0; c < NumColors; c++ {
		give, take := int32(a.Arg[1+c]), int32(a.Arg[1+NumColors+c])
		sign |= give | take | mine[c] | theirs[c] | (mine[c] - give) | (theirs[c] - take)
		both |= min(give, take) // above zero when both are, once none is negative
		gave |= give
		took |= take
	}
	return sign >= 0 && both <= 0 && gave > 0 && took > 0
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
