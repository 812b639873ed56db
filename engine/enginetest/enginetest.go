// Package enginetest is the conformance suite every registered game runs from its own test,
// after OpenSpiel's RandomSimTest: seeded random playouts end within the cap, listed actions
// apply, unlisted ones are rejected with no change, clones are independent, logs replay,
// notation round-trips, and hidden information survives the perturbation test.
package enginetest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
)

// Suite configures the conformance run for one game.
type Suite struct {
	notation map[engine.Action]string // every action's notation so far in this playout
	scratch  []any                    // each viewer's scratch for ObserveInto in this playout

	Game    string
	Seats   []int             // seat counts to play; default: MinSeats..MaxSeats
	Options map[string]string // options for every match
	Seeds   int               // playouts per seat count; default 20
	// MaxActions bounds a playout: a game that runs past it has a broken cap. Default 100000.
	MaxActions int
	// Perturb changes, in a clone of st, only what seat may not know (seat may be
	// engine.Spectator), using r for its choices, and returns the changed state. It returns
	// nil when nothing is hidden from seat at this point.
	Perturb func(st engine.State, seat engine.Seat, r *rand.Rand) engine.State
	// OpenEnded games accept actions beyond their listed ones (a movement target anywhere on
	// the field); garbage they accept is then not an error.
	OpenEnded bool
	// Check, if set, is called after every applied action (piece conservation, say).
	Check func(t *testing.T, st engine.State)
}

// Run runs the whole suite as subtests of t.
func Run(t *testing.T, s Suite) {
	t.Helper()
	g, err := engine.Lookup(s.Game)
	if err != nil {
		t.Fatal(err)
	}
	info := g.Info()
	if len(s.Seats) == 0 {
		for n := info.MinSeats; n <= info.MaxSeats; n++ {
			s.Seats = append(s.Seats, n)
		}
	}
	if s.Seeds == 0 {
		s.Seeds = 20
	}
	if testing.Short() && s.Seeds > 5 {
		s.Seeds = 5
	}
	if s.MaxActions == 0 {
		s.MaxActions = 100000
	}
	if s.Perturb == nil {
		t.Fatal("enginetest: Suite.Perturb is required: every game has something to hide, or says so by returning nil")
	}
	t.Run("Registered", func(t *testing.T) {
		found := false
		for _, n := range engine.Names() {
			found = found || n == s.Game
		}
		if !found {
			t.Errorf("%s missing from engine.Names()", s.Game)
		}
		if _, err := engine.New(s.Game, engine.Config{Seats: info.MaxSeats + 1, Seed: 1}); !errors.Is(err, engine.ErrBadOption) {
			t.Errorf("too many seats: got %v, want ErrBadOption", err)
		}
		if _, err := engine.New(s.Game, engine.Config{Seats: info.MinSeats, Seed: 1, Options: map[string]string{"no-such-option": "1"}}); !errors.Is(err, engine.ErrBadOption) {
			t.Errorf("unknown option: got %v, want ErrBadOption", err)
		}
	})
	t.Run("OptionNames", func(t *testing.T) {
		// One spelling across games (issue 12): every option name is lower_snake_case.
		for _, o := range info.Options {
			if !engine.IsSnakeCase(o.Name) {
				t.Errorf("option %q of %s is not lower_snake_case", o.Name, s.Game)
			}
		}
	})
	t.Run("Tensor", s.runTensor)
	for _, n := range s.Seats {
		t.Run(fmt.Sprintf("seats=%d", n), func(t *testing.T) {
			perturbed := 0
			for seed := uint64(1); seed <= uint64(s.Seeds); seed++ {
				perturbed += s.playout(t, n, seed)
				if t.Failed() {
					return
				}
			}
			if perturbed == 0 {
				t.Errorf("perturbation test never changed a state in %d games: Perturb hides nothing", s.Seeds)
			}
		})
	}
}

func (s *Suite) config(seats int, seed uint64) engine.Config {
	return engine.Config{Seats: seats, Seed: seed, Options: s.Options}
}

func mustBytes(t *testing.T, st engine.State) []byte {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	return b
}

func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	if m == nil {
		return nil
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatalf("marshal %T: %v", m, err)
	}
	return b
}

