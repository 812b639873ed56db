package fccatan

import (
	"cmp"
	"math/bits"
	"slices"
)

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

// spots is the grids of a match's piles (within reach) and hoops (within their radius).
type spots struct {
	piles, hoops grid
}

func newSpots(f *Field, reach int32) spots {
	var at []Vec
	var r []int32
	for _, p := range f.Piles {
		at, r = append(at, p.Pos), append(r, reach)
	}
	piles := newGrid(f.Width, f.Height, at, r)
	at, r = at[:0], r[:0]
	for _, h := range f.Hoops {
		at, r = append(at, h.Center), append(r, h.Radius)
	}
	return spots{piles: piles, hoops: newGrid(f.Width, f.Height, at, r)}
}

// next takes the lowest id from mask m.
func next(m *uint16) int {
	k := bits.TrailingZeros16(*m)
	*m &= *m - 1
	return k
}

// pileOrder is, for each cell of the grid, the piles of each resource in the order a point of
// the cell measures them: by the least distance from any point of the cell, nearest first. A
// point looking for the nearest pile of a resource with a ball stops at the first pile that no
// point of the cell is near enough to beat or tie, so it measures one or two of a resource's
// piles instead of all, and finds what a scan of every pile finds, the lowest id on ties.
// Every free player's options ask for the nearest pile of each resource on every tick.
type pileOrder struct {
	cols, rows int32
	n          int             // piles on the map
	from       [numRes + 1]int // a cell's piles of resource r are at from[r]:from[r+1] of its run
	runs       []pileBound     // cell c's run is runs[c*n : c*n+n]
}

// pileBound is a pile, and the least squared distance to it from a point of one cell.
type pileBound struct {
	pos   Vec
	least int64
	id    int
}

func newPileOrder(f *Field) pileOrder {
	o := pileOrder{cols: f.Width>>cellShift + 1, rows: f.Height>>cellShift + 1, n: len(f.Piles)}
	for _, p := range f.Piles {
		o.from[p.Resource+1]++
	}
	for r := 0; r < numRes; r++ {
		o.from[r+1] += o.from[r]
	}
	o.runs = make([]pileBound, int(o.cols*o.rows)*o.n)
	for y := int32(0); y < o.rows; y++ {
		for x := int32(0); x < o.cols; x++ {
			x0, y0 := x<<cellShift, y<<cellShift
			c := int(y*o.cols+x) * o.n
			run, fill := o.runs[c:c+o.n], o.from
			for k, p := range f.Piles {
				near := Vec{min(max(p.Pos.X, x0), x0+1<<cellShift-1), min(max(p.Pos.Y, y0), y0+1<<cellShift-1)}
				run[fill[p.Resource]] = pileBound{pos: p.Pos, least: dist2(near, p.Pos), id: k}
				fill[p.Resource]++
			}
			for r := 0; r < numRes; r++ {
				slices.SortFunc(run[o.from[r]:o.from[r+1]], func(a, b pileBound) int {
					return cmp.Or(cmp.Compare(a.least, b.least), cmp.Compare(a.id, b.id))
				})
			}
		}
	}
	return o
}

// cell is p's run of piles, ok false off the grid.
func (o *pileOrder) cell(p Vec) (run []pileBound, ok bool) {
	x, y := p.X>>cellShift, p.Y>>cellShift
	if p.X < 0 || p.Y < 0 || x >= o.cols || y >= o.rows {
		return nil, false
	}
	c := int(y*o.cols+x) * o.n
	return o.runs[c : c+o.n], true
}
