package planet

import (
	"sort"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// Observe is seat's view: everything public (every planet, the display, stacks 11 and 12,
// the box, the face-up animals) and the seat's own objective [rule: Hidden information].
func (s *state) Observe(seat engine.Seat) proto.Message {
	o := &planetv1.Observation{
		Seat:        int32(seat),
		Seats:       int32(s.seats),
		Turn:        int32(s.turn),
		LastTurn:    int32(s.opt.lastTurn),
		FirstPlayer: int32(s.first),
		Display:     s.tilesProto(s.display[:s.displayN]),
		Box:         s.tilesProto(s.box[:s.boxN]),
		Beginners:   s.opt.beginners,
		Mystery:     s.opt.mystery,
		Over:        s.over,
	}
	if !s.over {
		o.ToAct = []int32{int32(s.toAct())}
	} else {
		o.Result = s.result.Detail
	}
	for i := s.turn; i < TurnsPerGame; i++ { // stacks turn+1..12
		st := &planetv1.Stack{Number: int32(i + 1), Size: int32(s.stackN[i])}
		if i >= TileStacks {
			st.Tiles = s.tilesProto(s.stacks[i][:s.stackN[i]])
		}
		o.Stacks = append(o.Stacks, st)
	}
	for seat2 := 0; seat2 < int(s.seats); seat2++ {
		o.Planets = append(o.Planets, s.planetProto(seat, seat2))
	}
	o.Columns = s.columnsProto()
	for i := range s.cards {
		if s.cards[i].returned {
			o.Returned = append(o.Returned, s.animalProto(s.cards[i].id))
		}
	}
	return o
}

// columnsProto lists the columns still to resolve, with face-down cards counted, not shown.
func (s *state) columnsProto() []*planetv1.Column {
	var cols []*planetv1.Column
	if s.over {
		return cols
	}
	for t := max(s.turn, FirstAnimalTurn); t <= s.opt.lastTurn; t++ {
		col := &planetv1.Column{Turn: int32(t)}
		for i := range s.cards {
			c := &s.cards[i]
			if c.turn != t || !c.open() {
				continue
			}
			if c.faceDown {
				col.FaceDown++
			} else {
				col.Cards = append(col.Cards, s.animalProto(c.id))
			}
		}
		cols = append(cols, col)
	}
	return cols
}

// planetProto is seat's planet as viewer sees it: the objective only for its owner, or for
// everyone once the game is over.
func (s *state) planetProto(viewer engine.Seat, seat int) *planetv1.Planet {
	p := &s.planets[seat]
	out := &planetv1.Planet{Seat: int32(seat), Areas: make([]planetv1.Habitat, Areas)}
	for f := 0; f < Faces; f++ {
		if p.tile[f] >= 0 {
			out.Tiles = append(out.Tiles, &planetv1.PlacedTile{Face: int32(f), Tile: s.tileProto(p.tile[f]), Rotation: int32(p.rot[f])})
		}
	}
	for a, h := range p.surface {
		out.Areas[a] = planetv1.Habitat(h)
	}
	for _, id := range s.wonBy(seat) {
		out.Animals = append(out.Animals, s.animalProto(id))
	}
	if p.objective >= 0 && (s.over || viewer == engine.Seat(seat)) {
		out.Objective = objectiveProto(&s.d.Objectives[p.objective])
	}
	if s.over {
		sc := s.score(seat)
		out.ObjectivePoints, out.AnimalPoints, out.Score = int32(sc.Objective), int32(sc.Animals), int32(sc.Total())
	}
	return out
}

// wonBy lists the cards seat won, in the order won.
func (s *state) wonBy(seat int) []int16 {
	var idx []int
	for i := range s.cards {
		if int(s.cards[i].owner) == seat {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return s.cards[idx[a]].seq < s.cards[idx[b]].seq })
	ids := make([]int16, len(idx))
	for k, i := range idx {
		ids[k] = s.cards[i].id
	}
	return ids
}

func (s *state) tileProto(id int16) *planetv1.Tile { return tileProto(int(id), s.d.Tiles[id]) }

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

func (s *state) animalProto(id int16) *planetv1.AnimalCard {
	return animalProto(int(id), s.d.Animals[id])
}

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
			o.Planets[seat].Objective = objectiveProto(&s.d.Objectives[p])
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
