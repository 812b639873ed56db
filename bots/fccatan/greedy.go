// Package fccatan holds Full-Contact Catan's built-in bots.
//
// Greedy plays a team from its decision alone (the observation, the legal list and the map
// named in the rules). In a round, runners head for the pile whose resource the team's next
// purchases need most per metre of the round trip, pick up, and run home to the nearest city;
// carriers of settlement markers place them in the free hoop nearest the far piles; knights
// intercept opposing carriers that come near and otherwise collect like runners, tagging any
// opponent in reach. In the market it buys the most VP it can afford (knights, cities,
// settlements, then cards), offers a spare ball for two it needs, accepts only trades that
// help, and decides cards for its own benefit.
package fccatan

import (
	"math"

	"github.com/orrery/orrery/bots"
	fcc "github.com/orrery/orrery/engine/fccatan"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// Greedy is the greedy team bot. It keeps no state between decisions.
type Greedy struct{}

// NewGreedy returns a greedy bot; it plays deterministically, so the seed is unused.
func NewGreedy(seed uint64) bots.Bot { return Greedy{} }

// Act answers one decision with a typed action, or the first legal action when it has no
// better idea.
func (Greedy) Act(d *orreryv1.Decision) *orreryv1.Answer {
	o, ok := wire.GameObservation(d.GetObservation()).(*fccatanv1.Observation)
	if !ok || o.GetSeat() < 0 || int(o.GetSeat()) >= len(o.GetTeams()) {
		return bots.Index(d, 0)
	}
	f := fcc.FieldByName(o.GetRules().GetMap())
	if f == nil {
		return bots.Index(d, 0)
	}
	v := newView(o, f)
	var a *fccatanv1.Action
	pick := -1
	switch o.GetPhase() {
	case fccatanv1.Phase_PHASE_SETUP:
		pick = v.bestLegal(d, v.scoreSetup)
	case fccatanv1.Phase_PHASE_DEPLOY:
		a = v.deploy()
	case fccatanv1.Phase_PHASE_TICK:
		a = v.intents()
	case fccatanv1.Phase_PHASE_OFFER:
		a = v.offer()
	case fccatanv1.Phase_PHASE_REPLY:
		a = v.reply()
	case fccatanv1.Phase_PHASE_BUY:
		a = v.buy()
	case fccatanv1.Phase_PHASE_CARD_CHOICE, fccatanv1.Phase_PHASE_DISCARD:
		pick = v.bestLegal(d, v.scoreCard)
	}
	if a != nil {
		return &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_Action{Action: wire.Action(a)}}
	}
	return bots.Index(d, max(pick, 0))
}

// view is the decision seen from the bot's team.
type view struct {
	o     *fccatanv1.Observation
	f     *fcc.Field
	me    int
	team  *fccatanv1.Team
	have  [4]int
	costs [5][4]int // settlement, city, knight, card (index 1..4)
}

func counts(r *fccatanv1.Resources) [4]int {
	return [4]int{int(r.GetWood()), int(r.GetBrick()), int(r.GetOre()), int(r.GetSheep())}
}

func newView(o *fccatanv1.Observation, f *fcc.Field) *view {
	v := &view{o: o, f: f, me: int(o.GetSeat())}
	v.team = o.GetTeams()[v.me]
	v.have = counts(v.team.GetResources())
	c := o.GetRules().GetCosts()
	v.costs[1], v.costs[2], v.costs[3], v.costs[4] = counts(c.GetSettlement()), counts(c.GetCity()), counts(c.GetKnight()), counts(c.GetCard())
	if c.GetCitySheepOrOre() {
		v.costs[2][3]++ // plan for sheep; ore is paid instead when the team has more ore
	}
	return v
}

func res(r fccatanv1.Resource) int { return int(r) - 1 }

func dist(a, b fcc.Vec) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }

func pos(p *fccatanv1.Vec) fcc.Vec { return fcc.Vec{X: p.GetX(), Y: p.GetY()} }

// hoops lists the hoops holding the team's buildings of kind b (any when b is unspecified).
func (v *view) hoops(owner int, b fccatanv1.Building) []int {
	var out []int
	for _, h := range v.o.GetHoops() {
		if int(h.GetOwner()) == owner && (b == fccatanv1.Building_BUILDING_UNSPECIFIED || h.GetBuilding() == b) {
			out = append(out, int(h.GetId()))
		}
	}
	return out
}

