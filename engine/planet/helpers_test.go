package planet

import (
	"errors"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// newGame starts a match through the registry, as the service does.
func newGame(t *testing.T, seats int, seed uint64, opts map[string]string) *state {
	t.Helper()
	st, err := engine.New("planet", engine.Config{Seats: seats, Seed: seed, Options: opts})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return st.(*state)
}

// playFirst applies the first legal action for the seat to act, n times.
func playFirst(t *testing.T, s *state, n int) {
	t.Helper()
	var legal []engine.Action
	for i := 0; i < n && !s.over; i++ {
		seat := s.toAct()
		legal = s.Legal(seat, legal[:0])
		if err := s.Apply(seat, legal[0]); err != nil {
			t.Fatalf("apply %s: %v", FormatAction(legal[0]), err)
		}
	}
}

// playTurns plays whole turns with first legal actions.
func playTurns(t *testing.T, s *state, turns int) {
	t.Helper()
	playFirst(t, s, turns*int(s.seats))
}

// observe is seat's typed observation.
func observe(s *state, seat engine.Seat) *planetv1.Observation {
	return s.Observe(seat).(*planetv1.Observation)
}

// hab reads a habitat letter.
func hab(c byte) Habitat {
	if i := strings.IndexByte(".ODMFG", c); i > 0 {
		return Habitat(i)
	}
	return None
}

// faceText sets face f of sf to five habitat letters, clockwise from edge 0.
func faceText(sf *Surface, f int, letters string) {
	for k := 0; k < 5; k++ {
		sf[AreaOf(f, k)] = hab(letters[k])
	}
}

// setSurface gives planet p the surface sf, as if its tiles had been laid.
func setSurface(p *core, sf Surface) {
	p.surface = sf
	p.sets = sf.sets()
	for h := range p.near {
		p.near[h] = neighbours(p.sets[h])
	}
	regions, n := floodRegions(&p.sets)
	for h := Ocean; h <= Glacier; h++ {
		rs := &p.regions[h-1]
		rs.n, rs.max = 0, 0
		for _, r := range regions[h-1][:n[h-1]] {
			if size := bits.OnesCount64(r); size > 1 { // an area on its own is in no list
				rs.area[rs.n], rs.size[rs.n] = r, uint8(size)
				rs.n, rs.max = rs.n+1, max(rs.max, int8(size))
			}
		}
	}
}

// floodRegions is each habitat's regions of the habitat sets by their definition: from each
// area not yet taken, every area of its habitat reached step by step. They come by their
// lowest area.
func floodRegions(of *habitatSets) (regions [Habitats][2 * Faces]uint64, n [Habitats]int8) {
	for h := Ocean; h <= Glacier; h++ {
		for left := of[h]; left != 0; {
			region := left & -left
			for {
				grown := region | neighbours(region)&of[h]
				if grown == region {
					break
				}
				region = grown
			}
			regions[h-1][n[h-1]] = region
			n[h-1]++
			left &^= region
		}
	}
	return regions, n
}

// checkKeptRegions fails t unless p's kept regions and their sizes are its habitat sets'
// regions of two areas or more as floodRegions finds them, in any order; where says where,
// when it fails.
func checkKeptRegions(t *testing.T, p *core, where func() string) {
	t.Helper()
	regions, n := floodRegions(&p.sets)
	for h := Ocean; h <= Glacier; h++ {
		rs := &p.regions[h-1]
		kept := slices.Clone(rs.area[:rs.n])
		largest := 0
		for i, r := range kept {
			if int(rs.size[i]) != bits.OnesCount64(r) {
				t.Fatalf("%s: kept %v region %x has size %d", where(), h, r, rs.size[i])
			}
			largest = max(largest, int(rs.size[i]))
		}
		if int(rs.max) != largest {
			t.Fatalf("%s: the largest kept %v region has %d areas, not the %d kept", where(), h, largest, rs.max)
		}
		slices.SortFunc(kept, func(a, b uint64) int { return bits.TrailingZeros64(a) - bits.TrailingZeros64(b) })
		want := slices.DeleteFunc(slices.Clone(regions[h-1][:n[h-1]]), func(r uint64) bool { return r&(r-1) == 0 })
		if !slices.Equal(kept, want) {
			t.Fatalf("%s: kept %v regions %x, want %x", where(), h, kept, want)
		}
	}
}

// edgeToward is the edge of face f that borders face g.
func edgeToward(t *testing.T, f, g int) int {
	t.Helper()
	for k, n := range Geo.FaceNeighbour[f] {
		if n == g {
			return k
		}
	}
	t.Fatalf("faces %d and %d are not neighbours", f, g)
	return -1
}

// blob lays x on all of face f and y on the one area of neighbour face g that borders f:
// a 5-area region of x touching y.
func blob(t *testing.T, sf *Surface, f, g int, x, y Habitat) {
	t.Helper()
	for k := 0; k < 5; k++ {
		sf[AreaOf(f, k)] = x
	}
	sf[AreaOf(g, edgeToward(t, g, f))] = y
}

// bigBlob lays a 9-area region of x touching y: all of face f, and 4 areas of its neighbour g
// (the fifth, away from f, is y).
func bigBlob(t *testing.T, sf *Surface, f, g int, x, y Habitat) {
	t.Helper()
	for k := 0; k < 5; k++ {
		sf[AreaOf(f, k)] = x
	}
	e := edgeToward(t, g, f)
	for k := 0; k < 5; k++ {
		sf[AreaOf(g, k)] = x
	}
	sf[AreaOf(g, (e+2)%5)] = y
}

// blobSpec is one region to lay: x touching only y, of 9 areas when big, else 5.
type blobSpec struct {
	x, y Habitat
	big  bool
}

// blobs lays out separate regions, each touching only its own y, searching the faces for a
// layout where no two of them meet; it checks the result with a Survey.
func blobs(t *testing.T, specs ...blobSpec) Surface {
	t.Helper()
	var try func(i int, sf Surface) (Surface, bool)
	try = func(i int, sf Surface) (Surface, bool) {
		if !blobsHold(sf, specs[:i]) {
			return sf, false
		}
		if i == len(specs) {
			return sf, true
		}
		for f := 0; f < Faces; f++ {
			for _, g := range Geo.FaceNeighbour[f] {
				next := sf
				if !blobFree(&next, f, g) {
					continue
				}
				if specs[i].big {
					bigBlob(t, &next, f, g, specs[i].x, specs[i].y)
				} else {
					blob(t, &next, f, g, specs[i].x, specs[i].y)
				}
				if out, ok := try(i+1, next); ok {
					return out, true
				}
			}
		}
		return sf, false
	}
	sf, ok := try(0, Surface{})
	if !ok {
		t.Fatalf("no layout for %v", specs)
	}
	return sf
}

// blobFree reports whether faces f and g are still empty.
func blobFree(sf *Surface, f, g int) bool {
	for k := 0; k < 5; k++ {
		if sf[AreaOf(f, k)] != None || sf[AreaOf(g, k)] != None {
			return false
		}
	}
	return true
}

// blobsHold reports whether sf is exactly the given separate regions and their y areas.
func blobsHold(sf Surface, specs []blobSpec) bool {
	var sv Survey
	sv.Measure(&sf)
	if sv.N != 2*len(specs) {
		return false
	}
	used := make([]bool, sv.N)
	for _, b := range specs {
		size := int8(5)
		if b.big {
			size = 9
		}
		found := false
		for i, r := range sv.Regions[:sv.N] {
			if !used[i] && !found && r.Habitat == b.x && r.Size == size && r.Touch == 1<<b.y {
				used[i], found = true, true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// cardID finds a built-in animal by name.
func cardID(t *testing.T, name string) int16 {
	t.Helper()
	for i, a := range Default.Animals {
		if a.Name == name {
			return int16(i)
		}
	}
	t.Fatalf("no animal %q", name)
	return -1
}

// layCards replaces the laid-out animals with the named cards, all in column turn.
func layCards(t *testing.T, s *state, turn int8, names ...string) {
	t.Helper()
	s.cards = s.cards[:0]
	for _, n := range names {
		s.cards = append(s.cards, card{id: cardID(t, n), turn: turn, owner: -1})
	}
	s.settled, s.laid = 0, 0 // none settled, and the order not known
}

// cardState finds a laid-out card by name.
func cardState(t *testing.T, s *state, name string) card {
	t.Helper()
	id := cardID(t, name)
	for _, c := range s.cards {
		if c.id == id {
			return c
		}
	}
	t.Fatalf("%s is not laid out", name)
	return card{}
}

// wantErr checks that err wraps want.
func wantErr(t *testing.T, err, want error, what string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: got %v, want %v", what, err, want)
	}
}
