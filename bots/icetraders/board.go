package icetraders

import (
	it "github.com/orrery/orrery/engine/icetraders"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// maxSeats bounds the seats of a match.
const maxSeats = 6

// board is what the scoring reads: the ships, the locations by id, the stash and the
// players' standing.
type board struct {
	ships     []it.ShipInfo
	locList   []it.LocInfo
	locs      []it.LocInfo // by id; an absent id has Marker.Size 0 and Hyper false
	seats     int
	placed    [maxSeats]bool
	everLarge [maxSeats]bool
	out       [maxSeats]bool
	medium    [4]int // the stash's medium pieces by color: a large ship's reduction
	// turns is each seat's turns taken, of turnCap: as a capped draw, worth nobody a win,
	// comes near, a threat weighs less and a hunt more (see late).
	turns   [maxSeats]int
	turnCap int
	dist    distances
}

func (b *board) indexLocs() {
	for i := range b.locs {
		b.locs[i] = it.LocInfo{}
	}
	for _, l := range b.locList {
		for int(l.ID) >= len(b.locs) {
			b.locs = append(b.locs, it.LocInfo{})
		}
		b.locs[l.ID] = l
	}
}

func (b *board) fromState(st *it.State) {
	b.ships = st.AppendShips(b.ships[:0])
	b.locList = st.AppendLocations(b.locList[:0])
	b.indexLocs()
	b.seats = min(st.Seats(), maxSeats)
	for i := 0; i < b.seats; i++ {
		b.placed[i], b.everLarge[i], b.out[i] = st.PlayerStatus(i)
	}
	for c := range b.medium {
		b.medium[c] = st.StashCount(it.Piece{Color: it.Color(c), Size: it.Medium})
	}
	for i := 0; i < b.seats; i++ {
		b.turns[i], b.turnCap = st.Turns(i)
	}
}

// late is how far seat is through the turn cap, 0 to 1.
func (b *board) late(seat int) float64 {
	if b.turnCap <= 0 {
		return 0
	}
	return min(1, float64(b.turns[seat])/float64(b.turnCap))
}

func pieceOf(p *pb.Piece) it.Piece {
	if p == nil {
		return it.Piece{}
	}
	return it.Piece{Color: it.Color(p.GetColor() - 1), Size: it.Size(p.GetSize())}
}

func (b *board) fromObservation(o *pb.Observation) {
	b.ships, b.locList = b.ships[:0], b.locList[:0]
	add := func(loc int32, ships []*pb.Ship) {
		for _, x := range ships {
			b.ships = append(b.ships, it.ShipInfo{ID: int16(x.GetId()), Loc: int16(loc), Owner: int8(x.GetOwner()), Piece: pieceOf(x.GetPiece())})
		}
	}
	for _, sys := range o.GetSystems() {
		b.locList = append(b.locList, it.LocInfo{ID: int16(sys.GetId()), Marker: pieceOf(sys.GetMarker()), Second: pieceOf(sys.GetSecondMarker())})
		add(sys.GetId(), sys.GetShips())
	}
	for _, h := range o.GetHyperspaces() {
		b.locList = append(b.locList, it.LocInfo{ID: int16(h.GetId()), Hyper: true})
		add(h.GetId(), h.GetShips())
	}
	b.indexLocs()
	b.seats = min(len(o.GetPlayers()), maxSeats)
	for i, p := range o.GetPlayers()[:b.seats] {
		b.placed[i], b.everLarge[i], b.out[i] = p.GetPlacedFirstShip(), p.GetEverLarge(), p.GetEliminated()
		b.turns[i] = int(p.GetTurnsTaken())
	}
	b.turnCap = int(o.GetTurnCap())
	b.medium = [4]int{}
	for _, sc := range o.GetStash() {
		if p := pieceOf(sc.GetPiece()); p.Size == it.Medium && p.Color < 4 {
			b.medium[p.Color] = int(sc.GetCount())
		}
	}
}

// hasPower reports whether a ship in l may use color c's power by l's markers.
func hasPower(l *it.LocInfo, c it.Color) bool {
	return !l.Hyper && (l.Marker.Color == c && l.Marker.Size != 0 || l.Second.Size != 0 && l.Second.Color == c)
}

// power reports whether ship x has color c's power where it is.
func (b *board) power(x *it.ShipInfo, c it.Color) bool {
	return x.Piece.Color == c || hasPower(&b.locs[x.Loc], c)
}

// score is the board's value for me, who is still playing.
func (b *board) score(me int) float64 {
	if me < 0 || me >= b.seats || b.out[me] {
		return -scoreWin
	}
	late := b.late(me)
	// critical counts each seat's critical ships: its large ships once it has had one, else
	// all its ships; last is the index of one of them.
	var critical, last [maxSeats]int
	score := 0.0
	for i := range b.ships {
		x := &b.ships[i]
		owner := int(x.Owner)
		if owner >= 0 && owner < b.seats && (!b.everLarge[owner] || x.Piece.Size == it.Large) {
			critical[owner]++
			last[owner] = i
		}
		if owner >= 0 && owner != me {
			score += scoreEnemy * float64(1+x.Piece.Size)
		}
		if owner != me {
			continue
		}
		score += scoreShip + scorePip*float64(x.Piece.Size)
		if x.Piece.Size == it.Large {
			score += scoreLarge
		}
		if b.power(x, it.Yellow) {
			score += scoreMobility
		}
		if b.power(x, it.Red) {
			score += scoreMobility
		}
		if b.power(x, it.Green) {
			score += scoreGrowth
		}
	}
	// Threats: an opponent ship that could, next turn, remove my last critical ship.
	if critical[me] == 1 {
		for q := 0; q < b.seats; q++ {
			if q != me && !b.out[q] && b.canEliminate(q, &b.ships[last[me]], b.everLarge[me]) {
				score += scoreThreat * (1 - late) * (1 - late)
			}
		}
	}
	// Hunts: for each opponent, my nearest red ship to one of its critical ships.
	b.dist.reset(b)
	for q := 0; q < b.seats; q++ {
		if q == me || b.out[q] || !b.placed[q] || critical[q] == 0 {
			continue
		}
		near := 0.0
		for i := range b.ships {
			t := &b.ships[i]
			if int(t.Owner) != q || (b.everLarge[q] && t.Piece.Size != it.Large) {
				continue
			}
			near = max(near, b.hunter(me, t, b.everLarge[q]))
		}
		score += scoreHunt * (1 + 6*late) * near / float64(critical[q])
	}
	// Chances: an opponent whose last critical ship I could remove next turn, or reach.
	for q := 0; q < b.seats; q++ {
		if q == me || b.out[q] || !b.placed[q] || critical[q] != 1 {
			continue
		}
		t := &b.ships[last[q]]
		if b.canEliminate(me, t, b.everLarge[q]) {
			score += scoreChance
		} else if b.canReach(me, t) {
			score += scoreReach
		}
	}
	return score
}

// canEliminate reports whether a red attack by one of seat's ships would remove target, the
// last critical ship of its owner (a reduction counts only against a large critical ship).
func (b *board) canEliminate(seat int, target *it.ShipInfo, everLarge bool) bool {
	for i := range b.ships {
		x := &b.ships[i]
		if int(x.Owner) != seat || x.Loc != target.Loc || x.ID == target.ID || !b.power(x, it.Red) {
			continue
		}
		if target.Piece.Size <= x.Piece.Size {
			return true
		}
		if everLarge && target.Piece.Size == it.Large && b.medium[target.Piece.Color] > 0 {
			return true
		}
	}
	return false
}

// hunter is how close my best hunter of target is: 1 for a red ship of mine that could
// strike it where it is, halving with each move it still needs (if it can move at all).
func (b *board) hunter(me int, target *it.ShipInfo, everLarge bool) float64 {
	best := 0.0
	for i := range b.ships {
		x := &b.ships[i]
		if int(x.Owner) != me || x.Piece.Color != it.Red {
			continue
		}
		reduces := everLarge && target.Piece.Size == it.Large && b.medium[target.Piece.Color] > 0
		if target.Piece.Size > x.Piece.Size && !reduces {
			continue
		}
		d := b.dist.between(b, x.Loc, target.Loc)
		if d == 0 {
			return 1
		}
		if !b.power(x, it.Yellow) && !b.locs[x.Loc].Hyper {
			continue // a red ship where no yellow power is cannot set out
		}
		switch d {
		case 1, 2, 3:
			best = max(best, 1/float64(int(1)<<d))
		}
	}
	return best
}

// maxLocs bounds the location ids the distances cover; beyond it, a location is far.
const maxLocs = 64

// distances are the moves between locations along connections, found by a breadth-first
// search from each location asked about, once per board.
type distances struct {
	from  [maxLocs][maxLocs]int8
	known [maxLocs]bool
}

func (d *distances) reset(b *board) {
	d.known = [maxLocs]bool{}
}

// between is the number of yellow moves from location a to location z (a hyperspace reaches
// every system in one), or 4 for "far".
func (d *distances) between(b *board, a, z int16) int {
	if a == z {
		return 0
	}
	if a < 0 || z < 0 || int(a) >= maxLocs || int(z) >= maxLocs || int(a) >= len(b.locs) {
		return 4
	}
	if !d.known[a] {
		d.known[a] = true
		row := &d.from[a]
		for i := range row {
			row[i] = 4
		}
		row[a] = 0
		var queue [maxLocs]int16
		queue[0] = a
		for head, tail := 0, 1; head < tail; head++ {
			l := &b.locs[queue[head]]
			step := row[queue[head]] + 1
			if step >= 4 {
				break
			}
			for _, n := range b.locList {
				if int(n.ID) >= maxLocs || row[n.ID] <= step || n.Hyper {
					continue
				}
				if l.Hyper || (l.Marker.Size != 0 && it.Connected(l.Marker, n.Marker)) {
					row[n.ID] = step
					queue[tail] = n.ID
					tail++
				}
			}
		}
	}
	return int(d.from[a][z])
}

// canReach reports whether one of seat's ships with red power could move next to target.
func (b *board) canReach(seat int, target *it.ShipInfo) bool {
	to := &b.locs[target.Loc]
	redThere := hasPower(to, it.Red)
	for i := range b.ships {
		x := &b.ships[i]
		if int(x.Owner) != seat || x.Loc == target.Loc || !b.power(x, it.Yellow) || (x.Piece.Color != it.Red && !redThere) {
			continue
		}
		l := &b.locs[x.Loc]
		if l.Hyper || !to.Hyper && it.Connected(l.Marker, to.Marker) {
			return true
		}
	}
	return false
}