func (v *view) nearestHoop(p fcc.Vec, hs []int) (int, float64) {
	best, bestD := -1, math.Inf(1)
	for _, h := range hs {
		if d := dist(p, v.f.Hoops[h].Center); d < bestD {
			best, bestD = h, d
		}
	}
	return best, bestD
}

// knightsLeft counts the team's players who could still be made knights.
func (v *view) knightsLeft() int {
	n := 0
	for _, a := range v.team.GetAvatars() {
		if !a.GetKnight() {
			n++
		}
	}
	return n
}

// needs weighs each resource by what the next purchases still lack: a knight (the cheapest
// VP) first, then a city, a settlement and a card. Every resource keeps a small weight so idle
// players still collect.
func (v *view) needs(have [4]int) [4]float64 {
	var n [4]float64
	add := func(kind int, w float64) {
		for r := 0; r < 4; r++ {
			if miss := v.costs[kind][r] - have[r]; miss > 0 {
				n[r] += w * float64(miss)
			}
		}
	}
	if v.knightsLeft() > 0 {
		add(3, 3)
	}
	if len(v.hoops(v.me, fccatanv1.Building_BUILDING_SETTLEMENT)) > 0 {
		add(2, 2.5)
	}
	add(1, 1.5)
	if v.o.GetDeckLeft() > 0 {
		add(4, 1)
	}
	for r := range n {
		n[r] += 0.2
	}
	return n
}

// value is what a stock of balls is worth to the team: what it needs counts most.
func (v *view) value(have [4]int) float64 {
	n := v.needs([4]int{})
	total := 0.0
	for r := 0; r < 4; r++ {
		total += n[r] * float64(min(have[r], 4)) / 4
	}
	return total
}

// --- Setup and deployment.

// scoreSetup prefers the start hoop nearest the piles and two knights (the rest can be bought).
func (v *view) scoreSetup(a *fccatanv1.Action) float64 {
	s := a.GetSetup()
	if s == nil {
		return math.Inf(-1)
	}
	c := v.f.Hoops[s.GetHoop()].Center
	score := 0.0
	for r := 0; r < 4; r++ {
		nearest := math.Inf(1)
		for _, p := range v.f.Piles {
			if int(p.Resource) == r {
				nearest = min(nearest, dist(c, p.Pos))
			}
		}
		score -= nearest
	}
	k := len(s.GetKnights())
	score -= 1000 * math.Abs(float64(k-2))
	for i, x := range s.GetKnights() {
		score -= float64(x-int32(i)) * 10 // the first players
	}
	return score
}

// deploy starts marker carriers in the building nearest a free hoop and everyone else in the
// city nearest the piles the team needs.
func (v *view) deploy() *fccatanv1.Action {
	cities := v.hoops(v.me, fccatanv1.Building_BUILDING_CITY)
	mine := v.hoops(v.me, fccatanv1.Building_BUILDING_UNSPECIFIED)
	free := v.hoops(-1, fccatanv1.Building_BUILDING_UNSPECIFIED)
	need := v.needs(v.have)
	bestCity, bestScore := cities[0], math.Inf(-1)
	for _, h := range cities {
		s := 0.0
		for _, p := range v.f.Piles {
			s += need[p.Resource] / (dist(v.f.Hoops[h].Center, p.Pos) + 500)
		}
		if s > bestScore {
			bestCity, bestScore = h, s
		}
	}
	d := &fccatanv1.Deploy{}
	for _, a := range v.team.GetAvatars() {
		h := bestCity
		if a.GetMarkers() > 0 && len(free) > 0 {
			best := math.Inf(1)
			for _, m := range mine {
				if _, fd := v.nearestHoop(v.f.Hoops[m].Center, free); fd < best {
					h, best = m, fd
				}
			}
		}
		d.Hoops = append(d.Hoops, int32(h))
	}
	return &fccatanv1.Action{Kind: &fccatanv1.Action_Deploy{Deploy: d}}
}

// --- Ticks.

func target(p fcc.Vec) *fccatanv1.AvatarIntent {
	return &fccatanv1.AvatarIntent{Motion: &fccatanv1.AvatarIntent_Target{Target: &fccatanv1.Vec{X: p.X, Y: p.Y}}}
}

func stay() *fccatanv1.AvatarIntent {
	return &fccatanv1.AvatarIntent{Motion: &fccatanv1.AvatarIntent_Stay{Stay: &fccatanv1.Stay{}}}
}

// opponent is an opposing player on the field.
type opponent struct {
	seat, avatar int
	pos, vel     fcc.Vec
	carrying     bool
}

