package pantropia

import (
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
)

// Greedy is a policy for search bots that chooses as the built-in greedy bot (bots/pantropia)
// does, read from a state rather than a decision, so a search can model how the greedy
// players it meets answer its moves: the same scores for every kind of action, the same
// leader, the same pull toward contested joints and settleable sites. It differs in one way:
// it never offers a trade (a listed offer or one of its own), since what an offer brings
// turns on another seat's answer; it plays its best other action instead. It answers offers
// as greedy does. A Greedy keeps its buffers: it does not allocate.
type Greedy struct {
	s       *state
	me      int8
	late    bool // past two thirds of the turn cap: habitats and their colors count little
	leader  int8 // the opponent with the most rings, first in seat order
	rolled  [NumColors]float64
	rate    [NumColors]float64
	atmCost [NumColors]int32
	habCost [NumColors]int32
	chips   [NumColors]int32
	// toEmpty is each joint's distance to the nearest empty joint, measured only when a ring
	// on another seat's joint is scored (a blocked seat's replacement).
	toEmpty [NumJoints]int16
	gaps    bool
}

// NewGreedy returns a greedy policy.
func NewGreedy() *Greedy { return &Greedy{} }

// Act is the action greedy would choose for seat among legal in st, ties drawn from r.
func (g *Greedy) Act(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action {
	s, ok := st.(*state)
	if !ok {
		return legal[r.IntN(len(legal))]
	}
	g.read(s, int8(seat))
	best, bestScore, ties := 0, -1e9, 0
	for i, a := range legal {
		if a.Kind == KindOffer {
			continue
		}
		// Scores equal but for rounding (the same terms summed in another order) are ties,
		// as greedy's own tie-breaking noise makes them.
		switch v := g.score(a); {
		case v > bestScore+1e-9:
			best, bestScore, ties = i, v, 1
		case v >= bestScore-1e-9:
			if ties++; r.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return legal[best]
}

// read is greedy's view of s for seat p.
func (g *Greedy) read(s *state, p int8) {
	g.s, g.me, g.gaps = s, p, false
	g.late = s.turn >= int32(s.cfg.turnCap)*2/3
	g.chips = s.pl[p].chips
	g.leader = -1
	most := int16(-1)
	for q := int8(0); q < s.seats; q++ {
		if q != p && s.pl[q].rings > most {
			most, g.leader = s.pl[q].rings, q
		}
	}
	// Every seat rolls in turn: the d8 gives each color 1/8, and each held die its faces.
	for c := range g.rolled {
		g.rolled[c] = 1.0 / 8
	}
	for d, h := range s.dieHolder {
		if h < 0 {
			continue
		}
		for c := range g.rolled {
			g.rolled[c] += float64(s.cfg.dice[d][c]) / float64(dieSides[d]) / float64(s.seats)
		}
	}
	g.rate = [NumColors]float64{}
	for x, o := range s.site {
		if o != p {
			continue
		}
		mult := 1.0
		if s.arco[x] {
			mult = 2
		}
		cs := Geo.Intersections[x].Colors
		g.rate[cs[0]] += mult * g.rolled[cs[1]]
		g.rate[cs[1]] += mult * g.rolled[cs[0]]
	}
	g.atmCost = s.cost(p, ItemAtmosphere)
	g.habCost = s.cost(p, ItemHabitat)
}

// measureGaps fills toEmpty by a breadth-first search from every empty joint.
func (g *Greedy) measureGaps() {
	var queue [NumJoints]int16
	n := 0
	for j, owner := range g.s.joints {
		g.toEmpty[j] = -1
		if owner < 0 {
			g.toEmpty[j] = 0
			queue[n] = int16(j)
			n++
		}
	}
	for i := 0; i < n; i++ {
		j := queue[i]
		for _, list := range [2][]int16{Geo.Joints[j].Along, Geo.Joints[j].Through} {
			for _, k := range list {
				if g.toEmpty[k] < 0 {
					g.toEmpty[k] = g.toEmpty[j] + 1
					queue[n] = k
					n++
				}
			}
		}
	}
	g.gaps = true
}

// worth is how much a chip of color c is worth to the seat now: atmosphere colors most.
func (g *Greedy) worth(c int) float64 {
	w := 1.0
	if g.atmCost[c] > 0 {
		w += 1.5 * float64(g.atmCost[c])
	}
	if g.habCost[c] > 0 && !g.late {
		w += 0.5
	}
	return w
}

// siteValue is the expected worth per turn of a habitat at intersection x.
func (g *Greedy) siteValue(x int) float64 {
	cs := Geo.Intersections[x].Colors
	return g.rolled[cs[1]]*g.worth(int(cs[0])) + g.rolled[cs[0]]*g.worth(int(cs[1]))
}

// habitable reports whether the seat could one day settle x: empty, and no structure next
// to it except its own arcologies.
func (g *Greedy) habitable(x int) bool {
	s := g.s
	if s.site[x] >= 0 {
		return false
	}
	for _, y := range Geo.Intersections[x].Neighbors {
		if o := s.site[y]; o >= 0 && !(o == g.me && s.arco[y]) {
			return false
		}
	}
	return true
}

// ringScore rates placing the seat's ring on joint j, as greedy does.
func (g *Greedy) ringScore(j int) float64 {
	joints := &g.s.joints
	score := 1.0
	if owner := joints[j]; owner >= 0 && owner != g.me {
		score += 0.8
		if owner == g.leader {
			score += 0.4
		}
		if !g.gaps {
			g.measureGaps()
		}
		if d := g.toEmpty[j]; d > 0 {
			score += 2 / float64(d)
		}
	}
	jt := &Geo.Joints[j]
	near := func(n int16) {
		switch o := joints[n]; {
		case o < 0:
			score += 0.12
		case o != g.me:
			score += 0.2
		}
	}
	for _, n := range jt.Along {
		near(n)
	}
	if jt.At >= 0 {
		for _, n := range jt.Through {
			near(n)
		}
		if !g.late && g.habitable(int(jt.At)) {
			score += 0.3 + g.siteValue(int(jt.At))
		}
	}
	return score
}

// score rates one action as greedy does; the end of the turn scores 0.
func (g *Greedy) score(a engine.Action) float64 {
	s, p := g.s, g.me
	switch a.Kind {
	case KindSettle:
		x, st := int(a.Arg[0]), int(a.Arg[1])
		far := Geo.Struts[st].A
		if int(far) == x {
			far = Geo.Struts[st].B
		}
		v := 10 * g.siteValue(x)
		if g.habitable(int(far)) {
			v += 0.5
		}
		return v
	case KindReact:
		if a.Arg[0] == 1 {
			return g.luddite()
		}
		return 0
	case KindTerraform:
		return g.terraform(int(a.Arg[0]), int(a.Arg[1]))
	case KindPantropy:
		if a.Arg[0] < 0 {
			return 0.5
		}
		return 1 + g.atmHardness(-1, -1, -1, 0) - g.atmHardness(int(a.Arg[0]), int(a.Arg[1]), -1, 0)
	case KindEarth:
		return g.earth(Color(a.Arg[0]), Color(a.Arg[1]))
	case KindReply:
		o := &s.offer
		gain := 0.0
		for c := 0; c < NumColors; c++ {
			gain += float64(o.give[c])*g.need(c) - float64(o.take[c])*g.keep(c)
		}
		if s.active == g.leader {
			gain -= 0.3
		}
		if a.Arg[0] == 1 {
			return gain
		}
		return 0.01
	case KindRing:
		if s.phase == PhaseMirror {
			return g.ringScore(int(a.Arg[0]))
		}
		return 10 + g.ringScore(int(a.Arg[0]))
	case KindHabitat:
		if g.late {
			return 5
		}
		return 30 + 10*g.siteValue(int(a.Arg[0]))
	case KindArcology:
		return 25 + 10*g.siteValue(int(a.Arg[0]))
	case KindShuttle:
		if g.chips[Red]+g.chips[Blue] > 8 {
			x := Geo.Intersections[a.Arg[0]].Colors
			return 3 + float64(g.chips[x[0]]+g.chips[x[1]])/10
		}
		return -1
	case KindBuy:
		c := s.cost(p, ItemCard)
		for i, n := range c {
			if n > 0 && g.atmCost[i] > 0 && g.chips[i] < n+g.atmCost[i] {
				return -1
			}
			if n > 0 && !g.late && g.habCost[i] > 0 && g.chips[i] < n+1 {
				return 1
			}
		}
		return 6
	case KindPlay:
		return g.play(a)
	case KindRemove:
		j := int(a.Arg[0])
		if j < 0 {
			return 0
		}
		switch s.joints[j] {
		case p:
			return -5
		case g.leader:
			return 2 + g.ringScore(j)/10
		}
		return 1
	case KindAbandon:
		return -g.siteValue(int(a.Arg[0]))
	case KindDiscard:
		return -g.worth(int(a.Arg[0])) + float64(a.Arg[1])*0.01
	}
	return 0
}

// need is how much one more chip of c helps: a missing atmosphere color most.
func (g *Greedy) need(c int) float64 {
	w := g.worth(c)
	if g.atmCost[c] > g.chips[c] {
		w++
	}
	return w
}

// keep is how much one chip of c held is worth keeping; surplus counts for little.
func (g *Greedy) keep(c int) float64 {
	w := g.worth(c)
	if g.atmCost[c] == 0 && g.chips[c] > 2 {
		w *= 0.6
	}
	return w
}

// earth rates trading give to Earth for one take: worth it when it completes a ring.
func (g *Greedy) earth(give, take Color) float64 {
	if g.s.canPay(g.me, g.atmCost) || g.atmCost[take] <= g.chips[take] {
		return -1 // build first, or nothing missing
	}
	left := g.chips[give] - g.s.earthRate(g.me, give)
	if g.atmCost[give] > 0 && left < g.atmCost[give] {
		return -1
	}
	return 2 + float64(left)*0.01
}

// luddite rates cancelling the pending card or black roll.
func (g *Greedy) luddite() float64 {
	s := g.s
	if s.pendBlack {
		if s.windowBy == g.leader {
			return 0.5
		}
		return -1
	}
	switch Card(s.pending.Arg[0]) {
	case OrbitalMirror:
		return 2
	case Aquifer:
		if c := int(s.pending.Arg[1]); g.chips[c] >= 2 {
			return float64(g.chips[c]) * g.worth(c) / 3
		}
	}
	return -1
}

// dieValue is what holding die d is worth to the seat per turn.
func (g *Greedy) dieValue(d int) float64 {
	if d < 0 {
		return 0
	}
	s := g.s
	val := 0.0
	for x, o := range s.site {
		if o != g.me {
			continue
		}
		cs := Geo.Intersections[x].Colors
		f := float64(dieSides[d])
		val += float64(s.cfg.dice[d][cs[1]])/f*g.worth(int(cs[0])) + float64(s.cfg.dice[d][cs[0]])/f*g.worth(int(cs[1]))
	}
	return val
}

// terraform rates exchanging dice a and b: the seat's die should get better, the leader's
// worse.
func (g *Greedy) terraform(a, b int) float64 {
	holder := &g.s.dieHolder
	mine := int(g.s.dieOf(g.me))
	after := mine
	switch mine {
	case a:
		after = b
	case b:
		after = a
	}
	v := 1 + g.dieValue(after) - g.dieValue(mine)
	ha, hb := holder[a], holder[b]
	if (ha == g.leader || hb == g.leader) && ha != g.me && hb != g.me {
		v += 0.05
	}
	return v
}

// atmHardness is how hard an atmosphere is to pay for, in turns of production, with the
// seat's menu after swapping slots from and to (-1: none) and recoloring slot comet to
// color (-1: none).
func (g *Greedy) atmHardness(from, to, comet int, color Color) float64 {
	s := g.s
	menu := &s.pl[g.me].menu
	h := 0.0
	f, n := int(s.cfg.itemFirst[ItemAtmosphere]), int(s.cfg.itemSlots[ItemAtmosphere])
	for k := f; k < f+n; k++ {
		c := menu[k]
		switch k {
		case from:
			c = menu[to]
		case to:
			c = menu[from]
		case comet:
			c = color
		}
		h += 1 / (g.rate[c] + 0.05)
	}
	return h / 10
}

// play rates playing a card.
func (g *Greedy) play(a engine.Action) float64 {
	s := g.s
	switch Card(a.Arg[0]) {
	case OrbitalMirror:
		return 8
	case SolarShade, SpaceElevator:
		return 2
	case Aquifer:
		c := int(a.Arg[1])
		total := int32(0)
		for q := int8(0); q < s.seats; q++ {
			if q != g.me {
				total += s.pl[q].chips[c]
			}
		}
		return float64(total) * g.worth(c) / 2
	case GuidedComet:
		return 0.5 + 3*(g.atmHardness(-1, -1, -1, 0)-g.atmHardness(-1, -1, int(a.Arg[1]), Color(a.Arg[2])))
	case ShuttleCard:
		if int8(a.Arg[1]) != g.me {
			return 0.2
		}
		x := Geo.Intersections[a.Arg[2]].Colors
		return 0.5 + float64(g.chips[x[0]]+g.chips[x[1]])/20
	}
	return -1
}
