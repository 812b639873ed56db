package planet

// Surface is the habitat of each of a planet's 60 areas (None where no tile lies yet).
type Surface [Areas]Habitat

// Place lays tile t on face with the given rotation: tile area i goes on the face's edge
// (i+rotation) mod 5 [rule: Geometry, placement].
func (s *Surface) Place(face int, t Tile, rotation int) {
	for i, h := range t {
		s[AreaOf(face, (i+rotation)%5)] = h
	}
}

// Count is the number of areas of habitat h.
func (s *Surface) Count(h Habitat) int {
	n := 0
	for _, x := range s {
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

// Measure finds the regions of s by flood fill over the areas' shared edges.
func (sv *Survey) Measure(s *Surface) {
	var seen [Areas]bool
	var stack [Areas]int8
	sv.N = 0
	for start := range s {
		h := s[start]
		if h == None || seen[start] {
			continue
		}
		r := Region{Habitat: h}
		seen[start] = true
		stack[0] = int8(start)
		top := 1
		for top > 0 {
			top--
			a := stack[top]
			r.Size++
			for _, n := range Geo.AreaNeighbour[a] {
				switch nh := s[n]; {
				case nh == h:
					if !seen[n] {
						seen[n] = true
						stack[top] = int8(n)
						top++
					}
				case nh != None:
					r.Touch |= 1 << nh
				}
			}
		}
		sv.Regions[sv.N] = r
		sv.N++
	}
}

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
