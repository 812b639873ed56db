package fccatan

import "math"

// --- Distance queries: the nearest pile, hoop or opponent.

// nearestPile is the nearest pile of r with a ball, or -1.
func (s *State) nearestPile(p Vec, r Resource) int {
	best, bestD := -1, int64(0)
	for k, spot := range s.c.field.Piles {
		if d := dist2(p, spot.Pos); spot.Resource == r && s.piles[k] > 0 && (best < 0 || d < bestD) {
			best, bestD = k, d
		}
	}
	return best
}

// nearestHoop is the nearest hoop owned by owner (-1: free) holding building b, or -1.
func (s *State) nearestHoop(p Vec, owner int, b int8) int {
	best, bestD := -1, int64(0)
	for h := range s.c.field.Hoops {
		if int(s.owner[h]) != owner || s.building[h] != b {
			continue
		}
		if d := dist2(p, s.c.field.Hoops[h].Center); best < 0 || d < bestD {
			best, bestD = h, d
		}
	}
	return best
}

// nearestOpponent is the nearest free opponent of team t (a carrier if carriers), the lowest
// ref on ties, or -1. A knight's options ask for the nearest opponent only when no opponent
// carries a ball (the nearest carrier is measured among the carriers, gathered once a list).
func (s *State) nearestOpponent(p Vec, t int, carriers bool) ref {
	best, bestD := ref(-1), int64(math.MaxInt64)
	for u := range s.teams[:s.c.teams] {
		if u == t {
			continue
		}
		tm := &s.teams[u]
		for j := range tm.av[:tm.size] {
			v := &tm.av[j]
			if v.frozen || carriers && v.carry == noRes {
				continue
			}
			if d := dist2(p, v.pos); d < bestD {
				best, bestD = ref(u*maxAvatars+j), d
			}
		}
	}
	return best
}

// nearestFree is nearestOpponent(p, t, false) in a loop with fewer values live: a knight's
// options ask for it when no opponent carries a ball.
func (s *State) nearestFree(p Vec, t int) ref {
	best, bestD := ref(-1), int64(math.MaxInt64)
	px, py := int64(p.X), int64(p.Y)
	for u := range s.teams[:s.c.teams] {
		if u == t {
			continue
		}
		tm := &s.teams[u]
		for j := range tm.av[:tm.size] {
			v := &tm.av[j]
			if v.frozen {
				continue
			}
			dx, dy := int64(v.pos.X)-px, int64(v.pos.Y)-py
			if d := dx*dx + dy*dy; d < bestD {
				best, bestD = ref(u*maxAvatars+j), d
			}
		}
	}
	return best
}

// nearestPiles is nearestPile of every resource, given which piles have balls (State.pileSets):
// every free player's options ask for the four on every tick. The table gives the piles that
// can be nearest from p's grid cell, most often one; off the grid (or on a map the table does
// not serve), every pile is scanned.
func (s *State) nearestPiles(p Vec, sets *[numRes]int) [numRes]int {
	cell := s.pileCell(p)
	if cell < 0 {
		return s.scanPiles(p)
	}
	var best [numRes]int
	for r, set := range sets {
		best[r] = s.nearestPileAt(p, cell|set)
	}
	return best
}

// pileCell is where p's cell's entries of the pile table begin (a set of pileSets is added to
// it), or -1 off the grid or on a map the table does not serve.
func (s *State) pileCell(p Vec) int {
	tb := &s.c.field.nearest
	x, y := p.X>>cellShift, p.Y>>cellShift
	if tb.cands == nil || p.X < 0 || p.Y < 0 || x >= tb.cols || y >= tb.rows {
		return -1
	}
	return int(y*tb.cols+x) * numRes << maxPilesOfRes
}

// nearestPileAt is the nearest pile from p among the candidates of the pile table's entry at,
// the lowest id on ties, or -1. Most entries hold one pile or none, and nothing is measured.
func (s *State) nearestPileAt(p Vec, at int) int {
	if k := int(s.c.field.nearest.one[at]); k != severalPiles {
		return k
	}
	return s.measurePiles(p, at)
}

