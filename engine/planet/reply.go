package planet

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
)

// Reply is a search's model of how another seat places its tile: the placement the greedy bot
// (bots/planet) would make, scored as greedy scores it (the animals still to come against the
// other planets as they stand, its objective, its largest regions) but without re-measuring
// the planet for each of up to 300 placements. The planet is measured once per call; a
// placement's score then follows from the few regions the tile touches across its face's five
// edges, and each tile's best placement is remembered by position. The zero Reply is ready; it keeps buffers between calls, so once warm it does not
// allocate. It is not safe for concurrent use.
type Reply struct {
	// Drawn, if set, has a seat place uniformly at random on a display the sample drew (a
	// turn after the one the searching seat saw), not as greedy: greedy's placement costs
	// most there, where positions rarely repeat, and answers tiles nobody has seen.
	Drawn bool
	// DrawnTile, if set with Drawn, has the seat place the first tile of a drawn display (a
	// random one) where greedy would place it: a fifth of greedy's work, sensibly placed.
	DrawnTile bool

	mine   regionMap
	goals  []replyGoal
	change placementChange
	// moved lists the goals whose value a tile can change (one of its habitats is the
	// card's X or Y), and still is the others' share of the score, for the tile scored now.
	moved []int32
	still float64
	// best remembers, for a position, a seat and a tile on display, the tile's best
	// placement: the positions a search meets repeat (the other seats answer each of the
	// searching seat's few candidate moves alike), and a tile's best does not depend on the
	// other tiles on display. Direct-mapped by a hash of everything the score reads.
	best *[replyCache]bestPlacement
	// Placements whose tiles meet the planet alike score alike: on a face with no tile
	// around it, a tile's placements all score one score (isolated); on another face,
	// rotations that turn the same habitats to its occupied edges (rots).
	rots [5]struct {
		sig   uint16
		score float64
	}
}

// replyCache is how many tiles' best placements a Reply remembers.
const replyCache = 1 << 14

// bestPlacement is a tile's best placement in one position: its score, how many of the
// tile's placements share it, and one of them drawn at random.
type bestPlacement struct {
	key       uint64 // 0: empty
	score     float64
	ties      int32
	face, rot int8
}

// replyGoal is an open animal card: its requirement, what it is worth to the seat replying
// (points, less for each turn it is further away), the best value among the other planets,
// and the seat's value now.
type replyGoal struct {
	req    Requirement
	weight float64
	rival  int
	now    int
	term   float64 // the card's share of the score while the seat's value stays now
}

// regionMap is a planet's regions with the areas of each, so that a placement's neighbours
// can be found by area.
type regionMap struct {
	sf      Surface
	n       int
	region  [Areas]Region
	of      [Areas]int8 // the region of each area, -1 where empty
	byHab   [Glacier + 1]uint64
	count   [Glacier + 1]int  // areas of each habitat
	largest [Glacier + 1]int8 // each habitat's largest region
}

// measure finds sf's regions, as Survey.Measure does, and which region each area is in.
func (m *regionMap) measure(sf *Surface) {
	m.sf = *sf
	of := sf.sets()
	m.n = 0
	m.byHab = [Glacier + 1]uint64{}
	m.largest = [Glacier + 1]int8{}
	for a := range m.of {
		m.of[a] = -1
	}
	for h := Ocean; h <= Glacier; h++ {
		mask := of[h]
		m.count[h] = bits.OnesCount64(mask)
		for left := mask; left != 0; {
			region := left & -left
			reach := neighbourSet[bits.TrailingZeros64(region)]
			frontier := reach & mask &^ region
			region |= frontier
			for frontier != 0 {
				grow := neighbours(frontier)
				reach |= grow
				frontier = grow & mask &^ region
				region |= frontier
			}
			left &^= region
			var touch uint8
			for y := Ocean; y <= Glacier; y++ {
				if reach&of[y] != 0 {
					touch |= 1 << y
				}
			}
			size := int8(bits.OnesCount64(region))
			m.region[m.n] = Region{Habitat: h, Size: size, Touch: touch &^ (1 << h)}
			m.byHab[h] |= 1 << m.n
			m.largest[h] = max(m.largest[h], size)
			for rs := region; rs != 0; rs &= rs - 1 {
				m.of[bits.TrailingZeros64(rs)] = int8(m.n)
			}
			m.n++
		}
	}
}

