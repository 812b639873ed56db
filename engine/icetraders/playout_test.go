package icetraders

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
)

// Uniform random play ends IceTraders within a few turns (random players soon discard their
// last ship), so these playouts use a policy that keeps its own seat alive and seeks
// concentrations, to reach hyperspaces, Enterprises, Revolts, reveals and turned-Evil players.

// survivorPick is a random policy that avoids eliminating its own seat when it can.
func survivorPick(s *State, r *rand.Rand) (engine.Seat, engine.Action) {
	toAct := s.ToAct(nil)
	seat := toAct[r.IntN(len(toAct))]
	legal := s.Legal(seat, nil)
	r.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
	for _, a := range legal {
		if a.Kind == KindPass && len(legal) > 1 {
			continue
		}
		c := s.clone()
		if err := c.Apply(seat, a); err != nil {
			panic(err)
		}
		if !c.players[seat].out || c.phase == phaseOver {
			return seat, a
		}
	}
	return seat, legal[0]
}

// deepPick mostly plays to crowd ships of one color into one place, so that concentrations
// happen, and otherwise like survivorPick.
func deepPick(s *State, r *rand.Rand, favorite Color) (engine.Seat, engine.Action) {
	if r.IntN(5) == 0 || s.phase != phasePlay {
		return survivorPick(s, r)
	}
	seat := engine.Seat(s.cur)
	legal := s.Legal(seat, nil)
	r.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
	best, bestScore := engine.Action{}, -1<<30
	for _, a := range legal {
		c := s.clone()
		if err := c.Apply(seat, a); err != nil {
			panic(err)
		}
		score := crowding(c, favorite)
		if a.Kind == KindPass {
			score -= 50
		}
		for _, e := range c.events[len(s.events):] {
			switch {
			case e.kind == evConcentration && favorite == Red:
				score += 100000 // even at the cost of the seat's own fleet
			case e.kind == evConcentration:
				score += 1000
			case e.kind == evEliminated && int(e.seat) == int(seat):
				score -= 50000
			case e.kind == evEliminated:
				score -= 500
			}
		}
		if score > bestScore {
			best, bestScore = a, score
		}
	}
	return seat, best
}

// crowding rewards many ships of one color in one place, most of all the favorite color.
func crowding(s *State, favorite Color) int {
	score := 0
	for _, l := range s.locs {
		for c := Red; c < numColors; c++ {
			n := s.colorAt(l.id, c)
			score += n * n
			if c == favorite {
				score += 2 * n * n
			}
		}
	}
	return score
}

func TestDeepPlayouts_Invariants(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 8
	}
	counts := deepPlayouts(t, games, nil, true)
	for _, want := range []string{"CONCENTRATION_KIND_ARMAGEDDON", "CONCENTRATION_KIND_HYPERSPACE", "CONCENTRATION_KIND_ENTERPRISE",
		"CONCENTRATION_KIND_REVOLT", "enterprise", "revolt", "revealed", "turned evil", "research"} {
		if counts[want] == 0 && !testing.Short() {
			t.Errorf("deep playouts never reached %q", want)
		}
	}
}

// TestDeepPlayouts_EveryRuleOptionChanged plays deep games with every [decision] option at its
// non-default value; the observation carries the options, so FromObservation is checked too.
func TestDeepPlayouts_EveryRuleOptionChanged(t *testing.T) {
	games := 8
	if testing.Short() {
		games = 3
	}
	opts := map[string]string{}
	for _, o := range ruleOptions {
		opts[o.name] = o.alt
	}
	counts := deepPlayouts(t, games, opts, true)
	for _, want := range []string{"add to a named system", "attack into a named color", "research at a named system"} {
		if counts[want] == 0 && !testing.Short() {
			t.Errorf("deep playouts never reached %q", want)
		}
	}
}

