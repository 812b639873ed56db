package fccatan

import "github.com/orrery/orrery/engine"

// --- The market: trade steps (offers, then replies), then purchases.

func (s *State) openMarket() {
	s.boughtAny = false
	for t := 0; t < s.c.teams; t++ {
		s.teams[t].nbought = 0
		s.teams[t].decl = engine.Action{}
	}
	s.tradeStep = 1
	s.phase = PhaseOffer
	if s.c.tradeSteps == 0 {
		s.phase = PhaseBuy
	}
	s.resetStep()
}

func (s *State) validOffer(t int, a engine.Action) error {
	if a.Kind != kindOffer || !argsZeroFrom(a, 9) {
		return illegal("the market asks for a trade offer or a pass")
	}
	to := int(a.Arg[0])
	if to < 0 || to >= s.c.teams || to == t {
		return illegal("no other team %d to trade with", to)
	}
	gives, wants := 0, 0
	for r := 0; r < numRes; r++ {
		g, w := int(a.Arg[1+r]), int(a.Arg[5+r])
		if g < 0 || w < 0 || g > s.c.field.BallsPerResource || w > s.c.field.BallsPerResource {
			return illegal("an offer counts 0..%d balls of each resource", s.c.field.BallsPerResource)
		}
		if g > 0 && w > 0 {
			return illegal("an offer cannot both give and want %s", Resource(r))
		}
		if g > int(s.teams[t].res[r]) {
			return illegal("team %d cannot give %d %s: it has %d", t, g, Resource(r), s.teams[t].res[r])
		}
		gives, wants = gives+g, wants+w
	}
	if gives == 0 || wants == 0 {
		return illegal("an offer gives something and wants something")
	}
	return nil
}

func (s *State) resolveOffers() {
	s.stepOffers = int32(len(s.offers))
	for t := 0; t < s.c.teams; t++ {
		a := s.teams[t].pending
		if a.Kind != kindOffer {
			continue
		}
		o := offer{step: int16(s.tradeStep), from: int8(t), to: int8(a.Arg[0])}
		for r := 0; r < numRes; r++ {
			o.give[r], o.want[r] = int8(a.Arg[1+r]), int8(a.Arg[5+r])
		}
		s.offers = append(s.offers, o)
	}
	s.log(event{kind: evOffers, x: int32(s.tradeStep), y: s.stepOffers, n: [numRes]int8{int8(len(s.offers)) - int8(s.stepOffers)}})
	s.phase = PhaseReply
	s.resetStep()
}

// stepOffer is the offer team from made to team to in this trade step, or nil.
func (s *State) stepOffer(from, to int) *offer {
	if s.phase != PhaseReply {
		return nil
	}
	for i := int(s.stepOffers); i < len(s.offers); i++ {
		if o := &s.offers[i]; int(o.from) == from && int(o.to) == to {
			return o
		}
	}
	return nil
}

func (s *State) validReply(t int, a engine.Action) error {
	if a.Kind != kindReply || !argsZeroFrom(a, 1) || a.Arg[0] <= 0 || a.Arg[0] >= 1<<s.c.teams {
		return illegal("answer with the seats whose offers you accept, or pass")
	}
	for from := 0; from < s.c.teams; from++ {
		if a.Arg[0]&(1<<from) != 0 && s.stepOffer(from, t) == nil {
			return illegal("team %d made team %d no offer", from, t)
		}
	}
	return nil
}

