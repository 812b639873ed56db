package fccatan

import (
	"bytes"
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
	r := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for seed := uint64(1); seed <= 2; seed++ {
		st, err := engine.New("fccatan", engine.Config{Seats: 4, Seed: seed, Options: searchRuns[0]})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; !st.Terminal() && ply < 600; ply++ {
			toAct := st.ToAct(nil)
			seat := toAct[r.IntN(len(toAct))]
			if ply%7 == 0 && st.(*State).phase == PhaseTick {
				if p := Perturb(st.Clone(), seat, r); p != nil {
					a, errA := NewDeterminizer(st.Observe(seat).(*fccatanv1.Observation), int(seat))
					b, errB := NewDeterminizer(p.Observe(seat).(*fccatanv1.Observation), int(seat))
					if errA != nil || errB != nil {
						t.Fatalf("ply %d: %v, %v", ply, errA, errB)
					}
					for i := uint64(0); i < 3; i++ {
						x, _ := a.Sample(nil, rand.New(rand.NewPCG(i, 1))).MarshalBinary()
						y, _ := b.Sample(nil, rand.New(rand.NewPCG(i, 1))).MarshalBinary()
						if !bytes.Equal(x, y) {
							t.Fatalf("seed %d ply %d team %d: a perturbed state gives another sample", seed, ply, seat)
						}
					}
					checked++
				}
			}
			legal := st.Legal(seat, nil)
			if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked == 0 {
		t.Error("no tick had anything hidden")
	}
}
