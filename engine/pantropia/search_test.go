package pantropia

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
)

func TestCloneInto_EqualsCloneAndSharesNothing(t *testing.T) {
	for _, seats := range []int{3, 4} {
		enginetest.CheckCopier(t, "pantropia", engine.Config{Seats: seats, Seed: 11, Options: map[string]string{"turn_cap": "30"}}, 1)
	}
}

// unusualRules are options unlike every default a determinizer could assume: other dice, a
// smaller deck with fewer Technocalypses, another printed menu, other caps and windows.
var unusualRules = map[string]string{
	"turn_cap": "60", "stall_rounds": "4", "offers_per_turn": "3", "replace": "always", "luddite_window": "holders",
	"dice": "d4:0,2,0,1,1,0 d6:1,1,1,1,1,1 d10:1,2,2,1,2,2 d12:3,1,2,2,2,2 d20:2,4,4,3,3,4",
	"deck": "orbital_mirror:1 solar_shade:3 space_elevator:1 shuttle:2 aquifer:4 guided_comet:1 luddite_legislation:2 technocalypse:3",
	"menu": "atmosphere:red,green habitat:red,blue,yellow,green,purple arcology:yellow,orange,orange,purple,blue shuttle:red,blue,green card:green,yellow,purple",
}

func TestDeterminizer_SamplesKeepTheSeatsView(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  engine.Config
	}{
		{"3 seats", engine.Config{Seats: 3, Seed: 21, Options: map[string]string{"turn_cap": "60"}}},
		{"4 seats", engine.Config{Seats: 4, Seed: 21, Options: map[string]string{"turn_cap": "60"}}},
		{"unusual rules", engine.Config{Seats: 4, Seed: 22, Options: unusualRules}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			enginetest.CheckDeterminizer(t, "pantropia", tc.cfg, 3,
				func(obs proto.Message, seat engine.Seat) (enginetest.Sampler, error) {
					return NewDeterminizer(obs.(*pb.Observation), int(seat))
				})
		})
	}
}

// TestObservation_CarriesTheMatchOptions: the rules a match was created with are public, in
// every seat's view and the spectator's, as given; a default match names none.
func TestObservation_CarriesTheMatchOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts map[string]string
	}{{"defaults", nil}, {"unusual rules", unusualRules}} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := game{}.New(engine.Config{Seats: 4, Seed: 3, Options: tc.opts})
			if err != nil {
				t.Fatal(err)
			}
			for _, seat := range []engine.Seat{0, 3, engine.Spectator} {
				got := st.Observe(seat).(*pb.Observation).GetOptions()
				if len(got) != len(tc.opts) {
					t.Fatalf("seat %d sees %d options, want %d", seat, len(got), len(tc.opts))
				}
				for k, v := range tc.opts {
					if got[k] != v {
						t.Errorf("seat %d sees %s=%q, want %q", seat, k, got[k], v)
					}
				}
			}
		})
	}
}

// TestDeterminizer_BlindToPerturbation: what the conformance suite's perturbation changes
// (everything the seat may not know) changes no sample the seat's determinizer draws, so a
// search bot built on it chooses the same with the same seed and budget.
func TestDeterminizer_BlindToPerturbation(t *testing.T) {
	for _, cfg := range []engine.Config{
		{Seats: 4, Seed: 1, Options: map[string]string{"turn_cap": "60"}},
		{Seats: 4, Seed: 2, Options: unusualRules},
	} {
		enginetest.CheckDeterminizerBlind(t, "pantropia", cfg, 3, Perturb,
			func(obs proto.Message, seat engine.Seat) (enginetest.Sampler, error) {
				return NewDeterminizer(obs.(*pb.Observation), int(seat))
			})
	}
}