// resolveReplies settles the step's offers in the offerers' seat order: an accepted trade
// happens if both teams can still pay.
func (s *State) resolveReplies() {
	for i := int(s.stepOffers); i < len(s.offers); i++ {
		o := &s.offers[i]
		reply := s.teams[o.to].pending
		if reply.Kind != kindReply || reply.Arg[0]&(1<<o.from) == 0 {
			o.status = offerDeclined
			continue
		}
		from, to := &s.teams[o.from], &s.teams[o.to]
		ok := true
		for r := 0; r < numRes; r++ {
			ok = ok && from.res[r] >= int16(o.give[r]) && to.res[r] >= int16(o.want[r])
		}
		if !ok {
			o.status = offerFailed
			continue
		}
		for r := 0; r < numRes; r++ {
			d := int16(o.give[r]) - int16(o.want[r])
			from.res[r] -= d
			to.res[r] += d
		}
		o.status = offerAccepted
	}
	s.log(event{kind: evTrades, x: int32(s.tradeStep), y: s.stepOffers, n: [numRes]int8{int8(len(s.offers)) - int8(s.stepOffers)}})
	s.stepOffers = int32(len(s.offers))
	s.tradeStep++
	s.phase = PhaseOffer
	if int(s.tradeStep) > s.c.tradeSteps {
		s.phase = PhaseBuy
	}
	s.resetStep()
}

// cost is what item costs team t in this ruleset.
func (s *State) cost(it Item) [numRes]int16 {
	var c [numRes]int16
	if it.Kind < buySettlement || it.Kind > buyCard {
		return c
	}
	for r := 0; r < numRes; r++ {
		c[r] = int16(s.c.costs[it.Kind][r])
	}
	if it.Kind == buyCity && s.c.citySheepOrOre {
		if it.Param>>8 == 1 {
			c[Ore]++
		} else {
			c[Sheep]++
		}
	}
	return c
}

func (s *State) deckLeft() int { return deckSize - int(s.deckTop) }

// validBuy checks a declaration as if every item were bought in order from what the team has
// now: each must be possible and the whole list affordable.
func (s *State) validBuy(t int, a engine.Action) error {
	n := int(a.Arg[0])
	if a.Kind != kindBuy || n < 1 || n > maxItems || !argsZeroFrom(a, 1+2*n) {
		return illegal("declare 1..%d purchases, or pass", maxItems)
	}
	tm := &s.teams[t]
	res := tm.res
	var markers [maxAvatars]int8
	var knight [maxAvatars]bool
	for i := range markers {
		markers[i], knight[i] = tm.av[i].markers, tm.av[i].knight
	}
	var upgraded [maxHoops]bool
	cards := 0
	size := int(tm.size)
	for k := 0; k < n; k++ {
		it := itemOf(a, k)
		switch it.Kind {
		case buySettlement:
			if it.Param < 0 || int(it.Param) >= size {
				return illegal("purchase %d: no player %d to carry the settlement", k+1, it.Param)
			}
			markers[it.Param]++
		case buyCity:
			h, pay := int(it.Param&0xff), it.Param>>8
			if it.Param < 0 || pay > 1 || (pay == 1 && !s.c.citySheepOrOre) {
				return illegal("purchase %d: bad city payment", k+1)
			}
			if h >= len(s.c.field.Hoops) || int(s.owner[h]) != t || s.building[h] != settlement || upgraded[h] {
				return illegal("purchase %d: hoop %d holds no settlement of team %d to upgrade", k+1, h, t)
			}
			upgraded[h] = true
		case buyKnight:
			if it.Param < 0 || int(it.Param) >= size || knight[it.Param] {
				return illegal("purchase %d: player %d is no non-knight of team %d", k+1, it.Param, t)
			}
			knight[it.Param] = true
		case buyCard:
			if it.Param != 0 {
				return illegal("purchase %d: a card takes no argument", k+1)
			}
			if cards++; cards > s.deckLeft() {
				return illegal("purchase %d: the deck holds %d cards", k+1, s.deckLeft())
			}
		case buyHandover:
			from, to := int(it.Param)/maxAvatars, int(it.Param)%maxAvatars
			if it.Param < 0 || from >= size || to >= size || from == to || markers[from] == 0 {
				return illegal("purchase %d: player %d holds no marker to hand over", k+1, from)
			}
			markers[from]--
			markers[to]++
		default:
			return illegal("purchase %d: unknown kind %d", k+1, it.Kind)
		}
		c := s.cost(it)
		for r := 0; r < numRes; r++ {
			if res[r] -= c[r]; res[r] < 0 {
				return illegal("team %d cannot afford purchase %d (%s)", t, k+1, purchaseNames[it.Kind])
			}
		}
	}
	return nil
}

