package fccatan

import (
	"errors"
	"testing"

	"github.com/orrery/orrery/engine"
)

// newMatch starts a match; opts may be nil.
func newMatch(t *testing.T, seats int, opts map[string]string) *State {
	t.Helper()
	st, err := engine.New("fccatan", engine.Config{Seats: seats, Seed: 7, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// started is a match past setup, in the first tick of round 1: team t holds start hoop t with
// avatars 0 and 1 as knights.
func started(t *testing.T, seats int, opts map[string]string) *State {
	t.Helper()
	s := newMatch(t, seats, opts)
	for team := 0; team < seats; team++ {
		mustApply(t, s, team, SetupAction(team, 0b11))
	}
	if s.phase != PhaseTick {
		t.Fatalf("after setup the phase is %v, want tick", s.phase)
	}
	return s
}

func mustApply(t *testing.T, s *State, team int, a engine.Action) {
	t.Helper()
	if err := s.Apply(engine.Seat(team), a); err != nil {
		t.Fatalf("team %d %s: %v", team, s.FormatAction(a), err)
	}
}

func wantIllegal(t *testing.T, s *State, team int, a engine.Action) {
	t.Helper()
	before, _ := s.MarshalBinary()
	err := s.Apply(engine.Seat(team), a)
	if !errors.Is(err, engine.ErrIllegalAction) {
		t.Errorf("team %d %s: got %v, want an illegal action", team, s.FormatAction(a), err)
	}
	if after, _ := s.MarshalBinary(); string(before) != string(after) {
		t.Errorf("a rejected action changed the state")
	}
}

// tick resolves one tick in lockstep: team i sends acts[i], the others stand still (a zero
// Action in acts also stands still).
func tick(t *testing.T, s *State, acts ...engine.Action) {
	t.Helper()
	if s.phase != PhaseTick {
		t.Fatalf("phase %v, want tick", s.phase)
	}
	before := s.tick
	round := s.round
	for team := 0; team < s.c.teams; team++ {
		a := IntentsAction()
		if team < len(acts) && !acts[team].IsZero() {
			a = acts[team]
		}
		mustApply(t, s, team, a)
	}
	if s.round == round && s.phase == PhaseTick && s.tick != before+1 {
		t.Fatalf("tick did not resolve")
	}
}

// ticks resolves n ticks with the same actions.
func ticks(t *testing.T, s *State, n int, acts ...engine.Action) {
	t.Helper()
	for i := 0; i < n && s.phase == PhaseTick; i++ {
		tick(t, s, acts...)
	}
}

// whistle plays the rest of the round with standing intents.
func whistle(t *testing.T, s *State) {
	t.Helper()
	for s.phase == PhaseTick {
		if err := s.Advance(); err != nil {
			t.Fatal(err)
		}
	}
}

// toBuy passes every trade step to reach the purchases.
func toBuy(t *testing.T, s *State) {
	t.Helper()
	whistle(t, s)
	for s.phase == PhaseOffer || s.phase == PhaseReply {
		for team := 0; team < s.c.teams; team++ {
			mustApply(t, s, team, PassAction())
		}
	}
	if s.phase != PhaseBuy {
		t.Fatalf("phase %v, want buy", s.phase)
	}
}

// buy declares decls[i] for team i (a zero Action passes).
func buy(t *testing.T, s *State, decls ...engine.Action) {
	t.Helper()
	for team := 0; team < s.c.teams; team++ {
		a := PassAction()
		if team < len(decls) && !decls[team].IsZero() {
			a = decls[team]
		}
		if !s.owes(engine.Seat(team)) {
			continue
		}
		mustApply(t, s, team, a)
	}
}

// grant moves n balls of r from the piles into team's stock, keeping balls conserved.
func grant(s *State, team int, r Resource, n int) {
	for k := 0; k < n; k++ {
		s.takeBall(r)
		s.teams[team].res[r]++
	}
}

// grantAll gives team the counts of each resource.
func grantAll(s *State, team int, w, b, o, sh int) {
	grant(s, team, Wood, w)
	grant(s, team, Brick, b)
	grant(s, team, Ore, o)
	grant(s, team, Sheep, sh)
}

// hand puts a ball of r from the piles in the hands of team's avatar i, who has collected.
func hand(s *State, team, i int, r Resource) {
	s.takeBall(r)
	s.teams[team].av[i].carry = r
	s.teams[team].av[i].collected = true
}

// put places avatar i of team at p (cm).
func put(s *State, team, i int, x, y int32) { s.teams[team].av[i].pos = Vec{x, y} }

// build puts a building of team in hoop h.
func build(s *State, team, h int, b int8) { s.owner[h], s.building[h] = int8(team), b }

// only is an intents action moving avatar i of a team alone.
func only(i int, in Intent) engine.Action {
	ins := make([]Intent, maxAvatars)
	ins[i] = in
	return IntentsAction(ins...)
}

// scatter moves every avatar of every team far from each other and from everything.
func scatter(s *State) {
	for team := 0; team < s.c.teams; team++ {
		for i := 0; i < int(s.teams[team].size); i++ {
			put(s, team, i, 5000+int32(team)*200, 2100+int32(i)*150)
		}
	}
}

func countEvents(s *State, kind uint8) int {
	n := 0
	for _, e := range s.events {
		if e.kind == kind {
			n++
		}
	}
	return n
}

func pileBalls(s *State, r Resource) []int8 {
	var out []int8
	for p, spot := range s.c.field.Piles {
		if spot.Resource == r {
			out = append(out, s.piles[p])
		}
	}
	return out
}
