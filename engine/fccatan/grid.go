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
	for y := int32(0); y < g.rows; y++ {
		for x := int32(0); x < g.cols; x++ {
			x0, y0 := x<<cellShift, y<<cellShift
			var m uint16
			for i, c := range at {
				// The point of the cell nearest the spot's centre.
				near := Vec{min(max(c.X, x0), x0+1<<cellShift-1), min(max(c.Y, y0), y0+1<<cellShift-1)}
				if within(near, c, r[i]) {
					m |= 1 << i
				}
			}
			g.cells[y*g.cols+x] = m
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
