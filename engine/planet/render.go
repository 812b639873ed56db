package planet

import (
	"math/bits"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// Render is the text form of Observe(seat). It is drawn from the observation itself, so it
// can show nothing the observation does not hold.
func (s *state) Render(seat engine.Seat) string {
	// The observation lives only while its text is drawn: it is built in recycled blocks.
	mem := renderBlocks.Get().(*blocks)
	k := mem.reuse(s)
	text := RenderObservation(s.observe(&k, seat))
	renderBlocks.Put(mem)
	return text
}

// renderBlocks holds the memory of observations drawn by Render and then dropped.
var renderBlocks = sync.Pool{New: func() any { return new(blocks) }}

// RenderObservation writes an observation as a board a person or a language model can read.
// It appends to one buffer without fmt: the server draws it for every decision.
func RenderObservation(o *planetv1.Observation) string {
	b := AppendObservation(nil, o)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is nobody else's
}

// AppendObservation appends RenderObservation(o) to b.
func AppendObservation(b []byte, o *planetv1.Observation) []byte {
	b = slices.Grow(b, 4096)
	num := func(n int32) { b = appendInt(b, n) }
	str := func(s string) { b = append(b, s...) }
	str("Planet, turn ")
	num(o.Turn)
	str(" of ")
	num(o.LastTurn)
	str(", ")
	num(o.Seats)
	str(" seats; you are ")
	if o.Seat >= 0 {
		str("seat ")
		num(o.Seat)
	} else {
		str("spectator")
	}
	str(".")
	if o.Over {
		str(" The game is over: ")
		str(o.Result)
		str(".\n")
	} else {
		str(" Seat ")
		if len(o.ToAct) > 0 {
			num(o.ToAct[0])
		}
		str(" is to act; seat ")
		num(o.FirstPlayer)
		str(" holds the first-player token.\n")
	}
	switch {
	case o.Beginners && o.Mystery:
		str("Variants: beginners (no objectives, every animal scores 1), mystery animals.\n")
	case o.Beginners:
		str("Variants: beginners (no objectives, every animal scores 1).\n")
	case o.Mystery:
		str("Variants: mystery animals.\n")
	}
	str("Habitats: O ocean, D desert, M mountain, F forest, G glacier, . empty. Tiles list their 5 areas clockwise; tile area i lands on face edge (i+rot) mod 5.\n")

	if len(o.Display) > 0 {
		str("\nDisplay (stack ")
		num(o.Turn)
		str("):\n")
		for _, t := range o.Display {
			str("  tile ")
			num(t.Id)
			str(": ")
			for i, h := range t.Areas {
				if i > 0 {
					b = append(b, ' ')
				}
				str(habitatName(h))
			}
			str("\n")
		}
	}
	tiles := func(ts []*planetv1.Tile) {
		for _, t := range ts {
			str(" t")
			num(t.Id)
			b = append(b, ' ')
			b = appendLetters(b, t.Areas)
		}
	}
	if len(o.Stacks) > 0 {
		str("Stacks to come:")
		for _, st := range o.Stacks {
			str(" ")
			num(st.Number)
			str(" (")
			num(st.Size)
			if st.Number <= TileStacks {
				str(" face down)")
			} else {
				str(":")
				tiles(st.Tiles)
				str(")")
			}
		}
		str("\n")
	}
	if len(o.Box) > 0 {
		str("Tiles in the box:")
		tiles(o.Box)
		str("\n")
	}

	animals := func(as []*planetv1.AnimalCard) {
		for i, a := range as {
			if i > 0 {
				str(";")
			}
			b = append(b, ' ')
			b = appendAnimal(b, a)
		}
	}
	if len(o.Columns) > 0 {
		str("\nAnimals to win (resolved at the end of their turn):\n")
		for _, c := range o.Columns {
			str("  turn ")
			num(c.Turn)
			str(":")
			animals(c.Cards)
			if c.FaceDown > 0 {
				str(" + ")
				num(c.FaceDown)
				str(" face down")
			}
			if len(c.Cards) == 0 && c.FaceDown == 0 {
				str(" none")
			}
			str("\n")
		}
	}
	if len(o.Returned) > 0 {
		str("Back in the box, unwon:")
		for _, a := range o.Returned {
			b = append(b, ' ')
			b = appendAnimal(b, a)
			b = append(b, ';')
		}
		str("\n")
	}

	for _, p := range o.Planets {
		str("\nSeat ")
		num(p.Seat)
		if p.Seat == o.Seat {
			str(" (you)")
		}
		str(": ")
		num(int32(len(p.Tiles)))
		str(" tiles")
		if o.Over {
			str(", ")
			num(p.Score)
			str(" points (objective ")
			num(p.ObjectivePoints)
			str(", animals ")
			num(p.AnimalPoints)
			str(")")
		}
		str("\n")
		if p.Objective != nil {
			str("  objective ")
			str(habitatName(p.Objective.Habitat))
			str(":")
			for _, st := range p.Objective.Steps {
				str(" ")
				num(st.Areas)
				str("+ areas ")
				num(st.Points)
				str("pt")
			}
			str("\n")
		}
		if len(p.Animals) > 0 {
			str("  animals:")
			animals(p.Animals)
			str("\n")
		}
		str("  faces:")
		var of habitatSets // the planet's areas of each habitat, for its regions
		for f := 0; f < Faces; f++ {
			str(faceLabel[f])
			for i := AreaOf(f, 0); i < AreaOf(f+1, 0) && i < len(p.Areas); i++ {
				if h := p.Areas[i]; h >= 0 && h <= planetv1.Habitat(Glacier) {
					b = append(b, Habitat(h).Letter())
					of[h] |= 1 << i
				}
			}
		}
		b = append(b, '\n')
		var sv Survey
		for h := Ocean; h <= Glacier; h++ {
			n := bits.OnesCount64(of[h])
			if n == 0 {
				continue
			}
			str("  ")
			str(h.String())
			b = append(b, ' ')
			num(int32(n))
			str(" areas, regions:")
			from := sv.N
			sv.measure(&of, h)
			for _, r := range sv.Regions[from:sv.N] {
				b = append(b, ' ')
				num(int32(r.Size))
				if r.Touch != 0 {
					str(" (touches")
					for y := Ocean; y <= Glacier; y++ {
						if r.Touches(y) {
							b = append(b, ' ', y.Letter())
						}
					}
					b = append(b, ')')
				}
			}
			b = append(b, '\n')
		}
	}
	if !o.Over {
		str(faceAdjacency)
	}
	return b
}

// appendInt appends n in decimal; most numbers in the text are below 100.
func appendInt(b []byte, n int32) []byte {
	switch {
	case n >= 0 && n < 10:
		return append(b, byte('0'+n))
	case n >= 10 && n < 100:
		return append(b, byte('0'+n/10), byte('0'+n%10))
	}
	return strconv.AppendInt(b, int64(n), 10)
}

// faceLabel is " f:" for each face.
var faceLabel = func() (l [Faces]string) {
	for f := range l {
		l[f] = " " + strconv.Itoa(f) + ":"
	}
	return l
}()

// faceAdjacency is the closing lines of every running game's text: the dodecahedron's face
// adjacency and the action's form, the same for every game.
var faceAdjacency = func() string {
	b := []byte("\nFace adjacency (face: the faces across edges 0-4):")
	for f := 0; f < Faces; f++ {
		b = append(b, faceLabel[f]...)
		for k := 0; k < 5; k++ {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(Geo.FaceNeighbour[f][k]), 10)
		}
	}
	return string(append(b, "\nAction: tile T face F rot R\n"...))
}()

