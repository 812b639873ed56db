package planet

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestRegions_FastPathsAgreeWithSurvey: the playout's shortcuts (the habitat sets, the areas
// next to them and the regions kept as tiles are laid, each card judged on the kept regions,
// the settled cards and the later columns skipped, Legal from a table and a kept list of free
// faces) give what the plain definitions give, on every planet at every step of seeded random
// games, for every card of the deck.
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
				checkKeptRegions(t, p, func() string { return fmt.Sprintf("seed %d turn %d seat %d", seed, s.turn, seat) })
				var sv Survey
				sv.Measure(&p.surface)
				for _, a := range s.d.Animals {
					var value, qualifying [maxSeats]int
					a.Req.judge(s.planets[seat:seat+1], &value, &qualifying)
					if v, q := value[0], qualifying[0]; v != sv.Value(a.Req) || q != sv.Qualifying(a.Req) {
						t.Fatalf("seed %d turn %d seat %d, %s: judged value %d, %d qualifying; the survey says %d, %d",
							seed, s.turn, seat, a.Req, v, q, sv.Value(a.Req), sv.Qualifying(a.Req))
					}
				}
			}
			// All planets at once: the best, how many have it and the last of them, as the
			// survey has them, and the value and the regions meeting the card of those tied.
			var sv [maxSeats]Survey
			for seat := range s.planets[:s.seats] {
				sv[seat].Measure(&s.planets[seat].surface)
			}
			for _, a := range s.d.Animals {
				var value, qualifying [maxSeats]int
				best, nbest, who := a.Req.judge(s.planets[:s.seats], &value, &qualifying)
				wantBest, wantN, wantWho := 0, 0, -1
				for seat := range s.planets[:s.seats] {
					switch v := sv[seat].Value(a.Req); {
					case v > wantBest:
						wantBest, wantN, wantWho = v, 1, seat
					case v == wantBest:
						wantN++
					}
				}
				if best != wantBest || nbest != wantN || who != wantWho {
					t.Fatalf("seed %d turn %d, %s: judged best %d, %d planets, the last %d; the survey says %d, %d, %d",
						seed, s.turn, a.Req, best, nbest, who, wantBest, wantN, wantWho)
				}
				for seat := range s.planets[:s.seats] {
					v, q := sv[seat].Value(a.Req), sv[seat].Qualifying(a.Req)
					if v == best && (value[seat] != v || qualifying[seat] != q) || v < best && value[seat] >= best {
						t.Fatalf("seed %d turn %d seat %d, %s: judged value %d, %d qualifying, the best %d; the survey says %d, %d",
							seed, s.turn, seat, a.Req, value[seat], qualifying[seat], best, v, q)
					}
				}
			}
			for i, c := range s.cards[:s.settled] {
				if c.open() {
					t.Fatalf("seed %d turn %d: card %d of %d is open, before the %d settled", seed, s.turn, i, len(s.cards), s.settled)
				}
			}
			for i := 1; i < int(s.laid); i++ {
				if s.cards[i].turn < s.cards[i-1].turn {
					t.Fatalf("seed %d turn %d: laid-out card %d is of column %d, after one of column %d", seed, s.turn, i, s.cards[i].turn, s.cards[i-1].turn)
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

// TestRegions_KeptOnTilesOfEveryMix: the surface, the habitat sets, the areas next to them and
// the regions put keeps are the tiles' and as the flood fill finds them, as random tiles of
// every mix (runs that wrap around a face, five habitats on one tile) are laid in random order
// on random faces in random rotations.
func TestRegions_KeptOnTilesOfEveryMix(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for n := 0; n < 3000; n++ {
		var p core
		p.clear()
		d := &Data{Tiles: make([]Tile, 1), runs: make([][5]tileRuns, 1)}
		var want Surface
		for _, f := range r.Perm(Faces) {
			for i := range d.Tiles[0] {
				d.Tiles[0][i] = Ocean + Habitat(r.IntN(1+n%int(Habitats)))
			}
			d.runs[0] = runsOf(d.Tiles[0])
			rot := r.IntN(5)
			p.put(f, 0, d, rot)
			if want.Place(f, d.Tiles[0], rot); p.surface != want {
				t.Fatalf("tile %v on face %d, rotation %d: surface %v, want %v", d.Tiles[0], f, rot, p.surface, want)
			}
			if of := p.surface.sets(); p.sets != of {
				t.Fatalf("surface %v: kept habitat sets %x, want %x", p.surface, p.sets, of)
			}
			for h := Ocean; h <= Glacier; h++ {
				if want := neighbours(p.sets[h]); p.near[h] != want {
					t.Fatalf("surface %v: kept areas next to %v %x, want %x", p.surface, h, p.near[h], want)
				}
			}
			checkKeptRegions(t, &p, func() string { return fmt.Sprintf("surface %v", p.surface) })
		}
	}
}

// TestApply_AtOnceAgreesWithCheck: the placements Apply takes at once are those check takes,
// and play the same, for the legal actions of seeded random games and for actions a little
// off them (another kind, a fourth argument, a tile not on display, a face taken or out of
// range, a rotation out of range).
func TestApply_AtOnceAgreesWithCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for seed := uint64(1); seed <= 4; seed++ {
		s := newGame(t, 2+int(seed%3), seed, nil)
		var legal []engine.Action
		for !s.over {
			seat := s.toAct()
			legal = s.Legal(seat, legal[:0])
			for n := 0; n < 20; n++ {
				a := legal[r.IntN(len(legal))]
				switch r.IntN(7) {
				case 1:
					a.Kind++
				case 2:
					a.Arg[3+r.IntN(12)] = int16(1 + r.IntN(3))
				case 3:
					a.Arg[0] = int16(r.IntN(TileCount + 2))
				case 4:
					a.Arg[1] = int16(r.IntN(Faces+4) - 2)
				case 5:
					a.Arg[2] = int16(r.IntN(9) - 2)
				case 6:
					a.Arg[0], a.Arg[1], a.Arg[2] = int16(r.IntN(1<<15)), int16(-r.IntN(1<<15)), int16(r.IntN(1<<15))
				}
				applied, checked := s.Clone().(*state), s.Clone().(*state)
				err := applied.Apply(seat, a)
				slot, want := checked.check(seat, a)
				if (err == nil) != (want == nil) || err != nil && err.Error() != want.Error() {
					t.Fatalf("seed %d turn %d, %v: Apply says %v, check %v", seed, s.turn, a, err, want)
				}
				if err != nil && !bytes.Equal(marshal(t, applied), marshal(t, s)) {
					t.Fatalf("seed %d turn %d, %v: Apply refused it (%v) but changed the state", seed, s.turn, a, err)
				}
				if err == nil {
					checked.place(seat, slot, a.Arg[0], int(a.Arg[1]), int(a.Arg[2]))
					if x, y := marshal(t, applied), marshal(t, checked); !bytes.Equal(x, y) {
						t.Fatalf("seed %d turn %d, %v: Apply played otherwise than check and place", seed, s.turn, a)
					}
				}
			}
			if err := s.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func marshal(t *testing.T, s *state) []byte {
	t.Helper()
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
