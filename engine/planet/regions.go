package planet

import "math/bits"

// Each planet keeps its regions as tiles are laid. Areas are only ever added, so a region only
// grows or joins others: each run of a tile (areas next to each other around its face, of one
// habitat) takes in the areas and regions of its habitat that it borders, and is one region.
// Most runs border none. Two runs of one habitat on a face do not border each other, so that
// any order gives the same regions. An area on its own (two in five regions) is in no list:
// it is an area of its habitat not next to one, which the habitat sets tell at once.

// maxRegions bounds one habitat's regions of two areas or more on a planet. Take two areas
// next to each other in each: their other 4 neighbours are 4 areas (no 3 areas are each next
// to the other two, see TestGeometry_NoThreeAreasAllNeighbours) taken by no other region, and
// each of the 60-2k areas not taken has 3 neighbours, so 4k <= 3(60-2k), and k <= 18.
const maxRegions = 18

// tileRuns is a tile in one rotation: its habitat at each edge of the face, and its runs,
// each one's habitat, edges as 5 bits and their number.
type tileRuns struct {
	face Tile
	n    uint8
	run  [5]struct {
		h     Habitat
		edges uint8
		size  uint8
	}
}

// runsOf is tile t's runs in each rotation: a run starts at each edge whose habitat is not
// the one before it around the face, or is the whole face.
func runsOf(t Tile) (rs [5]tileRuns) {
	for rot := range rs {
		var face Tile // tile area i lies at edge (i+rot) mod 5
		for i, h := range t {
			face[(i+rot)%5] = h
		}
		r := &rs[rot]
		r.face = face
		for e := range 5 {
			if face[e] == face[(e+4)%5] {
				continue
			}
			run := uint8(1) << e
			for k := (e + 1) % 5; face[k] == face[e]; k = (k + 1) % 5 {
				run |= 1 << k
			}
			r.run[r.n].h, r.run[r.n].edges, r.run[r.n].size = face[e], run, uint8(bits.OnesCount8(run))
			r.n++
		}
		if r.n == 0 {
			r.run[0].h, r.run[0].edges, r.run[0].size, r.n = face[0], 31, 5, 1
		}
	}
	return rs
}

// regionList is one habitat's regions of two areas or more on a planet: each one's areas and
// their number, and the largest number.
type regionList struct {
	n, max int8
	size   [maxRegions]uint8
	area   [maxRegions]uint64
}

// put lays tile id on a free face with the given rotation, and keeps the free list, the
// habitat sets, the areas next to them and the regions.
func (p *core) put(face int, id int16, d *Data, rot int) {
	p.tile[face], p.rot[face] = id, int8(rot)
	p.placed++
	// The face leaves the free list: it is the i-th free face, i the free faces before it.
	base := AreaOf(face, 0)
	i := 4 * bits.OnesCount64(p.sets[None]&firstAreas&(1<<base-1))
	before := uint64(1)<<i - 1
	p.free = p.free&before | p.free>>4&^before
	p.sets[None] &^= 0x1f << base
	runs := &d.runs[id][rot]
	*(*Tile)(p.surface[base:]) = runs.face
	unit := uint64(1) << base // a multiply by it places a face's 5 bits
	next := &runNeighbours[face]
	for _, run := range runs.run[:runs.n&7] {
		h, region, near := run.h&7, uint64(run.edges)*unit, &next[run.edges&31]
		bordered := near.across & p.sets[h] // its habitat's areas across the face's edges
		p.sets[h] |= region
		p.near[h] |= near.all
		if bordered == 0 && run.size == 1 {
			continue // an area on its own
		}
		rs := &p.regions[h-1]
		n, size := int(rs.n), run.size
		if bordered != 0 {
			// The run takes in the areas it borders, and the regions of the list they are
			// in leave it.
			region |= bordered
			k := 0
			for i, r := range rs.area[:n] {
				borders := b2i(r&bordered != 0)
				region |= r & -uint64(borders)
				rs.area[k], rs.size[k] = r, rs.size[i]
				k += 1 - borders
			}
			n, size = k, uint8(bits.OnesCount64(region))
		}
		rs.area[n], rs.size[n] = region, size
		rs.n, rs.max = int8(n+1), max(rs.max, int8(size))
	}
}

// runNeighbours is, for each face and each set of its edges as 5 bits, the areas next to
// those areas: all, and those across the face's edges.
var runNeighbours = func() (t [Faces][32]struct{ all, across uint64 }) {
	for f := range t {
		for m := range t[f] {
			for e := 0; e < 5; e++ {
				if m&(1<<e) != 0 {
					t[f][m].all |= neighbourSet[AreaOf(f, e)]
				}
			}
			t[f][m].across = t[f][m].all &^ (0x1f << AreaOf(f, 0))
		}
	}
	return t
}()

// judge is Value and Qualifying of q on each planet, from its kept regions, and the best value,
// how many planets have it and the last of them: the origin of life asks it for every card.
// A planet whose largest region of X is below the best value so far can neither win the card
// nor tie for it: it is not judged (one in five is not), and its value is 0, below the best,
// and so is its qualifying count.
func (q Requirement) judge(planets []core, value, qualifying *[maxSeats]int) (best, nbest, who int) {
	planets = planets[:min(len(planets), maxSeats)]
	x, most := q.X&7, q.Kind == MostRegions
	who = -1
	for seat := range planets {
		p := &planets[seat]
		v, k := 0, 0
		// Its largest region: the largest in the list, or an area on its own.
		if most || int(p.regions[x-1].max) >= best || best == 1 && p.sets[x]&^p.near[x] != 0 {
			v, k = p.meets(q)
		}
		value[seat], qualifying[seat] = v, k
		if v > best {
			best, nbest, who = v, 1, seat
		} else if v == best {
			nbest++
		}
	}
	return best, nbest, who
}

// meets is Value and Qualifying of q on p.
func (p *core) meets(q Requirement) (value, qualifying int) {
	x := q.X & 7
	rs, alone := &p.regions[x-1], p.sets[x]&^p.near[x]
	if q.Kind == MostRegions {
		n := int(rs.n) + bits.OnesCount64(alone)
		return n, n
	}
	// A region counts when whether it touches Y (holds an area next to a Y area) is what the
	// kind wants.
	nearY, not := p.near[q.Y&7], b2i(q.Kind != LargestTouching)
	qualifying = bits.OnesCount64(alone & (nearY ^ -uint64(not)))
	value = min(qualifying, 1)
	areas, sizes := rs.area[:rs.n], rs.size[:rs.n]
	for i, r := range areas {
		counts := b2i(r&nearY != 0) ^ not
		qualifying += counts
		value = max(value, int(sizes[i])&-counts)
	}
	return value, qualifying
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
