package mcts

import (
	"math"
	"math/rand/v2"

	"google.golang.org/protobuf/proto"

	fccatanbot "github.com/orrery/orrery/bots/fccatan"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/fccatan"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// fccatanReplanTicks is how many ticks a Full-Contact Catan plan stands at most (two seconds
// at the default tick rate) when nothing on the field changes it.
const fccatanReplanTicks = 20

// fccatanOverrideTicks is how long a player keeps an order the search gave it over greedy's
// steering: about the playouts' horizon, past which the search did not look.
const fccatanOverrideTicks = 6

// fccatanThreat is how near (in reaches) an opposing knight and a carrier must be for the
// contact to count as a change of situation worth a new plan.
const fccatanThreat = 5

// fccatanPlanner re-plans a team's intents only when the situation changes: a new round (after
// a deployment); one of its players picking up, delivering, losing a ball or tagged; a marker
// or a building; one of its knights and a rival carrier, or a rival knight and one of its
// carriers, coming into contact or out of it; or fccatanReplanTicks ticks since the last plan. In
// between it keeps the plan: the prior's fresh intents (greedy's steering follows the field
// tick by tick), but for the players whose order the search changed, who keep the search's
// for fccatanOverrideTicks.
type fccatanPlanner struct {
	planned   bool
	round     int32
	tick      int32
	situation uint64
	// override is the search's order for each player where it differs from the prior's
	// motion; nil where the prior's stands.
	override [4]*fccatanv1.AvatarIntent
	answer   *orreryv1.Answer // the plan's own tick's answer, given again if asked again
}

func newFccatanPlanner() Planner { return &fccatanPlanner{} }

func (p *fccatanPlanner) Standing(d *orreryv1.Decision, prior *orreryv1.Answer) *orreryv1.Answer {
	o, err := observation[*fccatanv1.Observation](d)
	if err != nil || o.GetPhase() != fccatanv1.Phase_PHASE_TICK {
		p.planned = false
		return nil
	}
	if !p.planned || o.GetRound() != p.round || o.GetTick() < p.tick || o.GetTick()-p.tick >= fccatanReplanTicks ||
		fccatanSituation(o) != p.situation {
		return nil
	}
	if o.GetTick() == p.tick && d.GetDecisionId() == p.answer.GetDecisionId() {
		return p.answer // the planned tick asked again
	}
	if o.GetTick()-p.tick >= fccatanOverrideTicks {
		return prior
	}
	return p.keep(d, prior)
}

// keep is the prior's answer with the search's orders in place of the prior's for the players
// the search overrode.
func (p *fccatanPlanner) keep(d *orreryv1.Decision, prior *orreryv1.Answer) *orreryv1.Answer {
	in := intentsOf(prior)
	if in == nil {
		return prior
	}
	var out *fccatanv1.Intents
	for i, o := range p.override {
		if o == nil || i >= len(in.GetAvatars()) {
			continue
		}
		if out == nil {
			out = proto.Clone(in).(*fccatanv1.Intents)
		}
		out.Avatars[i] = o
	}
	if out == nil {
		return prior
	}
	a := &fccatanv1.Action{Kind: &fccatanv1.Action_Intents{Intents: out}}
	return &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_Action{Action: wire.Action(a)}}
}

// Planned reads which orders the search changed. Greedy's plan clears the overrides. A listed
// action changes one player's standing order (the others keep theirs, which may lag greedy's
// steering): that player's new order is kept, over greedy's, for fccatanOverrideTicks or until
// the next search; "keep every intent" is played for this tick and greedy's steering after it.
// Either way the plan is what the search's model (fccatanModel) judged.
func (p *fccatanPlanner) Planned(d *orreryv1.Decision, prior, answer *orreryv1.Answer) {
	o, err := observation[*fccatanv1.Observation](d)
	if err != nil || o.GetPhase() != fccatanv1.Phase_PHASE_TICK {
		p.planned = false
		return
	}
	p.planned, p.round, p.tick, p.situation, p.answer = true, o.GetRound(), o.GetTick(), fccatanSituation(o), answer
	i, listed := answer.GetChoice().(*orreryv1.Answer_LegalIndex)
	if !listed || int(i.LegalIndex) >= len(d.GetLegal()) || len(d.GetLegal()) == 0 {
		p.override = [4]*fccatanv1.AvatarIntent{}
		return
	}
	keep := legalIntents(d, 0).GetAvatars()
	chosen := legalIntents(d, int(i.LegalIndex)).GetAvatars()
	greedy := intentsOf(prior).GetAvatars()
	p.override = [4]*fccatanv1.AvatarIntent{}
	for k, c := range chosen {
		if k < len(keep) && k < len(greedy) && k < len(p.override) && !proto.Equal(c, keep[k]) && !sameMotion(c, greedy[k]) {
			// A copy: the decision's memory is the server's once Act returns (match.Seat.Play).
			p.override[k] = proto.CloneOf(c)
		}
	}
}

