package fccatan

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

var _ engine.Tensorizer = game{}

// tensors is Full-Contact Catan's layout for one configuration. Teams count from the viewer
// (seat 0 for the spectator). Positions are divided by the field's size, velocities by the
// top speed; hoops and piles lie where the field puts them, in the field's order.
//
// The action space is multi-discrete: a decision head (every choice of the market and the
// setup, and "intents" for a tick) and one head per avatar, whose ids are that avatar's kinds
// of order (keep, stay, fetch each resource, home, home and throw, place, chase).
type tensors struct {
	shape, heads                                                []int // made once: the callers of Encode ask for them on every step
	c                                                           *config
	n                                                           int
	layout                                                      engine.Layout
	phase, clock, teams, avatars, piles, hoops, offers, pending int
	d                                                           decisionIDs
	balls                                                       int // digits of a discard: 0..BallsPerResource of each resource
}

const (
	numPhases  = int(PhaseOver) + 1
	numCards   = int(pb.Card_CARD_BARBARIANS) + 1
	teamRow    = 1 + numRes + numCards + maxHoops + int(buyHandover)
	avatarRow  = 23
	pileRow    = 3 + numRes + 1
	offerRow   = 2 * numRes
	knightMask = 1 << maxAvatars
)

func (game) Tensors(cfg engine.Config) (engine.Tensors, error) {
	c, err := newConfig(cfg)
	if err != nil {
		return nil, err
	}
	n := c.teams
	t := &tensors{c: c, n: n, balls: c.field.BallsPerResource + 1}
	l := &t.layout
	t.phase = l.Add("phase", numPhases)
	t.clock = l.Add("clock", 8)
	t.teams = l.Add("teams", n, teamRow)
	t.avatars = l.Add("avatars", n, maxAvatars, avatarRow)
	t.piles = l.Add("piles", maxPiles, pileRow)
	t.hoops = l.Add("hoops", maxHoops, 1+(n+1)+3+3)
	t.offers = l.Add("offers", n, n, offerRow)
	t.pending = l.Add("pending", numCards+3*n)
	t.d = newDecisionIDs(t.balls)
	t.shape, t.heads = []int{t.layout.Size()}, []int{t.d.total, numOrders, numOrders, numOrders, numOrders}
	return t, nil
}

func (t *tensors) ObservationShape() []int           { return t.shape }
func (t *tensors) ObservationLayout() []engine.Slice { return t.layout.Slices }

// Heads is the decision head, then one head per avatar.
func (t *tensors) Heads() []int { return t.heads }

func (t *tensors) rel(viewer, seat int32) int {
	if seat < 0 || int(seat) >= t.n {
		return -1
	}
	return int((seat - max(viewer, 0) + int32(t.n)) % int32(t.n))
}

func resCounts(r *pb.Resources) [numRes]int32 {
	return [numRes]int32{r.GetWood(), r.GetBrick(), r.GetOre(), r.GetSheep()}
}

