package fccatan

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/orrery/orrery/engine"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

// Determinizer draws full states of a tick consistent with one team's observation, for
// planners that simulate the next ticks: the other teams' standing intents, which the team
// cannot see, are drawn (each player runs on as it moves now, or toward a random point, with
// the flags its situation suggests); the deck's order is drawn from the cards no team holds.
// It reads the observation once, and only in the tick phase: the market and setup are left to
// other means. A planner that has the other teams answer each tick as greedy steers (Steer), as
// the search bot does, overwrites the drawn intents at the first tick; they stand where the
// tree branches over the other teams' intents instead.
//
// The observation carries the rules (the knights option among them), not the wall-clock
// settings: those take their defaults (they change no tick), and a simulated tick resolves in
// lockstep.
type Determinizer struct {
	base   *State
	viewer int
	cards  []int8 // the cards no team holds, for the deck
}

var _ engine.Evaluator = (*State)(nil)

// NewDeterminizer reads o, the observation of seat, in the tick phase.
func NewDeterminizer(o *fccatanv1.Observation, seat int) (*Determinizer, error) {
	if o.GetPhase() != fccatanv1.Phase_PHASE_TICK {
		return nil, fmt.Errorf("fccatan: the determinizer reads ticks, not the %v", o.GetPhase())
	}
	n := len(o.GetTeams())
	if seat < 0 || seat >= n {
		return nil, fmt.Errorf("fccatan: seat %d of %d teams", seat, n)
	}
	r := o.GetRules()
	if r.GetTickMs() <= 0 || 1000%r.GetTickMs() != 0 || r.GetTicksPerRound()*r.GetTickMs()%1000 != 0 {
		return nil, fmt.Errorf("fccatan: the rules' clock (%d ticks of %d ms) is not an option's", r.GetTicksPerRound(), r.GetTickMs())
	}
	sizes := make([]string, n)
	for t, tm := range o.GetTeams() {
		sizes[t] = strconv.Itoa(len(tm.GetAvatars()))
	}
	itoa := func(v int32) string { return strconv.Itoa(int(v)) }
	knights := r.GetKnights()
	if knights == "" {
		knights = "any" // a server from before the rules named it: any count reads every view
	}
	c, err := newConfig(engine.Config{Seats: n, Options: map[string]string{
		"ruleset": r.GetRuleset(), "map": r.GetMap(), "team_size": strings.Join(sizes, ","), "knights": knights,
		"round_seconds": itoa(r.GetTicksPerRound() * r.GetTickMs() / 1000), "tick_rate": itoa(1000 / r.GetTickMs()),
		"win_vp": itoa(r.GetWinVp()), "top_speed_cm_s": itoa(r.GetTopSpeedCmS()), "reach_cm": itoa(r.GetReachCm()),
		"round_cap": itoa(r.GetMaxRounds()), "idle_markets": itoa(r.GetIdleMarkets()), "trade_steps": itoa(r.GetTradeSteps()),
		"throw_range_cm": itoa(r.GetThrowRangeCm()),
	}})
	if err != nil {
		return nil, fmt.Errorf("fccatan: observation: %w", err)
	}
	s := newState(c, 0)
	s.phase, s.round, s.tick, s.idle = PhaseTick, int16(o.GetRound()), o.GetTick(), int16(o.GetIdleMarkets())
	held := [deckSize + 1]int{}
	for t, pt := range o.GetTeams() {
		tm := &s.teams[t]
		tm.vp, tm.start = int16(pt.GetVp()), int8(pt.GetStartHoop())
		res := pt.GetResources()
		tm.res = [numRes]int16{int16(res.GetWood()), int16(res.GetBrick()), int16(res.GetOre()), int16(res.GetSheep())}
		if len(pt.GetCards()) > deckSize {
			return nil, fmt.Errorf("fccatan: team %d holds %d cards", t, len(pt.GetCards()))
		}
		for _, card := range pt.GetCards() {
			if card <= 0 || int(card) >= len(cardNames) {
				return nil, fmt.Errorf("fccatan: team %d holds card %d", t, card)
			}
			tm.cards[tm.ncards] = int8(card)
			tm.ncards++
			held[card]++
		}
		for _, p := range pt.GetLastPurchases() {
			if tm.nbought < maxItems {
				tm.bought[tm.nbought] = int8(p)
				tm.nbought++
			}
		}
		for i, pa := range pt.GetAvatars() {
			av := &tm.av[i]
			av.pos = Vec{X: pa.GetPosition().GetX(), Y: pa.GetPosition().GetY()}
			av.vel = Vec{X: pa.GetVelocity().GetX(), Y: pa.GetVelocity().GetY()}
			av.carry = noRes
			if pa.GetCarrying() != fccatanv1.Resource_RESOURCE_UNSPECIFIED {
				k, err := resFrom(pa.GetCarrying())
				if err != nil {
					return nil, err
				}
				av.carry = Resource(k)
			}
			av.collected, av.frozen, av.knight, av.markers = pa.GetCollected(), pa.GetFrozen(), pa.GetKnight(), int8(pa.GetMarkers())
			if t == seat && pa.GetIntent() != nil {
				if av.order, err = intentFrom(pa.GetIntent()); err != nil {
					return nil, err
				}
			}
		}
	}
	if len(o.GetPiles()) != len(c.field.Piles) || len(o.GetHoops()) != len(c.field.Hoops) {
		return nil, fmt.Errorf("fccatan: the field has %d piles and %d hoops, the view %d and %d", len(c.field.Piles), len(c.field.Hoops), len(o.GetPiles()), len(o.GetHoops()))
	}
	for p, pp := range o.GetPiles() {
		s.piles[p] = int8(pp.GetBalls())
	}
	for h, hs := range o.GetHoops() {
		s.owner[h], s.building[h] = int8(hs.GetOwner()), int8(hs.GetBuilding())
	}
	left := int(o.GetDeckLeft())
	if left < 0 || left > deckSize {
		return nil, fmt.Errorf("fccatan: %d cards left in a deck of %d", left, deckSize)
	}
	s.deckTop = int8(deckSize - left)
	d := &Determinizer{base: s, viewer: seat}
	for _, spec := range deckSpec {
		for k := held[spec.card]; k < spec.count; k++ {
			d.cards = append(d.cards, spec.card)
		}
	}
	for len(d.cards) < left { // played cards are out of sight: fill with victory points
		d.cards = append(d.cards, cardVP)
	}
	return d, nil
}