func (s *State) resolveBuys() {
	for t := 0; t < s.c.teams; t++ {
		s.teams[t].decl = s.teams[t].pending
	}
	s.cardK, s.cardSeat = 0, 0
	s.continueCards()
}

// cardsDeclared counts the cards team t declared.
func (s *State) cardsDeclared(t int) int {
	d := s.teams[t].decl
	if d.Kind != kindBuy {
		return 0
	}
	n := 0
	for k := 0; k < int(d.Arg[0]); k++ {
		if itemOf(d, k).Kind == buyCard {
			n++
		}
	}
	return n
}

func (s *State) affords(t int, c [numRes]int16) bool {
	for r := 0; r < numRes; r++ {
		if s.teams[t].res[r] < c[r] {
			return false
		}
	}
	return true
}

// pay spends c; the balls go back to the piles.
func (s *State) pay(t int, c [numRes]int16) {
	for r := 0; r < numRes; r++ {
		s.teams[t].res[r] -= c[r]
		for k := int16(0); k < c[r]; k++ {
			s.returnBall(Resource(r))
		}
	}
}

// continueCards resolves the declared development cards, one card per team in turn in seat
// order, each taking effect at once; it stops when a card needs a decision. Then the other
// purchases follow.
func (s *State) continueCards() {
	most := 0
	for t := 0; t < s.c.teams; t++ {
		most = max(most, s.cardsDeclared(t))
	}
	for int(s.cardK) < most {
		t, k := int(s.cardSeat), int(s.cardK)
		if s.cardSeat++; int(s.cardSeat) == s.c.teams {
			s.cardSeat, s.cardK = 0, s.cardK+1
		}
		if s.cardsDeclared(t) <= k {
			continue
		}
		c := s.cost(CardItem())
		if s.deckLeft() == 0 || !s.affords(t, c) {
			s.log(event{kind: evBought, seat: int8(t), x: buyCard, av: 1})
			continue
		}
		s.pay(t, c)
		s.boughtAny = true
		card := s.deck[s.deckTop]
		s.deckTop++
		tm := &s.teams[t]
		tm.cards[tm.ncards] = card
		tm.ncards++
		tm.bought[tm.nbought] = buyCard
		tm.nbought++
		s.log(event{kind: evBought, seat: int8(t), x: buyCard})
		s.log(event{kind: evCard, seat: int8(t), x: int32(card)})
		if s.cardEffect(t, card) {
			return // waiting for a decision
		}
	}
	s.resolvePurchases()
	s.endMarket()
}

// cardEffect applies card for team t, or opens the decision it needs and reports true.
func (s *State) cardEffect(t int, card int8) bool {
	switch card {
	case cardVP:
		s.teams[t].vp++
	case cardPlenty:
		if s.fieldBalls() > 0 {
			return s.askCard(t, card)
		}
		s.log(event{kind: evEffect, seat: int8(t), x: int32(card)})
	case cardMonopoly:
		return s.askCard(t, card)
	case cardBarbarians:
		for h := range s.c.field.Hoops {
			if s.barbarianTarget(t, h) {
				return s.askCard(t, card)
			}
		}
		s.log(event{kind: evEffect, seat: int8(t), x: int32(card), y: -1, seat2: -1})
	case cardRobber:
		any := false
		for u := 0; u < s.c.teams; u++ {
			n := int16(0)
			for _, c := range s.teams[u].res {
				n += c
			}
			s.teams[u].discard = int8((n + 1) / 2)
			any = any || n > 0
		}
		if !any {
			s.log(event{kind: evEffect, seat: int8(t), x: int32(card)})
			return false
		}
		s.phase = PhaseDiscard
		s.pendingCard, s.pendingSeat = card, int8(t)
		s.resetStep()
		for u := 0; u < s.c.teams; u++ {
			s.teams[u].done = s.teams[u].discard == 0
		}
		return true
	}
	return false
}