func (t *tensors) Encode(m proto.Message, dst []float32) error {
	o, ok := m.(*pb.Observation)
	if !ok || len(o.Teams) != t.n {
		return fmt.Errorf("fccatan: Encode wants a %d-team *fccatanv1.Observation, got %T", t.n, m)
	}
	if len(dst) != t.layout.Size() {
		return fmt.Errorf("fccatan: Encode wants %d elements, got %d", t.layout.Size(), len(dst))
	}
	clear(dst)
	c, v := t.c, o.Seat
	w, h, speed := float32(c.field.Width), float32(c.field.Height), float32(max(c.speed, 1))
	balls := float32(t.balls - 1)
	engine.OneHot(dst, t.phase, numPhases, int(o.Phase))
	k := dst[t.clock:]
	k[0] = float32(o.Round) / float32(max(c.roundCap, 1))
	k[1] = float32(o.Tick) / float32(max(c.ticksPerRound, 1))
	k[2] = float32(o.TimeLeftMs) / float32(max(c.ticksPerRound*c.tickMS, 1))
	k[3] = float32(o.TradeStep) / float32(max(c.tradeSteps, 1))
	k[4] = float32(o.DeckLeft) / deckSize
	k[5] = float32(o.IdleMarkets) / float32(max(c.idleMarkets, 1))
	k[6], k[7] = engine.Bool(o.Submitted), engine.Bool(v < 0)
	for _, tm := range o.Teams {
		r := t.rel(v, tm.Seat)
		if r < 0 {
			continue
		}
		row := dst[t.teams+r*teamRow : t.teams+(r+1)*teamRow]
		row[0] = float32(tm.Vp) / float32(max(c.winVP, 1))
		for i, x := range resCounts(tm.Resources) {
			row[1+i] = float32(x) / balls
		}
		for _, card := range tm.Cards {
			if int(card) < numCards {
				row[1+numRes+int(card)] += 1.0 / deckSize
			}
		}
		engine.OneHot(row, 1+numRes+numCards, maxHoops, int(tm.StartHoop))
		for _, p := range tm.LastPurchases {
			if p > 0 && int(p) <= int(buyHandover) {
				row[1+numRes+numCards+maxHoops+int(p)-1] += 1.0 / maxItems
			}
		}
		for _, av := range tm.Avatars {
			if av.Index < 0 || av.Index >= maxAvatars {
				continue
			}
			a := dst[t.avatars+(r*maxAvatars+int(av.Index))*avatarRow:]
			a[0], a[1] = 1, engine.Bool(av.Knight)
			a[2], a[3] = float32(av.Position.GetX())/w, float32(av.Position.GetY())/h
			a[4], a[5] = float32(av.Velocity.GetX())/speed, float32(av.Velocity.GetY())/speed
			engine.OneHot(a, 6, numRes, int(av.Carrying)-1)
			a[10], a[11], a[12] = engine.Bool(av.Collected), engine.Bool(av.Frozen), float32(av.Markers)/2
			if in := av.Intent; in != nil { // the viewer's own team only
				a[13] = 1
				switch mo := in.Motion.(type) {
				case *pb.AvatarIntent_Target:
					a[14], a[21], a[22] = 1, float32(mo.Target.GetX())/w, float32(mo.Target.GetY())/h
				case *pb.AvatarIntent_Velocity:
					a[15], a[21], a[22] = 1, float32(mo.Velocity.GetX())/speed, float32(mo.Velocity.GetY())/speed
				}
				a[16], a[17], a[18], a[19] = engine.Bool(in.PickUp), engine.Bool(in.Place), engine.Bool(in.Tag), engine.Bool(in.Throw)
				a[20] = float32(in.ThrowTo) / maxAvatars
			}
		}
	}
	hoopRow := 1 + (t.n + 1) + 3 + 3
	for i, spot := range c.field.Piles {
		if i < maxPiles {
			p := dst[t.piles+i*pileRow:]
			p[0], p[1], p[2] = 1, float32(spot.Pos.X)/w, float32(spot.Pos.Y)/h
			engine.OneHot(p, 3, numRes, int(spot.Resource))
		}
	}
	for _, p := range o.Piles {
		if p.Id >= 0 && int(p.Id) < min(maxPiles, len(c.field.Piles)) {
			dst[t.piles+int(p.Id)*pileRow+3+numRes] = float32(p.Balls) / float32(max(c.field.PileCapacity, 1))
		}
	}
	for i, hp := range c.field.Hoops {
		if i < maxHoops {
			x := dst[t.hoops+i*hoopRow:]
			x[0], x[hoopRow-3], x[hoopRow-2], x[hoopRow-1] = 1, engine.Bool(hp.Start), float32(hp.Center.X)/w, float32(hp.Center.Y)/h
		}
	}
	for _, hs := range o.Hoops {
		if hs.Id >= 0 && int(hs.Id) < min(maxHoops, len(c.field.Hoops)) {
			x := dst[t.hoops+int(hs.Id)*hoopRow:]
			engine.OneHot(x, 1, t.n+1, t.rel(v, hs.Owner)+1)
			engine.OneHot(x, 2+t.n, 3, int(hs.Building))
		}
	}
	for _, of := range o.Offers {
		from, to := t.rel(v, of.FromSeat), t.rel(v, of.ToSeat)
		if from < 0 || to < 0 {
			continue
		}
		x := dst[t.offers+(from*t.n+to)*offerRow:]
		give, want := resCounts(of.Give), resCounts(of.Want)
		for r := range numRes {
			x[r], x[numRes+r] = float32(give[r])/balls, float32(want[r])/balls
		}
	}
	p := dst[t.pending:]
	engine.OneHot(p, 0, numCards, int(o.PendingCard))
	engine.OneHot(p, numCards, t.n, t.rel(v, o.PendingSeat))
	for s, d := range o.Discards {
		if r := t.rel(v, int32(s)); r >= 0 {
			p[numCards+t.n+r] = float32(d) / balls
		}
	}
	engine.OneHot(p, numCards+2*t.n, t.n, t.rel(v, o.SetupSeat))
	return nil
}
