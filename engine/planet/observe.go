package planet

import (
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// Observe is seat's view: everything public (every planet, the display, stacks 11 and 12,
// the box, the face-up animals) and the seat's own objective [rule: Hidden information].
// It is built for every decision, so its tiles, animal cards and objectives are the data set's
// shared messages (see messages) and its other small messages come from a few blocks: the
// observation is read-only, like every message a state hands out.
func (s *state) Observe(seat engine.Seat) proto.Message {
	k := s.newBlocks()
	o := &planetv1.Observation{
		Seat:        int32(seat),
		Seats:       int32(s.seats),
		Turn:        int32(s.turn),
		LastTurn:    int32(s.opt.lastTurn),
		FirstPlayer: int32(s.first),
		Display:     k.tiles(s, s.display[:s.displayN]),
		Box:         k.tiles(s, s.box[:s.boxN]),
		Beginners:   s.opt.beginners,
		Mystery:     s.opt.mystery,
		Over:        s.over,
	}
	if !s.over {
		o.ToAct = []int32{int32(s.toAct())}
	} else {
		o.Result = s.result.Detail
	}
	if s.turn < TurnsPerGame {
		stacks := make([]planetv1.Stack, TurnsPerGame-s.turn)
		o.Stacks = make([]*planetv1.Stack, len(stacks))
		for i := s.turn; i < TurnsPerGame; i++ { // stacks turn+1..12
			st := &stacks[i-s.turn]
			st.Number, st.Size = int32(i+1), int32(s.stackN[i])
			if i >= TileStacks {
				st.Tiles = k.tiles(s, s.stacks[i][:s.stackN[i]])
			}
			o.Stacks[i-s.turn] = st
		}
	}
	o.Planets = make([]*planetv1.Planet, s.seats)
	for seat2 := range o.Planets {
		o.Planets[seat2] = s.planetProto(&k, seat, seat2)
	}
	o.Columns = s.columnsProto(&k)
	returned := 0
	for i := range s.cards {
		if s.cards[i].returned {
			returned++
		}
	}
	if returned > 0 {
		o.Returned = take(&k.cards, returned)[:0]
		for i := range s.cards {
			if s.cards[i].returned {
				o.Returned = append(o.Returned, s.animalProto(s.cards[i].id))
			}
		}
	}
	return o
}

// blocks hands out an observation's small messages and lists from one allocation of each
// kind, sized for the whole observation: Observe runs for every decision.
type blocks struct {
	habitats []planetv1.Habitat
	planets  []planetv1.Planet
	placed   []planetv1.PlacedTile
	onFaces  []*planetv1.PlacedTile
	tileRefs []*planetv1.Tile
	cards    []*planetv1.AnimalCard
}

func (s *state) newBlocks() blocks {
	placed := 0
	for seat := 0; seat < int(s.seats); seat++ {
		placed += int(s.planets[seat].placed)
	}
	return blocks{
		habitats: make([]planetv1.Habitat, Areas*int(s.seats)),
		planets:  make([]planetv1.Planet, s.seats),
		placed:   make([]planetv1.PlacedTile, placed),
		onFaces:  make([]*planetv1.PlacedTile, placed),
		tileRefs: make([]*planetv1.Tile, int(s.displayN)+int(s.boxN)+int(s.stackN[10])+int(s.stackN[11])),
		cards:    make([]*planetv1.AnimalCard, len(s.cards)),
	}
}

// take is the next n items of a block (nil for none), or a new slice when the block is short.
func take[T any](block *[]T, n int) []T {
	if n == 0 {
		return nil
	}
	if len(*block) < n {
		return make([]T, n)
	}
	out := (*block)[:n:n]
	*block = (*block)[n:]
	return out
}

// tiles lists the data set's shared tile messages for ids.
func (k *blocks) tiles(s *state, ids []int16) []*planetv1.Tile {
	out := take(&k.tileRefs, len(ids))
	for i, id := range ids {
		out[i] = s.tileProto(id)
	}
	return out
}

// columnsProto lists the columns still to resolve, with face-down cards counted, not shown.
func (s *state) columnsProto(k *blocks) []*planetv1.Column {
	if s.over || s.opt.lastTurn < max(s.turn, FirstAnimalTurn) {
		return nil
	}
	first := max(s.turn, FirstAnimalTurn)
	cols := make([]planetv1.Column, s.opt.lastTurn-first+1)
	out := make([]*planetv1.Column, len(cols))
	for t := first; t <= s.opt.lastTurn; t++ {
		col := &cols[t-first]
		col.Turn = int32(t)
		up := 0
		for i := range s.cards {
			if c := &s.cards[i]; c.turn == t && c.open() {
				if c.faceDown {
					col.FaceDown++
				} else {
					up++
				}
			}
		}
		if up > 0 {
			col.Cards = take(&k.cards, up)[:0]
			for i := range s.cards {
				if c := &s.cards[i]; c.turn == t && c.open() && !c.faceDown {
					col.Cards = append(col.Cards, s.animalProto(c.id))
				}
			}
		}
		out[t-first] = col
	}
	return out
}

// planetProto is seat's planet as viewer sees it: the objective only for its owner, or for
// everyone once the game is over.
func (s *state) planetProto(k *blocks, viewer engine.Seat, seat int) *planetv1.Planet {
	p := &s.planets[seat]
	out := &take(&k.planets, 1)[0]
	out.Seat, out.Areas = int32(seat), take(&k.habitats, Areas)
	placed := take(&k.placed, int(p.placed))
	out.Tiles = take(&k.onFaces, int(p.placed))[:0]
	for f := 0; f < Faces; f++ {
		if p.tile[f] >= 0 {
			pt := &placed[len(out.Tiles)]
			pt.Face, pt.Tile, pt.Rotation = int32(f), s.tileProto(p.tile[f]), int32(p.rot[f])
			out.Tiles = append(out.Tiles, pt)
		}
	}
	for a, h := range p.surface {
		out.Areas[a] = planetv1.Habitat(h)
	}
	var room [2 * MinAnimals]int16
	if ids := s.wonBy(seat, room[:0]); len(ids) > 0 {
		out.Animals = take(&k.cards, len(ids))
		for i, id := range ids {
			out.Animals[i] = s.animalProto(id)
		}
	}
	if p.objective >= 0 && (s.over || viewer == engine.Seat(seat)) {
		out.Objective = s.d.msg.objectives[p.objective]
	}
	if s.over {
		sc := s.score(seat)
		out.ObjectivePoints, out.AnimalPoints, out.Score = int32(sc.Objective), int32(sc.Animals), int32(sc.Total())
	}
	return out
}

// wonBy appends to ids the cards seat won, in the order won.
func (s *state) wonBy(seat int, ids []int16) []int16 {
	var room [2 * MinAnimals]int16
	seqs := room[:0]
	for i := range s.cards {
		if c := &s.cards[i]; int(c.owner) == seat {
			ids = append(ids, c.id)
			seqs = append(seqs, c.seq)
		}
	}
	// Few cards, nearly in order: an insertion sort by the order won.
	for i := 1; i < len(ids); i++ {
		for j := i; j > 0 && seqs[j] < seqs[j-1]; j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
			seqs[j], seqs[j-1] = seqs[j-1], seqs[j]
		}
	}
	return ids
}