// SurfaceOf reads a planet message's areas back into a Surface.
func SurfaceOf(p *planetv1.Planet) Surface {
	var s Surface
	for i, h := range p.GetAreas() {
		if i < Areas && h >= 0 && h <= planetv1.Habitat(Glacier) {
			s[i] = Habitat(h)
		}
	}
	return s
}

func habitatName(h planetv1.Habitat) string {
	if h < 0 || h > planetv1.Habitat(Glacier) {
		return "habitat?"
	}
	return Habitat(h).String()
}

func appendLetters(b []byte, hs []planetv1.Habitat) []byte {
	for _, h := range hs {
		if h >= 0 && h <= planetv1.Habitat(Glacier) {
			b = append(b, Habitat(h).Letter())
		} else {
			b = append(b, '?')
		}
	}
	return b
}

// appendAnimal writes "Name #id (requirement)".
func appendAnimal(b []byte, a *planetv1.AnimalCard) []byte {
	b = append(b, a.Name...)
	b = append(b, " #"...)
	b = appendInt(b, a.Id)
	b = append(b, " ("...)
	b = append(b, a.Requirement...)
	return append(b, ')')
}

// RenderObservation draws an observation this state produced; see engine.ObservationRenderer.
func (s *state) RenderObservation(obs proto.Message) string {
	return RenderObservation(obs.(*planetv1.Observation))
}

// AppendObservation draws an observation this state produced; see engine.ObservationAppender.
func (s *state) AppendObservation(dst []byte, obs proto.Message) []byte {
	return AppendObservation(dst, obs.(*planetv1.Observation))
}

var (
	_ engine.ObservationRenderer = (*state)(nil)
	_ engine.ObservationAppender = (*state)(nil)
)
