// Package planet holds Planet's built-in bots.
package planet

import (
	"math"
	"math/rand/v2"

	"github.com/orrery/orrery/bots"
	rules "github.com/orrery/orrery/engine/planet"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// Greedy tries every legal placement on its own planet and keeps the one that best serves the
// animals still to come and its own objective, against the planets the others have now. It
// reads only its Decision: the public planets, the columns and its own objective.
type Greedy struct{ r *rand.Rand }

// NewGreedy returns a greedy bot; seed only breaks ties between equal placements.
func NewGreedy(seed uint64) bots.Bot { return &Greedy{r: rand.New(rand.NewPCG(seed, 0x91a7e7))} }

// The weights of the evaluation, found by trying a few against random and each other.
const (
	decay         = 0.8  // each turn further away, a card counts this much less
	objectiveArea = 0.12 // each area of the objective's habitat, beyond the points it scores
	shape         = 0.03 // each habitat's largest region, for the cards not yet seen
)

// Act scores every legal placement and picks the best.
func (g *Greedy) Act(d *orreryv1.Decision) *orreryv1.Answer {
	o, ok := wire.GameObservation(d.GetObservation()).(*planetv1.Observation)
	if !ok || len(d.GetLegal()) == 0 || int(d.GetSeat()) >= len(o.GetPlanets()) {
		return bots.Index(d, 0)
	}
	e := newEvaluator(o, int(d.GetSeat()))
	best, bestScore, ties := 0, math.Inf(-1), 0
	for i, a := range d.GetLegal() {
		p := wire.GameAction(a).(*planetv1.Action).GetPlace()
		tile := tileOf(o, p.GetTile())
		if tile == nil {
			continue
		}
		sf := e.mine
		sf.Place(int(p.GetFace()), *tile, int(p.GetRotation()))
		score := e.score(&sf)
		switch {
		case score > bestScore+1e-9:
			best, bestScore, ties = i, score, 1
		case score > bestScore-1e-9:
			ties++
			if g.r.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return bots.Index(d, best)
}

// tileOf finds a displayed tile's habitats.
func tileOf(o *planetv1.Observation, id int32) *rules.Tile {
	for _, t := range o.GetDisplay() {
		if t.GetId() == id && len(t.GetAreas()) == 5 {
			var tile rules.Tile
			for k, h := range t.GetAreas() {
				tile[k] = rules.Habitat(h)
			}
			return &tile
		}
	}
	return nil
}

// goal is an animal still to win: its requirement, what it is worth to us, and the best value
// among the other planets now.
type goal struct {
	req    rules.Requirement
	weight float64
	rival  int
}

type evaluator struct {
	mine      rules.Surface
	goals     []goal
	objective *planetv1.Objective
	habitat   rules.Habitat // the objective's habitat, None without one
}

func newEvaluator(o *planetv1.Observation, seat int) *evaluator {
	e := &evaluator{mine: rules.SurfaceOf(o.Planets[seat])}
	if obj := o.Planets[seat].GetObjective(); obj != nil {
		e.objective, e.habitat = obj, rules.Habitat(obj.GetHabitat())
	}
	var rivals []rules.Survey
	for i, p := range o.GetPlanets() {
		if i != seat {
			var sv rules.Survey
			sf := rules.SurfaceOf(p)
			sv.Measure(&sf)
			rivals = append(rivals, sv)
		}
	}
	for _, col := range o.GetColumns() {
		urgency := math.Pow(decay, float64(col.GetTurn()-o.GetTurn()))
		for _, c := range col.GetCards() {
			req := rules.Requirement{Kind: rules.Kind(c.GetKind()), X: rules.Habitat(c.GetHabitat()), Y: rules.Habitat(c.GetOther())}
			points := 2.0
			if o.GetBeginners() || req.X == e.habitat {
				points = 1
			}
			g := goal{req: req, weight: points * urgency}
			for i := range rivals {
				g.rival = max(g.rival, rivals[i].Value(req))
			}
			e.goals = append(e.goals, g)
		}
	}
	return e
}

// score values a planet: the animals it would win against today's rivals, its objective,
// and the size of its regions.
func (e *evaluator) score(sf *rules.Surface) float64 {
	var sv rules.Survey
	sv.Measure(sf)
	total := 0.0
	for _, g := range e.goals {
		total += g.weight * chance(sv.Value(g.req), g.rival)
	}
	if e.objective != nil {
		n := sf.Count(e.habitat)
		pts := 0
		for _, st := range e.objective.GetSteps() {
			if n >= int(st.GetAreas()) {
				pts = int(st.GetPoints())
			}
		}
		total += float64(pts) + objectiveArea*float64(n)
	}
	var largest [rules.Glacier + 1]int8
	for _, r := range sv.Regions[:sv.N] {
		largest[r.Habitat] = max(largest[r.Habitat], r.Size)
	}
	for _, n := range largest {
		total += shape * float64(n)
	}
	return total
}

// chance is a rough likelihood of winning a card with value v against a best rival value:
// sure when ahead, some when tied (the card waits), less the further behind.
func chance(v, rival int) float64 {
	switch {
	case v == 0:
		return 0
	case v > rival:
		return 0.8 + 0.2*math.Min(1, float64(v-rival)/3)
	case v == rival:
		return 0.35
	}
	return 0.3 * float64(v) / float64(rival+1)
}
