package planet

import (
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

var _ engine.Tensorizer = game{}

// areaHabitats is an area's one-hot habitat, ocean..glacier; an empty area is all zeros, so
// that a planet's free faces cost nothing to send.
const areaHabitats = Habitats

// cardClasses is the requirements a card may ask for its habitat: most regions, the largest
// region touching each habitat, the largest region touching none of each.
const cardClasses = 1 + 2*Habitats

// columns is the animal columns, turns 3 to 12.
const columns = TurnsPerGame - FirstAnimalTurn + 1

// actionIDs is every (display slot, face, rotation).
const actionIDs = StackSize * Faces * 5

// tensors is Planet's layout for one seat count. Seats are counted from the viewer: block 0
// is the viewer's own planet (seat 0's for the spectator), then the next seats in turn order.
type tensors struct {
	shape, heads []int // made once: the callers of Encode ask for them on every step
	seats        int
	layout       engine.Layout
	turn, lastTurn, flags, first, toAct, surface, objective, animals,
	display, stacks, leftovers, cols int
}

func (game) Tensors(cfg engine.Config) (engine.Tensors, error) {
	if _, err := (game{}).New(cfg); err != nil {
		return nil, err
	}
	n := cfg.Seats
	t := &tensors{seats: n}
	l := &t.layout
	t.turn = l.Add("turn", TurnsPerGame)
	t.lastTurn = l.Add("last_turn", 1)
	t.flags = l.Add("flags", 5)
	t.first = l.Add("first_player", n)
	t.toAct = l.Add("to_act", n)
	t.surface = l.Add("surface", n, Areas, areaHabitats)
	t.objective = l.Add("objective", n, areaHabitats)
	t.animals = l.Add("animals_won", n, Habitats)
	t.display = l.Add("display", StackSize, 5, areaHabitats)
	t.stacks = l.Add("stacks", TurnsPerGame)
	t.leftovers = l.Add("leftovers", 2, Habitats)
	t.cols = l.Add("columns", columns, Habitats*cardClasses+1)
	t.shape, t.heads = []int{t.layout.Size()}, []int{actionIDs}
	return t, nil
}

func (t *tensors) ObservationShape() []int           { return t.shape }
func (t *tensors) ObservationLayout() []engine.Slice { return t.layout.Slices }
func (t *tensors) Heads() []int                      { return t.heads }

// rel is seat counted from viewer (the spectator counts from seat 0).
func (t *tensors) rel(viewer, seat int32) int {
	v := max(viewer, 0)
	return int((seat - v + int32(t.seats)) % int32(t.seats))
}

func (t *tensors) Encode(m proto.Message, dst []float32) error {
	o, ok := m.(*planetv1.Observation)
	if !ok || int(o.Seats) != t.seats || len(o.Planets) != t.seats {
		return fmt.Errorf("planet: Encode wants a %d-seat *planetv1.Observation, got %T", t.seats, m)
	}
	if len(dst) != t.layout.Size() {
		return fmt.Errorf("planet: Encode wants %d elements, got %d", t.layout.Size(), len(dst))
	}
	clear(dst)
	engine.OneHot(dst, t.turn, TurnsPerGame, int(o.Turn)-1)
	dst[t.lastTurn] = float32(o.LastTurn) / TurnsPerGame
	dst[t.flags] = engine.Bool(o.Seat < 0)
	dst[t.flags+1] = engine.Bool(o.Beginners)
	dst[t.flags+2] = engine.Bool(o.Mystery)
	dst[t.flags+3] = engine.Bool(o.Over)
	dst[t.flags+4] = engine.Bool(o.RotateFirstPlayer)
	dst[t.first+t.rel(o.Seat, o.FirstPlayer)] = 1
	for _, s := range o.ToAct {
		dst[t.toAct+t.rel(o.Seat, s)] = 1
	}
	for _, p := range o.Planets {
		r := t.rel(o.Seat, p.Seat)
		base := t.surface + r*Areas*areaHabitats
		for a, h := range p.Areas {
			if a < Areas {
				engine.OneHot(dst, base+a*areaHabitats, areaHabitats, int(h)-1)
			}
		}
		if p.Objective != nil { // all zeros: unknown, or none in beginners' games
			engine.OneHot(dst, t.objective+r*areaHabitats, areaHabitats, int(p.Objective.Habitat)-1)
		}
		for _, c := range p.Animals {
			if h := int(c.Habitat) - 1; h >= 0 && h < Habitats {
				dst[t.animals+r*Habitats+h] += 1.0 / MinAnimals
			}
		}
	}
	for i, tile := range o.Display {
		if i < StackSize {
			encodeTile(dst, t.display+i*5*areaHabitats, tile)
		}
	}
	for _, st := range o.Stacks {
		if n := int(st.Number) - 1; n >= 0 && n < TurnsPerGame {
			dst[t.stacks+n] = float32(st.Size) / StackSize
		}
		if k := int(st.Number) - TileStacks - 1; k >= 0 && k < 2 {
			for _, tile := range st.Tiles {
				for _, h := range tile.Areas {
					if h := int(h) - 1; h >= 0 && h < Habitats {
						dst[t.leftovers+k*Habitats+h] += 1.0 / (StackSize * 5)
					}
				}
			}
		}
	}
	for _, col := range o.Columns {
		c := int(col.Turn) - FirstAnimalTurn
		if c < 0 || c >= columns {
			continue
		}
		base := t.cols + c*(Habitats*cardClasses+1)
		for _, card := range col.Cards {
			if k := cardClass(card); k >= 0 {
				dst[base+k] += 1.0 / StackSize
			}
		}
		dst[base+Habitats*cardClasses] = float32(col.FaceDown) / StackSize
	}
	return nil
}

// encodeTile writes a tile's five areas, clockwise, as one-hot habitats.
func encodeTile(dst []float32, off int, tile *planetv1.Tile) {
	for a, h := range tile.Areas {
		if a < 5 {
			engine.OneHot(dst, off+a*areaHabitats, areaHabitats, int(h)-1)
		}
	}
}

// cardClass is a card's index among habitat x requirement, or -1.
func cardClass(c *planetv1.AnimalCard) int {
	h, y := int(c.Habitat)-1, int(c.Other)-1
	if h < 0 || h >= Habitats {
		return -1
	}
	switch c.Kind {
	case planetv1.RequirementKind_REQUIREMENT_KIND_MOST_REGIONS:
		return h * cardClasses
	case planetv1.RequirementKind_REQUIREMENT_KIND_LARGEST_TOUCHING:
		if y >= 0 && y < Habitats {
			return h*cardClasses + 1 + y
		}
	case planetv1.RequirementKind_REQUIREMENT_KIND_LARGEST_NOT_TOUCHING:
		if y >= 0 && y < Habitats {
			return h*cardClasses + 1 + Habitats + y
		}
	}
	return -1
}

// ActionIDs names a placement (display slot, face, rotation): the tile by its place in the
// display, whose habitats the tensor holds, not by its id in the data set.
func (t *tensors) ActionIDs(m proto.Message, actions []engine.Action, ids []int32) bool {
	o, ok := m.(*planetv1.Observation)
	if !ok {
		return false
	}
	for i, a := range actions {
		id, ok := placementID(o, a)
		if !ok {
			return false
		}
		ids[i] = id
	}
	return true
}

func placementID(o *planetv1.Observation, a engine.Action) (int32, bool) {
	tile, face, rot, isPlace := Placement(a)
	if !isPlace || face < 0 || face >= Faces || rot < 0 || rot >= 5 {
		return 0, false
	}
	for slot, d := range o.Display {
		if int(d.Id) == tile && slot < StackSize {
			return int32((slot*Faces+face)*5 + rot), true
		}
	}
	return 0, false
}

func (t *tensors) Action(m proto.Message, legal []engine.Action, ids []int32) (engine.Action, bool) {
	o, ok := m.(*planetv1.Observation)
	id := int(ids[0])
	if !ok || id < 0 || id >= actionIDs {
		return engine.Action{}, false
	}
	slot, face, rot := id/(Faces*5), id/5%Faces, id%5
	if slot >= len(o.Display) {
		return engine.Action{}, false
	}
	a := PlaceAction(int(o.Display[slot].Id), face, rot)
	return a, slices.Contains(legal, a)
}