// placementChange is what laying one tile does to a planet's regions: each habitat of the
// tile becomes one region, merged with the regions of that habitat across the face's edges;
// the other regions across them gain a touched habitat.
type placementChange struct {
	tile      Tile
	tileSize  [Glacier + 1]int    // each habitat's run on the tile
	tileTouch [Glacier + 1]uint8  // and the habitats it touches there
	tileHabs  uint8               // the habitats on the tile, as bits
	tileArea  [Glacier + 1]int    // areas of each habitat on the tile
	edgeHab   [5]Habitat          // the tile's habitat at each edge of the face
	size      [Glacier + 1]int    // the new region of each of the tile's habitats
	touch     [Glacier + 1]uint8  // and the habitats it touches
	merged    [Glacier + 1]uint64 // the old regions it swallows, as bits of region indices
	lost      uint64              // every merged old region
	changed   [Glacier + 1]uint64 // per habitat, old regions merged or gaining a touch
	gained    [Areas]uint8        // habitats an old region newly touches, by region
	gainedAt  [5]int8             // the regions with gains, to clear them after
	nGained   int
}

// faceOutside is, for each face, the area across each of its edges.
var faceOutside = func() (t [Faces][5]int) {
	for f := range t {
		for k := range t[f] {
			t[f][k] = Geo.AreaNeighbour[AreaOf(f, k)][0]
		}
	}
	return t
}()

// place works out c for tile t laid on face f with rotation rot over m's planet.
func (c *placementChange) place(m *regionMap, t *Tile, f, rot int) {
	if c.tile != *t {
		c.setTile(t)
	}
	for i := 0; i < c.nGained; i++ {
		c.gained[c.gainedAt[i]] = 0
	}
	c.nGained = 0
	c.size, c.touch = c.tileSize, c.tileTouch
	c.merged, c.changed = [Glacier + 1]uint64{}, [Glacier + 1]uint64{}
	c.lost = 0
	for i, h := range t {
		k := i + rot
		if k >= 5 {
			k -= 5
		}
		c.edgeHab[k] = h
	}
	for k := 0; k < 5; k++ {
		a := faceOutside[f][k]
		r := m.of[a]
		if r < 0 {
			continue
		}
		h, oh := c.edgeHab[k], m.sf[a]
		if oh == h {
			c.merged[h] |= 1 << r
			continue
		}
		c.touch[h] |= 1 << oh
		if m.region[r].Touch&(1<<h) == 0 && c.gained[r]&(1<<h) == 0 {
			if c.gained[r] == 0 {
				c.gainedAt[c.nGained] = r
				c.nGained++
			}
			c.gained[r] |= 1 << h
		}
	}
	for h := Ocean; h <= Glacier; h++ {
		if c.tileHabs&(1<<h) == 0 {
			continue
		}
		for rs := c.merged[h]; rs != 0; rs &= rs - 1 {
			r := bits.TrailingZeros64(rs)
			c.size[h] += int(m.region[r].Size)
			c.touch[h] |= m.region[r].Touch | c.gained[r]
		}
		c.touch[h] &^= 1 << h
		c.lost |= c.merged[h]
		c.changed[h] |= c.merged[h]
	}
	for i := 0; i < c.nGained; i++ {
		r := c.gainedAt[i]
		c.changed[m.region[r].Habitat] |= 1 << r
	}
}

// setTile reads what of t does not hang on where it lies.
func (c *placementChange) setTile(t *Tile) {
	c.tile, c.tileHabs = *t, 0
	c.tileArea = [Glacier + 1]int{}
	for _, h := range t {
		c.tileHabs |= 1 << h
		c.tileArea[h]++
	}
	for h := None; h <= Glacier; h++ {
		c.tileSize[h], c.tileTouch[h] = 0, 0
		if h != None && c.tileHabs&(1<<h) != 0 {
			// The habitats on a tile lie in one cycle, each in one run: every run touches
			// every other.
			c.tileSize[h] = c.tileArea[h]
			c.tileTouch[h] = c.tileHabs &^ (1 << h)
		}
	}
}

// value is the planet's value for q after the change, given its value before.
func (c *placementChange) value(m *regionMap, q Requirement, before int) int {
	x, y := q.X, q.Y
	if x > Glacier {
		return 0
	}
	has := c.tileHabs&(1<<x) != 0
	switch q.Kind {
	case MostRegions:
		if has {
			return before - bits.OnesCount64(c.merged[x]) + 1
		}
		return before
	case LargestTouching:
		// A merged region that qualified lives on in a larger one that still does.
		v := before
		if has && c.touch[x]&(1<<y) != 0 {
			v = max(v, c.size[x])
		}
		for rs := c.changed[x] &^ c.lost; rs != 0; rs &= rs - 1 {
			r := bits.TrailingZeros64(rs)
			if c.gained[r]&(1<<y) != 0 {
				v = max(v, int(m.region[r].Size))
			}
		}
		return v
	case LargestNotTouching:
		v := before
		if c.changed[x] != 0 {
			// A region that counted may have been merged or now touch y: count again.
			v = 0
			for rs := m.byHab[x]; rs != 0; rs &= rs - 1 {
				r := bits.TrailingZeros64(rs)
				if c.lost&(1<<r) == 0 && (m.region[r].Touch|c.gained[r])&(1<<y) == 0 {
					v = max(v, int(m.region[r].Size))
				}
			}
		}
		if has && c.touch[x]&(1<<y) == 0 {
			v = max(v, c.size[x])
		}
		return v
	}
	return 0
}

