package planet

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// Determinizer draws full states consistent with one seat's observation, for search bots
// [rule: Hidden information]: the tiles of the face-down stacks are dealt anew from the tiles
// nobody has seen, the other seats' objectives from the cards the viewer does not hold (each
// likelier the more a planet leans to its habitat), and face-down mystery animals from the
// cards not in sight. It reads the observation once.
//
// The match options come from the observation, except the data set: an observation that does
// not fit the built-in one is refused.
type Determinizer struct {
	base     *state
	hidden   []int16 // tiles in the face-down stacks, in some order
	objPool  []int8  // objectives the viewer does not hold
	animPool []int16 // animals the viewer has not seen
	viewer   int
	// lean[i][k] is how much likelier seat i holds objective k than another, from how far its
	// planet leans to k's habitat (see objectiveLean); seats whose objective is drawn are
	// drawn in turn, each from the cards left, by these weights.
	lean  [maxSeats][Habitats]float64
	drawn []int8 // the seats whose objective is drawn
}

var _ engine.Evaluator = (*state)(nil)

// NewDeterminizer reads o, the observation of seat.
func NewDeterminizer(o *planetv1.Observation, seat int) (*Determinizer, error) {
	d := Default
	n := int(o.GetSeats())
	if n < 2 || n > maxSeats || len(o.GetPlanets()) != n || o.GetTurn() < 1 || o.GetTurn() > TurnsPerGame {
		return nil, fmt.Errorf("planet: observation is not a whole view (%d seats, %d planets, turn %d)", n, len(o.GetPlanets()), o.GetTurn())
	}
	s := &state{
		d:     d,
		opt:   options{beginners: o.GetBeginners(), mystery: o.GetMystery(), rotate: o.GetRotateFirstPlayer(), ahead: int8(o.GetMysteryAhead()), lastTurn: int8(o.GetLastTurn())},
		seats: int8(n),
		turn:  int8(o.GetTurn()),
		first: int8(o.GetFirstPlayer()),
		over:  o.GetOver(),
		known: int8(o.GetTurn()),
	}
	if ta := o.GetToAct(); len(ta) == 1 && ta[0] >= 0 && int(ta[0]) < n {
		s.picks = (int8(ta[0]) - s.first + s.seats) % s.seats
	}
	seen := make([]bool, len(d.Tiles))
	tile := func(t *planetv1.Tile) (int16, error) {
		id := int(t.GetId())
		if id < 0 || id >= len(d.Tiles) || len(t.GetAreas()) != 5 {
			return 0, fmt.Errorf("planet: tile %d is not in the built-in data set", id)
		}
		for k, h := range t.GetAreas() {
			if Habitat(h) != d.Tiles[id][k] {
				return 0, fmt.Errorf("planet: tile %d differs from the built-in data set", id)
			}
		}
		if seen[id] {
			return 0, fmt.Errorf("planet: tile %d seen twice", id)
		}
		seen[id] = true
		return int16(id), nil
	}
	for _, t := range o.GetDisplay() {
		id, err := tile(t)
		if err != nil {
			return nil, err
		}
		s.display[s.displayN] = id
		s.displayN++
	}
	for _, t := range o.GetBox() {
		id, err := tile(t)
		if err != nil {
			return nil, err
		}
		s.box[s.boxN] = id
		s.boxN++
	}
	for i := range s.planets {
		s.planets[i].clear()
		s.planets[i].objective = -1
	}
	animalSeen := make([]bool, len(d.Animals))
	animal := func(a *planetv1.AnimalCard) (int16, error) {
		id := int(a.GetId())
		if id < 0 || id >= len(d.Animals) || Habitat(a.GetHabitat()) != d.Animals[id].Req.X || int(a.GetKind()) != int(d.Animals[id].Req.Kind) {
			return 0, fmt.Errorf("planet: animal %d is not in the built-in data set", id)
		}
		animalSeen[id] = true
		return int16(id), nil
	}
	for i, p := range o.GetPlanets() {
		c := &s.planets[i]
		for _, pt := range p.GetTiles() {
			f, rot := int(pt.GetFace()), int(pt.GetRotation())
			id, err := tile(pt.GetTile())
			if err != nil {
				return nil, err
			}
			if f < 0 || f >= Faces || rot < 0 || rot >= 5 || c.tile[f] >= 0 {
				return nil, fmt.Errorf("planet: seat %d has a bad placement on face %d", i, f)
			}
			c.put(f, id, d, rot)
		}
		for _, a := range p.GetAnimals() {
			id, err := animal(a)
			if err != nil {
				return nil, err
			}
			s.cards = append(s.cards, card{id: id, owner: int8(i), seq: s.won})
			s.won++
		}
	}
	for _, a := range o.GetReturned() {
		id, err := animal(a)
		if err != nil {
			return nil, err
		}
		s.cards = append(s.cards, card{id: id, owner: -1, returned: true})
	}
	faceDown := 0
	for _, col := range o.GetColumns() {
		for _, a := range col.GetCards() {
			id, err := animal(a)
			if err != nil {
				return nil, err
			}
			s.cards = append(s.cards, card{id: id, turn: int8(col.GetTurn()), owner: -1})
		}
		for k := int32(0); k < col.GetFaceDown(); k++ {
			s.cards = append(s.cards, card{id: -1, turn: int8(col.GetTurn()), owner: -1, faceDown: true})
			faceDown++
		}
	}
	s.faceDown = int8(faceDown)
	hiddenTiles := 0
	for _, st := range o.GetStacks() {
		i := int(st.GetNumber()) - 1
		if i < int(s.turn) || i >= TurnsPerGame || st.GetSize() < 0 || st.GetSize() > StackSize {
			return nil, fmt.Errorf("planet: stack %d is out of place", st.GetNumber())
		}
		s.stackN[i] = int8(st.GetSize())
		if i >= TileStacks {
			if len(st.GetTiles()) != int(st.GetSize()) {
				return nil, fmt.Errorf("planet: stack %d shows %d of %d tiles", i+1, len(st.GetTiles()), st.GetSize())
			}
			for k, t := range st.GetTiles() {
				id, err := tile(t)
				if err != nil {
					return nil, err
				}
				s.stacks[i][k] = id
			}
		} else {
			hiddenTiles += int(st.GetSize())
		}
	}
	det := &Determinizer{base: s, viewer: seat}
	for id, ok := range seen {
		if !ok {
			det.hidden = append(det.hidden, int16(id))
		}
	}
	if len(det.hidden) != hiddenTiles {
		return nil, fmt.Errorf("planet: %d unseen tiles for %d face-down places", len(det.hidden), hiddenTiles)
	}
	for id, ok := range animalSeen {
		if !ok {
			det.animPool = append(det.animPool, int16(id))
		}
	}
	if len(det.animPool) < faceDown {
		return nil, fmt.Errorf("planet: %d face-down animals but %d unseen", faceDown, len(det.animPool))
	}
	if !s.opt.beginners {
		own := int8(-1)
		if seat >= 0 && seat < n {
			if ob := o.GetPlanets()[seat].GetObjective(); ob != nil {
				if own = objectiveIndex(d, ob); own < 0 {
					return nil, fmt.Errorf("planet: the objective is not in the built-in data set")
				}
			}
		}
		s.objN = int8(len(d.Objectives))
		for k := range d.Objectives {
			if int8(k) != own {
				det.objPool = append(det.objPool, int8(k))
			}
		}
		if own >= 0 {
			s.planets[seat].objective = own
			s.objDeal[seat] = own
		}
		det.leanings(s, own)
	}
	s.rng = *engine.NewRand(0)
	if s.over {
		return nil, fmt.Errorf("planet: the game is over")
	}
	return det, nil
}

