package pantropia

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
)

var _ engine.Tensorizer = game{}

// maxDiscardID is the most chips of one color a discard's id can name: a Technocalypse halves
// a hand, and no playout has reached half of 2 x 128 chips of one color.
const maxDiscardID = 128

// ids is where each action kind's ids start. Seats in ids (an offer's partner, a shuttle's
// owner) count from the acting seat, as the tensor does.
var ids = func() (o struct {
	settle, react, terraform, pantropy, pantropyNone, earth, offer, reply, ring, habitat,
	arcology, shuttle, buy, playPlain, playShuttle, aquifer, comet, remove, removeNone,
	abandon, discard, end, total int
}) {
	n := 0
	at := func(size int) int { n += size; return n - size }
	o.settle = at(NumIntersections * NumStruts)
	o.react = at(2)
	o.terraform = at(NumDice * NumDice)
	o.pantropy = at(maxSlots * maxSlots)
	o.pantropyNone = at(1)
	o.earth = at(NumColors * NumColors)
	o.offer = at(maxSeats * NumColors * NumColors * 3)
	o.reply = at(2)
	o.ring = at(NumJoints)
	o.habitat = at(NumIntersections)
	o.arcology = at(NumIntersections)
	o.shuttle = at(NumIntersections)
	o.buy = at(1)
	o.playPlain = at(3) // Orbital Mirror, Solar Shade, Space Elevator
	o.playShuttle = at(maxSeats * NumIntersections)
	o.aquifer = at(NumColors)
	o.comet = at(maxSlots * NumColors)
	o.remove = at(NumJoints)
	o.removeNone = at(1)
	o.abandon = at(NumIntersections)
	o.discard = at(NumColors * maxDiscardID)
	o.end = at(1)
	o.total = n
	return o
}()

// tensors is PanTropia's layout for one seat count. Seats are counted from the viewer (seat 0
// for the spectator): block 0 is the viewer's own.
type tensors struct {
	shape, heads []int // made once: the callers of Encode ask for them on every step
	seats        int
	layout       engine.Layout
	phase, active, awaiting, progress, joints, structures, chips, supply, shuttleAt, menu,
	die, elevator, earth, hand, reserve, roll, deck, offer, pending, owed, menuItems int
}

// shuttleSpots is where a shuttle may be: in supply, or at an intersection.
const shuttleSpots = NumIntersections + 1

func (game) Tensors(cfg engine.Config) (engine.Tensors, error) {
	if _, err := newConfig(cfg); err != nil {
		return nil, err
	}
	n := cfg.Seats
	t := &tensors{seats: n}
	l := &t.layout
	t.phase = l.Add("phase", int(PhaseOver)+1)
	t.active = l.Add("active", n)
	t.awaiting = l.Add("awaiting", n)
	t.progress = l.Add("progress", 3)
	t.joints = l.Add("joints", NumJoints, n+1)
	t.structures = l.Add("structures", NumIntersections, 2*n)
	t.chips = l.Add("chips", n, NumColors)
	t.supply = l.Add("supply", n, 5)
	t.shuttleAt = l.Add("shuttle_at", n, shuttleSpots)
	t.menu = l.Add("menu", n, maxSlots, NumColors)
	t.die = l.Add("die", n, NumDice)
	t.elevator = l.Add("space_elevator", n)
	t.earth = l.Add("earth_rates", n, NumColors)
	t.hand = l.Add("hand", int(numCards))
	t.reserve = l.Add("reserve", NumDice)
	t.roll = l.Add("last_roll", n+NumColors+1+NumDice+NumColors)
	t.deck = l.Add("deck", 7)
	t.offer = l.Add("offer", 1+2*n+2*NumColors)
	t.pending = l.Add("pending", int(numCards)+1+n)
	t.owed = l.Add("owed", 1+2*n)
	t.menuItems = l.Add("menu_items", maxSlots, numItems)
	t.shape, t.heads = []int{t.layout.Size()}, []int{ids.total}
	return t, nil
}

func (t *tensors) ObservationShape() []int           { return t.shape }
func (t *tensors) ObservationLayout() []engine.Slice { return t.layout.Slices }
func (t *tensors) Heads() []int                      { return t.heads }

func (t *tensors) rel(viewer, seat int32) int {
	if seat < 0 || int(seat) >= t.seats {
		return -1
	}
	return int((seat - max(viewer, 0) + int32(t.seats)) % int32(t.seats))
}

func chipCounts(c *pb.Chips) [NumColors]int32 {
	return [NumColors]int32{c.GetRed(), c.GetOrange(), c.GetYellow(), c.GetGreen(), c.GetBlue(), c.GetPurple()}
}

