package fccatan

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

// The clock option: under clock=wall only Advance (the wall clock) resolves a tick.

var wallOpts = map[string]string{"clock": ClockWall}

// runner0 sends team 0's runner (avatar 2, starting at (900, 400)) up the field.
var runner0 = IntentsAction(Stay(), Stay(), To(900, 3000))

func advance(t *testing.T, s *State) {
	t.Helper()
	if err := s.Advance(); err != nil {
		t.Fatal(err)
	}
}

func TestWallClock_IntentsWaitForTheTick(t *testing.T) {
	s := started(t, 4, wallOpts)
	home := s.teams[0].av[2].pos
	for team := 0; team < 4; team++ {
		mustApply(t, s, team, IntentsAction())
	}
	if s.tick != 0 || s.phase != PhaseTick {
		t.Fatalf("every team sent and the tick resolved (tick %d, %v): under clock=wall only Advance resolves it", s.tick, s.phase)
	}
	if got := s.ToAct(nil); len(got) != 4 {
		t.Errorf("ToAct after every team sent = %v, want every team: each may still update", got)
	}
	// A team that already sent may send again; the latest intents count.
	mustApply(t, s, 0, runner0)
	if s.tick != 0 || s.teams[0].av[2].pos != home {
		t.Fatalf("a second send resolved the tick")
	}
	if d, ok := s.DefaultAction(0); !ok || d != runner0 {
		t.Errorf("DefaultAction after a send = %s, want the intents sent", s.FormatAction(d))
	}
	if l := s.Legal(0, nil); len(l) == 0 || l[0] != runner0 {
		t.Errorf("Legal after a send does not start with keeping the intents sent")
	}
	// The team's own view shows the intents it sent, not yet the standing ones.
	o := s.Observe(0).(*fccatanv1.Observation)
	if !o.GetSubmitted() || o.GetTeams()[0].GetAvatars()[2].GetIntent().GetTarget().GetY() != 3000 {
		t.Errorf("the observation does not show the intents sent: submitted %v, intent %v", o.GetSubmitted(), o.GetTeams()[0].GetAvatars()[2].GetIntent())
	}
	if r := s.Render(0); !strings.Contains(r, "intent to(900,3000)") || !strings.Contains(r, "intents sent for this tick") {
		t.Errorf("the render does not show the intents sent:\n%s", r)
	}
	wantIllegal(t, s, 0, only(2, Stay().Throw(3))) // still validated: no throwing in the seed
	if s.AdvanceAfter() != 100*time.Millisecond {
		t.Errorf("AdvanceAfter in a tick = %v, want the tick's 100ms", s.AdvanceAfter())
	}
	advance(t, s)
	if s.tick != 1 {
		t.Fatalf("Advance did not resolve the tick")
	}
	if got := s.teams[0].av[2].pos; got != (Vec{home.X, home.Y + 60}) {
		t.Errorf("runner at %v, want %v: the latest intents count", got, Vec{home.X, home.Y + 60})
	}
	if got := s.ToAct(nil); len(got) != 4 || s.teams[0].done {
		t.Errorf("next tick: ToAct %v, team 0 done %v; want every team and nothing sent", got, s.teams[0].done)
	}
}

func TestWallClock_LateIntentsApplyNextTick(t *testing.T) {
	s := started(t, 4, wallOpts)
	home := s.teams[0].av[2].pos
	advance(t, s) // the tick ends before team 0's intents arrive
	if s.tick != 1 || s.teams[0].av[2].pos != home {
		t.Fatalf("tick %d, runner at %v: want tick 1 with nobody moved", s.tick, s.teams[0].av[2].pos)
	}
	mustApply(t, s, 0, runner0) // late for tick 0: counts for tick 1
	if s.tick != 1 || s.teams[0].av[2].pos != home {
		t.Fatalf("late intents moved the runner before the next tick resolved")
	}
	advance(t, s)
	if got := s.teams[0].av[2].pos; s.tick != 2 || got != (Vec{home.X, home.Y + 60}) {
		t.Errorf("tick %d, runner at %v: want tick 2 and %v", s.tick, got, Vec{home.X, home.Y + 60})
	}
}