// Sample writes a draw into dst (nil, or an earlier sample) and returns it.
func (d *Determinizer) Sample(dst engine.State, r *rand.Rand) engine.State {
	s := d.base.CloneInto(dst).(*State)
	for t := 0; t < s.c.teams; t++ {
		if t == d.viewer {
			continue
		}
		tm := &s.teams[t]
		for i := 0; i < int(tm.size); i++ {
			av := &tm.av[i]
			if av.frozen {
				av.order = Stay()
				continue
			}
			av.order = s.plausible(t, i, r)
		}
	}
	r.Shuffle(len(d.cards), func(i, j int) { d.cards[i], d.cards[j] = d.cards[j], d.cards[i] })
	copy(s.deck[s.deckTop:], d.cards)
	s.rng.Seed(r.Uint64(), r.Uint64())
	return s
}

// plausible draws a standing intent for team t's player i as players play: half the time it
// runs on as it moves now (its velocity is in sight); otherwise a carrier runs home to its
// nearest city, a knight chases a carrier that has come near, a player yet to collect runs to
// the nearest pile of a resource drawn at random and picks up, and the rest run to a random
// point. Knights tag whatever they do.
func (s *State) plausible(t, i int, r *rand.Rand) Intent {
	av := &s.teams[t].av[i]
	f := s.c.field
	var in Intent
	switch {
	case av.vel != (Vec{}) && r.IntN(2) == 0:
		in = Velocity(int16(av.vel.X), int16(av.vel.Y))
	case av.carry != noRes:
		if h := s.nearestHoop(av.pos, t, city); h >= 0 {
			in = to(f.Hoops[h].Center)
		}
	case av.knight && r.IntN(2) == 0 && s.nearCarrier(av.pos, t, 7*s.c.reach) >= 0:
		in = to(s.at(s.nearCarrier(av.pos, t, 7*s.c.reach)).pos)
	case !av.collected:
		if p := s.nearestPile(av.pos, Resource(r.IntN(int(numRes)))); p >= 0 {
			in = to(f.Piles[p].Pos).PickUp()
		}
	default:
		in = To(int16(r.Int32N(f.Width)), int16(r.Int32N(f.Height)))
	}
	switch {
	case av.knight:
		in = in.Tag()
	case av.carry == noRes && !av.collected:
		in = in.PickUp()
	case av.markers > 0:
		in = in.Place()
	}
	return in
}

