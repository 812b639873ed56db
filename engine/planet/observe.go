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
	return s.observe(&k, seat)
}

// observe builds seat's view from k's blocks.
func (s *state) observe(k *blocks, seat engine.Seat) *planetv1.Observation {
	o := &take(&k.obs, 1)[0]
	o.Seat, o.Seats, o.Turn, o.LastTurn, o.FirstPlayer = int32(seat), int32(s.seats), int32(s.turn), int32(s.opt.lastTurn), int32(s.first)
	o.Display, o.Box = k.tiles(s, s.display[:s.displayN]), k.tiles(s, s.box[:s.boxN])
	o.Beginners, o.Mystery, o.Over = s.opt.beginners, s.opt.mystery, s.over
	o.RotateFirstPlayer, o.MysteryAhead = s.opt.rotate, int32(s.opt.ahead)
	if !s.over {
		o.ToAct = take(&k.toAct, 1)
		o.ToAct[0] = int32(s.toAct())
	} else {
		o.Result = s.result.Detail
	}
	if s.turn < TurnsPerGame {
		stacks := take(&k.stacks, TurnsPerGame-int(s.turn))
		o.Stacks = take(&k.stackRefs, len(stacks))
		for i := s.turn; i < TurnsPerGame; i++ { // stacks turn+1..12
			st := &stacks[i-s.turn]
			st.Number, st.Size = int32(i+1), int32(s.stackN[i])
			if i >= TileStacks {
				st.Tiles = k.tiles(s, s.stacks[i][:s.stackN[i]])
			}
			o.Stacks[i-s.turn] = st
		}
	}
	o.Planets = take(&k.planetRefs, int(s.seats))
	for seat2 := range o.Planets {
		o.Planets[seat2] = s.planetProto(k, seat, seat2)
	}
	o.Columns = s.columnsProto(k)
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

// blocks hands out an observation's messages and lists from one allocation of each kind,
// sized for the whole observation: Observe runs for every decision.
type blocks struct {
	obs        []planetv1.Observation
	toAct      []int32
	stacks     []planetv1.Stack
	stackRefs  []*planetv1.Stack
	planetRefs []*planetv1.Planet
	cols       []planetv1.Column
	colRefs    []*planetv1.Column
	habitats   []planetv1.Habitat
	planets    []planetv1.Planet
	placed     []planetv1.PlacedTile
	onFaces    []*planetv1.PlacedTile
	tileRefs   []*planetv1.Tile
	cards      []*planetv1.AnimalCard
}

// blockSizes is how much of each kind an observation of s takes.
type blockSizes struct{ stacks, cols, placed, tiles int }

func (s *state) blockSizes() blockSizes {
	z := blockSizes{
		stacks: max(TurnsPerGame-int(s.turn), 0),
		tiles:  int(s.displayN) + int(s.boxN) + int(s.stackN[10]) + int(s.stackN[11]),
	}
	if first := max(s.turn, FirstAnimalTurn); !s.over && s.opt.lastTurn >= first {
		z.cols = int(s.opt.lastTurn-first) + 1
	}
	for seat := 0; seat < int(s.seats); seat++ {
		z.placed += int(s.planets[seat].placed)
	}
	return z
}

// newBlocks allocates blocks for one observation of s, to be handed out with it.
func (s *state) newBlocks() blocks {
	z := s.blockSizes()
	return blocks{
		obs:        make([]planetv1.Observation, 1),
		toAct:      make([]int32, 1),
		stacks:     make([]planetv1.Stack, z.stacks),
		stackRefs:  make([]*planetv1.Stack, z.stacks),
		planetRefs: make([]*planetv1.Planet, s.seats),
		cols:       make([]planetv1.Column, z.cols),
		colRefs:    make([]*planetv1.Column, z.cols),
		habitats:   make([]planetv1.Habitat, Areas*int(s.seats)),
		planets:    make([]planetv1.Planet, s.seats),
		placed:     make([]planetv1.PlacedTile, z.placed),
		onFaces:    make([]*planetv1.PlacedTile, z.placed),
		tileRefs:   make([]*planetv1.Tile, z.tiles),
		cards:      make([]*planetv1.AnimalCard, len(s.cards)),
	}
}

// reuse hands out m's memory, cleared, as blocks for one observation of s: for a view that
// lives only while its text is drawn (Render), so that drawing allocates only the text.
func (m *blocks) reuse(s *state) blocks {
	z := s.blockSizes()
	return blocks{
		obs:        recycle(&m.obs, 1),
		toAct:      recycle(&m.toAct, 1),
		stacks:     recycle(&m.stacks, z.stacks),
		stackRefs:  recycle(&m.stackRefs, z.stacks),
		planetRefs: recycle(&m.planetRefs, int(s.seats)),
		cols:       recycle(&m.cols, z.cols),
		colRefs:    recycle(&m.colRefs, z.cols),
		habitats:   recycle(&m.habitats, Areas*int(s.seats)),
		planets:    recycle(&m.planets, int(s.seats)),
		placed:     recycle(&m.placed, z.placed),
		onFaces:    recycle(&m.onFaces, z.placed),
		tileRefs:   recycle(&m.tileRefs, z.tiles),
		cards:      recycle(&m.cards, len(s.cards)),
	}
}

// recycle is the first n items of *mem, cleared, growing it first if it is short.
func recycle[T any](mem *[]T, n int) []T {
	if cap(*mem) < n {
		*mem = make([]T, n)
	}
	out := (*mem)[:n]
	clear(out)
	return out
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
	cols := take(&k.cols, int(s.opt.lastTurn-first)+1)
	out := take(&k.colRefs, len(cols))
	// Two passes over the cards: count each column's face-up cards, then list them.
	var up [TurnsPerGame + 1]int
	for i := range s.cards {
		if c := &s.cards[i]; c.turn >= first && c.turn <= s.opt.lastTurn && c.open() {
			if c.faceDown {
				cols[c.turn-first].FaceDown++
			} else {
				up[c.turn]++
			}
		}
	}
	for t := first; t <= s.opt.lastTurn; t++ {
		col := &cols[t-first]
		col.Turn = int32(t)
		if up[t] > 0 {
			col.Cards = take(&k.cards, up[t])[:0]
		}
		out[t-first] = col
	}
	for i := range s.cards {
		if c := &s.cards[i]; c.turn >= first && c.turn <= s.opt.lastTurn && c.open() && !c.faceDown {
			col := &cols[c.turn-first]
			col.Cards = append(col.Cards, s.animalProto(c.id))
		}
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
		sc := s.scores()[seat]
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