// playout plays one seeded random game, checking every property along the way, and returns
// how many perturbations changed the state.
func (s *Suite) playout(t *testing.T, seats int, seed uint64) (perturbed int) {
	t.Helper()
	st, err := engine.New(s.Game, s.config(seats, seed))
	if err != nil {
		t.Fatalf("New(seats=%d, seed=%d): %v", seats, seed, err)
	}
	again, _ := engine.New(s.Game, s.config(seats, seed))
	if !bytes.Equal(mustBytes(t, st), mustBytes(t, again)) {
		t.Fatalf("seed %d: two new states with one seed differ", seed)
	}
	r := rand.New(rand.NewPCG(seed, 77))
	s.notation = make(map[engine.Action]string)
	s.scratch = make([]any, seats+1)
	var (
		log    []engine.Step
		toAct  []engine.Seat
		legal  []engine.Action
		events []proto.Message
	)
	lastEvents := 0
	for step := 0; ; step++ {
		if step > s.MaxActions {
			t.Fatalf("seed %d: no end after %d actions: the safety cap does not hold", seed, s.MaxActions)
		}
		toAct = st.ToAct(toAct[:0])
		if st.Terminal() {
			if len(toAct) != 0 {
				t.Errorf("seed %d: terminal state still has seats to act: %v", seed, toAct)
			}
			break
		}
		if len(toAct) == 0 {
			t.Fatalf("seed %d step %d: not terminal but nobody to act", seed, step)
		}
		if step%7 == 0 {
			perturbed += s.checkHidden(t, st, r)
			s.checkViews(t, st)
		}
		seat := toAct[r.IntN(len(toAct))]
		legal = st.Legal(seat, legal[:0])
		if len(legal) == 0 {
			t.Fatalf("seed %d step %d: seat %d owes a decision but has no legal action", seed, step, seat)
		}
		if step%5 == 0 {
			s.checkListed(t, st, seat, legal)
			s.checkRejects(t, st, seat, toAct, legal, r)
		}
		if step%13 == 0 {
			s.checkClone(t, st, r)
		}
		a := legal[r.IntN(len(legal))]
		if err := st.Apply(seat, a); err != nil {
			t.Fatalf("seed %d step %d: listed action %s for seat %d rejected: %v", seed, step, st.FormatAction(a), seat, err)
		}
		log = append(log, engine.Step{Seat: seat, Action: a})
		if n := st.EventCount(); n < lastEvents {
			t.Fatalf("seed %d: EventCount went down from %d to %d", seed, lastEvents, n)
		} else {
			lastEvents = n
		}
		if s.Check != nil {
			s.Check(t, st)
		}
	}
	res := st.Result()
	if len(res.Ranks) != seats || len(res.Scores) != seats {
		t.Errorf("seed %d: result has %d ranks and %d scores for %d seats", seed, len(res.Ranks), len(res.Scores), seats)
	}
	if res.Reason != engine.EndNormal && res.Reason != engine.EndCap {
		t.Errorf("seed %d: end reason %v, want normal or cap", seed, res.Reason)
	}
	for _, rank := range res.Ranks {
		if rank < 1 || rank > seats {
			t.Errorf("seed %d: rank %d out of 1..%d", seed, rank, seats)
		}
	}
	if err := st.Apply(0, engine.Action{Kind: 1}); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("seed %d: Apply after the end: got %v, want ErrGameOver", seed, err)
	}
	for seat := engine.Spectator; seat < engine.Seat(seats); seat++ {
		events = st.Events(seat, 0, events[:0])
		for _, e := range events {
			marshal(t, e)
		}
	}
	// Replaying (game, options, seed, log) reproduces the final state.
	replayed, err := engine.Replay(s.Game, s.config(seats, seed), log)
	if err != nil {
		t.Fatalf("seed %d: replay: %v", seed, err)
	}
	if !bytes.Equal(mustBytes(t, st), mustBytes(t, replayed)) {
		t.Errorf("seed %d: replaying %d actions gave a different final state", seed, len(log))
	}
	return perturbed
}

