// Package pantropia holds the built-in PanTropia bots.
//
// Greedy plans from the decision alone (its observation and legal actions) with a few cheap
// estimates: the expected production of each intersection under the dice in play, the cost
// of an atmosphere ring on its own menu chart, and a score for each joint that prefers
// spreading toward contested and settleable joints. When its path is blocked (the only time
// the rules let it replace a ring) it prefers the leader's rings and those nearest an empty
// joint, so the sphere fills and the game ends as its rules intend.
package pantropia

import (
	"math/rand/v2"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/engine"
	pt "github.com/orrery/orrery/engine/pantropia"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// Greedy is the greedy PanTropia bot. It keeps a little memory of the offers it made this
// turn, so it does not repeat one that was declined.
type Greedy struct {
	r       *rand.Rand
	dice    [pt.NumDice][pt.NumColors]float64 // face probabilities of the default dice
	offered map[string]bool
	turn    int32
}

// NewGreedy returns a greedy bot seeded with seed (used only to break ties).
func NewGreedy(seed uint64) bots.Bot {
	g := &Greedy{r: rand.New(rand.NewPCG(seed, 0x9a7)), offered: map[string]bool{}}
	gm, err := engine.Lookup("pantropia")
	if err == nil {
		cat := gm.Catalog().(*pb.Catalog)
		for _, d := range cat.GetDefaultDice() {
			f := pt.ChipsOf(d.GetFaces())
			sum := 0.0
			for _, n := range f {
				sum += float64(n)
			}
			for c, n := range f {
				g.dice[int(d.GetDie())-1][c] = float64(n) / sum
			}
		}
	}
	return g
}

// candidate is a legal action with its score.
type candidate struct {
	i     int
	score float64
}

// Act answers one decision.
func (g *Greedy) Act(d *orreryv1.Decision) *orreryv1.Answer {
	legal := d.GetLegal()
	if len(legal) == 0 {
		return bots.Index(d, 0)
	}
	v := g.read(d)
	if v == nil {
		return bots.Index(d, 0)
	}
	if v.o.GetTurn() != g.turn {
		g.turn = v.o.GetTurn()
		clear(g.offered)
	}
	best := candidate{i: 0, score: -1e9}
	for i, la := range legal {
		a, _ := wire.GameAction(la).(*pb.Action)
		if a == nil {
			continue
		}
		s := g.score(v, a) + g.r.Float64()*1e-6
		if s > best.score {
			best = candidate{i, s}
		}
	}
	if a, _ := wire.GameAction(legal[best.i]).(*pb.Action); a != nil {
		if o := a.GetOffer(); o != nil {
			g.offered[offerKey(o)] = true
		}
	}
	// A custom offer of its own beats every listed one when it has something to ask for.
	if v.o.GetPhase() == pb.Phase_PHASE_MAIN && best.score < 5 {
		if m := g.customOffer(v); m != nil {
			g.offered[offerKey(m.GetOffer())] = true
			return &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_Action{Action: wire.Action(m)}}
		}
	}
	return bots.Index(d, best.i)
}

func offerKey(o *pb.Offer) string {
	return string(rune(o.GetTo())) + pt.FormatChipsProto(o.GetGive()) + "/" + pt.FormatChipsProto(o.GetTake())
}