// Choose is the placement among legal that greedy would make for seat in st, ties drawn at
// random. legal must be every placement for seat, as st.Legal lists them.
func (p *Reply) Choose(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action {
	s := st.(*state)
	display := s.display[:s.displayN]
	if p.Drawn && s.known > 0 && s.turn > s.known {
		if !p.DrawnTile {
			return legal[r.IntN(len(legal))]
		}
		display = display[:1]
	}
	var free [Faces]int8
	nf := 0
	for f, t := range s.planets[seat].tile {
		if t < 0 {
			free[nf] = int8(f)
			nf++
		}
	}
	if p.best == nil {
		p.best = new([replyCache]bestPlacement)
	}
	key := s.replyKey(int(seat))
	prepared := false
	best := bestPlacement{score: math.Inf(-1)} // a copy: another tile may take e's slot
	bestTile, ties := int16(-1), int32(0)
	for _, tile := range display {
		k := mix64(key^uint64(tile)) | 1
		e := &p.best[k%replyCache]
		if e.key != k {
			if !prepared {
				p.prepare(s, int(seat))
				prepared = true
			}
			*e = p.bestOf(s, int(seat), tile, free[:nf], k)
			e.key = k
		}
		switch {
		case e.score > best.score+1e-9:
			best, bestTile, ties = *e, tile, e.ties
		case e.score > best.score-1e-9:
			if ties += e.ties; r.Int32N(ties) < e.ties {
				best, bestTile = *e, tile
			}
		}
	}
	if bestTile < 0 {
		return legal[0]
	}
	return placeByTile[bestTile][best.face][best.rot]
}

// bestOf is tile's best placement on seat's free faces, p prepared for seat; ties are drawn
// by a random stream of its own, seeded by key, so that what the Reply remembers is the
// same whatever it was asked before.
func (p *Reply) bestOf(s *state, seat int, tile int16, free []int8, key uint64) bestPlacement {
	var o *Objective
	obj := Habitat(None)
	if k := s.planets[seat].objective; k >= 0 {
		o = &s.d.Objectives[k]
		obj = o.Habitat
	}
	sf := &p.mine.sf
	p.sortGoals(&s.d.Tiles[tile])
	best := bestPlacement{score: math.Inf(-1)}
	isolated, isolatedSet := 0.0, false
	for _, f := range free {
		nRots := 0
		for rot := 0; rot < 5; rot++ {
			a := placeByTile[tile][f][rot]
			var sig uint16 // the tile's habitat at each occupied edge of the face, 3 bits an edge
			for k := 0; k < 5; k++ {
				if sf[faceOutside[f][k]] != None {
					i := k - rot
					if i < 0 {
						i += 5
					}
					sig |= uint16(s.d.Tiles[tile][i]) << (3 * k)
				}
			}
			score, found := 0.0, false
			if sig == 0 {
				if !isolatedSet {
					isolated, isolatedSet = p.score(s, a, o, obj), true
				}
				score, found = isolated, true
			}
			for _, x := range p.rots[:nRots] {
				if !found && x.sig == sig {
					score, found = x.score, true
				}
			}
			if !found {
				score = p.score(s, a, o, obj)
				p.rots[nRots].sig, p.rots[nRots].score = sig, score
				nRots++
			}
			switch {
			case score > best.score+1e-9:
				best = bestPlacement{score: score, ties: 1, face: f, rot: int8(rot)}
			case score > best.score-1e-9:
				key = mix64(key + 0x9e3779b97f4a7c15)
				if best.ties++; key%uint64(best.ties) == 0 {
					best.face, best.rot = f, int8(rot)
				}
			}
		}
	}
	return best
}

// replyKey is a hash of what greedy's score of seat's placements reads in s: the planets,
// the cards laid out (those face down by their place only), the turn, the seat, its
// objective, the variant and the last turn.
func (s *state) replyKey(seat int) uint64 {
	const prime = 1099511628211
	h := uint64(seat) | uint64(uint8(s.planets[seat].objective))<<8 | uint64(s.turn)<<16 | uint64(s.seats)<<24
	if s.opt.beginners {
		h |= 1 << 32
	}
	h |= uint64(uint8(s.opt.lastTurn)) << 40
	h *= prime
	for i := 0; i < int(s.seats); i++ {
		pl := &s.planets[i]
		for f := range pl.tile {
			h = (h ^ uint64(uint16(pl.tile[f]))<<8 ^ uint64(uint8(pl.rot[f]))) * prime
		}
	}
	for i := range s.cards {
		c := &s.cards[i]
		id := uint64(uint16(c.id))
		if c.faceDown {
			id = 1 << 16
		}
		x := id | uint64(uint8(c.turn))<<17 | uint64(uint8(c.owner))<<25
		if c.returned {
			x |= 1 << 33
		}
		h = (h ^ x) * prime
	}
	return h
}

// mix64 is splitmix64's finalizer: every bit of x stirs every bit of the result.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// prepare measures seat's planet and lists the open face-up cards as greedy sees them: by
// column, then in each column's order, against the best of the other planets.
func (p *Reply) prepare(s *state, seat int) {
	p.mine.measure(&s.planets[seat].surface)
	var rivals [maxSeats]Survey
	for i := 0; i < int(s.seats); i++ {
		if i != seat {
			rivals[i].Measure(&s.planets[i].surface)
		}
	}
	obj := Habitat(None)
	if k := s.planets[seat].objective; k >= 0 {
		obj = s.d.Objectives[k].Habitat
	}
	p.goals = p.goals[:0]
	if s.over {
		return
	}
	for t := max(s.turn, FirstAnimalTurn); t <= s.opt.lastTurn; t++ {
		urgency := math.Pow(evalDecay, float64(t-s.turn))
		for i := range s.cards {
			c := &s.cards[i]
			if c.turn != t || !c.open() || c.faceDown {
				continue
			}
			req := s.d.Animals[c.id].Req
			points := 2.0
			if s.opt.beginners || req.X == obj {
				points = 1
			}
			g := replyGoal{req: req, weight: points * urgency, now: p.mine.valueNow(req)}
			for j := 0; j < int(s.seats); j++ {
				if j != seat {
					g.rival = max(g.rival, rivals[j].Value(req))
				}
			}
			g.term = g.weight * chance(g.now, g.rival)
			p.goals = append(p.goals, g)
		}
	}
}

// valueNow is the planet's value for q as it stands.
func (m *regionMap) valueNow(q Requirement) int {
	v := 0
	for i := 0; i < m.n; i++ {
		if !q.qualifies(m.region[i]) {
			continue
		}
		if q.Kind == MostRegions {
			v++
		} else {
			v = max(v, int(m.region[i].Size))
		}
	}
	return v
}

// sortGoals fills moved and still for tile t: a card neither of whose habitats is on the
// tile keeps its value wherever the tile lies (its X regions neither merge nor meet Y anew).
func (p *Reply) sortGoals(t *Tile) {
	var habs uint8
	for _, h := range t {
		habs |= 1 << h
	}
	p.moved, p.still = p.moved[:0], 0
	for i := range p.goals {
		g := &p.goals[i]
		if habs&(1<<g.req.X) != 0 || g.req.Kind != MostRegions && habs&(1<<g.req.Y) != 0 {
			p.moved = append(p.moved, int32(i))
			continue
		}
		p.still += g.term
	}
}

// score is greedy's score of the planet after placement a (bots/planet, evaluator.score), for
// the tile sortGoals was given.
func (p *Reply) score(s *state, a engine.Action, o *Objective, obj Habitat) float64 {
	c := &p.change
	m := &p.mine
	t := &s.d.Tiles[a.Arg[0]]
	c.place(m, t, int(a.Arg[1]), int(a.Arg[2]))
	total := p.still
	for _, i := range p.moved {
		g := &p.goals[i]
		if c.tileHabs&(1<<g.req.X) == 0 && c.changed[g.req.X] == 0 {
			total += g.term // nothing of X changes
			continue
		}
		total += g.weight * chance(c.value(m, g.req, g.now), g.rival)
	}
	if o != nil {
		n := m.count[obj] + c.tileArea[obj]
		total += float64(o.Score(n)) + evalObjectiveArea*float64(n)
	}
	for h := None; h <= Glacier; h++ {
		l := int(m.largest[h])
		if h != None && c.tileHabs&(1<<h) != 0 {
			l = max(l, c.size[h])
		}
		total += evalShape * float64(l)
	}
	return total
}