// messages are a data set's tiles, animal cards and objectives as protobuf messages, built
// once when the data set is loaded and shared by every observation and event of its matches,
// which therefore must never be changed (a view holds no tile, card or objective of its own).
type messages struct {
	tiles      []*planetv1.Tile
	animals    []*planetv1.AnimalCard
	objectives []*planetv1.Objective
}

func newMessages(d *Data) messages {
	m := messages{
		tiles:      make([]*planetv1.Tile, len(d.Tiles)),
		animals:    make([]*planetv1.AnimalCard, len(d.Animals)),
		objectives: make([]*planetv1.Objective, len(d.Objectives)),
	}
	for i, t := range d.Tiles {
		m.tiles[i] = tileProto(i, t)
	}
	for i, a := range d.Animals {
		m.animals[i] = animalProto(i, a)
	}
	for i := range d.Objectives {
		m.objectives[i] = objectiveProto(&d.Objectives[i])
	}
	return m
}

func (s *state) tileProto(id int16) *planetv1.Tile { return s.d.msg.tiles[id] }

func (s *state) tilesProto(ids []int16) []*planetv1.Tile {
	out := make([]*planetv1.Tile, len(ids))
	for i, id := range ids {
		out[i] = s.tileProto(id)
	}
	return out
}

func tileProto(id int, t Tile) *planetv1.Tile {
	out := &planetv1.Tile{Id: int32(id), Areas: make([]planetv1.Habitat, 5)}
	for i, h := range t {
		out.Areas[i] = planetv1.Habitat(h)
	}
	return out
}

