package planet

import "math/bits"

// Surface is the habitat of each of a planet's 60 areas (None where no tile lies yet).
type Surface [Areas]Habitat

// Place lays tile t on face with the given rotation: tile area i goes on the face's edge
// (i+rotation) mod 5 [rule: Geometry, placement].
func (s *Surface) Place(face int, t Tile, rotation int) {
	for i, h := range t {
		s[AreaOf(face, (i+rotation)%5)] = h
	}
}

// Count is the number of areas of habitat h, 8 areas at a time: the scoring of each planet
// asks it. An area of h is a zero byte of the surface XOR h in every byte; a byte is zero when
// adding 0x7f to its low 7 bits carries nothing into its top bit and its top bit is clear.
func (s *Surface) Count(h Habitat) int {
	const low7, top = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	every := uint64(h) * 0x0101010101010101
	n := 0
	for i := 0; i+8 <= len(s); i += 8 {
		w := s[i : i+8 : i+8] // one load: the compiler joins the 8 bytes
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		x ^= every
		n += bits.OnesCount64(^((x&low7 + low7) | x) & top)
	}
	for _, x := range s[len(s)/8*8:] {
		if x == h {
			n++
		}
	}
	return n
}

// Region is a maximal connected set of areas of one habitat [rule: Geometry, regions].
type Region struct {
	Habitat Habitat
	Size    int8
	// Touch has bit h set when an area of the region is adjacent to an area of habitat h
	// [rule: Geometry, touching].
	Touch uint8
}

// Touches reports whether the region touches habitat h.
func (r Region) Touches(h Habitat) bool { return r.Touch&(1<<h) != 0 }

// Survey is a planet's regions, measured once and asked many requirements. It holds no
// pointers, so a zero Survey on the stack costs no allocation.
type Survey struct {
	N       int
	Regions [Areas]Region
}

// Measure finds the regions of s by flood fill over the areas' shared edges, a whole frontier
// at a time: each habitat's areas are one 60-bit set, so a region grows by OR-ing its
// frontier's neighbour sets. Regions come by habitat, then by their lowest area.
func (sv *Survey) Measure(s *Surface) {
	of := s.sets()
	sv.N = 0
	for h := Ocean; h <= Glacier; h++ {
		sv.measure(&of, h)
	}
}

// habitatSets is each habitat's areas as a set of areas (index None: the empty areas). It has
// room for every 3-bit habitat, so that a habitat masked to 3 bits needs no bounds check.
type habitatSets [8]uint64

func (s *Surface) sets() (of habitatSets) {
	for a, h := range s {
		of[h&7] |= 1 << a
	}
	return of
}

// measure appends the regions of habitat h.
func (sv *Survey) measure(of *habitatSets, h Habitat) {
	mask := of[h]
	for left := mask; left != 0; {
		// The seed's neighbours come from the one-area table; a larger frontier's a byte at a time.
		region := left & -left
		reach := neighbourSet[bits.TrailingZeros64(region)]
		frontier := reach & mask &^ region
		region |= frontier
		for frontier != 0 {
			grow := neighbourSet[bits.TrailingZeros64(frontier)&63]
			if frontier&(frontier-1) != 0 {
				grow = neighbours(frontier)
			}
			reach |= grow
			frontier = grow & mask &^ region
			region |= frontier
		}
		left &^= region
		// The habitats the region touches, without branches: (t|-t)>>63 is 1 when t != 0.
		var touch uint8
		for y := Ocean; y <= Glacier; y++ {
			t := reach & of[y]
			touch |= uint8((t|-t)>>63) << y
		}
		sv.Regions[sv.N] = Region{Habitat: h, Size: int8(bits.OnesCount64(region)), Touch: touch &^ (1 << h)}
		sv.N++
	}
}

// neighbours is the set of areas next to an area of set a, looked up a byte of a at a time:
// a fixed cost, without a loop over a's areas.
func neighbours(a uint64) uint64 {
	t := &neighbourByte
	return t[0][byte(a)] | t[1][byte(a>>8)] | t[2][byte(a>>16)] | t[3][byte(a>>24)] |
		t[4][byte(a>>32)] | t[5][byte(a>>40)] | t[6][byte(a>>48)] | t[7][byte(a>>56)]
}

// neighbourSet is each area's 3 neighbours as a set of areas.
var neighbourSet = func() (set [Areas]uint64) {
	for a, ns := range Geo.AreaNeighbour {
		for _, n := range ns {
			set[a] |= 1 << n
		}
	}
	return set
}()

// neighbourByte[i][v] is the neighbours of the areas 8i..8i+7 whose bits are set in v.
var neighbourByte = func() (t [8][256]uint64) {
	for i := range t {
		for v := range t[i] {
			for k := 0; k < 8; k++ {
				if a := 8*i + k; v&(1<<k) != 0 && a < Areas {
					t[i][v] |= neighbourSet[a]
				}
			}
		}
	}
	return t
}()

// qualifies reports whether region r counts for requirement q.
func (q Requirement) qualifies(r Region) bool {
	if r.Habitat != q.X {
		return false
	}
	switch q.Kind {
	case LargestTouching:
		return r.Touches(q.Y)
	case LargestNotTouching:
		return !r.Touches(q.Y)
	}
	return true
}

// Value is how well the planet meets q: its number of X regions, or the size of its largest
// qualifying X region; 0 means it does not qualify [rule: The origin of life, requirements].
func (sv *Survey) Value(q Requirement) int {
	v := 0
	for _, r := range sv.Regions[:sv.N] {
		if !q.qualifies(r) {
			continue
		}
		if q.Kind == MostRegions {
			v++
		} else if int(r.Size) > v {
			v = int(r.Size)
		}
	}
	return v
}

// Qualifying is the number of distinct regions that meet q, the count the last turn's
// tie-break looks at: a second or third region meeting the requirement elsewhere.
func (sv *Survey) Qualifying(q Requirement) int {
	n := 0
	for _, r := range sv.Regions[:sv.N] {
		if q.qualifies(r) {
			n++
		}
	}
	return n
}