func (v *view) opponents() []opponent {
	var out []opponent
	for _, t := range v.o.GetTeams() {
		if int(t.GetSeat()) == v.me {
			continue
		}
		for _, a := range t.GetAvatars() {
			if !a.GetFrozen() {
				out = append(out, opponent{int(t.GetSeat()), int(a.GetIndex()), pos(a.GetPosition()), pos(a.GetVelocity()),
					a.GetCarrying() != fccatanv1.Resource_RESOURCE_UNSPECIFIED})
			}
		}
	}
	return out
}

func (v *view) clamp(p fcc.Vec) fcc.Vec {
	p.X = min(max(p.X, 0), v.f.Width)
	p.Y = min(max(p.Y, 0), v.f.Height)
	return p
}

// intents gives each free player an order for this tick.
func (v *view) intents() *fccatanv1.Action {
	rules := v.o.GetRules()
	speed := float64(rules.GetTopSpeedCmS())
	// How far a player can still run this round, keeping two ticks in hand.
	budget := speed*float64(v.o.GetTimeLeftMs())/1000 - 2*speed*float64(rules.GetTickMs())/1000
	reach := float64(rules.GetReachCm())
	step := speed * float64(rules.GetTickMs()) / 1000 // the most a player runs in a tick
	cities := v.hoops(v.me, fccatanv1.Building_BUILDING_CITY)
	free := v.hoops(-1, fccatanv1.Building_BUILDING_UNSPECIFIED)
	opps := v.opponents()
	balls := make([]int, len(v.f.Piles))
	for _, p := range v.o.GetPiles() {
		balls[p.GetId()] = int(p.GetBalls())
	}
	planned := v.have
	for _, a := range v.team.GetAvatars() {
		if c := a.GetCarrying(); c != fccatanv1.Resource_RESOURCE_UNSPECIFIED {
			planned[res(c)]++
		}
	}
	chased := map[[2]int]bool{}
	in := &fccatanv1.Intents{}
	for _, a := range v.team.GetAvatars() {
		p := pos(a.GetPosition())
		var it *fccatanv1.AvatarIntent
		switch {
		case a.GetFrozen():
			it = stay()
		case a.GetCarrying() != fccatanv1.Resource_RESOURCE_UNSPECIFIED:
			h, _ := v.nearestHoop(p, cities)
			it = target(v.f.Hoops[h].Center)
		case a.GetMarkers() > 0 && len(free) > 0 && v.placeHoop(p, free, budget) >= 0:
			it = target(v.f.Hoops[v.placeHoop(p, free, budget)].Center)
			it.Place = true
		}
		if it == nil && a.GetKnight() && !a.GetCollected() {
			// Intercept a carrier that has come near: the ball and the denial.
			best, bestD := -1, 700.0
			for k, op := range opps {
				if d := dist(p, op.pos); op.carrying && !chased[[2]int{op.seat, op.avatar}] && d < bestD {
					best, bestD = k, d
				}
			}
			if best >= 0 {
				op := opps[best]
				lead := bestD / speed // seconds to get there; aim where it will be
				aim := v.clamp(fcc.Vec{X: op.pos.X + int32(float64(op.vel.X)*lead*0.5), Y: op.pos.Y + int32(float64(op.vel.Y)*lead*0.5)})
				if bestD <= reach {
					aim = op.pos
				}
				it = target(aim)
				it.Tag = true
				it.TagTarget = &fccatanv1.AvatarRef{Seat: int32(op.seat), Avatar: int32(op.avatar)}
				chased[[2]int{op.seat, op.avatar}] = true
			}
		}
		if it == nil && !a.GetCollected() {
			if pile := v.bestPile(p, cities, balls, planned, budget); pile >= 0 {
				it = target(v.f.Piles[pile].Pos)
				// Pick up only on arrival: a path can pass within reach of another pile (on
				// the published map the way to ore runs by a brick pile), and a pickup there
				// would spend the round on the wrong resource.
				it.PickUp = dist(p, v.f.Piles[pile].Pos) <= reach+2*step
				balls[pile]--
				planned[v.f.Piles[pile].Resource]++
			}
		}
		if it == nil && a.GetKnight() {
			// Done collecting: hunt the nearest opposing carrier anywhere.
			best, bestD := -1, math.Inf(1)
			for k, op := range opps {
				if d := dist(p, op.pos); op.carrying && d < bestD {
					best, bestD = k, d
				}
			}
			if best >= 0 {
				it = target(opps[best].pos)
			}
		}
		if it == nil {
			it = stay()
		}
		if a.GetKnight() && !it.Tag {
			it.Tag = true // tag whoever comes in reach
		}
		in.Avatars = append(in.Avatars, it)
	}
	return &fccatanv1.Action{Kind: &fccatanv1.Action_Intents{Intents: in}}
}