// objectiveLean is how much likelier a seat holds an objective for each area of its habitat
// beyond the planet's fair share, per tile placed past the third: players lean to their
// objective's habitat, weakly at first (greedy's objective is its planet's most leaning
// habitat in 21% of its turn-3 to turn-5 decisions, 46% in turn 11, against 20% by chance).
// Fitted to greedy's own objectives over 60 four-seat games: the best factor per area was
// about 0 up to turn 5, 0.05 in turn 7, 0.1 in turn 9 and 0.2 in turn 11 (0.35 throughout
// fitted worse than a uniform draw before turn 11).
const objectiveLean = 0.025

// leanings fills lean and drawn from the planets as they stand: each seat but a viewer who
// holds own draws, with weight exp(objectiveLean x (tiles placed - 3) x (areas of the
// habitat - the planet's fair share of them)).
func (det *Determinizer) leanings(s *state, own int8) {
	var total [Glacier + 1]int
	all := 0
	for _, t := range s.d.Tiles {
		for _, h := range t {
			total[h]++
			all++
		}
	}
	for i := 0; i < int(s.seats); i++ {
		if i == det.viewer && own >= 0 {
			continue
		}
		det.drawn = append(det.drawn, int8(i))
		p := &s.planets[i]
		beta := objectiveLean * float64(max(0, int(p.placed)-3))
		for k := range s.d.Objectives {
			h := s.d.Objectives[k].Habitat
			fair := float64(5*p.placed) * float64(total[h]) / float64(max(all, 1))
			det.lean[i][k] = math.Exp(beta * (float64(p.surface.Count(h)) - fair))
		}
	}
}