// measurePiles is nearestPileAt for an entry of several candidates.
func (s *State) measurePiles(p Vec, at int) int {
	best, bestD := -1, int64(math.MaxInt64)
	for m := s.c.field.nearest.cands[at]; m != 0; {
		k := next(&m)
		if d := dist2(p, s.c.field.Piles[k].Pos); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// pileSets is, for each resource, where in a cell's entries of the pile table the set of its
// piles with a ball is.
func (s *State) pileSets() [numRes]int {
	var sets [numRes]int
	s.readPileSets(&sets)
	return sets
}

// readPileSets writes pileSets to sets: a list reads them in place, as an array returned is
// copied out by wide loads that wait for its stores.
func (s *State) readPileSets(sets *[numRes]int) {
	var m uint16
	for k, n := range s.piles[:len(s.c.field.Piles)] {
		if n > 0 {
			m |= 1 << (k & (maxPiles - 1))
		}
	}
	tb := &s.c.field.nearest
	for r := range sets {
		sets[r] = r<<maxPilesOfRes | int(m>>tb.first[r]&tb.sets[r])
	}
}

// scanPiles is nearestPiles in one pass over every pile.
func (s *State) scanPiles(p Vec) [numRes]int {
	best := [numRes]int{-1, -1, -1, -1}
	var bestD [numRes]int64
	piles := s.c.field.Piles
	for k := range piles {
		if s.piles[k] <= 0 {
			continue
		}
		spot := &piles[k]
		if d, r := dist2(p, spot.Pos), spot.Resource; best[r] < 0 || d < bestD[r] {
			best[r], bestD[r] = k, d
		}
	}
	return best
}

// freePlayers is the players not frozen by a tag, gathered once a tick for the knights' tags,
// by column of the field: a column is at least a reach wide, so a knight measures only the
// players of its column and the two beside it (most often a few, or none), not every player,
// and no branch asks of each player whether it is near.
type freePlayers struct {
	pos   [maxTeams * maxAvatars]Vec // by ref
	cols  [maxCols + 2]uint16        // bit r: player r is free and in the column (the first and last stay empty)
	shift uint                       // a column is 2^shift cm wide (spots.colShift)
	n     int                        // columns
}

// maxCols is the most columns a field is cut into.
const maxCols = 62

func (l *freePlayers) gather(s *State) {
	shift, n := s.c.spots.colShift, s.c.spots.cols
	l.shift, l.n = shift, n
	for u := range s.teams[:s.c.teams] {
		tm := &s.teams[u]
		for j := range tm.av[:tm.size] {
			if v := &tm.av[j]; !v.frozen {
				r := u*maxAvatars + j
				c := 1 + min(max(int(v.pos.X>>shift), 0), n-1) // col, with the geometry in registers
				l.pos[r&(len(l.pos)-1)] = v.pos
				l.cols[c&(len(l.cols)-1)] |= 1 << r
			}
		}
	}
}

// col is where in cols the column of x is: off the field, the column at its edge, so players
// within a reach of each other stand in the same column or neighbouring ones wherever they are.
func (l *freePlayers) col(x int32) int { return 1 + min(max(int(x>>l.shift), 0), l.n-1) }

// nearestWithin is the nearest free opponent of team t at most reach from p, the lowest ref on
// ties, or -1.
func (l *freePlayers) nearestWithin(p Vec, t int, reach int32) ref {
	r2 := int64(reach) * int64(reach)
	best, bestD := ref(-1), r2+1
	c := l.col(p.X)
	own := uint16(1<<maxAvatars-1) << (t * maxAvatars) // team t's players
	m := (l.cols[c-1] | l.cols[c] | l.cols[c+1]) &^ own
	for m != 0 {
		k := next(&m)
		q := l.pos[k&(len(l.pos)-1)]
		dx, dy := int64(q.X)-int64(p.X), int64(q.Y)-int64(p.Y)
		if d := dx*dx + dy*dy; d < bestD {
			best, bestD = ref(k), d
		}
	}
	return best
}

// carriers is the free opponents of one team carrying a ball, in ref order, gathered at the
// team's first free knight: every knight's options ask for the nearest carrier on every tick,
// and a list of the few carriers is measured faster than every opponent once a knight.
type carriers struct {
	pos      [maxTeams * maxAvatars]Vec
	who      [maxTeams * maxAvatars]ref
	n        int
	gathered bool
}

func (c *carriers) gather(s *State, t int) {
	c.n, c.gathered = 0, true
	for u := range s.teams[:s.c.teams] {
		if u == t {
			continue
		}
		tm := &s.teams[u]
		for j := range tm.av[:tm.size] {
			if v := &tm.av[j]; !v.frozen && v.carry != noRes {
				k := c.n & (len(c.pos) - 1)
				c.pos[k], c.who[k] = v.pos, ref(u*maxAvatars+j)
				c.n++
			}
		}
	}
}

// nearest is nearestOpponent(p, t, true) for the team c was gathered for.
func (c *carriers) nearest(p Vec) ref {
	best, bestD := ref(-1), int64(math.MaxInt64)
	for k := range c.pos[:c.n] {
		if d := dist2(p, c.pos[k]); d < bestD {
			best, bestD = c.who[k], d
		}
	}
	return best
}