// placeHoop is the free hoop to place a marker in: the one nearest the far piles (a future
// city there shortens the trips), if the player can reach it this round; -1 otherwise.
func (v *view) placeHoop(p fcc.Vec, free []int, budget float64) int {
	best, bestS := -1, math.Inf(-1)
	for _, h := range free {
		c := v.f.Hoops[h].Center
		d := dist(p, c)
		if d > budget {
			continue
		}
		s := -d / 4
		for _, pile := range v.f.Piles {
			s -= dist(c, pile.Pos) / 12
		}
		if s > bestS {
			best, bestS = h, s
		}
	}
	return best
}

// bestPile is the pile worth most per metre of the trip there and back to a city, among those
// with a ball left and a trip that fits before the whistle; -1 if none.
func (v *view) bestPile(p fcc.Vec, cities []int, balls []int, planned [4]int, budget float64) int {
	need := v.needs(planned)
	best, bestS := -1, 0.0
	for k, pile := range v.f.Piles {
		if balls[k] <= 0 {
			continue
		}
		_, back := v.nearestHoop(pile.Pos, cities)
		trip := dist(p, pile.Pos) + back
		if trip > budget {
			continue
		}
		if s := need[pile.Resource] / (trip + 800); s > bestS {
			best, bestS = k, s
		}
	}
	return best
}

// --- The market.

func resources(n [4]int) *fccatanv1.Resources {
	return &fccatanv1.Resources{Wood: int32(n[0]), Brick: int32(n[1]), Ore: int32(n[2]), Sheep: int32(n[3])}
}

// offer proposes one spare ball for two needed ones (one if the other team has one) to the team
// holding most of what is needed.
func (v *view) offer() *fccatanv1.Action {
	pass := &fccatanv1.Action{Kind: &fccatanv1.Action_Pass{Pass: &fccatanv1.Pass{}}}
	need := v.needs(v.have)
	want, spare := -1, -1
	for r := 0; r < 4; r++ {
		if need[r] > 1 && (want < 0 || need[r] > need[want]) {
			want = r
		}
		if v.have[r] > 0 && need[r] <= 0.2 && (spare < 0 || v.have[r] > v.have[spare]) {
			spare = r
		}
	}
	if want < 0 || spare < 0 || want == spare {
		return pass
	}
	to, most := -1, 0
	for _, t := range v.o.GetTeams() {
		if h := counts(t.GetResources())[want]; int(t.GetSeat()) != v.me && h > most {
			to, most = int(t.GetSeat()), h
		}
	}
	if to < 0 {
		return pass
	}
	var g, w [4]int
	g[spare], w[want] = 1, min(2, most)
	return &fccatanv1.Action{Kind: &fccatanv1.Action_Offer{Offer: &fccatanv1.Offer{ToSeat: int32(to), Give: resources(g), Want: resources(w)}}}
}

// reply accepts the offers that leave the team better off, while it can pay them all.
func (v *view) reply() *fccatanv1.Action {
	r := &fccatanv1.Reply{}
	have := v.have
	for _, of := range v.o.GetOffers() {
		if int(of.GetToSeat()) != v.me {
			continue
		}
		get, give := counts(of.GetGive()), counts(of.GetWant())
		after := have
		ok := true
		for k := 0; k < 4; k++ {
			after[k] += get[k] - give[k]
			ok = ok && after[k] >= 0
		}
		if ok && v.value(after) > v.value(have)+0.01 {
			r.AcceptFrom = append(r.AcceptFrom, of.GetFromSeat())
			have = after
		}
	}
	if len(r.AcceptFrom) == 0 {
		return &fccatanv1.Action{Kind: &fccatanv1.Action_Pass{Pass: &fccatanv1.Pass{}}}
	}
	return &fccatanv1.Action{Kind: &fccatanv1.Action_Reply{Reply: r}}
}