// objectiveIndex is the built-in objective card equal to ob, or -1.
func objectiveIndex(d *Data, ob *planetv1.Objective) int8 {
	for k := range d.Objectives {
		o := &d.Objectives[k]
		if Habitat(ob.GetHabitat()) != o.Habitat || len(ob.GetSteps()) != len(o.Areas) {
			continue
		}
		same := true
		for i, st := range ob.GetSteps() {
			same = same && int(st.GetAreas()) == o.Areas[i] && int(st.GetPoints()) == o.Points[i]
		}
		if same {
			return int8(k)
		}
	}
	return -1
}

// Sample writes a draw into dst (nil, or an earlier sample) and returns it.
func (d *Determinizer) Sample(dst engine.State, r *rand.Rand) engine.State {
	s := d.base.CloneInto(dst).(*state)
	r.Shuffle(len(d.hidden), func(i, j int) { d.hidden[i], d.hidden[j] = d.hidden[j], d.hidden[i] })
	k := 0
	for i := int(s.turn); i < TileStacks; i++ {
		k += copy(s.stacks[i][:s.stackN[i]], d.hidden[k:])
	}
	if len(d.objPool) > 0 {
		d.dealObjectives(s, r)
	}
	if s.opt.mystery {
		r.Shuffle(len(d.animPool), func(i, j int) { d.animPool[i], d.animPool[j] = d.animPool[j], d.animPool[i] })
		k := 0
		for i := range s.cards {
			if s.cards[i].faceDown {
				s.cards[i].id = d.animPool[k]
				k++
			}
		}
	}
	s.rng.Seed(r.Uint64(), r.Uint64())
	return s
}

// dealObjectives draws the seats' objectives in a random order, each from the cards left by
// its lean, then deals the cards left over to the places past the seats.
func (d *Determinizer) dealObjectives(s *state, r *rand.Rand) {
	var pool [Habitats]int8
	n := copy(pool[:], d.objPool)
	r.Shuffle(len(d.drawn), func(i, j int) { d.drawn[i], d.drawn[j] = d.drawn[j], d.drawn[i] })
	for _, i := range d.drawn {
		if n == 0 {
			break
		}
		sum := 0.0
		for _, k := range pool[:n] {
			sum += d.lean[i][k]
		}
		x, pick := r.Float64()*sum, n-1
		for j, k := range pool[:n] {
			if x -= d.lean[i][k]; x < 0 {
				pick = j
				break
			}
		}
		s.objDeal[i], s.planets[i].objective = pool[pick], pool[pick]
		n--
		pool[pick] = pool[n]
	}
	r.Shuffle(n, func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for i := int(s.seats); i < int(s.objN) && n > 0; i++ {
		n--
		s.objDeal[i] = pool[n]
	}
}

// The weights of Evaluate, the greedy bot's (bots/planet): a card a turn further away counts
// this much less; each area of the objective's habitat beyond the points it scores; each
// habitat's largest region, for the cards not yet seen.
const (
	evalDecay         = 0.8
	evalObjectiveArea = 0.12
	evalShape         = 0.03
)

// Evaluate scores seat's standing for a search that stops before the end, on a logistic scale
// of its worth against the best rival's. A seat's worth is its points now (cards won, its
// objective's step), each area of its objective's habitat, each card still open weighted by
// how near its turn is and by the seat's chance of winning it against the best other planet
// as the planets stand, and its largest regions.
func (s *state) Evaluate(seat engine.Seat) float64 {
	var v [maxSeats]float64
	s.evaluate(&v)
	return v[seat]
}

// EvaluateAll appends every seat's Evaluate of st, a Planet state, to dst: the planets are
// measured once for all seats.
func EvaluateAll(st engine.State, dst []float64) []float64 {
	s := st.(*state)
	var v [maxSeats]float64
	s.evaluate(&v)
	return append(dst, v[:s.seats]...)
}

// evaluate fills v with each seat's Evaluate.
func (s *state) evaluate(v *[maxSeats]float64) { s.evaluateWith(v, Evaluation{}) }

// chance is a rough likelihood that a planet whose value for a card is v wins it against a
// best rival value: sure when ahead, some when tied (the card waits), less the further behind.
func chance(v, rival int) float64 {
	switch {
	case v == 0:
		return 0
	case v > rival:
		return 0.8 + 0.2*min(1, float64(v-rival)/3)
	case v == rival:
		return 0.35
	}
	return 0.3 * float64(v) / float64(rival+1)
}
