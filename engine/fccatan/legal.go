package fccatan

import (
	"math/bits"

	"github.com/orrery/orrery/engine"
)

// Legal lists seat's actions in a stable order. Where the choice is open-ended (movement
// targets, trade offers, purchase lists) it lists a bounded, useful set and Apply accepts any
// valid action.
func (s *State) Legal(seat engine.Seat, buf []engine.Action) []engine.Action {
	if !s.owes(seat) {
		return buf
	}
	t := int(seat)
	switch s.phase {
	case PhaseSetup:
		return s.legalSetup(t, buf)
	case PhaseDeploy:
		return s.legalDeploy(t, buf)
	case PhaseTick:
		return s.legalIntents(t, buf)
	case PhaseOffer:
		return s.legalOffers(t, append(buf, PassAction()))
	case PhaseReply:
		return s.legalReplies(t, append(buf, PassAction()))
	case PhaseBuy:
		return s.legalBuys(t, append(buf, PassAction()))
	case PhaseCardChoice:
		return s.legalCardChoice(t, buf)
	case PhaseDiscard:
		return s.legalDiscards(t, buf)
	}
	return buf
}

func (s *State) legalSetup(t int, buf []engine.Action) []engine.Action {
	size := int(s.teams[t].size)
	for h, hp := range s.c.field.Hoops {
		if !hp.Start || s.owner[h] >= 0 {
			continue
		}
		for mask := 0; mask < 1<<size; mask++ {
			if s.c.knights < 0 || bits.OnesCount(uint(mask)) == s.c.knights {
				buf = append(buf, SetupAction(h, uint8(mask)))
			}
		}
	}
	return buf
}

// legalDeploy lists every assignment of players to the team's hoops when there are at most 81,
// else each "all in one hoop" and each rotation of "one per hoop".
func (s *State) legalDeploy(t int, buf []engine.Action) []engine.Action {
	var hb [maxHoops]int8
	hs := s.homeHoops(t, hb[:0])
	size := int(s.teams[t].size)
	total := 1
	for i := 0; i < size && total <= 81; i++ {
		total *= len(hs)
	}
	if total <= 81 {
		for c := 0; c < total; c++ {
			a := engine.Action{Kind: kindDeploy}
			for i, x := 0, c; i < size; i++ {
				a.Arg[i] = int16(hs[x%len(hs)])
				x /= len(hs)
			}
			buf = append(buf, a)
		}
		return buf
	}
	for k := range hs {
		a := engine.Action{Kind: kindDeploy}
		b := engine.Action{Kind: kindDeploy}
		for i := 0; i < size; i++ {
			a.Arg[i] = int16(hs[k])
			b.Arg[i] = int16(hs[(k+i)%len(hs)])
		}
		buf = append(buf, a, b)
	}
	return buf
}

// legalOffers lists one-for-one swaps with each other team: a ball the team has for one the
// other team has.
func (s *State) legalOffers(t int, buf []engine.Action) []engine.Action {
	for u := 0; u < s.c.teams; u++ {
		if u == t {
			continue
		}
		for g := 0; g < numRes; g++ {
			for w := 0; w < numRes; w++ {
				if g != w && s.teams[t].res[g] > 0 && s.teams[u].res[w] > 0 {
					var give, want [numRes]int
					give[g], want[w] = 1, 1
					buf = append(buf, OfferAction(u, give, want))
				}
			}
		}
	}
	return buf
}

// legalReplies lists every non-empty set of the offers made to the team.
func (s *State) legalReplies(t int, buf []engine.Action) []engine.Action {
	var from uint8
	for u := 0; u < s.c.teams; u++ {
		if s.stepOffer(u, t) != nil {
			from |= 1 << u
		}
	}
	for m := uint8(1); m < 1<<s.c.teams; m++ {
		if m&from == m {
			buf = append(buf, ReplyAction(m))
		}
	}
	return buf
}

// singles lists every purchase the team could make alone, in a fixed order.
func (s *State) singles(t int, out []Item) []Item {
	tm := &s.teams[t]
	ok := func(it Item) bool { return s.affords(t, s.cost(it)) }
	if s.deckLeft() > 0 && ok(CardItem()) {
		out = append(out, CardItem())
	}
	for i := 0; i < int(tm.size); i++ {
		if it := SettlementItem(i); ok(it) {
			out = append(out, it)
		}
	}
	for h := range s.c.field.Hoops {
		if int(s.owner[h]) != t || s.building[h] != settlement {
			continue
		}
		for pay := 0; pay < 2; pay++ {
			if it := CityItem(h, pay == 1); (pay == 0 || s.c.citySheepOrOre) && ok(it) {
				out = append(out, it)
			}
		}
	}
	for i := 0; i < int(tm.size); i++ {
		if it := KnightItem(i); !tm.av[i].knight && ok(it) {
			out = append(out, it)
		}
	}
	for i := 0; i < int(tm.size); i++ {
		for j := 0; j < int(tm.size) && tm.av[i].markers > 0; j++ {
			if i != j {
				out = append(out, HandoverItem(i, j))
			}
		}
	}
	return out
}

