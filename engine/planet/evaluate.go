package planet

import (
	"math"

	"github.com/orrery/orrery/engine"
)

// Evaluation is Evaluate with its logistic's scale chosen: a seat's score is
// 1/(1+exp(-(worth - best rival's worth)/Scale)), so a smaller scale reads the same lead in
// worth as a surer win. The zero Evaluation is Evaluate's (scale 3). A search's constants are
// in units of score (mcts: the margin by which a move must beat greedy's, the exploration
// constant), so the scale sets how many points of worth they stand for.
type Evaluation struct {
	Scale float64
}

// All appends every seat's score of st, a Planet state, to dst, measuring each planet once;
// it is a Game.EvaluateAll.
func (e Evaluation) All(st engine.State, dst []float64) []float64 {
	s := st.(*state)
	var v [maxSeats]float64
	s.evaluateWith(&v, e)
	return append(dst, v[:s.seats]...)
}

// evaluateWith fills v with each seat's score by e.
func (s *state) evaluateWith(v *[maxSeats]float64, e Evaluation) {
	n := int(s.seats)
	if s.over {
		for i := 0; i < n; i++ {
			v[i] = 0
			if s.result.Ranks[i] == 1 {
				v[i] = 1
			}
		}
		return
	}
	scale := e.Scale
	if scale <= 0 {
		scale = 3
	}
	var sv [maxSeats]Survey
	var worth [maxSeats]float64
	var objective [maxSeats]Habitat
	scores := s.scores()
	for i := 0; i < n; i++ {
		p := &s.planets[i]
		sv[i].Measure(&p.surface)
		sc := scores[i]
		worth[i] = float64(sc.Total())
		if p.objective >= 0 {
			objective[i] = s.d.Objectives[p.objective].Habitat
			worth[i] += evalObjectiveArea * float64(p.surface.Count(objective[i]))
		}
		var largest [Glacier + 1]int8
		for _, r := range sv[i].Regions[:sv[i].N] {
			largest[r.Habitat] = max(largest[r.Habitat], r.Size)
		}
		for _, size := range largest {
			worth[i] += evalShape * float64(size)
		}
	}
	for k := range s.cards {
		c := &s.cards[k]
		if !c.open() || c.faceDown {
			continue
		}
		req := s.d.Animals[c.id].Req
		urgency := math.Pow(evalDecay, float64(max(0, int(c.turn)-int(s.turn))))
		var v [maxSeats]int
		for i := 0; i < n; i++ {
			v[i] = sv[i].Value(req)
		}
		for i := 0; i < n; i++ {
			rival := 0
			for j := 0; j < n; j++ {
				if j != i {
					rival = max(rival, v[j])
				}
			}
			points := 2.0
			if s.opt.beginners || req.X == objective[i] {
				points = 1
			}
			worth[i] += points * urgency * chance(v[i], rival)
		}
	}
	for i := 0; i < n; i++ {
		rival := math.Inf(-1)
		for j := 0; j < n; j++ {
			if j != i {
				rival = max(rival, worth[j])
			}
		}
		v[i] = 1 / (1 + math.Exp(-(worth[i]-rival)/scale))
	}
}