func (t *tensors) Encode(m proto.Message, dst []float32) error {
	o, ok := m.(*pb.Observation)
	if !ok || len(o.Players) != t.seats {
		return fmt.Errorf("pantropia: Encode wants a %d-seat *pantropiav1.Observation, got %T", t.seats, m)
	}
	if len(dst) != t.layout.Size() {
		return fmt.Errorf("pantropia: Encode wants %d elements, got %d", t.layout.Size(), len(dst))
	}
	clear(dst)
	n, v := t.seats, o.Seat
	engine.OneHot(dst, t.phase, int(PhaseOver)+1, int(o.Phase))
	engine.OneHot(dst, t.active, n, t.rel(v, o.Active))
	for _, s := range o.Awaiting {
		engine.OneHot(dst, t.awaiting, n, t.rel(v, s))
	}
	dst[t.progress] = float32(o.Turn) / float32(max(o.TurnCap, 1))
	dst[t.progress+1] = float32(o.StallTurns) / 10
	dst[t.progress+2] = engine.Bool(v < 0)
	for j, owner := range o.Joints {
		if j < NumJoints {
			engine.OneHot(dst, t.joints+j*(n+1), n+1, t.rel(v, owner)+1)
		}
	}
	for _, s := range o.Structures {
		if x := int(s.Intersection); x >= 0 && x < NumIntersections {
			k := t.rel(v, s.Owner)
			if s.Arcology && k >= 0 {
				k += n
			}
			engine.OneHot(dst, t.structures+x*2*n, 2*n, k)
		}
	}
	for _, p := range o.Players {
		r := t.rel(v, p.Seat)
		if r < 0 {
			continue
		}
		for c, k := range chipCounts(p.Chips) {
			dst[t.chips+r*NumColors+c] = float32(k) / 10
		}
		sup := dst[t.supply+r*5:]
		sup[0], sup[1], sup[2] = float32(p.Rings)/NumJoints, float32(p.HabitatsLeft)/supplyHabitats, float32(p.ArcologiesLeft)/supplyArcologies
		sup[3], sup[4] = float32(p.RingsLeft)/NumJoints, float32(p.HandSize)/8
		engine.OneHot(dst, t.shuttleAt+r*shuttleSpots, shuttleSpots, int(p.ShuttleAt)+1)
		for slot, c := range p.Menu {
			if slot < maxSlots {
				engine.OneHot(dst, t.menu+(r*maxSlots+slot)*NumColors, NumColors, int(c)-1)
			}
		}
		engine.OneHot(dst, t.die+r*NumDice, NumDice, int(p.Die)-1)
		dst[t.elevator+r] = engine.Bool(p.SpaceElevator)
		for c, rate := range p.EarthRates {
			if c < NumColors {
				dst[t.earth+r*NumColors+c] = float32(rate) / earthRate
			}
		}
	}
	for _, k := range o.Hand {
		if k > 0 && int(k) < int(numCards) {
			dst[t.hand+int(k)] += 0.25
		}
	}
	for _, d := range o.Reserve {
		engine.OneHot(dst, t.reserve, NumDice, int(d)-1)
	}
	if r := o.LastRoll; r != nil {
		at := t.roll
		engine.OneHot(dst, at, n, t.rel(v, r.Seat))
		engine.OneHot(dst, at+n, NumColors+1, int(r.Permanent)-1)
		engine.OneHot(dst, at+n+NumColors+1, NumDice, int(r.Die)-1)
		engine.OneHot(dst, at+n+NumColors+1+NumDice, NumColors, int(r.Swappable)-1)
	}
	d := dst[t.deck:]
	d[0], d[1], d[2] = float32(o.DeckSize)/maxDeck, float32(o.TechnocalypsesInDeck)/8, float32(o.Countdown)/countdownEnd
	d[3], d[4], d[5] = float32(o.TechnocalypseReserve)/8, float32(o.LostCards)/maxDeck, engine.Bool(o.CardPlayed)
	d[6] = float32(o.OffersMade) / float32(max(o.OffersPerTurn, 1))
	if f := o.Offer; f != nil {
		dst[t.offer] = 1
		engine.OneHot(dst, t.offer+1, n, t.rel(v, f.From))
		engine.OneHot(dst, t.offer+1+n, n, t.rel(v, f.To))
		give, take := chipCounts(f.Give), chipCounts(f.Take)
		for c := range NumColors {
			dst[t.offer+1+2*n+c] = float32(give[c]) / 5
			dst[t.offer+1+2*n+NumColors+c] = float32(take[c]) / 5
		}
	}
	if pc := o.PendingCard.GetPlayCard(); pc != nil {
		engine.OneHot(dst, t.pending, int(numCards), int(pc.Card))
	}
	dst[t.pending+int(numCards)] = engine.Bool(o.PendingBlack)
	if o.PendingCard != nil || o.PendingBlack {
		engine.OneHot(dst, t.pending+int(numCards)+1, n, t.rel(v, o.PendingBy))
	}
	dst[t.owed] = float32(o.MirrorLeft) / 3
	for s := range min(len(o.AbandonLeft), n) {
		if r := t.rel(v, int32(s)); r >= 0 {
			dst[t.owed+1+r] = float32(o.AbandonLeft[s]) / supplyArcologies
		}
	}
	for s := range min(len(o.DiscardLeft), n) {
		if r := t.rel(v, int32(s)); r >= 0 {
			dst[t.owed+1+n+r] = float32(o.DiscardLeft[s]) / 20
		}
	}
	for slot, it := range o.MenuItems {
		if slot < maxSlots {
			engine.OneHot(dst, t.menuItems+slot*numItems, numItems, int(it)-1)
		}
	}
	return nil
}