// checkListed applies every listed action to a clone and round-trips its notation and proto.
func (s *Suite) checkListed(t *testing.T, st engine.State, seat engine.Seat, legal []engine.Action) {
	t.Helper()
	seen := make(map[engine.Action]bool, len(legal))
	for _, a := range legal {
		if seen[a] {
			t.Errorf("action %s listed twice", st.FormatAction(a))
		}
		seen[a] = true
		text := st.FormatAction(a)
		// An action's notation depends on the action alone, so a server may cache it.
		if before, ok := s.notation[a]; ok && before != text {
			t.Errorf("action %+v was %q earlier and is %q now: notation must not depend on the state", a, before, text)
		}
		s.notation[a] = text
		back, err := st.ParseAction(text)
		if err != nil || back != a {
			t.Errorf("notation %q does not round-trip: got %v, %v", text, back, err)
		}
		m := st.ActionProto(a)
		if m == nil {
			t.Fatalf("ActionProto(%s) is nil", text)
		}
		wire := marshal(t, m)
		m2 := m.ProtoReflect().New().Interface()
		if err := proto.Unmarshal(wire, m2); err != nil {
			t.Fatal(err)
		}
		back, err = st.ActionFromProto(m2)
		if err != nil || back != a {
			t.Errorf("proto of %q does not round-trip: got %v, %v", text, back, err)
		}
		c := st.Clone()
		if err := c.Apply(seat, a); err != nil {
			t.Errorf("listed action %q rejected: %v", text, err)
		}
	}
}

// checkRejects tries unlisted, malformed and out-of-turn actions; each must fail with a
// sentinel error and leave the state byte-identical.
func (s *Suite) checkRejects(t *testing.T, st engine.State, seat engine.Seat, toAct []engine.Seat, legal []engine.Action, r *rand.Rand) {
	t.Helper()
	before := mustBytes(t, st)
	listed := make(map[engine.Action]bool, len(legal))
	for _, a := range legal {
		listed[a] = true
	}
	try := func(who engine.Seat, a engine.Action, want error) {
		c := st.Clone()
		err := c.Apply(who, a)
		if err == nil {
			if s.OpenEnded && want != engine.ErrNotYourTurn {
				return // an open-ended game may accept a valid action it did not list
			}
			t.Errorf("seat %d: unlisted action %+v accepted", who, a)
			return
		}
		if !errors.Is(err, engine.ErrIllegalAction) && !errors.Is(err, engine.ErrNotYourTurn) {
			t.Errorf("seat %d: rejection %v wraps no sentinel", who, err)
		}
		if want != nil && !errors.Is(err, want) {
			t.Errorf("seat %d: got %v, want %v", who, err, want)
		}
		if !bytes.Equal(before, mustBytes(t, c)) {
			t.Errorf("seat %d: rejected action %+v changed the state", who, a)
		}
	}
	try(seat, engine.Action{}, engine.ErrIllegalAction)
	for i := 0; i < 20; i++ {
		var a engine.Action
		a.Kind = uint16(r.IntN(40))
		for j := range a.Arg {
			a.Arg[j] = int16(r.IntN(64) - 8)
		}
		if i%2 == 0 && len(legal) > 0 { // a near miss: a listed action with one argument changed
			a = legal[r.IntN(len(legal))]
			a.Arg[r.IntN(len(a.Arg))] += int16(r.IntN(5) + 1)
		}
		if !listed[a] {
			try(seat, a, nil)
		}
	}
	for other := engine.Seat(0); other < engine.Seat(st.Seats()); other++ {
		owes := false
		for _, x := range toAct {
			owes = owes || x == other
		}
		if !owes {
			try(other, legal[0], engine.ErrNotYourTurn)
			break
		}
	}
	try(engine.Seat(st.Seats()), legal[0], engine.ErrNotYourTurn)
	try(engine.Spectator, legal[0], engine.ErrNotYourTurn)
	for _, text := range []string{"", " ", "\x00\xff", "zzzz 999 999", "pass pass pass pass"} {
		if a, err := st.ParseAction(text); err == nil && !listed[a] {
			try(seat, a, nil)
		}
	}
	// A typed action of the wrong message type is malformed.
	if _, err := st.ActionFromProto(&emptyMessage{}); err == nil {
		t.Errorf("ActionFromProto accepted a message of the wrong type")
	}
	if _, err := st.ActionFromProto(nil); err == nil {
		t.Errorf("ActionFromProto accepted nil")
	}
	if !bytes.Equal(before, mustBytes(t, st)) {
		t.Errorf("rejection checks changed the original state")
	}
}