func (s *State) askCard(t int, card int8) bool {
	s.phase = PhaseCardChoice
	s.pendingCard, s.pendingSeat = card, int8(t)
	return true
}

// fieldBalls counts the balls in the piles, by resource and in all.
func (s *State) fieldBalls() int {
	n := 0
	for p := range s.c.field.Piles {
		n += int(s.piles[p])
	}
	return n
}

func (s *State) resBalls(r Resource) int {
	n := 0
	for p, spot := range s.c.field.Piles {
		if spot.Resource == r {
			n += int(s.piles[p])
		}
	}
	return n
}

// barbarianTarget: an opponent's settlement or city, never a starting city.
func (s *State) barbarianTarget(t, h int) bool {
	o := int(s.owner[h])
	return o >= 0 && o != t && int(s.teams[o].start) != h
}

func (s *State) validCardChoice(t int, a engine.Action) error {
	switch s.pendingCard {
	case cardPlenty:
		if a.Kind != kindPlenty || !argsZeroFrom(a, numRes) {
			return illegal("Year of Plenty: name the balls to take")
		}
		total := 0
		for r := 0; r < numRes; r++ {
			if a.Arg[r] < 0 || int(a.Arg[r]) > s.resBalls(Resource(r)) {
				return illegal("Year of Plenty: %d %s are not on the field", a.Arg[r], Resource(r))
			}
			total += int(a.Arg[r])
		}
		if want := min(3, s.fieldBalls()); total != want {
			return illegal("Year of Plenty takes %d balls, not %d", want, total)
		}
	case cardMonopoly:
		if a.Kind != kindMonopoly || !argsZeroFrom(a, 1) || a.Arg[0] < 0 || a.Arg[0] >= numRes {
			return illegal("Monopoly: name a resource")
		}
	case cardBarbarians:
		h := int(a.Arg[0])
		if a.Kind != kindBarbarians || !argsZeroFrom(a, 1) || h < 0 || h >= len(s.c.field.Hoops) || !s.barbarianTarget(t, h) {
			return illegal("Barbarians: hoop %d holds no opponent's settlement or city other than a starting city", h)
		}
	default:
		return illegal("no card to decide")
	}
	return nil
}

func (s *State) applyCardChoice(t int, a engine.Action) {
	tm := &s.teams[t]
	switch s.pendingCard {
	case cardPlenty:
		var got [numRes]int8
		for r := 0; r < numRes; r++ {
			for k := int16(0); k < a.Arg[r]; k++ {
				s.takeBall(Resource(r))
				tm.res[r]++
				got[r]++
			}
		}
		s.log(event{kind: evEffect, seat: int8(t), x: int32(cardPlenty), n: got})
	case cardMonopoly:
		r := a.Arg[0]
		var got [numRes]int8
		for u := 0; u < s.c.teams; u++ {
			if u != t {
				got[r] += int8(s.teams[u].res[r])
				tm.res[r] += s.teams[u].res[r]
				s.teams[u].res[r] = 0
			}
		}
		s.log(event{kind: evEffect, seat: int8(t), x: int32(cardMonopoly), n: got})
	case cardBarbarians:
		h := int(a.Arg[0])
		victim := s.owner[h]
		if s.building[h] == city {
			s.building[h] = settlement
		} else {
			s.owner[h], s.building[h] = -1, noBuilding
		}
		s.log(event{kind: evEffect, seat: int8(t), x: int32(cardBarbarians), y: int32(h), seat2: victim})
	}
	s.phase = PhaseBuy // resolving the market
	s.continueCards()
}

// takeBall takes a ball of r from its fullest pile, the lowest id breaking ties.
func (s *State) takeBall(r Resource) {
	best := -1
	for p, spot := range s.c.field.Piles {
		if spot.Resource == r && s.piles[p] > 0 && (best < 0 || s.piles[p] > s.piles[best]) {
			best = p
		}
	}
	s.piles[best]--
}