// legalIntents is the intents of d's i-th legal action, or nil.
func legalIntents(d *orreryv1.Decision, i int) *fccatanv1.Intents {
	a, _ := wire.GameAction(d.GetLegal()[i]).(*fccatanv1.Action)
	return a.GetIntents()
}

// intentsOf is the intents of a typed answer, or nil.
func intentsOf(a *orreryv1.Answer) *fccatanv1.Intents {
	c, ok := a.GetChoice().(*orreryv1.Answer_Action)
	if !ok {
		return nil
	}
	act, ok := wire.GameAction(c.Action).(*fccatanv1.Action)
	if !ok {
		return nil
	}
	return act.GetIntents()
}

// sameMotion reports whether two orders run the same way (their flags aside: greedy raises
// its pickup flag only on arrival, and a kept order must not lose it).
func sameMotion(a, b *fccatanv1.AvatarIntent) bool {
	switch m := a.GetMotion().(type) {
	case *fccatanv1.AvatarIntent_Target:
		t := b.GetTarget()
		return t != nil && t.GetX() == m.Target.GetX() && t.GetY() == m.Target.GetY()
	case *fccatanv1.AvatarIntent_Velocity:
		v := b.GetVelocity()
		return v != nil && v.GetX() == m.Velocity.GetX() && v.GetY() == m.Velocity.GetY()
	}
	return b.GetTarget() == nil && b.GetVelocity() == nil
}

// fccatanSituation digests what the team's plan depends on: its own players' balls,
// collections, freezes and markers, the hoops' buildings, and which carriers (of any team)
// are in contact with an opposing knight. A rival's pickup far from the team's knights
// changes no plan: greedy's steering follows it.
func fccatanSituation(o *fccatanv1.Observation) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	mix := func(x uint64) {
		h ^= x
		h *= 1099511628211
	}
	b := func(v bool) uint64 {
		if v {
			return 1
		}
		return 0
	}
	threat := float64(fccatanThreat * o.GetRules().GetReachCm())
	for _, t := range o.GetTeams() {
		for _, a := range t.GetAvatars() {
			if t.GetSeat() == o.GetSeat() {
				mix(uint64(a.GetCarrying()) | b(a.GetCollected())<<4 | b(a.GetFrozen())<<5 | uint64(a.GetMarkers())<<6)
			}
			if a.GetCarrying() == fccatanv1.Resource_RESOURCE_UNSPECIFIED || a.GetFrozen() {
				continue
			}
			near := false
			for _, u := range o.GetTeams() {
				if u.GetSeat() == t.GetSeat() || t.GetSeat() != o.GetSeat() && u.GetSeat() != o.GetSeat() {
					continue // contact between two rivals is none of the team's business
				}
				for _, k := range u.GetAvatars() {
					if k.GetKnight() && !k.GetFrozen() && distance(a.GetPosition(), k.GetPosition()) <= threat {
						near = true
					}
				}
			}
			if near {
				mix(1<<8 | uint64(t.GetSeat())<<9 | uint64(a.GetIndex())<<12)
			}
		}
	}
	for _, hs := range o.GetHoops() {
		mix(uint64(hs.GetOwner()+1) | uint64(hs.GetBuilding())<<8)
	}
	return h
}

func distance(a, b *fccatanv1.Vec) float64 {
	return math.Hypot(float64(a.GetX()-b.GetX()), float64(a.GetY()-b.GetY()))
}