func TestWallClock_SilentTeamKeepsLastIntents(t *testing.T) {
	s := started(t, 4, wallOpts)
	home0, home1 := s.teams[0].av[2].pos, s.teams[1].av[2].pos
	mustApply(t, s, 0, runner0)
	advance(t, s)
	// Team 0 goes silent: its runner keeps running. Team 1 sends once, then goes silent too.
	mustApply(t, s, 1, IntentsAction(Stay(), Stay(), To(2300, 3000)))
	advance(t, s)
	advance(t, s)
	if got := s.teams[0].av[2].pos; got != (Vec{home0.X, home0.Y + 180}) {
		t.Errorf("silent team 0's runner at %v, want %v", got, Vec{home0.X, home0.Y + 180})
	}
	if got := s.teams[1].av[2].pos; got != (Vec{home1.X, home1.Y + 120}) {
		t.Errorf("team 1's runner at %v, want %v", got, Vec{home1.X, home1.Y + 120})
	}
	for _, team := range []int{2, 3} { // never sent: standing still
		if got, want := s.teams[team].av[2].pos, s.c.field.Hoops[team].Center; got != want {
			t.Errorf("team %d's runner at %v, want %v", team, got, want)
		}
	}
	if d, _ := s.DefaultAction(0); d != runner0 {
		t.Errorf("DefaultAction of the silent team = %s, want its standing intents", s.FormatAction(d))
	}
}

func TestWallClock_MarketsResolveAsInLockstep(t *testing.T) {
	s := started(t, 3, wallOpts)
	whistle(t, s)
	if s.phase != PhaseOffer {
		t.Fatalf("phase %v after the whistle, want offer", s.phase)
	}
	if want := time.Duration(60000/5) * time.Millisecond; s.AdvanceAfter() != want {
		t.Errorf("AdvanceAfter in the market = %v, want %v", s.AdvanceAfter(), want)
	}
	step := s.tradeStep
	mustApply(t, s, 1, PassAction())
	if got := s.ToAct(nil); !slices.Equal(got, []engine.Seat{0, 2}) {
		t.Errorf("ToAct in a market after team 1 answered = %v, want [0 2]", got)
	}
	if err := s.Apply(1, PassAction()); !errors.Is(err, engine.ErrNotYourTurn) {
		t.Errorf("answering a market step twice: got %v, want ErrNotYourTurn", err)
	}
	mustApply(t, s, 0, PassAction())
	mustApply(t, s, 2, PassAction())
	if s.phase != PhaseReply {
		t.Errorf("phase %v once every team answered, want reply", s.phase)
	}
	advance(t, s) // defaults for everyone
	if s.phase != PhaseOffer || s.tradeStep != step+1 {
		t.Errorf("Advance in a reply step: phase %v step %d, want the next offer step", s.phase, s.tradeStep)
	}
}

func TestWallClock_Option(t *testing.T) {
	_, err := engine.New("fccatan", engine.Config{Seats: 3, Seed: 1, Options: map[string]string{"clock": "sundial"}})
	if !errors.Is(err, engine.ErrBadOption) {
		t.Errorf("clock=sundial: got %v, want ErrBadOption", err)
	}
	lock := newMatch(t, 3, map[string]string{"clock": ClockLockstep})
	def := newMatch(t, 3, nil)
	wall := newMatch(t, 3, wallOpts)
	a, _ := lock.MarshalBinary()
	b, _ := def.MarshalBinary()
	c, _ := wall.MarshalBinary()
	if !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Errorf("state bytes: lockstep and the default must agree and differ from wall")
	}
	found := false
	for _, o := range gameInfo.Options {
		found = found || o.Name == "clock" && o.Default == ClockLockstep && strings.Contains(o.Help, "wall")
	}
	if !found {
		t.Errorf("the clock option is not documented in Info.Options")
	}
}

// TestWallClock_RandomPlayouts is the conformance suite's random playout for clock=wall, where
// enginetest cannot run: it only calls Apply, and under the wall clock no tick ever resolves
// without Advance. Here the wall clock is a random Advance between actions (often once every
// team has sent, sometimes mid-tick or mid-market). It checks the wall-clock rules (Apply never
// resolves a tick, every team may act in a tick) and, like the suite, that playouts end, listed
// actions apply and round-trip, rejections change nothing, clones are independent, hidden
// information stays hidden, balls are conserved, and the log (Advance steps included) replays.
func TestWallClock_RandomPlayouts(t *testing.T) {
	runs := []struct {
		name  string
		seeds int
		opts  map[string]string
	}{
		{"short", 6, map[string]string{"round_seconds": "2", "tick_rate": "5", "top_speed_cm_s": "5000", "round_cap": "8"}},
		{"coarse", 3, map[string]string{"round_seconds": "20", "tick_rate": "1", "round_cap": "20", "idle_markets": "20"}},
		{"published", 4, map[string]string{"ruleset": "published", "tick_rate": "1", "team_size": "3", "knights": "any", "round_cap": "20", "idle_markets": "20"}},
	}
	for _, run := range runs {
		opts := map[string]string{"clock": ClockWall}
		for k, v := range run.opts {
			opts[k] = v
		}
		for seats := 3; seats <= 4; seats++ {
			t.Run(fmt.Sprintf("%s/seats=%d", run.name, seats), func(t *testing.T) {
				perturbed := 0
				for seed := uint64(1); seed <= uint64(run.seeds); seed++ {
					perturbed += wallPlayout(t, engine.Config{Seats: seats, Seed: seed, Options: opts})
					if t.Failed() {
						return
					}
				}
				if perturbed == 0 {
					t.Errorf("the perturbation never changed a state")
				}
			})
		}
	}
}

