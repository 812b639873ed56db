package fccatan

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

var searchRuns = []map[string]string{
	{"round_seconds": "2", "tick_rate": "5", "top_speed_cm_s": "5000", "round_cap": "6"},
	{"ruleset": "published", "tick_rate": "1", "team_size": "3", "knights": "any", "round_cap": "6"},
	{"round_seconds": "2", "tick_rate": "5", "top_speed_cm_s": "5000", "knights": "3", "round_cap": "6"},
}

// TestObservation_RulesNameTheKnightsOption: the knights option is a public rule, in every
// team's view and the spectator's, as the match names it.
func TestObservation_RulesNameTheKnightsOption(t *testing.T) {
	for _, tc := range []struct{ option, want string }{{"", "2"}, {"0", "0"}, {"3", "3"}, {"any", "any"}} {
		opts := map[string]string{}
		if tc.option != "" {
			opts["knights"] = tc.option
		}
		st, err := engine.New("fccatan", engine.Config{Seats: 3, Seed: 5, Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		for _, seat := range []engine.Seat{0, 2, engine.Spectator} {
			if got := st.Observe(seat).(*fccatanv1.Observation).GetRules().GetKnights(); got != tc.want {
				t.Errorf("knights=%q: seat %d's rules name %q, want %q", tc.option, seat, got, tc.want)
			}
		}
	}
}

func TestCloneInto_EqualsCloneAndSharesNothing(t *testing.T) {
	for _, opts := range searchRuns {
		enginetest.CheckCopier(t, "fccatan", engine.Config{Seats: 4, Seed: 11, Options: opts}, 2)
	}
}

func TestDeterminizer_SamplesKeepTheTeamsView(t *testing.T) {
	for _, opts := range searchRuns {
		enginetest.CheckDeterminizer(t, "fccatan", engine.Config{Seats: 3, Seed: 21, Options: opts}, 2,
			func(obs proto.Message, seat engine.Seat) (enginetest.Sampler, error) {
				o := obs.(*fccatanv1.Observation)
				if o.GetPhase() != fccatanv1.Phase_PHASE_TICK {
					return nil, nil
				}
				return NewDeterminizer(o, int(seat))
			})
	}
}

// TestDeterminizer_BlindToPerturbation: what the conformance suite's perturbation changes
// (the deck's order, the other teams' intents) changes no sample the team's determinizer
// draws, so a planner built on it chooses the same with the same seed and budget.
func TestDeterminizer_BlindToPerturbation(t *testing.T) {
	enginetest.CheckDeterminizerBlind(t, "fccatan", engine.Config{Seats: 4, Seed: 1, Options: searchRuns[0]}, 2, Perturb,
		func(obs proto.Message, seat engine.Seat) (enginetest.Sampler, error) {
			o := obs.(*fccatanv1.Observation)
			if o.GetPhase() != fccatanv1.Phase_PHASE_TICK {
				return nil, nil
			}
			return NewDeterminizer(o, int(seat))
		})
}

// TestEvaluate_SeesTheField: the planner's evaluation moves with what happens on the field
// within a round, not only with VP and stock: a carrier nearer its city, a rival's runner
// frozen, a rival's ball taken, and a runner out of time each change the score the right way.
func TestEvaluate_SeesTheField(t *testing.T) {
	home := DefaultField().Hoops[0].Center // team 0's start city
	for _, tc := range []struct {
		name          string
		better, worse func(s *State)
	}{
		{"a carrier nearer home", func(s *State) {
			hand(s, 0, 2, Wood)
			put(s, 0, 2, home.X+300, home.Y+300)
		}, func(s *State) {
			hand(s, 0, 2, Wood)
			put(s, 0, 2, home.X+3000, home.Y+3000)
		}},
		{"a ball the next purchase needs", func(s *State) {
			hand(s, 0, 2, Brick) // a knight costs 2 brick and a sheep
			put(s, 0, 2, home.X+1000, home.Y+1000)
		}, func(s *State) {
			hand(s, 0, 2, Wood)
			put(s, 0, 2, home.X+1000, home.Y+1000)
		}},
		{"the leading rival's runner frozen", func(s *State) {
			s.teams[1].vp = 1
			s.teams[1].av[3].frozen = true
		}, func(s *State) {
			s.teams[1].vp = 1
		}},
		{"a rival's ball taken by our knight", func(s *State) {
			hand(s, 0, 0, Brick)
			put(s, 0, 0, 2100, 2000)
			s.teams[1].av[3].frozen, s.teams[1].av[3].collected = true, true
		}, func(s *State) {
			hand(s, 1, 3, Brick)
			put(s, 1, 3, 2100, 2000)
		}},
		{"a runner of ours free", func(s *State) {}, func(s *State) {
			s.teams[0].av[3].frozen = true
		}},
		{"a carrier with time to get home", func(s *State) {
			hand(s, 0, 2, Sheep)
			put(s, 0, 2, home.X+3000, home.Y+3000)
		}, func(s *State) {
			hand(s, 0, 2, Sheep)
			put(s, 0, 2, home.X+3000, home.Y+3000)
			s.tick = int32(s.c.ticksPerRound - 5)
		}},
	} {
		better, worse := started(t, 4, nil), started(t, 4, nil)
		tc.better(better)
		tc.worse(worse)
		if b, w := better.Evaluate(0), worse.Evaluate(0); !(b > w) {
			t.Errorf("%s: team 0 scores %.4f, want more than %.4f", tc.name, b, w)
		}
	}
}

// TestDeterminizer_DrawsPlausibleIntents: a sampled rival carrier standing still runs home to
// its city, and a sampled rival runner yet to collect runs to a pile and picks up.
func TestDeterminizer_DrawsPlausibleIntents(t *testing.T) {
	s := started(t, 4, nil)
	hand(s, 1, 2, Ore)
	put(s, 1, 2, 3000, 3000)
	d, err := NewDeterminizer(s.Observe(0).(*fccatanv1.Observation), 0)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	city := DefaultField().Hoops[1].Center
	for k := 0; k < 20; k++ {
		smp := d.Sample(nil, r).(*State)
		if got, want := smp.teams[1].av[2].order, to(city); got != want {
			t.Fatalf("sample %d: the carrier's intent is %+v, want home %+v", k, got, want)
		}
		runner := smp.teams[2].av[3].order
		if !runner.has(flagPick) || !runner.has(flagTo) {
			t.Fatalf("sample %d: a runner's intent is %+v, want to a pile with +pick", k, runner)
		}
		atPile := false
		for _, p := range DefaultField().Piles {
			atPile = atPile || to(p.Pos) == Intent{X: runner.X, Y: runner.Y, Flags: flagTo}
		}
		if !atPile {
			t.Fatalf("sample %d: a runner heads for (%d, %d), no pile", k, runner.X, runner.Y)
		}
	}
}

// TestSteerHolding_KeepsTheHeldPlayersOrders: the held players keep their standing intents,
// the others take greedy's steering (Steer).
func TestSteerHolding_KeepsTheHeldPlayersOrders(t *testing.T) {
	s := started(t, 4, nil)
	corner := To(100, 3900)
	tick(t, s, only(3, corner))
	greedy := s.Steer(0)
	for _, tc := range []struct {
		name string
		held uint8
	}{{"none", 0}, {"the runner", 1 << 3}, {"a knight and the runner", 1<<0 | 1<<3}} {
		got := s.SteerHolding(0, tc.held)
		for i := 0; i < 4; i++ {
			want := intentOf(&greedy, i)
			if tc.held&(1<<i) != 0 {
				want = s.teams[0].av[i].order
			}
			if intentOf(&got, i) != want {
				t.Errorf("%s: player %d's intent %+v, want %+v", tc.name, i, intentOf(&got, i), want)
			}
		}
	}
	if held := s.SteerHolding(0, 1<<3); intentOf(&held, 3) != corner {
		t.Error("the held runner does not keep running to the corner")
	}
}

// TestOverrides_NamesThePlannersOwnOrders: a player counts as overridden when the chosen
// intents change its standing order to one that does not run where greedy sends it; a change
// to greedy's own motion (a pickup flag raised or not) and an unchanged order do not count.
func TestOverrides_NamesThePlannersOwnOrders(t *testing.T) {
	pile := To(2000, 2000)
	keep := IntentsAction(Stay(), To(500, 500), pile, Stay())
	greedy := IntentsAction(To(900, 900), To(500, 500), pile.PickUp(), To(1200, 1200))
	for _, tc := range []struct {
		name   string
		chosen engine.Action
		want   uint8
	}{
		{"keep", keep, 0},
		{"greedy's plan", greedy, 0},
		{"greedy's motion without its flag", IntentsAction(To(900, 900), To(500, 500), pile, Stay()), 0},
		{"a runner sent elsewhere", IntentsAction(Stay(), To(500, 500), pile, To(3000, 100)), 1 << 3},
		{"a player stopped", IntentsAction(Stay(), Stay(), pile, Stay()), 1 << 1},
		{"a velocity where greedy targets", IntentsAction(Velocity(900, 900), To(500, 500), pile, Stay()), 1 << 0},
	} {
		if got := Overrides(tc.chosen, keep, greedy); got != tc.want {
			t.Errorf("%s: overrides %04b, want %04b", tc.name, got, tc.want)
		}
	}
}

// BenchmarkSteer is greedy's steering of every team for one tick, from a tick some way into
// a round: what a planner's simulation of greedy players pays per tick, beside the tick itself.
func BenchmarkSteer(b *testing.B) {
	s := newMatchB(b)
	b.ReportAllocs()
	for b.Loop() {
		for t := 0; t < s.c.teams; t++ {
			s.Steer(t)
		}
	}
}

// BenchmarkSteeredTick is one lockstep tick of four teams steered as greedy steers them.
func BenchmarkSteeredTick(b *testing.B) {
	start := newMatchB(b)
	var s engine.State
	b.ReportAllocs()
	for b.Loop() {
		s = start.CloneInto(s)
		st := s.(*State)
		for t := 0; t < st.c.teams; t++ {
			if err := st.Apply(engine.Seat(t), st.Steer(t)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// newMatchB is a four-team match 40 ticks into its first round, every team steered by Steer.
func newMatchB(b *testing.B) *State {
	st, err := engine.New("fccatan", engine.Config{Seats: 4, Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	s := st.(*State)
	for s.phase != PhaseTick || s.tick < 40 {
		seat := s.ToAct(nil)[0]
		a, _ := s.DefaultAction(seat)
		if s.phase == PhaseTick {
			a = s.Steer(int(seat))
		}
		if err := s.Apply(seat, a); err != nil {
			b.Fatal(err)
		}
	}
	return s
}
