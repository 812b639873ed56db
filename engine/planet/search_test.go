package planet

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

func TestCloneInto_EqualsCloneAndSharesNothing(t *testing.T) {
	for _, seats := range []int{3, 4} {
		enginetest.CheckCopier(t, "planet", engine.Config{Seats: seats, Seed: 11, Options: nil}, 3)
	}
}

func TestDeterminizer_SamplesKeepTheSeatsView(t *testing.T) {
	for _, seats := range []int{3, 4} {
		enginetest.CheckDeterminizer(t, "planet", engine.Config{Seats: seats, Seed: 21, Options: nil}, 3,
			func(obs proto.Message, seat engine.Seat) (enginetest.Sampler, error) {
				return NewDeterminizer(obs.(*planetv1.Observation), int(seat))
			})
	}
}

// TestDeterminizer_BlindToPerturbation: what the conformance suite's perturbation changes
// (everything the seat may not know) changes no sample the seat's determinizer draws, so a
// search bot built on it chooses the same with the same seed and budget.
func TestDeterminizer_BlindToPerturbation(t *testing.T) {
	enginetest.CheckDeterminizerBlind(t, "planet", engine.Config{Seats: 4, Seed: 1, Options: nil}, 6, Perturb,
		func(obs proto.Message, seat engine.Seat) (enginetest.Sampler, error) {
			return NewDeterminizer(obs.(*planetv1.Observation), int(seat))
		})
}
