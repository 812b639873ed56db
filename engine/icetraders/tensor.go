package icetraders

import (
	"cmp"
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

var _ engine.Tensorizer = game{}

// maxPieces bounds ships and locations in any match: every piece is a ship, a marker or in the stash.
const maxPieces = numKinds * maxPerKind

// compositions is the number of multisets of three piece kinds: C(14, 3).
const compositions = 364

// tensors is IceTraders' layout for one configuration. A match of P pieces (12 x stash) has at
// most P locations and P ships. Locations take slots by ascending id; ships take slots in the
// canonical order (location slot, owner from the viewer, piece kind, id), so that identical
// ships of one owner in one place lie side by side and an id never leaks through the slots.
// Seats count from the viewer (seat 0 for the spectator); "nobody" follows the last seat.
type tensors struct {
	shape, heads []int // made once: the callers of Encode ask for them on every step
	c            config
	p            int // pieces: locations and ships
	layout       engine.Layout
	phase, flags, progress, current, first, toAct, stash, players, sacrifice, conc, repick,
	locs, ships, rules int
	shipRow int // elements per ship slot
	a       actionIDs
}

// actionIDs is where each action kind's ids start.
type actionIDs struct {
	align, picks, repick, place, move, trade, grow, add, attack, discover, sacrifice,
	research, pass, endSacrifice, enterprise, revolt, decline, total int
	addTargets, attackColors, researchTargets int
}

const playerRow = 3 + 2 + 2*numKinds + 4 + 3

func (game) Tensors(cfg engine.Config) (engine.Tensors, error) {
	c, err := parseConfig(cfg)
	if err != nil {
		return nil, err
	}
	n, p := c.seats, numKinds*c.perKind
	t := &tensors{c: c, p: p, shipRow: 1 + (n + 1) + numKinds + p}
	l := &t.layout
	t.phase = l.Add("phase", int(pb.Phase_PHASE_OVER)+1)
	t.flags = l.Add("flags", 2)
	t.progress = l.Add("progress", 2)
	t.current = l.Add("current_seat", n)
	t.first = l.Add("first_seat", n)
	t.toAct = l.Add("to_act", n)
	t.stash = l.Add("stash", numKinds)
	t.players = l.Add("players", n, playerRow)
	t.sacrifice = l.Add("pending_sacrifice", numKinds+2)
	t.conc = l.Add("pending_concentration", 4+p)
	t.repick = l.Add("pending_repick", n+2)
	t.locs = l.Add("locations", p, 2+2*numKinds)
	t.ships = l.Add("ships", p, t.shipRow)
	t.rules = l.Add("rules", 6)

	a := &t.a
	a.addTargets, a.attackColors, a.researchTargets = 1, 1, 1
	if c.addAnySystem {
		a.addTargets = p
	}
	if c.reduceChoose {
		a.attackColors = 1 + int(numColors)
	}
	if c.rndAnySystem {
		a.researchTargets = p
	}
	k := 0
	at := func(size int) int { k += size; return k - size }
	a.align = at(2)
	a.picks = at(numKinds * numKinds)
	a.repick = at(numKinds)
	a.place = at(int(numColors) * p)
	a.move = at(p * p)
	a.trade = at(p * numKinds)
	a.grow = at(p)
	a.add = at(p * 3 * a.addTargets)
	a.attack = at(p * p * a.attackColors)
	a.discover = at(p)
	a.sacrifice = at(p)
	a.research = at(p * compositions * numKinds * a.researchTargets)
	a.pass = at(1)
	a.endSacrifice = at(1)
	a.enterprise = at(numKinds)
	a.revolt = at(p)
	a.decline = at(1)
	a.total = k
	t.shape, t.heads = []int{t.layout.Size()}, []int{t.a.total}
	return t, nil
}

func (t *tensors) ObservationShape() []int           { return t.shape }
func (t *tensors) ObservationLayout() []engine.Slice { return t.layout.Slices }
func (t *tensors) Heads() []int                      { return t.heads }

// shipRef is one ship as the slots see it.
type shipRef struct {
	id          int32
	loc         int16 // location slot
	owner, kind int8  // owner from the viewer (seats: nobody)
}

// slots is an observation's locations and ships in slot order, built on the stack.
type slots struct {
	locIDs [maxPieces]int32 // ascending
	nLoc   int
	ships  [maxPieces]shipRef // canonical order
	byID   [maxPieces]int16   // ship slots by ascending ship id
	nShip  int
}

func pieceKind(p *pb.Piece) int {
	if p == nil || p.Color < pb.Color_COLOR_RED || p.Color > pb.Color_COLOR_BLUE || p.Size < pb.Size_SIZE_SMALL || p.Size > pb.Size_SIZE_LARGE {
		return -1
	}
	return (int(p.Color)-1)*3 + int(p.Size) - 1
}

func (t *tensors) rel(viewer, seat int32) int {
	n := int32(t.c.seats)
	if seat < 0 || seat >= n {
		return int(n) // nobody
	}
	return int((seat - max(viewer, 0) + n) % n)
}

func (t *tensors) build(o *pb.Observation, s *slots) bool {
	s.nLoc, s.nShip = 0, 0
	add := func(id int32) bool {
		if s.nLoc >= t.p {
			return false
		}
		s.locIDs[s.nLoc] = id
		s.nLoc++
		return true
	}
	for _, x := range o.Systems {
		if !add(x.Id) {
			return false
		}
	}
	for _, h := range o.Hyperspaces {
		if !add(h.Id) {
			return false
		}
	}
	slices.Sort(s.locIDs[:s.nLoc])
	ship := func(loc int32, x *pb.Ship) bool {
		if s.nShip >= t.p {
			return false
		}
		slot, _ := slices.BinarySearch(s.locIDs[:s.nLoc], loc)
		s.ships[s.nShip] = shipRef{id: x.Id, loc: int16(slot), owner: int8(t.rel(o.Seat, x.Owner)), kind: int8(pieceKind(x.Piece))}
		s.nShip++
		return true
	}
	for _, x := range o.Systems {
		for _, sh := range x.Ships {
			if !ship(x.Id, sh) {
				return false
			}
		}
	}
	for _, h := range o.Hyperspaces {
		for _, sh := range h.Ships {
			if !ship(h.Id, sh) {
				return false
			}
		}
	}
	slices.SortFunc(s.ships[:s.nShip], func(a, b shipRef) int {
		return cmp.Or(cmp.Compare(a.loc, b.loc), cmp.Compare(a.owner, b.owner), cmp.Compare(a.kind, b.kind), cmp.Compare(a.id, b.id))
	})
	for i := range s.nShip {
		s.byID[i] = int16(i)
	}
	slices.SortFunc(s.byID[:s.nShip], func(a, b int16) int { return cmp.Compare(s.ships[a].id, s.ships[b].id) })
	return true
}

// locSlot is the slot of location id, or -1.
func (s *slots) locSlot(id int16) int {
	if i, ok := slices.BinarySearch(s.locIDs[:s.nLoc], int32(id)); ok {
		return i
	}
	return -1
}

// shipSlot is the slot of ship id, or -1.
func (s *slots) shipSlot(id int16) int {
	i, ok := slices.BinarySearchFunc(s.byID[:s.nShip], int32(id), func(k int16, id int32) int { return cmp.Compare(s.ships[k].id, id) })
	if !ok {
		return -1
	}
	return int(s.byID[i])
}

func (t *tensors) Encode(m proto.Message, dst []float32) error {
	o, ok := m.(*pb.Observation)
	if !ok || int(o.Seats) != t.c.seats {
		return fmt.Errorf("icetraders: Encode wants a %d-seat *icetradersv1.Observation, got %T", t.c.seats, m)
	}
	if len(dst) != t.layout.Size() {
		return fmt.Errorf("icetraders: Encode wants %d elements, got %d", t.layout.Size(), len(dst))
	}
	var s slots
	if !t.build(o, &s) {
		return fmt.Errorf("icetraders: more than %d locations or ships", t.p)
	}
	clear(dst)
	n, v := t.c.seats, o.Seat
	engine.OneHot(dst, t.phase, int(pb.Phase_PHASE_OVER)+1, int(o.Phase))
	dst[t.flags], dst[t.flags+1] = engine.Bool(v < 0), engine.Bool(o.AlignmentsRevealed)
	dst[t.progress] = float32(o.Turn) / float32(max(1, int(o.TurnCap)*n))
	dst[t.progress+1] = float32(o.ConsecutivePasses) / float32(max(1, int(o.PassRoundsCap)*n))
	engine.OneHot(dst, t.current, n, t.rel(v, o.CurrentSeat))
	engine.OneHot(dst, t.first, n, t.rel(v, o.FirstSeat))
	for _, seat := range o.ToAct {
		engine.OneHot(dst, t.toAct, n, t.rel(v, seat))
	}
	for _, sc := range o.Stash {
		if k := pieceKind(sc.Piece); k >= 0 {
			dst[t.stash+k] = float32(sc.Count) / float32(t.c.perKind)
		}
	}
	for _, p := range o.Players {
		r := t.rel(v, p.Seat)
		if r >= n {
			continue
		}
		row := dst[t.players+r*playerRow : t.players+(r+1)*playerRow]
		engine.OneHot(row, 0, 3, int(p.Alignment))
		row[3], row[4] = engine.Bool(p.AlignmentChosen), engine.Bool(p.PicksChosen)
		engine.OneHot(row, 5, numKinds, pieceKind(p.FirstPick))
		engine.OneHot(row, 5+numKinds, numKinds, pieceKind(p.SecondPick))
		q := row[5+2*numKinds:]
		q[0], q[1], q[2], q[3] = engine.Bool(p.Eliminated), engine.Bool(p.PlacedFirstShip), engine.Bool(p.EverLarge), engine.Bool(p.TurnedEvil)
		q[4] = float32(p.TurnsTaken) / float32(max(1, o.TurnCap))
		q[5], q[6] = float32(p.Ships)/float32(t.p), float32(p.LargeShips)/float32(t.p)
	}
	if ps := o.PendingSacrifice; ps != nil {
		engine.OneHot(dst, t.sacrifice, numKinds, pieceKind(ps.Sacrificed))
		dst[t.sacrifice+numKinds], dst[t.sacrifice+numKinds+1] = float32(ps.UsesLeft)/3, float32(ps.UsesTotal)/3
	}
	if pc := o.PendingConcentration; pc != nil {
		engine.OneHot(dst, t.conc, 4, int(pc.Kind)-1)
		engine.OneHot(dst, t.conc+4, t.p, s.locSlot(int16(pc.SystemId)))
	}
	if pr := o.PendingRepick; pr != nil {
		engine.OneHot(dst, t.repick, n, t.rel(v, pr.Seat))
		engine.OneHot(dst, t.repick+n, 2, int(pr.Slot)-1)
	}
	const locRow = 2 + 2*numKinds
	for _, x := range o.Systems {
		at := t.locs + s.locSlot(int16(x.Id))*locRow
		dst[at] = 1
		engine.OneHot(dst, at+2, numKinds, pieceKind(x.Marker))
		engine.OneHot(dst, at+2+numKinds, numKinds, pieceKind(x.SecondMarker))
	}
	for _, h := range o.Hyperspaces {
		at := t.locs + s.locSlot(int16(h.Id))*locRow
		dst[at], dst[at+1] = 1, 1
	}
	for i, x := range s.ships[:s.nShip] {
		at := t.ships + i*t.shipRow
		dst[at] = 1
		engine.OneHot(dst, at+1, n+1, int(x.owner))
		engine.OneHot(dst, at+2+n, numKinds, int(x.kind))
		engine.OneHot(dst, at+2+n+numKinds, t.p, int(x.loc))
	}
	if r := o.Rules; r != nil {
		for i, b := range []bool{r.GreenAddAny, r.ReduceColorChoose, r.RndAnySystem, r.RepickPairs, r.GoodWinAliveOnly, r.FirstTiebreakLowestSeat} {
			dst[t.rules+i] = engine.Bool(b)
		}
	}
	return nil
}

// ActionIDs names ships and locations by their slots. An R&D is named by its system, the
// kinds of the three ships returned and the piece taken: R&Ds returning identical ships are
// one choice, the seat's tensor being the same after either.
func (t *tensors) ActionIDs(m proto.Message, actions []engine.Action, ids []int32) bool {
	o, ok := m.(*pb.Observation)
	if !ok {
		return false
	}
	var s slots
	if !t.build(o, &s) {
		return false
	}
	for i, a := range actions {
		id, ok := t.actionID(&s, a)
		if !ok || id < 0 || id >= t.a.total {
			return false
		}
		ids[i] = int32(id)
	}
	return true
}

func (t *tensors) actionID(s *slots, a engine.Action) (int, bool) {
	p, ids := t.p, &t.a
	kind := func(i int) int {
		pc, ok := argPiece(a, i)
		if !ok {
			return -1
		}
		return pc.kind()
	}
	ship := s.shipSlot(a.Arg[0])
	switch a.Kind {
	case KindAlign:
		return ids.align + int(a.Arg[0]) - 1, a.Arg[0] == int16(Good) || a.Arg[0] == int16(Evil)
	case KindPicks:
		k1, k2 := kind(0), kind(2)
		return ids.picks + k1*numKinds + k2, k1 >= 0 && k2 >= 0
	case KindRepick:
		k := kind(0)
		return ids.repick + k, k >= 0
	case KindPlace:
		loc := s.locSlot(a.Arg[1])
		return ids.place + int(a.Arg[0])*p + loc, a.Arg[0] >= 0 && a.Arg[0] < int16(numColors) && loc >= 0
	case KindMove:
		loc := s.locSlot(a.Arg[1])
		return ids.move + ship*p + loc, ship >= 0 && loc >= 0
	case KindTrade:
		k := kind(1)
		return ids.trade + ship*numKinds + k, ship >= 0 && k >= 0
	case KindGrow:
		return ids.grow + ship, ship >= 0
	case KindAdd:
		z, target := int(a.Arg[1]), 0
		if ids.addTargets > 1 {
			target = s.locSlot(a.Arg[2] - 1)
		}
		return ids.add + (ship*3+z-1)*ids.addTargets + target, ship >= 0 && z >= 1 && z <= 3 && target >= 0
	case KindAttack:
		target, c := s.shipSlot(a.Arg[1]), int(a.Arg[2])
		return ids.attack + (ship*p+target)*ids.attackColors + c, ship >= 0 && target >= 0 && c >= 0 && c < ids.attackColors
	case KindDiscover:
		return ids.discover + ship, ship >= 0
	case KindSacrifice:
		return ids.sacrifice + ship, ship >= 0
	case KindResearch:
		return t.researchID(s, a)
	case KindPass:
		return ids.pass, true
	case KindEndSacrifice:
		return ids.endSacrifice, true
	case KindEnterprise:
		k := kind(0)
		return ids.enterprise + k, k >= 0
	case KindRevolt:
		return ids.revolt + ship, ship >= 0
	case KindDecline:
		return ids.decline, true
	}
	return 0, false
}

// researchID is ((system, composition) x piece taken) x target system (rnd_where=any).
func (t *tensors) researchID(s *slots, a engine.Action) (int, bool) {
	var k [3]int
	loc := int16(-1)
	for i := range 3 {
		slot := s.shipSlot(a.Arg[i])
		if slot < 0 || (loc >= 0 && s.ships[slot].loc != loc) {
			return 0, false
		}
		loc, k[i] = s.ships[slot].loc, int(s.ships[slot].kind)
	}
	taken, ok := argPiece(a, 3)
	if !ok {
		return 0, false
	}
	target := 0
	if t.a.researchTargets > 1 {
		if target = s.locSlot(a.Arg[5] - 1); target < 0 {
			return 0, false
		}
	}
	slices.Sort(k[:])
	id := (int(loc)*compositions+composition(k))*numKinds + taken.kind()
	return t.a.research + id*t.a.researchTargets + target, true
}

// composition ranks a sorted multiset of three kinds among the 364, by the combinatorial
// number system of the distinct values (k0, k1+1, k2+2) out of 14.
func composition(k [3]int) int {
	c := func(n, r int) int {
		if n < r {
			return 0
		}
		v := 1
		for i := 0; i < r; i++ {
			v = v * (n - i) / (i + 1)
		}
		return v
	}
	return c(k[0], 1) + c(k[1]+1, 2) + c(k[2]+2, 3)
}

func (t *tensors) Action(m proto.Message, legal []engine.Action, ids []int32) (engine.Action, bool) {
	return engine.FindAction(t, m, legal, ids)
}