// buy declares the most VP the team can afford: knights, cities, settlements, then cards.
func (v *view) buy() *fccatanv1.Action {
	left := v.have
	var items []*fccatanv1.Purchase
	afford := func(kind int, extra int) bool {
		c := v.costs[kind]
		if extra >= 0 {
			c[3]--
			c[extra]++
		}
		for r := 0; r < 4; r++ {
			if left[r] < c[r] {
				return false
			}
		}
		for r := 0; r < 4; r++ {
			left[r] -= c[r]
		}
		return true
	}
	published := v.o.GetRules().GetCosts().GetCitySheepOrOre()
	avatars := v.team.GetAvatars()
	for i := len(avatars) - 1; i >= 0 && len(items) < 7; i-- {
		if !avatars[i].GetKnight() && afford(3, -1) {
			items = append(items, &fccatanv1.Purchase{Kind: fccatanv1.PurchaseKind_PURCHASE_KIND_KNIGHT, Avatar: int32(i)})
		}
	}
	for _, h := range v.hoops(v.me, fccatanv1.Building_BUILDING_SETTLEMENT) {
		if len(items) >= 7 {
			break
		}
		extra, pay := -1, fccatanv1.Resource_RESOURCE_UNSPECIFIED
		if published && left[2] > left[3] {
			extra, pay = 2, fccatanv1.Resource_RESOURCE_ORE
		}
		if afford(2, extra) {
			items = append(items, &fccatanv1.Purchase{Kind: fccatanv1.PurchaseKind_PURCHASE_KIND_CITY, Hoop: int32(h), PayWith: pay})
		}
	}
	markers := make([]int, len(avatars))
	for i, a := range avatars {
		markers[i] = int(a.GetMarkers())
	}
	for len(items) < 7 && afford(1, -1) {
		carrier := 0
		for i := range avatars {
			if markers[i] < markers[carrier] || markers[i] == markers[carrier] && !avatars[i].GetKnight() && avatars[carrier].GetKnight() {
				carrier = i
			}
		}
		markers[carrier]++
		items = append(items, &fccatanv1.Purchase{Kind: fccatanv1.PurchaseKind_PURCHASE_KIND_SETTLEMENT, Avatar: int32(carrier)})
	}
	for cards := 0; len(items) < 7 && cards < int(v.o.GetDeckLeft()) && afford(4, -1); cards++ {
		items = append(items, &fccatanv1.Purchase{Kind: fccatanv1.PurchaseKind_PURCHASE_KIND_CARD})
	}
	if len(items) == 0 {
		return &fccatanv1.Action{Kind: &fccatanv1.Action_Pass{Pass: &fccatanv1.Pass{}}}
	}
	return &fccatanv1.Action{Kind: &fccatanv1.Action_Buy{Buy: &fccatanv1.Buy{Purchases: items}}}
}

// scoreCard rates a card decision or a discard: keep (or gain) what the team needs; strike the
// leading opponent.
func (v *view) scoreCard(a *fccatanv1.Action) float64 {
	need := v.needs(v.have)
	switch k := a.GetKind().(type) {
	case *fccatanv1.Action_YearOfPlenty:
		n := counts(k.YearOfPlenty.GetTake())
		s := 0.0
		have := v.have
		for r := 0; r < 4; r++ {
			for i := 0; i < n[r]; i++ {
				s += v.needs(have)[r]
				have[r]++
			}
		}
		return s
	case *fccatanv1.Action_Monopoly:
		r := res(k.Monopoly.GetResource())
		total := 0
		for _, t := range v.o.GetTeams() {
			if int(t.GetSeat()) != v.me {
				total += counts(t.GetResources())[r]
			}
		}
		return float64(total) * (need[r] + 0.5)
	case *fccatanv1.Action_Discard:
		n := counts(k.Discard.GetDiscard())
		after := v.have
		for r := 0; r < 4; r++ {
			after[r] -= n[r]
		}
		return v.value(after) - 0.001*float64(n[0]+2*n[1]+3*n[2]+4*n[3])
	case *fccatanv1.Action_Barbarians:
		h := v.o.GetHoops()[k.Barbarians.GetHoop()]
		victim := v.o.GetTeams()[h.GetOwner()]
		s := float64(victim.GetVp()) * 10
		if h.GetBuilding() == fccatanv1.Building_BUILDING_CITY {
			s += 5
		}
		return s
	}
	return 0
}

// bestLegal is the index of the legal action scoring highest, the first on ties; -1 if none.
func (v *view) bestLegal(d *orreryv1.Decision, score func(*fccatanv1.Action) float64) int {
	best, bestS := -1, math.Inf(-1)
	for i, la := range d.GetLegal() {
		a, ok := wire.GameAction(la).(*fccatanv1.Action)
		if !ok {
			continue
		}
		if s := score(a); s > bestS {
			best, bestS = i, s
		}
	}
	return best
}
