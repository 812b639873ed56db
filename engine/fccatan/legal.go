package fccatan

import (
	"math/bits"
	"slices"

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

// packOrders is team t's current intents as an action: its standing intents, or in a
// wall-clock tick the intents it already sent for this tick.
func (s *State) packOrders(t int) engine.Action {
	if tm := &s.teams[t]; s.wallTick() && tm.done {
		return tm.pending
	}
	a := engine.Action{Kind: kindIntents}
	tm := &s.teams[t]
	for i := range tm.av[:tm.size] {
		o, slot := tm.av[i].order, (*[3]int16)(a.Arg[3*i:])
		slot[0], slot[1], slot[2] = o.X, o.Y, o.Flags
	}
	return a
}

// order is the current intent of team t's avatar i: its standing intent, or in a wall-clock
// tick the one its team already sent for this tick.
func (s *State) order(t, i int) Intent {
	if tm := &s.teams[t]; s.wallTick() && tm.done {
		return intentOf(tm.pending, i)
	}
	return s.teams[t].av[i].order
}

func to(p Vec) Intent { return To(int16(p.X), int16(p.Y)) }

// avatarOptions lists the useful orders for one free player: stand, run to the nearest pile of
// each resource and pick up, run home to a city with a ball (and in the published ruleset,
// throw it to the teammate nearest a city who may catch it), run to a free hoop to place a
// marker, and for a knight chase the nearest carrier (or opponent) to tag it. Knights keep
// tagging whatever they do. Each order is listed once: only two piles on one spot, or an
// opponent standing on the home hoop's centre, could give the same order twice, and only
// those are compared. sets and rivals are what the team's list reads once, at the first player
// who needs them: which piles have balls, and the opponents carrying one.
func (s *State) avatarOptions(t, i int, av *avatar, sets *[numRes]int, rivals *carriers, o *orders) {
	tag := int16(0)
	if av.knight {
		tag = flagTag
	}
	o.in[0] = Intent{Flags: tag} // stay
	n := 1
	if av.carry == noRes && !av.collected {
		f := s.c.field
		if sets[0] < 0 {
			*sets = s.pileSets()
		}
		for _, p := range s.nearestPiles(av.pos, sets) {
			if p < 0 {
				continue
			}
			in := to(f.Piles[p].Pos).PickUp()
			in.Flags |= tag
			if f.stacked && slices.Contains(o.in[1:n], in) {
				continue
			}
			o.in[n] = in
			n++
		}
	}
	home := -1 // where the run home is listed
	if av.carry != noRes {
		if h := s.nearestHoop(av.pos, t, city); h >= 0 {
			in := to(s.c.field.Hoops[h].Center)
			in.Flags |= tag
			o.in[n], home = in, n
			n++
			if j := s.catcher(t, i); j >= 0 {
				o.in[n] = in.Throw(j)
				n++
			}
		}
	}
	if av.markers > 0 {
		if h := s.nearestHoop(av.pos, -1, noBuilding); h >= 0 {
			in := to(s.c.field.Hoops[h].Center).Place()
			in.Flags |= tag
			o.in[n] = in
			n++
		}
	}
	if av.knight {
		if !rivals.gathered {
			rivals.gather(s, t)
		}
		target := rivals.nearest(av.pos)
		if target < 0 {
			target = s.nearestOpponent(av.pos, t, false)
		}
		if target >= 0 {
			in := to(s.at(target).pos)
			in.Flags |= tag
			if home < 0 || o.in[home] != in {
				o.in[n] = in
				n++
			}
		}
	}
	o.n = n
}

// orders is a player's distinct options, kept in an array rather than a slice grown by a
// closure: a list is drawn up for every free player on every tick.
type orders struct {
	in [8]Intent // at most stay, a pile of each resource, a hoop and an opponent
	n  int
}

// catcher is the teammate of team t's carrier i best placed to catch its ball (published
// ruleset): free, empty-handed, not yet collected this round, in throw range, and nearest one
// of the team's cities; -1 if none is nearer a city than the carrier.
func (s *State) catcher(t, i int) int {
	if !s.c.throwing {
		return -1
	}
	tm := &s.teams[t]
	cityDist := func(p Vec) int64 {
		best := int64(-1)
		for h, hp := range s.c.field.Hoops {
			if d := dist2(p, hp.Center); int(s.owner[h]) == t && s.building[h] == city && (best < 0 || d < best) {
				best = d
			}
		}
		return best
	}
	best, bestD := -1, cityDist(tm.av[i].pos)
	for j := 0; j < int(tm.size); j++ {
		c := &tm.av[j]
		if j == i || c.frozen || c.carry != noRes || c.collected || !within(c.pos, tm.av[i].pos, s.c.throwRange) {
			continue
		}
		if d := cityDist(c.pos); d < bestD {
			best, bestD = j, d
		}
	}
	return best
}

// legalIntents lists "keep every standing intent" first, then every change of one free player's
// intent to one of its useful orders, the others keeping theirs: at most 1 + 4*8 team plans.
func (s *State) legalIntents(t int, buf []engine.Action) []engine.Action {
	keep := s.packOrders(t)
	var opts orders
	tm := &s.teams[t]
	// The list is written in place: buf grows once to the most it can take.
	n := len(buf)
	out := slices.Grow(buf, 1+int(tm.size)*len(opts.in))
	out = out[:cap(out)]
	out[n] = keep
	n++
	sets := [numRes]int{-1} // the piles with a ball, read at the first player who fetches
	var rivals carriers     // the opposing carriers, gathered at the first free knight
	for i := range tm.av[:tm.size] {
		if tm.av[i].frozen {
			continue
		}
		cur := s.order(t, i)
		s.avatarOptions(t, i, &tm.av[i], &sets, &rivals, &opts)
		for _, in := range opts.in[:opts.n] {
			if in == cur {
				continue
			}
			out[n] = keep
			slot := (*[3]int16)(out[n].Arg[3*i:])
			slot[0], slot[1], slot[2] = in.X, in.Y, in.Flags
			n++
		}
	}
	return out[:n]
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