// deepPlayouts plays games deep games with extra options and checks the invariants on the way;
// it counts what happened, by concentration, action kind and ending.
func deepPlayouts(t *testing.T, games int, extra map[string]string, determinize bool) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for g := 0; g < games; g++ {
		seats := 2 + g%5
		opts := map[string]string{}
		if g%3 == 0 {
			opts[OptStash] = "6"
		}
		if g%4 == 1 {
			opts[OptAlignment] = "random"
		}
		for k, v := range extra {
			opts[k] = v
		}
		st, err := engine.New(Name, engine.Config{Seats: seats, Seed: uint64(g), Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := rand.New(rand.NewPCG(uint64(g), 3))
		var log []engine.Step
		for step := 0; !s.Terminal(); step++ {
			if step > 20000 {
				t.Fatalf("game %d runs past 20000 actions", g)
			}
			if step%7 == 0 {
				checkLegalIsExact(t, s)
			}
			if step%5 == 0 {
				checkHiddenDeep(t, s, r)
				if determinize {
					checkDeterminize(t, s)
				}
			}
			seat, a := deepPick(s, r, Color(g%4))
			if err := s.Apply(seat, a); err != nil {
				t.Fatalf("game %d: %s: %v", g, FormatAction(a), err)
			}
			log = append(log, engine.Step{Seat: seat, Action: a})
			checkConservation(t, s)
		}
		for _, e := range s.events {
			switch e.kind {
			case evConcentration:
				counts[e.conc.String()]++
			case evAction:
				counts[kindName(e.a.Kind)]++
				switch {
				case e.a.Kind == KindAdd && e.a.Arg[2] != 0:
					counts["add to a named system"]++
				case e.a.Kind == KindAttack && e.a.Arg[2] != 0:
					counts["attack into a named color"]++
				case e.a.Kind == KindResearch && e.a.Arg[5] != 0:
					counts["research at a named system"]++
				}
			case evTurnedEvil:
				counts["turned evil"]++
			case evRevealed:
				counts["revealed"]++
			case evHyperClosed:
				counts["hyperspace closed"]++
			}
		}
		counts[s.end.String()]++
		replayed, err := engine.Replay(Name, engine.Config{Seats: seats, Seed: uint64(g), Options: opts}, log)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := s.MarshalBinary()
		b, _ := replayed.MarshalBinary()
		if !bytes.Equal(a, b) {
			t.Errorf("game %d: replay differs", g)
		}
	}
	t.Logf("deep playouts: %v", counts)
	return counts
}

// checkLegalIsExact tries a broad superset of actions for the seat to act and checks that
// Apply accepts exactly the listed ones, leaving the state unchanged on rejection.
func checkLegalIsExact(t *testing.T, s *State) {
	t.Helper()
	seat := s.ToAct(nil)[0]
	listed := map[engine.Action]bool{}
	for _, a := range s.Legal(seat, nil) {
		if listed[a] {
			t.Fatalf("%s listed twice", FormatAction(a))
		}
		listed[a] = true
	}
	before, _ := s.MarshalBinary()
	var cands []engine.Action
	ships := []int{-1, int(s.nextShp)}
	for _, x := range s.ships {
		ships = append(ships, int(x.id))
	}
	locs := []int{-1, int(s.nextLoc)}
	for _, l := range s.locs {
		locs = append(locs, int(l.id))
	}
	for k := uint16(1); k < numKinds_; k++ {
		cands = append(cands, act(k))
	}
	for c := -1; c <= 4; c++ {
		for z := -1; z <= 4; z++ {
			cands = append(cands, act(KindRepick, c, z), act(KindEnterprise, c, z), act(KindAlign, z))
			for _, l := range locs {
				cands = append(cands, act(KindPlace, c, l))
			}
			for _, x := range ships {
				cands = append(cands, act(KindTrade, x, c, z))
			}
		}
	}
	// The options' named targets and colors, for the seat's own ships (others' are refused
	// before any target is read): every place, and every color against ships in the same place.
	for _, x := range s.ships {
		if int(x.owner) != int(seat) {
			continue
		}
		for z := -1; z <= 4; z++ {
			for _, l := range locs {
				cands = append(cands, act(KindAdd, int(x.id), z, l+1)) // green_add=any
			}
		}
		for _, y := range s.ships {
			if y.loc == x.loc {
				for c := -1; c <= 5; c++ {
					cands = append(cands, act(KindAttack, int(x.id), int(y.id), c)) // reduce_color=choose: 1+color
				}
			}
		}
	}
	for _, x := range ships {
		cands = append(cands, Grow(x), Discover(x), Sacrifice(x), Revolt(x))
		for z := -1; z <= 4; z++ {
			cands = append(cands, act(KindAdd, x, z))
		}
		for _, y := range ships {
			cands = append(cands, Attack(x, y))
		}
		for _, l := range locs {
			cands = append(cands, Move(x, l))
		}
	}
	// R&D: every triple of the seat's ships in any order, for every piece.
	var own []int
	for _, x := range s.ships {
		if int(x.owner) == int(seat) {
			own = append(own, int(x.id))
		}
	}
	if len(own) <= 8 {
		for _, a := range own {
			for _, b := range own {
				for _, c := range own {
					for k := 0; k < numKinds; k++ {
						cands = append(cands, Research(a, b, c, pieceOfKind(k)))
						if a < b && b < c { // rnd_where=any's target, for listable triples
							for _, l := range locs {
								cands = append(cands, act(KindResearch, a, b, c, int(pieceOfKind(k).Color), int(pieceOfKind(k).Size), l+1))
							}
						}
					}
				}
			}
		}
	}
	if s.phase == phasePicks {
		for k1 := 0; k1 < numKinds; k1++ {
			for k2 := 0; k2 < numKinds; k2++ {
				cands = append(cands, ChoosePicks(pieceOfKind(k1), pieceOfKind(k2)))
			}
		}
	}
	for _, a := range listed {
		_ = a
	}
	for _, a := range cands {
		c := s.clone()
		err := c.Apply(seat, a)
		if (err == nil) != listed[a] {
			t.Fatalf("%s: accepted %v, listed %v (err %v)\n%s", FormatAction(a), err == nil, listed[a], err, s.Render(engine.Spectator))
		}
		if err != nil {
			if after, _ := c.MarshalBinary(); !bytes.Equal(before, after) {
				t.Fatalf("rejected %s changed the state", FormatAction(a))
			}
		}
	}
	for a := range listed {
		if err := s.clone().Apply(seat, a); err != nil {
			t.Fatalf("listed %s rejected: %v", FormatAction(a), err)
		}
	}
}

// checkHiddenDeep is the perturbation test on deep positions: what a seat sees, its legal
// actions and its error texts do not change when only what it may not know changes.
func checkHiddenDeep(t *testing.T, s *State, r *rand.Rand) {
	t.Helper()
	for seat := engine.Spectator; seat < engine.Seat(s.cfg.seats); seat++ {
		p := Perturb(s.Clone(), seat, r)
		if p == nil {
			continue
		}
		if !proto.Equal(s.Observe(seat), p.Observe(seat)) || s.Render(seat) != p.Render(seat) {
			t.Fatalf("seat %d: view changed under perturbation", seat)
		}
		ea, eb := s.Events(seat, 0, nil), p.Events(seat, 0, nil)
		if len(ea) != len(eb) {
			t.Fatalf("seat %d: event count changed", seat)
		}
		for i := range ea {
			if !proto.Equal(ea[i], eb[i]) {
				t.Fatalf("seat %d: event %d changed: %v vs %v", seat, i, ea[i], eb[i])
			}
		}
		if seat == engine.Spectator {
			continue
		}
		la, lb := s.Legal(seat, nil), p.Legal(seat, nil)
		if len(la) != len(lb) {
			t.Fatalf("seat %d: legal actions changed", seat)
		}
		for i := range la {
			if la[i] != lb[i] {
				t.Fatalf("seat %d: legal action %d changed", seat, i)
			}
			a := la[i]
			a.Arg[r.IntN(5)] += int16(r.IntN(3) + 1)
			e1, e2 := s.Clone().Apply(seat, a), p.Clone().Apply(seat, a)
			if (e1 == nil) != (e2 == nil) || (e1 != nil && e1.Error() != e2.Error()) {
				t.Fatalf("seat %d: %s answered %v vs %v", seat, FormatAction(a), e1, e2)
			}
		}
	}
}

// checkDeterminize rebuilds the state from the acting seat's observation: the rebuilt state
// shows that seat the same observation and lists the same legal actions.
func checkDeterminize(t *testing.T, s *State) {
	t.Helper()
	seat := s.ToAct(nil)[0]
	o := s.observe(seat, false)
	d, err := FromObservation(o, nil)
	if err != nil {
		t.Fatalf("FromObservation: %v", err)
	}
	if got := d.observe(seat, false); !proto.Equal(got, o) {
		t.Fatalf("rebuilt observation differs:\n%s\n---\n%s", RenderObservation(o), RenderObservation(got))
	}
	la, lb := s.Legal(seat, nil), d.Legal(seat, nil)
	if len(la) != len(lb) {
		t.Fatalf("rebuilt state lists %d actions, want %d", len(lb), len(la))
	}
	for i := range la {
		if la[i] != lb[i] {
			t.Fatalf("rebuilt legal action %d: %s, want %s", i, FormatAction(lb[i]), FormatAction(la[i]))
		}
	}
}
