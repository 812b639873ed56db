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

func TestDeterminizer_SamplesKeepTheSeatsView(t *testing.T) {
	for _, seats := range []int{3, 4} {
		enginetest.CheckDeterminizer(t, "pantropia", engine.Config{Seats: seats, Seed: 21, Options: map[string]string{"turn_cap": "60"}}, 3,
			func(obs proto.Message, seat engine.Seat) (enginetest.Sampler, error) {
				return NewDeterminizer(obs.(*pb.Observation), int(seat))
			})
	}
}

// TestDeterminizer_BlindToPerturbation: what the conformance suite's perturbation changes
// (everything the seat may not know) changes no sample the seat's determinizer draws, so a
// search bot built on it chooses the same with the same seed and budget.
func TestDeterminizer_BlindToPerturbation(t *testing.T) {
	enginetest.CheckDeterminizerBlind(t, "pantropia", engine.Config{Seats: 4, Seed: 1, Options: map[string]string{"turn_cap": "60"}}, 3, Perturb,
		func(obs proto.Message, seat engine.Seat) (enginetest.Sampler, error) {
			return NewDeterminizer(obs.(*pb.Observation), int(seat))
		})
}