func (s *State) validDiscard(t int, a engine.Action) error {
	if a.Kind != kindDiscard || !argsZeroFrom(a, numRes) {
		return illegal("the Robber: name %d balls to discard", s.teams[t].discard)
	}
	total := 0
	for r := 0; r < numRes; r++ {
		if a.Arg[r] < 0 || a.Arg[r] > s.teams[t].res[r] {
			return illegal("the Robber: team %d has %d %s", t, s.teams[t].res[r], Resource(r))
		}
		total += int(a.Arg[r])
	}
	if total != int(s.teams[t].discard) {
		return illegal("the Robber: team %d discards %d balls, not %d", t, s.teams[t].discard, total)
	}
	return nil
}

func (s *State) resolveDiscards() {
	for t := 0; t < s.c.teams; t++ {
		tm := &s.teams[t]
		if tm.discard == 0 {
			continue
		}
		var c [numRes]int16
		var n [numRes]int8
		if tm.pending.Kind == kindDiscard {
			for r := 0; r < numRes; r++ {
				c[r], n[r] = tm.pending.Arg[r], int8(tm.pending.Arg[r])
			}
		}
		s.pay(t, c)
		tm.discard = 0
		s.log(event{kind: evEffect, seat: int8(t), x: int32(cardRobber), n: n})
	}
	s.phase = PhaseBuy // resolving the market
	s.resetStep()
	s.continueCards()
}

// resolvePurchases rechecks every team's other purchases in the order declared, dropping any
// no longer affordable or possible.
func (s *State) resolvePurchases() {
	for t := 0; t < s.c.teams; t++ {
		tm := &s.teams[t]
		d := tm.decl
		if d.Kind != kindBuy {
			continue
		}
		for k := 0; k < int(d.Arg[0]); k++ {
			it := itemOf(d, k)
			if it.Kind == buyCard {
				continue
			}
			c := s.cost(it)
			ok := s.affords(t, c)
			switch it.Kind {
			case buyCity:
				h := int(it.Param & 0xff)
				ok = ok && int(s.owner[h]) == t && s.building[h] == settlement
			case buyKnight:
				ok = ok && !tm.av[it.Param].knight
			case buyHandover:
				ok = tm.av[int(it.Param)/maxAvatars].markers > 0
			}
			if !ok {
				s.log(event{kind: evBought, seat: int8(t), x: int32(it.Kind), y: int32(it.Param), av: 1})
				continue
			}
			s.pay(t, c)
			switch it.Kind {
			case buySettlement:
				tm.av[it.Param].markers++
			case buyCity:
				s.building[it.Param&0xff] = city
			case buyKnight:
				tm.av[it.Param].knight = true
			case buyHandover:
				tm.av[int(it.Param)/maxAvatars].markers--
				tm.av[int(it.Param)%maxAvatars].markers++
			}
			if it.Kind != buyHandover {
				tm.vp++ // a settlement, a city or a knight is 1 VP
				s.boughtAny = true
			}
			tm.bought[tm.nbought] = it.Kind
			tm.nbought++
			s.log(event{kind: evBought, seat: int8(t), x: int32(it.Kind), y: int32(it.Param)})
		}
	}
}

// endMarket checks the win (after each market), then the safety caps, then starts a round.
func (s *State) endMarket() {
	if s.boughtAny {
		s.idle = 0
	} else {
		s.idle++
	}
	best := int16(0)
	for t := 0; t < s.c.teams; t++ {
		best = max(best, s.teams[t].vp)
	}
	switch {
	case int(best) >= s.c.winVP:
		s.finish(engine.EndNormal)
	case int(s.round) >= s.c.roundCap || int(s.idle) >= s.c.idleMarkets:
		s.finish(engine.EndCap)
	default:
		s.startRound()
	}
}

func (s *State) finish(reason engine.EndReason) {
	s.phase = PhaseOver
	s.reason = reason
	s.resetStep()
	s.log(event{kind: evEnd, x: int32(reason)})
}