// legalBuys lists each single purchase, then pairs of purchases of the first option of each
// kind that the team can afford together.
func (s *State) legalBuys(t int, buf []engine.Action) []engine.Action {
	var ib [64]Item
	items := s.singles(t, ib[:0])
	for _, it := range items {
		buf = append(buf, BuyAction(it))
	}
	var firsts [buyCard + 1]int
	for k := range firsts {
		firsts[k] = -1
	}
	for k, it := range items {
		if it.Kind <= buyCard && firsts[it.Kind] < 0 {
			firsts[it.Kind] = k
		}
	}
	for ka := buySettlement; ka <= buyCard; ka++ {
		for kb := ka; kb <= buyCard; kb++ {
			if firsts[ka] < 0 || firsts[kb] < 0 {
				continue
			}
			a := items[firsts[ka]]
			b := items[firsts[kb]]
			if ka == kb && (ka == buyKnight || ka == buyCity) { // a second knight or city needs another target
				found := false
				for _, it := range items[firsts[kb]+1:] {
					if int(it.Kind) == kb && (it.Param&0xff) != (a.Param&0xff) {
						b, found = it, true
						break
					}
				}
				if !found {
					continue
				}
			}
			if act := BuyAction(a, b); s.validBuy(t, act) == nil {
				buf = append(buf, act)
			}
		}
	}
	return buf
}

func (s *State) legalCardChoice(t int, buf []engine.Action) []engine.Action {
	switch s.pendingCard {
	case cardPlenty:
		want := min(3, s.fieldBalls())
		var n [numRes]int
		var rec func(r, left int)
		rec = func(r, left int) {
			if r == numRes-1 {
				if left <= s.resBalls(Resource(r)) {
					n[r] = left
					buf = append(buf, PlentyAction(n))
				}
				return
			}
			for k := min(left, s.resBalls(Resource(r))); k >= 0; k-- {
				n[r] = k
				rec(r+1, left-k)
			}
		}
		rec(0, want)
	case cardMonopoly:
		for r := Resource(0); r < numRes; r++ {
			buf = append(buf, MonopolyAction(r))
		}
	case cardBarbarians:
		for h := range s.c.field.Hoops {
			if s.barbarianTarget(t, h) {
				buf = append(buf, BarbariansAction(h))
			}
		}
	}
	return buf
}

// legalDiscards lists the ways to discard what the Robber asks, up to 64 of them.
func (s *State) legalDiscards(t int, buf []engine.Action) []engine.Action {
	tm := &s.teams[t]
	var n [numRes]int
	listed := 0
	var rec func(r, left int)
	rec = func(r, left int) {
		if listed >= 64 {
			return
		}
		if r == numRes-1 {
			if left <= int(tm.res[r]) {
				n[r] = left
				buf = append(buf, DiscardAction(n))
				listed++
			}
			return
		}
		for k := min(left, int(tm.res[r])); k >= 0; k-- {
			n[r] = k
			rec(r+1, left-k)
		}
	}
	rec(0, int(tm.discard))
	return buf
}

// DefaultAction is seat's natural action when its clock runs out: in a tick its standing
// intents; otherwise no offer, no purchase, the first free start hoop with the first players as
// knights, everyone in the start city, or a plain card choice.
func (s *State) DefaultAction(seat engine.Seat) (engine.Action, bool) {
	if !s.owes(seat) {
		return engine.Action{}, false
	}
	t := int(seat)
	tm := &s.teams[t]
	switch s.phase {
	case PhaseSetup:
		k := s.c.knights
		if k < 0 {
			k = 2
		}
		for h, hp := range s.c.field.Hoops {
			if hp.Start && s.owner[h] < 0 {
				return SetupAction(h, uint8(1<<k-1)), true
			}
		}
	case PhaseDeploy:
		h := int(tm.start)
		a := DeployAction(h, h, h, h)
		for i := int(tm.size); i < maxAvatars; i++ {
			a.Arg[i] = 0
		}
		return a, true
	case PhaseTick:
		return s.packOrders(t), true
	case PhaseOffer, PhaseReply, PhaseBuy:
		return PassAction(), true
	case PhaseCardChoice:
		switch s.pendingCard {
		case cardPlenty:
			var n [numRes]int
			for k := min(3, s.fieldBalls()); k > 0; k-- {
				best := -1
				for r := 0; r < numRes; r++ {
					if left := s.resBalls(Resource(r)) - n[r]; left > 0 && (best < 0 || left > s.resBalls(Resource(best))-n[best]) {
						best = r
					}
				}
				n[best]++
			}
			return PlentyAction(n), true
		case cardMonopoly:
			best, most := 0, int16(-1)
			for r := 0; r < numRes; r++ {
				sum := int16(0)
				for u := 0; u < s.c.teams; u++ {
					if u != t {
						sum += s.teams[u].res[r]
					}
				}
				if sum > most {
					best, most = r, sum
				}
			}
			return MonopolyAction(Resource(best)), true
		case cardBarbarians:
			for h := range s.c.field.Hoops {
				if s.barbarianTarget(t, h) {
					return BarbariansAction(h), true
				}
			}
		}
	case PhaseDiscard:
		var n [numRes]int
		for k := int(tm.discard); k > 0; k-- {
			best := 0
			for r := 1; r < numRes; r++ {
				if int(tm.res[r])-n[r] > int(tm.res[best])-n[best] {
					best = r
				}
			}
			n[best]++
		}
		return DiscardAction(n), true
	}
	return engine.Action{}, false
}