func stateBytes(t *testing.T, st engine.State) []byte {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func wireBytes(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func wallPlayout(t *testing.T, cfg engine.Config) (perturbed int) {
	t.Helper()
	st, err := engine.New("fccatan", cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := rand.New(rand.NewPCG(cfg.Seed, 99))
	var (
		log   []engine.Step
		toAct []engine.Seat
		legal []engine.Action
	)
	lastEvents := 0
	for step := 0; !s.Terminal(); step++ {
		if step > 200000 {
			t.Fatalf("seed %d: no end after %d steps", cfg.Seed, step)
		}
		toAct = s.ToAct(toAct[:0])
		if len(toAct) == 0 {
			t.Fatalf("seed %d step %d: not terminal but nobody to act", cfg.Seed, step)
		}
		if s.phase == PhaseTick && len(toAct) != s.c.teams {
			t.Fatalf("seed %d step %d: ToAct in a wall-clock tick = %v, want every team", cfg.Seed, step, toAct)
		}
		if step%7 == 0 {
			perturbed += wallHidden(t, s, r)
		}
		if step%13 == 0 {
			wallClone(t, s, r)
		}
		if wallWantsAdvance(s, r) {
			advance(t, s)
			log = append(log, engine.Step{Seat: engine.Spectator})
		} else {
			seat := toAct[r.IntN(len(toAct))]
			legal = s.Legal(seat, legal[:0])
			if len(legal) == 0 {
				t.Fatalf("seed %d step %d: team %d owes a decision but has no legal action", cfg.Seed, step, seat)
			}
			if step%5 == 0 {
				wallListed(t, s, seat, legal, r)
			}
			a := legal[r.IntN(len(legal))]
			phase, tick, round := s.phase, s.tick, s.round
			if err := s.Apply(seat, a); err != nil {
				t.Fatalf("seed %d step %d: listed %s for team %d rejected: %v", cfg.Seed, step, s.FormatAction(a), seat, err)
			}
			if phase == PhaseTick && (s.phase != PhaseTick || s.tick != tick || s.round != round) {
				t.Fatalf("seed %d step %d: Apply resolved a wall-clock tick", cfg.Seed, step)
			}
			log = append(log, engine.Step{Seat: seat, Action: a})
		}
		if n := s.EventCount(); n < lastEvents {
			t.Fatalf("seed %d: EventCount went down", cfg.Seed)
		} else {
			lastEvents = n
		}
		checkBalls(t, s)
	}
	if got := s.ToAct(nil); len(got) != 0 {
		t.Errorf("seed %d: terminal state still has teams to act: %v", cfg.Seed, got)
	}
	res := s.Result()
	if len(res.Ranks) != cfg.Seats || (res.Reason != engine.EndNormal && res.Reason != engine.EndCap) {
		t.Errorf("seed %d: result %+v", cfg.Seed, res)
	}
	if err := s.Apply(0, IntentsAction()); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("seed %d: Apply after the end: got %v, want ErrGameOver", cfg.Seed, err)
	}
	if err := s.Advance(); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("seed %d: Advance after the end: got %v, want ErrGameOver", cfg.Seed, err)
	}
	replayed, err := engine.Replay("fccatan", cfg, log)
	if err != nil {
		t.Fatalf("seed %d: replay: %v", cfg.Seed, err)
	}
	if !bytes.Equal(stateBytes(t, s), stateBytes(t, replayed)) {
		t.Errorf("seed %d: replaying %d steps gave a different final state", cfg.Seed, len(log))
	}
	return perturbed
}

// wallWantsAdvance is the random wall clock: in a tick, often once every team has sent and
// sometimes before; elsewhere now and then (the clock running out on a market or a choice).
func wallWantsAdvance(s *State, r *rand.Rand) bool {
	if s.phase != PhaseTick {
		return r.IntN(20) == 0
	}
	all := true
	for t := 0; t < s.c.teams; t++ {
		all = all && s.teams[t].done
	}
	if all {
		return r.IntN(3) != 0
	}
	return r.IntN(5) == 0
}

// wallListed applies every listed action to a clone and round-trips its notation; random and
// near-miss actions are either accepted (open-ended) or rejected with a sentinel and no change.
func wallListed(t *testing.T, s *State, seat engine.Seat, legal []engine.Action, r *rand.Rand) {
	t.Helper()
	before := stateBytes(t, s)
	for _, a := range legal {
		if back, err := s.ParseAction(s.FormatAction(a)); err != nil || back != a {
			t.Errorf("notation %q does not round-trip: %v, %v", s.FormatAction(a), back, err)
		}
		if err := s.Clone().Apply(seat, a); err != nil {
			t.Errorf("listed %s rejected: %v", s.FormatAction(a), err)
		}
	}
	for i := 0; i < 20; i++ {
		a := legal[r.IntN(len(legal))]
		a.Arg[r.IntN(len(a.Arg))] += int16(r.IntN(5) + 1)
		if i%2 == 1 {
			a.Kind = uint16(r.IntN(40))
		}
		c := s.Clone()
		err := c.Apply(seat, a)
		if err == nil {
			continue
		}
		if !errors.Is(err, engine.ErrIllegalAction) && !errors.Is(err, engine.ErrNotYourTurn) {
			t.Errorf("rejection %v wraps no sentinel", err)
		}
		if !bytes.Equal(before, stateBytes(t, c)) {
			t.Errorf("rejected %+v changed the state", a)
		}
	}
	for _, who := range []engine.Seat{engine.Spectator, engine.Seat(s.c.teams)} {
		if err := s.Clone().Apply(who, legal[0]); !errors.Is(err, engine.ErrNotYourTurn) {
			t.Errorf("seat %d: got %v, want ErrNotYourTurn", who, err)
		}
	}
	if !bytes.Equal(before, stateBytes(t, s)) {
		t.Errorf("the checks changed the original")
	}
}

// wallClone plays a clone forward, Advance included, and checks the original did not move.
func wallClone(t *testing.T, s *State, r *rand.Rand) {
	t.Helper()
	before := stateBytes(t, s)
	c := s.Clone().(*State)
	for i := 0; i < 10 && !c.Terminal(); i++ {
		if wallWantsAdvance(c, r) {
			advance(t, c)
			continue
		}
		toAct := c.ToAct(nil)
		seat := toAct[r.IntN(len(toAct))]
		legal := c.Legal(seat, nil)
		if err := c.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
			t.Fatalf("clone playout: %v", err)
		}
	}
	if !bytes.Equal(before, stateBytes(t, s)) {
		t.Errorf("playing a clone changed the original")
	}
}