// fccatanModel is how a Full-Contact Catan search plays the ticks ahead: the other teams steer
// as greedy does (fccatan.State.Steer), in the tree and in the playouts, as the teams it most
// often meets play; the searching team steers as greedy too, but for the players whose order
// the searched plan overrode, who keep it for fccatanOverrideTicks, as the planner keeps them.
// Before it, the other teams ran on drawn intents and the team's players kept their standing
// orders (pickup flags unraised) through the playouts, so every plan was judged against
// players who play like no one: in 1,207 searched ticks of 8 games the search never overruled
// greedy. Each search bot has a model of its own.
type fccatanModel struct {
	me           engine.Seat
	round, tick  int           // the root's
	keep, greedy engine.Action // the team's standing intents and greedy's, at the root
	read         bool          // keep and greedy are read for the decision searched
	fresh        bool          // a new sample: the team's next playout move reads held
	held         uint8         // the players whose order this sample's plan overrode
}

// fccatanSampler draws the search's samples and tells the model when a new one starts.
type fccatanSampler struct {
	det *fccatan.Determinizer
	m   *fccatanModel
}

func (s fccatanSampler) Sample(dst engine.State, r *rand.Rand) engine.State {
	st := s.det.Sample(dst, r).(*fccatan.State)
	if m := s.m; !m.read {
		m.keep, _ = st.DefaultAction(m.me)
		m.greedy, m.round, m.tick, m.read = st.Steer(int(m.me)), st.Round(), st.Tick(), true
	}
	s.m.fresh = true
	return st
}

// determinizer reads ticks; setup, deployment and the market are left to the prior.
func (m *fccatanModel) determinizer(d *orreryv1.Decision) (Determinizer, error) {
	o, err := observation[*fccatanv1.Observation](d)
	if err != nil {
		return nil, err
	}
	det, err := fccatan.NewDeterminizer(o, int(d.GetSeat()))
	if err != nil {
		return nil, err
	}
	m.me, m.read = engine.Seat(d.GetSeat()), false
	return fccatanSampler{det, m}, nil
}

// reply is how the other teams answer in the tree: as greedy steers, in a tick; elsewhere (a
// market the tree reaches) their first listed action.
func (m *fccatanModel) reply() Policy {
	return func(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action {
		if s, ok := st.(*fccatan.State); ok && s.Phase() == fccatan.PhaseTick {
			return s.Steer(int(seat))
		}
		return legal[0]
	}
}

// playout plays every team as greedy steers, the searching team's overridden players keeping
// the plan's orders for fccatanOverrideTicks; a market the playout reaches passes.
func (m *fccatanModel) playout(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action {
	s, ok := st.(*fccatan.State)
	if !ok || s.Phase() != fccatan.PhaseTick {
		return legal[0]
	}
	if seat != m.me {
		return s.Steer(int(seat))
	}
	if m.fresh {
		// The team's standing intents are the plan the tree played for it.
		m.held, m.fresh = fccatan.Overrides(legal[0], m.keep, m.greedy), false
	}
	if s.Round() != m.round || s.Tick()-m.tick > fccatanOverrideTicks {
		return s.Steer(int(seat)) // the planner's override has run its course
	}
	return s.SteerHolding(int(seat), m.held)
}

// fccatanPlayoutTicks is how many ticks a playout runs (four seconds at the default tick rate;
// the playout's depth counts four teams' intents a tick):
// long enough for a runner sent elsewhere to reach a pile and head home, so a plan is judged by
// the balls it brings in and the tags it makes, not by the evaluation's guess at a runner's
// prospects.
const fccatanPlayoutTicks = 40

// fccatanGame is the search's Full-Contact Catan, with a model of its own. The tree keeps the
// team's own plan for this tick only: what follows is the model's.
func fccatanGame() Game {
	m := &fccatanModel{}
	return Game{Name: "fccatan", Determinizer: m.determinizer, Depth: 4 * fccatanPlayoutTicks, TreeDepth: 1, Prior: fccatanbot.NewGreedy,
		Playout: m.playout, Reply: func() Policy { return m.reply() }, Replan: newFccatanPlanner}
}
