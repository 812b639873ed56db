package fccatan

import (
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