// wallHidden is the perturbation test: what a team may not know (the deck, the others'
// intents, sent or standing, and offers it is not part of) changes nothing it sees.
func wallHidden(t *testing.T, s *State, r *rand.Rand) (changed int) {
	t.Helper()
	before := stateBytes(t, s)
	for seat := engine.Spectator; seat < engine.Seat(s.c.teams); seat++ {
		p := Perturb(s.Clone(), seat, r)
		if p == nil {
			continue
		}
		if !bytes.Equal(before, stateBytes(t, p)) {
			changed++
		}
		if !bytes.Equal(wireBytes(t, s.Observe(seat)), wireBytes(t, p.Observe(seat))) || s.Render(seat) != p.Render(seat) {
			t.Fatalf("seat %d: the view changed when only hidden information changed:\n%s\n---\n%s", seat, s.Render(seat), p.Render(seat))
		}
		ea, eb := s.Events(seat, 0, nil), p.Events(seat, 0, nil)
		if len(ea) != len(eb) {
			t.Fatalf("seat %d: events changed under perturbation", seat)
		}
		for i := range ea {
			if !bytes.Equal(wireBytes(t, ea[i]), wireBytes(t, eb[i])) {
				t.Fatalf("seat %d: event %d changed under perturbation", seat, i)
			}
		}
		if seat >= 0 && !slices.Equal(s.Legal(seat, nil), p.Legal(seat, nil)) {
			t.Fatalf("seat %d: legal actions changed under perturbation", seat)
		}
	}
	if !bytes.Equal(before, stateBytes(t, s)) {
		t.Fatalf("the perturbation changed the original")
	}
	return changed
}