// ActionIDs depend on the action and the acting seat alone: PanTropia's actions name places
// on the fixed sphere, colors, dice and menu slots.
func (t *tensors) ActionIDs(m proto.Message, actions []engine.Action, out []int32) bool {
	o, ok := m.(*pb.Observation)
	if !ok {
		return false
	}
	for i, a := range actions {
		id, ok := t.actionID(o.Seat, a)
		if !ok {
			return false
		}
		out[i] = int32(id)
	}
	return true
}

func (t *tensors) actionID(me int32, a engine.Action) (int, bool) {
	x, y, z := int(a.Arg[0]), int(a.Arg[1]), int(a.Arg[2])
	in := func(v, n int) bool { return v >= 0 && v < n }
	switch a.Kind {
	case KindSettle:
		return ids.settle + x*NumStruts + y, in(x, NumIntersections) && in(y, NumStruts)
	case KindReact:
		return ids.react + x, in(x, 2)
	case KindTerraform:
		return ids.terraform + x*NumDice + y, in(x, NumDice) && in(y, NumDice)
	case KindPantropy:
		if x == -1 && y == -1 {
			return ids.pantropyNone, true
		}
		return ids.pantropy + x*maxSlots + y, in(x, maxSlots) && in(y, maxSlots)
	case KindEarth:
		return ids.earth + x*NumColors + y, in(x, NumColors) && in(y, NumColors)
	case KindOffer:
		return t.offerID(me, a)
	case KindReply:
		return ids.reply + x, in(x, 2)
	case KindRing:
		return ids.ring + x, in(x, NumJoints)
	case KindHabitat:
		return ids.habitat + x, in(x, NumIntersections)
	case KindArcology:
		return ids.arcology + x, in(x, NumIntersections)
	case KindShuttle:
		return ids.shuttle + x, in(x, NumIntersections)
	case KindBuy:
		return ids.buy, true
	case KindPlay:
		switch Card(x) {
		case OrbitalMirror, SolarShade, SpaceElevator:
			return ids.playPlain + x - int(OrbitalMirror), true
		case ShuttleCard:
			r := t.rel(me, int32(y))
			return ids.playShuttle + r*NumIntersections + z, r >= 0 && in(z, NumIntersections)
		case Aquifer:
			return ids.aquifer + y, in(y, NumColors)
		case GuidedComet:
			return ids.comet + y*NumColors + z, in(y, maxSlots) && in(z, NumColors)
		}
	case KindRemove:
		if x == -1 {
			return ids.removeNone, true
		}
		return ids.remove + x, in(x, NumJoints)
	case KindAbandon:
		return ids.abandon + x, in(x, NumIntersections)
	case KindDiscard:
		return ids.discard + x*maxDiscardID + y - 1, in(x, NumColors) && y >= 1 && y <= maxDiscardID
	case KindEnd:
		return ids.end, true
	}
	return 0, false
}

// offerID names the listed family of offers: one chip of a color for one of another, two for
// one, or one for two, to a seat counted from the offerer. Other offers have no id.
func (t *tensors) offerID(me int32, a engine.Action) (int, bool) {
	to, give, take := OfferParts(a)
	r := t.rel(me, int32(to))
	gx, gn, ok1 := single(give)
	ty, tn, ok2 := single(take)
	if r < 0 || !ok1 || !ok2 || gx == ty {
		return 0, false
	}
	form := -1
	switch {
	case gn == 1 && tn == 1:
		form = 0
	case gn == 2 && tn == 1:
		form = 1
	case gn == 1 && tn == 2:
		form = 2
	default:
		return 0, false
	}
	return ids.offer + ((r*NumColors+gx)*NumColors+ty)*3 + form, true
}

// single reads chips of one color only: the color and how many.
func single(c [NumColors]int16) (color, n int, ok bool) {
	color = -1
	for k, v := range c {
		switch {
		case v < 0:
			return 0, 0, false
		case v > 0 && color >= 0:
			return 0, 0, false
		case v > 0:
			color, n = k, int(v)
		}
	}
	return color, n, color >= 0
}

func (t *tensors) Action(m proto.Message, legal []engine.Action, id []int32) (engine.Action, bool) {
	return engine.FindAction(t, m, legal, id)
}
