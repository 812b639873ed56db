package planet

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// Render is the text form of Observe(seat). It is drawn from the observation itself, so it
// can show nothing the observation does not hold.
func (s *state) Render(seat engine.Seat) string {
	return RenderObservation(s.Observe(seat).(*planetv1.Observation))
}

// RenderObservation writes an observation as a board a person or a language model can read.
func RenderObservation(o *planetv1.Observation) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	who := "spectator"
	if o.Seat >= 0 {
		who = fmt.Sprintf("seat %d", o.Seat)
	}
	w("Planet, turn %d of %d, %d seats; you are %s.", o.Turn, o.LastTurn, o.Seats, who)
	if o.Over {
		w(" The game is over: %s.\n", o.Result)
	} else {
		w(" Seat %d is to act; seat %d holds the first-player token.\n", o.ToAct[0], o.FirstPlayer)
	}
	var variants []string
	if o.Beginners {
		variants = append(variants, "beginners (no objectives, every animal scores 1)")
	}
	if o.Mystery {
		variants = append(variants, "mystery animals")
	}
	if len(variants) > 0 {
		w("Variants: %s.\n", strings.Join(variants, ", "))
	}
	w("Habitats: O ocean, D desert, M mountain, F forest, G glacier, . empty. Tiles list their 5 areas clockwise; tile area i lands on face edge (i+rot) mod 5.\n")

	if len(o.Display) > 0 {
		w("\nDisplay (stack %d):\n", o.Turn)
		for _, t := range o.Display {
			w("  tile %d: %s\n", t.Id, tileText(t))
		}
	}
	if len(o.Stacks) > 0 {
		w("Stacks to come:")
		for _, st := range o.Stacks {
			if st.Number <= TileStacks {
				w(" %d (%d face down)", st.Number, st.Size)
			} else {
				w(" %d (%d:", st.Number, st.Size)
				for _, t := range st.Tiles {
					w(" t%d %s", t.Id, letters(t.Areas))
				}
				w(")")
			}
		}
		w("\n")
	}
	if len(o.Box) > 0 {
		w("Tiles in the box:")
		for _, t := range o.Box {
			w(" t%d %s", t.Id, letters(t.Areas))
		}
		w("\n")
	}

	if len(o.Columns) > 0 {
		w("\nAnimals to win (resolved at the end of their turn):\n")
		for _, c := range o.Columns {
			w("  turn %d:", c.Turn)
			for i, a := range c.Cards {
				if i > 0 {
					w(";")
				}
				w(" %s", animalText(a))
			}
			if c.FaceDown > 0 {
				w(" + %d face down", c.FaceDown)
			}
			if len(c.Cards) == 0 && c.FaceDown == 0 {
				w(" none")
			}
			w("\n")
		}
	}
	if len(o.Returned) > 0 {
		w("Back in the box, unwon:")
		for _, a := range o.Returned {
			w(" %s;", animalText(a))
		}
		w("\n")
	}

	for _, p := range o.Planets {
		w("\nSeat %d", p.Seat)
		if p.Seat == o.Seat {
			w(" (you)")
		}
		w(": %d tiles", len(p.Tiles))
		if o.Over {
			w(", %d points (objective %d, animals %d)", p.Score, p.ObjectivePoints, p.AnimalPoints)
		}
		w("\n")
		if p.Objective != nil {
			w("  objective %s:", habitatName(p.Objective.Habitat))
			for _, st := range p.Objective.Steps {
				w(" %d+ areas %dpt", st.Areas, st.Points)
			}
			w("\n")
		}
		if len(p.Animals) > 0 {
			w("  animals:")
			for i, a := range p.Animals {
				if i > 0 {
					w(";")
				}
				w(" %s", animalText(a))
			}
			w("\n")
		}
		w("  faces:")
		for f := 0; f < Faces; f++ {
			w(" %d:", f)
			for k := 0; k < 5; k++ {
				if a := int(p.Areas[AreaOf(f, k)]); a <= int(Glacier) {
					b.WriteByte(Habitat(a).Letter())
				}
			}
		}
		w("\n")
		surface := SurfaceOf(p)
		var sv Survey
		sv.Measure(&surface)
		for h := Ocean; h <= Glacier; h++ {
			n := surface.Count(h)
			if n == 0 {
				continue
			}
			w("  %s %d areas, regions:", h, n)
			for _, r := range sv.Regions[:sv.N] {
				if r.Habitat != h {
					continue
				}
				w(" %d", r.Size)
				if r.Touch != 0 {
					w(" (touches")
					for y := Ocean; y <= Glacier; y++ {
						if r.Touches(y) {
							w(" %c", y.Letter())
						}
					}
					w(")")
				}
			}
			w("\n")
		}
	}
	if !o.Over {
		w("\nFace adjacency (face: the faces across edges 0-4):")
		for f := 0; f < Faces; f++ {
			w(" %d:", f)
			for k := 0; k < 5; k++ {
				if k > 0 {
					w(",")
				}
				w("%d", Geo.FaceNeighbour[f][k])
			}
		}
		w("\nAction: tile T face F rot R\n")
	}
	return b.String()
}

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

func letters(hs []planetv1.Habitat) string {
	out := make([]byte, len(hs))
	for i, h := range hs {
		out[i] = '?'
		if h >= 0 && h <= planetv1.Habitat(Glacier) {
			out[i] = Habitat(h).Letter()
		}
	}
	return string(out)
}

func tileText(t *planetv1.Tile) string {
	names := make([]string, len(t.Areas))
	for i, h := range t.Areas {
		names[i] = habitatName(h)
	}
	return strings.Join(names, " ")
}

func animalText(a *planetv1.AnimalCard) string {
	return fmt.Sprintf("%s #%d (%s)", a.Name, a.Id, a.Requirement)
}

// RenderObservation draws an observation this state produced; see engine.ObservationRenderer.
func (s *state) RenderObservation(obs proto.Message) string {
	return RenderObservation(obs.(*planetv1.Observation))
}

var _ engine.ObservationRenderer = (*state)(nil)
