package fccatan

import (
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

// The kinds of order an avatar head names: an avatar's intent, as Legal lists its changes.
const (
	orderKeep  = iota // keep the standing intent (and every head of a non-tick decision)
	orderStay         // stand
	orderFetch        // run to the nearest pile of resource r and pick up: orderFetch+r
	orderHome  = orderFetch + numRes
	orderThrow = orderHome + 1 // run home and throw the ball to a teammate
	orderPlace = orderThrow + 1
	orderChase = orderPlace + 1
	numOrders  = orderChase + 1
)

// buyItems is every purchase one item of a declaration can be: settlement and knight by
// avatar, city by hoop and payment, a card, a handover by (from, to).
const buyItems = maxAvatars + 2*maxHoops + maxAvatars + 1 + maxAvatars*maxAvatars

// decisionIDs is where each decision's ids start in the decision head.
type decisionIDs struct {
	pass, intents, setup, deploy, offer, reply, buy, plenty, monopoly, discard, barbarians, total int
}

// deployIDs: every assignment over at most four hoops (four digits of base 4), then "all in
// the team's k-th hoop" and "one per hoop, from the k-th", as Legal lists for more hoops.
const deployIDs = 256 + 2*maxHoops

func newDecisionIDs(balls int) decisionIDs {
	var d decisionIDs
	k := 0
	at := func(size int) int { k += size; return k - size }
	d.pass = at(1)
	d.intents = at(1)
	d.setup = at(maxHoops * knightMask)
	d.deploy = at(deployIDs)
	d.offer = at(maxTeams * numRes * numRes)
	d.reply = at(1 << maxTeams)
	d.buy = at(buyItems + buyItems*buyItems)
	d.plenty = at(4 * 4 * 4 * 4)
	d.monopoly = at(numRes)
	d.discard = at(balls * balls * balls * balls)
	d.barbarians = at(maxHoops)
	d.total = k
	return d
}

// ActionIDs writes five ids per action: the decision, then each avatar's order.
func (t *tensors) ActionIDs(m proto.Message, actions []engine.Action, ids []int32) bool {
	o, ok := m.(*pb.Observation)
	if !ok {
		return false
	}
	const heads = 1 + maxAvatars
	for i, a := range actions {
		out := ids[i*heads : (i+1)*heads]
		clear(out)
		if a.Kind == kindIntents {
			out[0] = int32(t.d.intents)
			if !t.orderIDs(o, a, out[1:]) {
				return false
			}
			continue
		}
		id, ok := t.decisionID(o, a)
		if !ok || id < 0 || id >= t.d.total {
			return false
		}
		out[0] = int32(id)
	}
	return true
}

// own is the viewer's team in o, or nil for the spectator.
func own(o *pb.Observation) *pb.Team {
	if o.Seat < 0 || int(o.Seat) >= len(o.Teams) {
		return nil
	}
	return o.Teams[o.Seat]
}

// orderIDs names each avatar's order in an intents action.
func (t *tensors) orderIDs(o *pb.Observation, a engine.Action, out []int32) bool {
	tm := own(o)
	if tm == nil {
		return false
	}
	for i := range maxAvatars {
		in := intentOf(&a, i)
		if i >= len(tm.Avatars) {
			if in != (Intent{}) {
				return false
			}
			continue
		}
		standing, err := intentFrom(tm.Avatars[i].Intent)
		if err != nil {
			return false
		}
		if in == standing {
			continue // orderKeep
		}
		k := t.orderOf(o, in)
		if k < 0 {
			return false
		}
		out[i] = int32(k)
	}
	return true
}

// orderOf is the kind of a listed order, or -1 for one Legal never lists (a velocity, a
// target that is no pile).
func (t *tensors) orderOf(o *pb.Observation, in Intent) int {
	switch {
	case !in.has(flagTo | flagVel):
		return orderStay
	case in.has(flagVel):
		return -1
	case in.has(flagThrow):
		return orderThrow
	case in.has(flagPlace):
		return orderPlace
	case in.has(flagPick):
		for _, p := range t.c.field.Piles {
			if p.Pos.X == int32(in.X) && p.Pos.Y == int32(in.Y) {
				return orderFetch + int(p.Resource)
			}
		}
		return -1
	}
	for h, hp := range t.c.field.Hoops {
		if hp.Center.X == int32(in.X) && hp.Center.Y == int32(in.Y) && h < len(o.Hoops) &&
			o.Hoops[h].Owner == o.Seat && o.Hoops[h].Building == pb.Building_BUILDING_CITY {
			return orderHome
		}
	}
	return orderChase
}

// ownHoops is the rank of each hoop among the viewer's, in hoop order (-1 for others), and
// how many it has: Legal deploys to them in that order.
func ownHoops(o *pb.Observation) (rank [maxHoops]int, n int) {
	for h := range rank {
		rank[h] = -1
	}
	for _, hs := range o.Hoops {
		if hs.Owner == o.Seat && hs.Id >= 0 && hs.Id < maxHoops {
			rank[hs.Id] = n
			n++
		}
	}
	return rank, n
}

func (t *tensors) decisionID(o *pb.Observation, a engine.Action) (int, bool) {
	d := &t.d
	arg := func(i int) int { return int(a.Arg[i]) }
	in := func(v, n int) bool { return v >= 0 && v < n }
	switch a.Kind {
	case kindPass:
		return d.pass, true
	case kindSetup:
		return d.setup + arg(0)*knightMask + arg(1), in(arg(0), maxHoops) && in(arg(1), knightMask)
	case kindDeploy:
		return t.deployID(o, a)
	case kindOffer:
		to := t.rel(o.Seat, int32(arg(0)))
		g, w := -1, -1
		for r := range numRes {
			switch {
			case arg(1+r) == 1 && g < 0:
				g = r
			case arg(1+r) != 0:
				return 0, false
			}
			switch {
			case arg(5+r) == 1 && w < 0:
				w = r
			case arg(5+r) != 0:
				return 0, false
			}
		}
		return d.offer + (to*numRes+g)*numRes + w, to >= 0 && g >= 0 && w >= 0
	case kindReply:
		return d.reply + arg(0), in(arg(0), 1<<maxTeams)
	case kindBuy:
		n := arg(0)
		items := [2]int{}
		for k := 0; k < n && k < 2; k++ {
			it, ok := buyItem(itemOf(a, k))
			if !ok {
				return 0, false
			}
			items[k] = it
		}
		switch n {
		case 1:
			return d.buy + items[0], true
		case 2:
			return d.buy + buyItems + items[0]*buyItems + items[1], true
		}
	case kindPlenty:
		id, ok := digits(a, 4)
		return d.plenty + id, ok
	case kindMonopoly:
		return d.monopoly + arg(0), in(arg(0), numRes)
	case kindDiscard:
		id, ok := digits(a, t.balls)
		return d.discard + id, ok
	case kindBarbarians:
		return d.barbarians + arg(0), in(arg(0), maxHoops)
	}
	return 0, false
}

// digits reads Arg[0:4], counts of each resource, as four digits of base b.
func digits(a engine.Action, b int) (int, bool) {
	id := 0
	for r := numRes - 1; r >= 0; r-- {
		x := int(a.Arg[r])
		if x < 0 || x >= b {
			return 0, false
		}
		id = id*b + x
	}
	return id, true
}

// buyItem is an item's index among buyItems.
func buyItem(it Item) (int, bool) {
	p := int(it.Param)
	switch it.Kind {
	case buySettlement:
		return p, p >= 0 && p < maxAvatars
	case buyCity:
		h, pay := p&0xff, p>>8
		return maxAvatars + 2*h + pay, h < maxHoops && (pay == 0 || pay == 1)
	case buyKnight:
		return maxAvatars + 2*maxHoops + p, p >= 0 && p < maxAvatars
	case buyCard:
		return 2*maxAvatars + 2*maxHoops, p == 0
	case buyHandover:
		return 2*maxAvatars + 2*maxHoops + 1 + p, p >= 0 && p < maxAvatars*maxAvatars
	}
	return 0, false
}

// deployID names a deployment by the ranks of its hoops among the team's, as Legal lists it:
// every assignment when there are at most 81, else all in one hoop or one per hoop in turn.
func (t *tensors) deployID(o *pb.Observation, a engine.Action) (int, bool) {
	tm := own(o)
	if tm == nil {
		return 0, false
	}
	rank, nh := ownHoops(o)
	size := len(tm.Avatars)
	var r [maxAvatars]int
	for i := range maxAvatars {
		h := int(a.Arg[i])
		if i >= size {
			if h != 0 {
				return 0, false
			}
			continue
		}
		if h < 0 || h >= maxHoops || rank[h] < 0 {
			return 0, false
		}
		r[i] = rank[h]
	}
	total := 1
	for i := 0; i < size && total <= 81; i++ {
		total *= nh
	}
	if total <= 81 {
		id := 0
		for i := size - 1; i >= 0; i-- {
			id = id*4 + r[i]
		}
		return t.d.deploy + id, nh <= 4
	}
	all, turn := true, true
	for i := range size {
		all = all && r[i] == r[0]
		turn = turn && r[i] == (r[0]+i)%nh
	}
	switch {
	case all:
		return t.d.deploy + 256 + r[0], true
	case turn:
		return t.d.deploy + 256 + maxHoops + r[0], true
	}
	return 0, false
}

// Action builds the action ids name. For a tick it starts from the standing intents and takes
// each avatar's new order from the legal change of that avatar to that kind of order, so
// several avatars may change at once; any other decision is the legal action with that id.
func (t *tensors) Action(m proto.Message, legal []engine.Action, ids []int32) (engine.Action, bool) {
	o, ok := m.(*pb.Observation)
	if !ok || len(ids) != 1+maxAvatars {
		return engine.Action{}, false
	}
	var got [1 + maxAvatars]int32
	if int(ids[0]) != t.d.intents {
		for _, x := range ids[1:] {
			if x != orderKeep {
				return engine.Action{}, false
			}
		}
		for i := range legal {
			if legal[i].Kind != kindIntents && t.ActionIDs(o, legal[i:i+1], got[:]) && got[0] == ids[0] {
				return legal[i], true
			}
		}
		return engine.Action{}, false
	}
	tm := own(o)
	if tm == nil {
		return engine.Action{}, false
	}
	a := engine.Action{Kind: kindIntents}
	for i, av := range tm.Avatars {
		if i >= maxAvatars {
			break
		}
		in, err := intentFrom(av.Intent)
		if err != nil {
			return engine.Action{}, false
		}
		a.Arg[3*i], a.Arg[3*i+1], a.Arg[3*i+2] = in.X, in.Y, in.Flags
	}
	listed := false
	for h := range maxAvatars {
		want := ids[1+h]
		if want == orderKeep {
			continue
		}
		found := false
		for i := range legal {
			if legal[i].Kind == kindIntents && t.ActionIDs(o, legal[i:i+1], got[:]) && got[1+h] == want {
				in := intentOf(&legal[i], h)
				a.Arg[3*h], a.Arg[3*h+1], a.Arg[3*h+2] = in.X, in.Y, in.Flags
				found = true
				break
			}
		}
		if !found {
			return engine.Action{}, false
		}
		listed = true
	}
	if !listed {
		for i := range legal { // keeping every intent is listed in a tick
			if legal[i] == a {
				return a, true
			}
		}
		return engine.Action{}, false
	}
	return a, true
}
