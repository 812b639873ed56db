package pantropia

import (
	pt "github.com/orrery/orrery/engine/pantropia"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// view is one decision, read once.
type view struct {
	o       *pb.Observation
	me      int32
	chips   [pt.NumColors]int32
	menu    []pb.Color
	items   []pb.Item
	site    [pt.NumIntersections]int32 // owner, -1
	arco    [pt.NumIntersections]bool
	rolled  [pt.NumColors]float64 // chance per turn that each color is rolled (either die)
	rate    [pt.NumColors]float64 // my expected chips of each color per turn
	leader  int32                 // the opponent with the most rings
	atmCost [pt.NumColors]int32
	habCost [pt.NumColors]int32
	arcCost [pt.NumColors]int32
	// toEmpty is each joint's distance to the nearest empty joint, in steps between adjacent
	// joints: a blocked player replaces rings toward the sphere's gaps, so the gaps fill.
	toEmpty [pt.NumJoints]int16
}

func (g *Greedy) read(d *orreryv1.Decision) *view {
	o, _ := wire.GameObservation(d.GetObservation()).(*pb.Observation)
	if o == nil {
		return nil
	}
	v := &view{o: o, me: d.GetSeat(), items: o.GetMenuItems(), leader: -1}
	for i := range v.site {
		v.site[i] = -1
	}
	for _, s := range o.GetStructures() {
		v.site[s.GetIntersection()] = s.GetOwner()
		v.arco[s.GetIntersection()] = s.GetArcology()
	}
	best := int32(-1)
	for _, p := range o.GetPlayers() {
		if p.GetSeat() == v.me {
			v.chips = pt.ChipsOf(p.GetChips())
			v.menu = p.GetMenu()
		} else if p.GetRings() > best {
			best, v.leader = p.GetRings(), p.GetSeat()
		}
	}
	// Every seat rolls in turn: the d8 gives each color 1/8, and each held die its faces.
	seats := float64(len(o.GetPlayers()))
	for c := 0; c < pt.NumColors; c++ {
		v.rolled[c] = 1.0 / 8
		for _, p := range o.GetPlayers() {
			if d := int(p.GetDie()) - 1; d >= 0 && d < pt.NumDice {
				v.rolled[c] += g.dice[d][c] / seats
			}
		}
	}
	for x := range v.site {
		if v.site[x] != v.me {
			continue
		}
		mult := 1.0
		if v.arco[x] {
			mult = 2
		}
		cs := pt.Geo.Intersections[x].Colors
		v.rate[cs[0]] += mult * v.rolled[cs[1]]
		v.rate[cs[1]] += mult * v.rolled[cs[0]]
	}
	v.measureGaps()
	v.atmCost = v.cost(pb.Item_ITEM_ATMOSPHERE)
	v.habCost = v.cost(pb.Item_ITEM_HABITAT)
	v.arcCost = v.cost(pb.Item_ITEM_ARCOLOGY)
	return v
}

// measureGaps fills toEmpty by a breadth-first search from every empty joint.
func (v *view) measureGaps() {
	var queue [pt.NumJoints]int16
	n := 0
	for j, owner := range v.o.GetJoints() {
		v.toEmpty[j] = -1
		if owner < 0 {
			v.toEmpty[j] = 0
			queue[n] = int16(j)
			n++
		}
	}
	visit := func(from, to int16) {
		if v.toEmpty[to] < 0 {
			v.toEmpty[to] = v.toEmpty[from] + 1
			queue[n] = to
			n++
		}
	}
	for i := 0; i < n; i++ {
		j := queue[i]
		for _, k := range pt.Geo.Joints[j].Along {
			visit(j, k)
		}
		for _, k := range pt.Geo.Joints[j].Through {
			visit(j, k)
		}
	}
}

func (v *view) cost(item pb.Item) (c [pt.NumColors]int32) {
	for i, it := range v.items {
		if it == item && i < len(v.menu) {
			c[int(v.menu[i])-1]++
		}
	}
	return c
}

// worth is how much a chip of color c is worth to me now: atmosphere colors most.
func (v *view) worth(c int) float64 {
	w := 1.0
	if v.atmCost[c] > 0 {
		w += 1.5 * float64(v.atmCost[c])
	}
	if v.habCost[c] > 0 && v.o.GetTurn() < v.o.GetTurnCap()*2/3 {
		w += 0.5
	}
	return w
}

// siteValue is the expected worth per turn of a habitat at intersection x: when one of its
// colors is rolled it yields the other.
func (v *view) siteValue(x int) float64 {
	cs := pt.Geo.Intersections[x].Colors
	return v.rolled[cs[1]]*v.worth(int(cs[0])) + v.rolled[cs[0]]*v.worth(int(cs[1]))
}

// habitable reports whether I could one day settle x: empty, and no structure next to it
// except my own arcologies.
func (v *view) habitable(x int) bool {
	if v.site[x] >= 0 {
		return false
	}
	for _, y := range pt.Geo.Intersections[x].Neighbors {
		if o := v.site[y]; o >= 0 && !(o == v.me && v.arco[y]) {
			return false
		}
	}
	return true
}

// ringScore rates placing my ring on joint j: a point for me, more for taking a ring from
// an opponent (most from the leader), and a pull toward contested joints, open space and
// intersections I could settle.
func (v *view) ringScore(j int) float64 {
	joints := v.o.GetJoints()
	score := 1.0
	if owner := joints[j]; owner >= 0 && owner != v.me {
		score += 0.8
		if owner == v.leader {
			score += 0.4
		}
		// Replacing is allowed only when blocked: head for the nearest gap.
		if d := v.toEmpty[j]; d > 0 {
			score += 2 / float64(d)
		}
	}
	g := &pt.Geo.Joints[j]
	near := func(n int16) {
		switch o := joints[n]; {
		case o < 0:
			score += 0.12
		case o != v.me:
			score += 0.2 // contested: claim it before they spread
		}
	}
	for _, n := range g.Along {
		near(n)
	}
	if g.At >= 0 {
		for _, n := range g.Through {
			near(n)
		}
		if v.habitable(int(g.At)) && v.o.GetTurn() < v.o.GetTurnCap()*2/3 {
			score += 0.3 + v.siteValue(int(g.At))
		}
	}
	return score
}

func (v *view) canPay(c [pt.NumColors]int32) bool {
	for i, n := range c {
		if v.chips[i] < n {
			return false
		}
	}
	return true
}
