package planet

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestRegions_FastPathsAgreeWithSurvey: the playout's shortcuts (each card judged without
// listing regions, and only as far as the best planet so far needs, the habitat sets and the
// areas next to them kept as tiles are laid, Legal from a table and a kept list of free faces) give what the plain definitions give, on every planet at every step of seeded
// random games, for every card of the deck.
func TestRegions_FastPathsAgreeWithSurvey(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		opts := map[string]string{}
		if seed%2 == 0 {
			opts[OptMystery] = "true"
		}
		s := newGame(t, 2+int(seed%3), seed, opts)
		r := rand.New(rand.NewPCG(seed, 7))
		var legal []engine.Action
		for !s.over {
			for seat := 0; seat < int(s.seats); seat++ {
				p := &s.planets[seat]
				of := p.surface.sets()
				if p.sets != of {
					t.Fatalf("seed %d turn %d seat %d: kept habitat sets %x, the surface's %x", seed, s.turn, seat, p.sets, of)
				}
				for h := Ocean; h <= Glacier; h++ {
					if want := neighbours(of[h]); p.near[h] != want {
						t.Fatalf("seed %d turn %d seat %d: kept areas next to %v %x, want %x", seed, s.turn, seat, h, p.near[h], want)
					}
				}
				var sv Survey
				sv.Measure(&p.surface)
				for _, a := range s.d.Animals {
					v, q := a.Req.judge(p, 0)
					if v != sv.Value(a.Req) || q != sv.Qualifying(a.Req) {
						t.Fatalf("seed %d turn %d seat %d, %s: judged value %d, %d qualifying; the survey says %d, %d",
							seed, s.turn, seat, a.Req, v, q, sv.Value(a.Req), sv.Qualifying(a.Req))
					}
					for floor := 1; floor <= 12; floor++ {
						// Above a floor the value is exact; below it, it stays below.
						if v, _ := a.Req.judge(p, floor); v != sv.Value(a.Req) && (v >= floor || sv.Value(a.Req) >= floor) {
							t.Fatalf("seed %d turn %d seat %d, %s, floor %d: judged value %d; the survey says %d",
								seed, s.turn, seat, a.Req, floor, v, sv.Value(a.Req))
						}
					}
				}
			}
			seat := s.toAct()
			legal = s.Legal(seat, legal[:0])
			var want []engine.Action
			for _, tile := range s.display[:s.displayN] {
				for f := 0; f < Faces; f++ {
					if s.planets[seat].tile[f] < 0 {
						for rot := 0; rot < 5; rot++ {
							want = append(want, PlaceAction(int(tile), f, rot))
						}
					}
				}
			}
			if len(legal) != len(want) {
				t.Fatalf("seed %d turn %d: %d legal actions, want %d", seed, s.turn, len(legal), len(want))
			}
			for i := range want {
				if legal[i] != want[i] {
					t.Fatalf("seed %d turn %d: legal[%d] is %s, want %s", seed, s.turn, i, FormatAction(legal[i]), FormatAction(want[i]))
				}
			}
			if err := s.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestRegions_HabitatSetsOfEverySurface: the habitat sets, and the counts, are the areas of
// each habitat, on random surfaces of every mix.
func TestRegions_HabitatSetsOfEverySurface(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for n := 0; n < 2000; n++ {
		var s Surface
		for a := range s {
			s[a] = Habitat(r.IntN(int(Glacier) + 1))
		}
		var want habitatSets
		for a, h := range s {
			want[h] |= 1 << a
		}
		if got := s.sets(); got != want {
			t.Fatalf("surface %v: sets %x, want %x", s, got, want)
		}
		for h := None; h <= Glacier; h++ {
			if got, want := s.Count(h), bits.OnesCount64(want[h]); got != want {
				t.Fatalf("surface %v: %d areas of %v, want %d", s, got, h, want)
			}
		}
	}
}
