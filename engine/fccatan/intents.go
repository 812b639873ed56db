package fccatan

import (
	"math"
	"slices"

	"github.com/orrery/orrery/engine"
)

// --- A tick's list of intents.

// packOrders is team t's current intents as an action: its standing intents, or in a
// wall-clock tick the intents it already sent for this tick.
func (s *State) packOrders(t int) engine.Action {
	var a engine.Action
	s.putOrders(t, &a)
	return a
}

// putOrders writes packOrders(t) to a. A list writes it in place: an action built of 16-bit
// stores and copied out at once by wide loads waits for the stores (no store forwarding).
func (s *State) putOrders(t int, a *engine.Action) {
	tm := &s.teams[t]
	if s.wallTick() && tm.done {
		*a = tm.pending
		return
	}
	*a = engine.Action{Kind: kindIntents}
	for i := range tm.av[:tm.size] {
		o, slot := tm.av[i].order, (*[3]int16)(a.Arg[3*i:])
		slot[0], slot[1], slot[2] = o.X, o.Y, o.Flags
	}
}

// order is the current intent of team t's avatar i: its standing intent, or in a wall-clock
// tick the one its team already sent for this tick.
func (s *State) order(t, i int) Intent {
	if tm := &s.teams[t]; s.wallTick() && tm.done {
		return intentOf(&tm.pending, i)
	}
	return s.teams[t].av[i].order
}

func to(p Vec) Intent { return To(int16(p.X), int16(p.Y)) }

// packed is an intent in one word, x, y and the flags from the low bits: a list compares and
// writes each player's options as words.
type packed uint64

func packIntent(in Intent) packed {
	return packed(uint16(in.X)) | packed(uint16(in.Y))<<16 | packed(uint16(in.Flags))<<32
}

func (o packed) intent() Intent { return Intent{X: int16(o), Y: int16(o >> 16), Flags: int16(o >> 32)} }

func packFlags(f int16) packed { return packed(uint16(f)) << 32 }

// maxOptions is the most options a player has: stay, a pile of each resource (or home and a
// throw), a hoop to place in and an opponent to chase.
const maxOptions = 1 + numRes + 2

// avatarOptions writes the useful orders for one free player to o and returns how many: stand,
// run to the nearest pile of each resource and pick up, run home to a city with a ball (and in
// the published ruleset, throw it to the teammate nearest a city who may catch it), run to a
// free hoop to place a marker, and for a knight chase the nearest carrier (or opponent) to tag
// it. Knights keep tagging whatever they do. Each order is listed once: only two piles on one
// spot, or an opponent standing on the home hoop's centre, could give the same order twice,
// and only those are compared. v is what the team's list reads once, at the first player who
// needs it.
func (s *State) avatarOptions(t, i int, av *avatar, v *listView, o *[maxOptions + 1]packed) int {
	f := s.c.field
	tag := packed(0)
	if av.knight {
		tag = packFlags(flagTag)
	}
	o[0] = tag // stay
	n := 1
	if av.carry == noRes && !av.collected {
		if !v.pilesRead {
			s.readPileSets(&v.sets)
			v.pilesRead = true
		}
		// fetch lists the run to pile p to pick up, unless another pile on its spot gave it.
		fetch := func(p int) {
			if p < 0 {
				return
			}
			in := f.fetches[p&(maxPiles-1)] | tag
			if f.stacked && slices.Contains(o[1:n], in) {
				return
			}
			o[n&maxOptions] = in
			n++
		}
		if cell := s.pileCell(av.pos); cell >= 0 {
			for _, set := range v.sets {
				fetch(s.nearestPileAt(av.pos, cell|set))
			}
		} else {
			for _, p := range s.scanPiles(av.pos) {
				fetch(p)
			}
		}
	}
	if (av.carry != noRes || av.markers > 0) && !v.hoopsRead {
		v.readHoops(s, t)
	}
	home := packed(0) // the run home, where listed
	if av.carry != noRes {
		if h := nearestOf(f.Hoops, av.pos, v.cities); h >= 0 {
			home = f.runs[h&(maxHoops-1)] | tag
			o[n&maxOptions] = home
			n++
			if j := s.catcher(t, i); j >= 0 {
				o[n&maxOptions] = packIntent(home.intent().Throw(j))
				n++
			}
		}
	}
	if av.markers > 0 {
		if h := nearestOf(f.Hoops, av.pos, v.free); h >= 0 {
			o[n&maxOptions] = f.runs[h&(maxHoops-1)] | packFlags(flagPlace) | tag
			n++
		}
	}
	if av.knight {
		if !v.rivals.gathered {
			v.rivals.gather(s, t)
		}
		target := v.rivals.nearest(av.pos)
		if target < 0 {
			target = s.nearestFree(av.pos, t)
		}
		if target >= 0 {
			if in := packIntent(to(s.at(target).pos)) | tag; in != home {
				o[n&maxOptions] = in
				n++
			}
		}
	}
	return n
}

// listView is what a team's list of intents reads once, at the first player who needs each
// part: which piles have a ball (pileSets), the hoops holding the team's cities and the free
// hoops (by id, as bits), and the opponents carrying a ball.
type listView struct {
	sets                 [numRes]int
	cities, free         uint16
	pilesRead, hoopsRead bool
	rivals               carriers
}

func (v *listView) readHoops(s *State, t int) {
	for h := range s.c.field.Hoops {
		if int(s.owner[h]) == t && s.building[h] == city {
			v.cities |= 1 << h
		}
		if s.owner[h] < 0 && s.building[h] == noBuilding {
			v.free |= 1 << h
		}
	}
	v.hoopsRead = true
}

// nearestOf is the hoop of mask m (bit h: hoop h) whose centre is nearest p, the lowest id on
// ties, or -1.
func nearestOf(hoops []Hoop, p Vec, m uint16) int {
	best, bestD := -1, int64(math.MaxInt64)
	for m != 0 {
		h := next(&m)
		if d := dist2(p, hoops[h].Center); d < bestD {
			best, bestD = h, d
		}
	}
	return best
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
// intent to one of its useful orders (avatarOptions), the others keeping theirs. A list is
// drawn up for every team on every tick: it is written in place, and what the players' options
// share is read once (listView).
func (s *State) legalIntents(t int, buf []engine.Action) []engine.Action {
	tm := &s.teams[t]
	sent := s.wallTick() && tm.done // the intents already sent this tick are the current ones
	// buf grows once to the most the list can take.
	n := len(buf)
	out := slices.Grow(buf, 1+int(tm.size)*maxOptions)
	out = out[:cap(out)]
	s.putOrders(t, &out[n])
	keep := &out[n]
	n++
	var (
		v    listView
		opts [maxOptions + 1]packed
	)
	for i := range tm.av[:tm.size] {
		av := &tm.av[i]
		if av.frozen {
			continue
		}
		k := s.avatarOptions(t, i, av, &v, &opts)
		cur := packIntent(av.order)
		if sent {
			cur = packIntent(intentOf(&tm.pending, i))
		}
		// Each option is written, and the list moves past it unless it is the current order:
		// no branch on which option that is.
		for _, o := range opts[:k&maxOptions] {
			out[n] = *keep
			slot := (*[3]int16)(out[n].Arg[3*i:])
			slot[0], slot[1], slot[2] = int16(o), int16(o>>16), int16(o>>32)
			if o != cur {
				n++
			}
		}
	}
	return out[:n]
}