// nearCarrier is the nearest free opposing carrier of team t within dist of p, or -1.
func (s *State) nearCarrier(p Vec, t int, dist int32) ref {
	v := s.nearestOpponent(p, t, true)
	if v < 0 || !within(p, s.at(v).pos, dist) {
		return -1
	}
	return v
}

// Evaluate scores team seat's standing for a planner that looks a few ticks ahead, on a
// logistic scale against the best rival: VP first, then resources banked, then what the field
// holds for each team this round. A ball carried is worth more the nearer its carrier is to a
// city of its team, and little when it cannot get home before the whistle (it goes back to a
// pile); a free player yet to collect is worth the ball it may still fetch, if a pile and the
// way home fit in the time left; a frozen player is worth nothing more this round. So a tag
// that freezes a rival's runner or takes its ball, a carrier caught, and a ball run home all
// move the score.
func (s *State) Evaluate(seat engine.Seat) float64 {
	if s.phase == PhaseOver {
		for t := 0; t < s.c.teams; t++ {
			if s.teams[t].vp > s.teams[seat].vp {
				return 0
			}
		}
		return 1
	}
	rival := math.Inf(-1)
	for t := 0; t < s.c.teams; t++ {
		if engine.Seat(t) != seat {
			rival = max(rival, s.worth(t))
		}
	}
	return 1 / (1 + math.Exp(-(s.worth(int(seat))-rival)/3))
}

// worth is team t's standing in balls: 4 a VP, and the balls banked, carried and in
// prospect, each worth 1 while the team's next purchase lacks its resource and half that
// beyond (a runner fetching an unneeded ball sooner is no gain); see needed.
func (s *State) worth(t int) float64 {
	tm := &s.teams[t]
	v := 4 * float64(tm.vp)
	lack := s.needed(t)
	ball := func(r Resource) float64 {
		if lack[r] > 0 {
			lack[r]--
			return 1
		}
		return 0.5
	}
	for r, n := range tm.res {
		for k := int16(0); k < n; k++ {
			v += ball(Resource(r))
		}
	}
	f := s.c.field
	// How far a player can still run this round.
	run := float64(s.c.speed) * float64((s.c.ticksPerRound-int(s.tick))*s.c.tickMS) / 1000
	for i := 0; i < int(tm.size); i++ {
		av := &tm.av[i]
		v += 0.5 * float64(av.markers)
		if av.frozen || s.phase != PhaseTick || av.carry == noRes {
			continue
		}
		h := s.nearestHoop(av.pos, t, city)
		if h < 0 {
			continue
		}
		w := ball(av.carry)
		home := math.Sqrt(float64(dist2(av.pos, f.Hoops[h].Center))) - float64(f.Hoops[h].Radius)
		if home > run {
			v += 0.1 * w
			continue
		}
		v += w * (0.6 + 0.35*(1-home/max(run, 1)))
	}
	if s.phase != PhaseTick {
		return v
	}
	var back [maxPiles]float64 // from each pile with a ball to the team's nearest city; 0: none
	for k, p := range f.Piles {
		if s.piles[k] > 0 {
			if h := s.nearestHoop(p.Pos, t, city); h >= 0 {
				back[k] = math.Sqrt(float64(dist2(p.Pos, f.Hoops[h].Center)))
			}
		}
	}
	for i := 0; i < int(tm.size); i++ {
		av := &tm.av[i]
		if av.frozen || av.carry != noRes || av.collected {
			continue
		}
		best := 0.0
		for k, p := range f.Piles {
			if back[k] == 0 {
				continue
			}
			w := 0.5
			if lack[p.Resource] > 0 {
				w = 1
			}
			trip := math.Sqrt(float64(dist2(av.pos, p.Pos))) + back[k]
			if trip < run {
				best = max(best, 0.5*w*(1-trip/max(run, 1)))
			}
		}
		v += best
	}
	return v
}

// needed is what team t's next purchase lacks, by resource: a knight while it has players
// to make knights (the cheapest VP in the seed ruleset), else a settlement.
func (s *State) needed(t int) [numRes]int16 {
	tm := &s.teams[t]
	goal := buySettlement
	for i := 0; i < int(tm.size); i++ {
		if !tm.av[i].knight {
			goal = buyKnight
		}
	}
	var lack [numRes]int16
	for r := range lack {
		lack[r] = int16(s.c.costs[goal][r])
	}
	return lack
}