// checkClone plays a clone forward and checks the original did not move, and back.
func (s *Suite) checkClone(t *testing.T, st engine.State, r *rand.Rand) {
	t.Helper()
	before := mustBytes(t, st)
	c := st.Clone()
	if !bytes.Equal(before, mustBytes(t, c)) {
		t.Fatalf("clone differs from its original")
	}
	var toAct []engine.Seat
	var legal []engine.Action
	for i := 0; i < 10 && !c.Terminal(); i++ {
		toAct = c.ToAct(toAct[:0])
		seat := toAct[r.IntN(len(toAct))]
		legal = c.Legal(seat, legal[:0])
		if err := c.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
			t.Fatalf("clone playout: %v", err)
		}
	}
	if !bytes.Equal(before, mustBytes(t, st)) {
		t.Errorf("playing a clone changed the original")
	}
}

// checkViews renders every view; none may panic and the text form must say something. A
// view built in an earlier one's memory (engine.Reobserver) is the view Observe builds.
func (s *Suite) checkViews(t *testing.T, st engine.State) {
	t.Helper()
	ro, _ := st.(engine.Reobserver)
	for seat := engine.Spectator; seat < engine.Seat(st.Seats()); seat++ {
		view := marshal(t, st.Observe(seat))
		if st.Render(seat) == "" {
			t.Errorf("Render(%d) is empty", seat)
		}
		if ro != nil {
			if again := marshal(t, ro.ObserveInto(seat, &s.scratch[seat+1])); !bytes.Equal(again, view) {
				t.Errorf("seat %d: ObserveInto differs from Observe", seat)
			}
		}
	}
}

// checkHidden is the perturbation test: changing what a seat may not know changes nothing
// that seat sees: its observation, its events, its legal actions and its error messages.
func (s *Suite) checkHidden(t *testing.T, st engine.State, r *rand.Rand) (changed int) {
	t.Helper()
	before := mustBytes(t, st)
	var legalA, legalB []engine.Action
	var evA, evB []proto.Message
	for seat := engine.Spectator; seat < engine.Seat(st.Seats()); seat++ {
		p := s.Perturb(st.Clone(), seat, r)
		if !bytes.Equal(before, mustBytes(t, st)) {
			t.Fatalf("Perturb changed the original state, not its clone")
		}
		if p == nil {
			continue
		}
		if !bytes.Equal(before, mustBytes(t, p)) {
			changed++
		}
		if !bytes.Equal(marshal(t, st.Observe(seat)), marshal(t, p.Observe(seat))) {
			t.Fatalf("seat %d: observation changed when only hidden information changed:\n--- original\n%s\n--- perturbed\n%s", seat, st.Render(seat), p.Render(seat))
		}
		if st.Render(seat) != p.Render(seat) {
			t.Fatalf("seat %d: rendered observation changed when only hidden information changed", seat)
		}
		evA = st.Events(seat, 0, evA[:0])
		evB = p.Events(seat, 0, evB[:0])
		if len(evA) != len(evB) {
			t.Fatalf("seat %d: %d events became %d under perturbation", seat, len(evA), len(evB))
		}
		for i := range evA {
			if !bytes.Equal(marshal(t, evA[i]), marshal(t, evB[i])) {
				t.Fatalf("seat %d: event %d changed under perturbation: %v vs %v", seat, i, evA[i], evB[i])
			}
		}
		if seat == engine.Spectator {
			continue
		}
		legalA = st.Legal(seat, legalA[:0])
		legalB = p.Legal(seat, legalB[:0])
		if len(legalA) != len(legalB) {
			t.Fatalf("seat %d: %d legal actions became %d under perturbation", seat, len(legalA), len(legalB))
		}
		for i := range legalA {
			if legalA[i] != legalB[i] {
				t.Fatalf("seat %d: legal action %d changed under perturbation", seat, i)
			}
		}
		// Error messages: rejected actions must read the same in both worlds.
		for i := 0; i < 8; i++ {
			var a engine.Action
			if len(legalA) > 0 {
				a = legalA[r.IntN(len(legalA))]
			}
			a.Arg[r.IntN(len(a.Arg))] += int16(r.IntN(3) + 1)
			ea := st.Clone().Apply(seat, a)
			eb := p.Clone().Apply(seat, a)
			if (ea == nil) != (eb == nil) || (ea != nil && ea.Error() != eb.Error()) {
				t.Fatalf("seat %d: action %+v answered %v, but %v under perturbation", seat, a, ea, eb)
			}
		}
	}
	return changed
}