// score rates one legal action; the end of the turn scores 0, so anything worth doing is
// positive.
func (g *Greedy) score(v *view, a *pb.Action) float64 {
	late := v.o.GetTurn() >= v.o.GetTurnCap()*2/3
	switch k := a.GetKind().(type) {
	case *pb.Action_Settle:
		x, st := int(k.Settle.GetIntersection()), int(k.Settle.GetStrut())
		far := pt.Geo.Struts[st].A
		if int(far) == x {
			far = pt.Geo.Struts[st].B
		}
		s := 10 * v.siteValue(x)
		if v.habitable(int(far)) {
			s += 0.5 // the strut leads toward another site
		}
		return s
	case *pb.Action_React:
		if k.React.GetPlayLuddite() {
			return g.luddite(v)
		}
		return 0
	case *pb.Action_Terraform:
		return g.terraform(v, int(k.Terraform.GetDieA())-1, int(k.Terraform.GetDieB())-1)
	case *pb.Action_Pantropy:
		return g.pantropy(v, k.Pantropy)
	case *pb.Action_EarthTrade:
		give, take := int(k.EarthTrade.GetGive())-1, int(k.EarthTrade.GetTake())-1
		return g.earth(v, give, take)
	case *pb.Action_Offer:
		if g.offered[offerKey(k.Offer)] {
			return -1
		}
		return g.tradeGain(v, pt.ChipsOf(k.Offer.GetTake()), pt.ChipsOf(k.Offer.GetGive())) - 0.3
	case *pb.Action_Reply:
		o := v.o.GetOffer()
		gain := g.tradeGain(v, pt.ChipsOf(o.GetGive()), pt.ChipsOf(o.GetTake()))
		if o.GetFrom() == v.leader {
			gain -= 0.3
		}
		if k.Reply.GetAccept() {
			return gain
		}
		return 0.01
	case *pb.Action_Ring:
		if v.o.GetPhase() == pb.Phase_PHASE_ORBITAL_MIRROR {
			return v.ringScore(int(k.Ring.GetJoint()))
		}
		return 10 + v.ringScore(int(k.Ring.GetJoint()))
	case *pb.Action_Habitat:
		if late {
			return 5
		}
		return 30 + 10*v.siteValue(int(k.Habitat.GetIntersection()))
	case *pb.Action_Arcology:
		return 25 + 10*v.siteValue(int(k.Arcology.GetIntersection()))
	case *pb.Action_Shuttle:
		if v.chips[int(pb.Color_COLOR_RED)-1]+v.chips[int(pb.Color_COLOR_BLUE)-1] > 8 {
			x := pt.Geo.Intersections[k.Shuttle.GetIntersection()].Colors
			return 3 + float64(v.chips[x[0]]+v.chips[x[1]])/10
		}
		return -1
	case *pb.Action_BuyCard:
		// Cards cost colors an atmosphere does not need: a good use of the surplus.
		c := v.cost(pb.Item_ITEM_CARD)
		for i, n := range c {
			if n > 0 && v.atmCost[i] > 0 && v.chips[i] < n+v.atmCost[i] {
				return -1
			}
			if n > 0 && !late && v.habCost[i] > 0 && v.chips[i] < n+1 {
				return 1
			}
		}
		return 6
	case *pb.Action_PlayCard:
		return g.play(v, k.PlayCard)
	case *pb.Action_RemoveRing:
		if k.RemoveRing.GetSkip() {
			return 0
		}
		owner := v.o.GetJoints()[k.RemoveRing.GetJoint()]
		switch owner {
		case v.me:
			return -5
		case v.leader:
			return 2 + v.ringScore(int(k.RemoveRing.GetJoint()))/10
		}
		return 1
	case *pb.Action_AbandonSite:
		return -v.siteValue(int(k.AbandonSite.GetIntersection()))
	case *pb.Action_Discard:
		c := int(k.Discard.GetColor()) - 1
		return -v.worth(c) + float64(k.Discard.GetCount())*0.01
	case *pb.Action_EndTurn:
		return 0
	}
	return 0
}

// tradeGain is what receiving get for giving give is worth to me.
func (g *Greedy) tradeGain(v *view, get, give [pt.NumColors]int32) float64 {
	gain := 0.0
	for c := 0; c < pt.NumColors; c++ {
		gain += float64(get[c])*v.need(c) - float64(give[c])*v.keep(c)
	}
	return gain
}

// need is how much one more chip of c helps: a missing atmosphere color most.
func (v *view) need(c int) float64 {
	w := v.worth(c)
	if v.atmCost[c] > v.chips[c] {
		w += 1
	}
	return w
}

// keep is how much one chip of c held is worth keeping; surplus counts for little.
func (v *view) keep(c int) float64 {
	w := v.worth(c)
	if v.atmCost[c] == 0 && v.chips[c] > 2 {
		w *= 0.6
	}
	return w
}

// earth rates trading give to Earth for one take: worth it when it completes a ring.
func (g *Greedy) earth(v *view, give, take int) float64 {
	rate := int32(5)
	for _, p := range v.o.GetPlayers() {
		if p.GetSeat() == v.me && len(p.GetEarthRates()) == pt.NumColors {
			rate = p.GetEarthRates()[give]
		}
	}
	if v.canPay(v.atmCost) {
		return -1 // build first
	}
	if v.atmCost[take] <= v.chips[take] {
		return -1
	}
	left := v.chips[give] - rate
	if v.atmCost[give] > 0 && left < v.atmCost[give] {
		return -1
	}
	return 2 + float64(left)*0.01
}

// customOffer proposes one chip I can spare for a missing atmosphere chip, to the opponent
// holding most of it, if not already asked this turn.
func (g *Greedy) customOffer(v *view) *pb.Action {
	if v.o.GetOffersMade() >= v.o.GetOffersPerTurn() || v.canPay(v.atmCost) {
		return nil
	}
	want := -1
	for c := 0; c < pt.NumColors; c++ {
		if v.atmCost[c] > v.chips[c] {
			want = c
			break
		}
	}
	if want < 0 {
		return nil
	}
	spare := -1
	for c := 0; c < pt.NumColors; c++ {
		if v.chips[c] > v.atmCost[c] && (spare < 0 || v.chips[c]-v.atmCost[c] > v.chips[spare]-v.atmCost[spare]) {
			spare = c
		}
	}
	if spare < 0 {
		return nil
	}
	for _, n := range []int32{1, 2} {
		if v.chips[spare]-v.atmCost[spare] < n {
			break
		}
		for _, p := range v.o.GetPlayers() {
			q := p.GetSeat()
			if q == v.me || pt.ChipsOf(p.GetChips())[want] < 1 {
				continue
			}
			var give, take [pt.NumColors]int32
			give[spare], take[want] = n, 1
			o := &pb.Offer{To: q, Give: chipsProto(give), Take: chipsProto(take)}
			if !g.offered[offerKey(o)] {
				return &pb.Action{Kind: &pb.Action_Offer{Offer: o}}
			}
		}
	}
	return nil
}