func (s *state) animalProto(id int16) *planetv1.AnimalCard { return s.d.msg.animals[id] }

func animalProto(id int, a Animal) *planetv1.AnimalCard {
	return &planetv1.AnimalCard{
		Id:          int32(id),
		Name:        a.Name,
		Habitat:     planetv1.Habitat(a.Req.X),
		Kind:        planetv1.RequirementKind(a.Req.Kind),
		Other:       planetv1.Habitat(a.Req.Y),
		Requirement: a.Req.String(),
	}
}

func objectiveProto(o *Objective) *planetv1.Objective {
	out := &planetv1.Objective{Habitat: planetv1.Habitat(o.Habitat)}
	for i := range o.Areas {
		out.Steps = append(out.Steps, &planetv1.ScaleStep{Areas: int32(o.Areas[i]), Points: int32(o.Points[i])})
	}
	return out
}

// ObserveAll is the omniscient view for finished matches: every objective and every stack.
func (s *state) ObserveAll() proto.Message {
	o := s.Observe(engine.Spectator).(*planetv1.Observation)
	for seat := range o.Planets {
		if p := s.planets[seat].objective; p >= 0 {
			o.Planets[seat].Objective = s.d.msg.objectives[p]
		}
	}
	for _, st := range o.Stacks {
		i := st.Number - 1
		st.Tiles = s.tilesProto(s.stacks[i][:s.stackN[i]])
	}
	return o
}

var _ engine.Omniscient = (*state)(nil)

// catalog is the static geometry and the built-in data set.
func catalog() *planetv1.Catalog {
	g := Geo
	point := func(v Vec) *planetv1.Point { return &planetv1.Point{X: v.X, Y: v.Y, Z: v.Z} }
	c := &planetv1.Catalog{}
	for _, v := range g.Vertex {
		c.Vertices = append(c.Vertices, point(v))
	}
	for f := 0; f < Faces; f++ {
		face := &planetv1.Face{Id: int32(f), Center: point(g.Center[f])}
		for k := 0; k < 5; k++ {
			face.Vertices = append(face.Vertices, int32(g.FaceVertex[f][k]))
			face.Neighbours = append(face.Neighbours, int32(g.FaceNeighbour[f][k]))
			face.Areas = append(face.Areas, int32(AreaOf(f, k)))
		}
		c.Faces = append(c.Faces, face)
	}
	for a := 0; a < Areas; a++ {
		area := &planetv1.Area{Id: int32(a), Face: int32(a / 5), Edge: int32(a % 5)}
		for _, v := range g.AreaCorners(a) {
			area.Corners = append(area.Corners, point(v))
		}
		for _, n := range g.AreaNeighbour[a] {
			area.Neighbours = append(area.Neighbours, int32(n))
		}
		c.Areas = append(c.Areas, area)
	}
	d := Default
	for i, t := range d.Tiles {
		c.Tiles = append(c.Tiles, tileProto(i, t))
	}
	for i, a := range d.Animals {
		c.Animals = append(c.Animals, animalProto(i, a))
	}
	for i := range d.Objectives {
		c.Objectives = append(c.Objectives, objectiveProto(&d.Objectives[i]))
	}
	for _, n := range d.Layout {
		c.Layout = append(c.Layout, int32(n))
	}
	return c
}
