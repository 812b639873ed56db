package fccatan

import "math/bits"

// cellShift sets a grid cell's side, 2^cellShift cm: a cell should be about a reach or a hoop
// across, so most cells are near nothing.
const cellShift = 8

// grid lists, for each cell of a coarse grid over the field, the spots (piles or hoops, by id
// as bits of a mask) within their radius of some point of the cell. A tick asks, for every
// running player, which pile is within reach and which hoop it stands in; the grid answers
// "none" for most players without measuring a distance, and the candidates it gives are
// measured exactly as a scan of every spot would, in id order.
type grid struct {
	cols, rows int32
	cells      []uint16
	all        uint16 // every spot: the answer off the grid
}

// newGrid is the grid of spots with centres at[i] and radii r[i] over a field of w x h cm.
func newGrid(w, h int32, at []Vec, r []int32) grid {
	g := grid{cols: w>>cellShift + 1, rows: h>>cellShift + 1, all: uint16(1<<len(at) - 1)}
	g.cells = make([]uint16, g.cols*g.rows)
	for i, c := range at {
		// Only the cells that the spot's bounding square touches can be within its radius.
		for y := max((c.Y-r[i])>>cellShift, 0); y <= min((c.Y+r[i])>>cellShift, g.rows-1); y++ {
			for x := max((c.X-r[i])>>cellShift, 0); x <= min((c.X+r[i])>>cellShift, g.cols-1); x++ {
				// The point of the cell nearest the spot's centre.
				x0, y0 := x<<cellShift, y<<cellShift
				near := Vec{min(max(c.X, x0), x0+1<<cellShift-1), min(max(c.Y, y0), y0+1<<cellShift-1)}
				if within(near, c, r[i]) {
					g.cells[y*g.cols+x] |= 1 << i
				}
			}
		}
	}
	return g
}

// near is the mask of spots that p may be within the radius of: every spot off the grid.
func (g *grid) near(p Vec) uint16 {
	x, y := p.X>>cellShift, p.Y>>cellShift
	if p.X < 0 || p.Y < 0 || x >= g.cols || y >= g.rows {
		return g.all
	}
	return g.cells[y*g.cols+x]
}

// spots is the grids of a match's piles (within reach) and hoops (within their radius), and
// the columns the knights' tags cut the field into (freePlayers): the narrowest at least a reach
// wide, few enough for the field.
type spots struct {
	piles, hoops grid
	colShift     uint // a column is 2^colShift cm wide
	cols         int
}

func newSpots(f *Field, reach int32) spots {
	var at [max(maxPiles, maxHoops)]Vec // on the stack: a match is made for every game
	var r [len(at)]int32
	for k, p := range f.Piles {
		at[k], r[k] = p.Pos, reach
	}
	piles := newGrid(f.Width, f.Height, at[:len(f.Piles)], r[:len(f.Piles)])
	for h, hp := range f.Hoops {
		at[h], r[h] = hp.Center, hp.Radius
	}
	sp := spots{piles: piles, hoops: newGrid(f.Width, f.Height, at[:len(f.Hoops)], r[:len(f.Hoops)])}
	sp.colShift = uint(bits.Len32(uint32(reach - 1)))
	for f.Width>>sp.colShift >= maxCols {
		sp.colShift++
	}
	sp.cols = int(f.Width>>sp.colShift) + 1
	return sp
}

// next takes the lowest id from mask m.
func next(m *uint16) int {
	k := bits.TrailingZeros16(*m)
	*m &= *m - 1
	return k
}

// maxPilesOfRes is the most piles of one resource that pileTable serves: it keeps an entry for
// every set of a resource's piles that have balls.
const maxPilesOfRes = 4

// pileTable answers "the nearest pile of resource r with a ball" for every grid cell and every
// set of r's piles that have balls: it holds the piles of the set that can be nearest from some
// point of the cell, leaving out a pile when another pile of the set is nearer from every point
// of the cell. Most entries hold one pile, the answer without measuring a distance; the rest are
// measured in id order, the lowest id winning ties, as a scan of every pile does. Every free
// player's options ask for the nearest pile of each resource on every tick.
type pileTable struct {
	cols, rows int32
	of         [numRes][]int  // the piles of each resource, in id order
	first      [numRes]uint8  // of[r] are the ids first[r] onward
	sets       [numRes]uint16 // the mask of a set of n piles of r: 1<<n - 1
	cands      []uint16       // at (cell*numRes+r)<<maxPilesOfRes | set: the candidates, by pile id
	one        []int8         // at the same index: the one candidate, noPile or severalPiles
}

// A pile table's entry with no candidate or with several, to be measured.
const (
	noPile       = -1
	severalPiles = -2
)

// newPileTable is f's table, or an empty one (every pile is scanned) if a resource has more
// than maxPilesOfRes piles or its piles are not listed one after another.
func newPileTable(f *Field) pileTable {
	t := pileTable{cols: f.Width>>cellShift + 1, rows: f.Height>>cellShift + 1}
	for k, p := range f.Piles {
		t.of[p.Resource] = append(t.of[p.Resource], k)
	}
	for r, ids := range t.of {
		if len(ids) > maxPilesOfRes || len(ids) > 0 && ids[len(ids)-1]-ids[0] != len(ids)-1 {
			return pileTable{}
		}
		if len(ids) > 0 {
			t.first[r], t.sets[r] = uint8(ids[0]), 1<<len(ids)-1
		}
	}
	t.cands = make([]uint16, int(t.cols*t.rows)*numRes<<maxPilesOfRes)
	t.one = make([]int8, len(t.cands))
	const side = 1 << cellShift
	for c := range int(t.cols * t.rows) {
		x0, y0 := int32(c)%t.cols*side, int32(c)/t.cols*side
		for r, ids := range t.of {
			// The least and the most squared distance from a point of the cell to each pile.
			var least, most [maxPilesOfRes]int64
			for j, k := range ids {
				p := f.Piles[k].Pos
				least[j] = dist2(Vec{min(max(p.X, x0), x0+side-1), min(max(p.Y, y0), y0+side-1)}, p)
				far := Vec{x0, y0}
				if p.X-x0 < x0+side-1-p.X {
					far.X = x0 + side - 1
				}
				if p.Y-y0 < y0+side-1-p.Y {
					far.Y = y0 + side - 1
				}
				most[j] = dist2(far, p)
			}
			base := (c*numRes + r) << maxPilesOfRes
			for set := 0; set < 1<<len(ids); set++ {
				var m uint16
				for j, k := range ids {
					beaten := set&(1<<j) == 0
					for i := range ids {
						beaten = beaten || set&(1<<i) != 0 && most[i] < least[j]
					}
					if !beaten {
						m |= 1 << k
					}
				}
				t.cands[base+set], t.one[base+set] = m, severalPiles
				switch bits.OnesCount16(m) {
				case 0:
					t.one[base+set] = noPile
				case 1:
					t.one[base+set] = int8(bits.TrailingZeros16(m))
				}
			}
		}
	}
	return t
}