func chipsProto(c [pt.NumColors]int32) *pb.Chips {
	return &pb.Chips{Red: c[0], Orange: c[1], Yellow: c[2], Green: c[3], Blue: c[4], Purple: c[5]}
}

// luddite rates cancelling the pending card or black roll.
func (g *Greedy) luddite(v *view) float64 {
	if v.o.GetPendingBlack() {
		if v.o.GetPendingBy() == v.leader {
			return 0.5
		}
		return -1
	}
	pc := v.o.GetPendingCard().GetPlayCard()
	switch pc.GetCard() {
	case pb.CardKind_CARD_KIND_ORBITAL_MIRROR:
		return 2
	case pb.CardKind_CARD_KIND_AQUIFER:
		if c := int(pc.GetColor()) - 1; c >= 0 && v.chips[c] >= 2 {
			return float64(v.chips[c]) * v.worth(c) / 3
		}
	case pb.CardKind_CARD_KIND_SHUTTLE:
		if v.site[pc.GetShuttleOwner()] >= 0 {
			return -1
		}
	}
	return -1
}

// dieValue is what holding die d is worth to me per turn.
func (g *Greedy) dieValue(v *view, d int) float64 {
	if d < 0 || d >= pt.NumDice {
		return 0
	}
	val := 0.0
	for x := range v.site {
		if v.site[x] != v.me {
			continue
		}
		cs := pt.Geo.Intersections[x].Colors
		val += g.dice[d][cs[1]]*v.worth(int(cs[0])) + g.dice[d][cs[0]]*v.worth(int(cs[1]))
	}
	return val
}

// terraform rates exchanging dice a and b: my die should get better, the leader's worse.
func (g *Greedy) terraform(v *view, a, b int) float64 {
	holder := map[int]int32{}
	for _, p := range v.o.GetPlayers() {
		holder[int(p.GetDie())-1] = p.GetSeat()
	}
	owner := func(d int) int32 {
		if h, ok := holder[d]; ok {
			return h
		}
		return -1
	}
	mine := -1
	for d, h := range holder {
		if h == v.me {
			mine = d
		}
	}
	after := mine
	switch mine {
	case a:
		after = b
	case b:
		after = a
	}
	score := 1 + g.dieValue(v, after) - g.dieValue(v, mine)
	if (owner(a) == v.leader || owner(b) == v.leader) && owner(a) != v.me && owner(b) != v.me {
		score += 0.05
	}
	return score
}

// pantropy rates a menu swap: how much cheaper an atmosphere gets in my production.
func (g *Greedy) pantropy(v *view, p *pb.Pantropy) float64 {
	if p.GetNone() {
		return 0.5
	}
	from, to := int(p.GetSlotFrom()), int(p.GetSlotTo())
	if from >= len(v.menu) || to >= len(v.menu) {
		return 0
	}
	before := g.atmHardness(v, v.menu)
	m := append([]pb.Color(nil), v.menu...)
	m[from], m[to] = m[to], m[from]
	gain := before - g.atmHardness(v, m)
	return 1 + gain
}

// atmHardness is how hard an atmosphere is to pay for with menu m: turns of production.
func (g *Greedy) atmHardness(v *view, m []pb.Color) float64 {
	h := 0.0
	for i, it := range v.items {
		if it == pb.Item_ITEM_ATMOSPHERE && i < len(m) {
			h += 1 / (v.rate[int(m[i])-1] + 0.05)
		}
	}
	return h / 10
}

// play rates playing a card.
func (g *Greedy) play(v *view, pc *pb.PlayCard) float64 {
	switch pc.GetCard() {
	case pb.CardKind_CARD_KIND_ORBITAL_MIRROR:
		return 8
	case pb.CardKind_CARD_KIND_SOLAR_SHADE:
		return 2
	case pb.CardKind_CARD_KIND_SPACE_ELEVATOR:
		return 2
	case pb.CardKind_CARD_KIND_AQUIFER:
		c := int(pc.GetColor()) - 1
		total := int32(0)
		for _, p := range v.o.GetPlayers() {
			if p.GetSeat() != v.me {
				total += pt.ChipsOf(p.GetChips())[c]
			}
		}
		return float64(total) * v.worth(c) / 2
	case pb.CardKind_CARD_KIND_GUIDED_COMET:
		slot, c := int(pc.GetSlot()), pc.GetColor()
		if slot >= len(v.menu) {
			return -1
		}
		m := append([]pb.Color(nil), v.menu...)
		m[slot] = c
		return 0.5 + 3*(g.atmHardness(v, v.menu)-g.atmHardness(v, m))
	case pb.CardKind_CARD_KIND_SHUTTLE:
		if pc.GetShuttleOwner() != v.me {
			return 0.2
		}
		x := pt.Geo.Intersections[pc.GetIntersection()].Colors
		return 0.5 + float64(v.chips[x[0]]+v.chips[x[1]])/20
	}
	return -1
}
