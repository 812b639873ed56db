package icetraders

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

func TestCloneInto_EqualsCloneAndSharesNothing(t *testing.T) {
	for _, seats := range []int{3, 4} {
		enginetest.CheckCopier(t, "icetraders", engine.Config{Seats: seats, Seed: 11, Options: nil}, 3)
	}
}

func TestDeterminizer_SamplesKeepTheSeatsView(t *testing.T) {
	for _, seats := range []int{3, 4} {
		enginetest.CheckDeterminizer(t, "icetraders", engine.Config{Seats: seats, Seed: 21, Options: nil}, 3,
			func(obs proto.Message, seat engine.Seat) (enginetest.Sampler, error) {
				return NewDeterminizer(obs.(*pb.Observation), int(seat))
			})
	}
}

// TestDeterminizer_BlindToPerturbation: what the conformance suite's perturbation changes
// (everything the seat may not know) changes no sample the seat's determinizer draws, so a
// search bot built on it chooses the same with the same seed and budget.
func TestDeterminizer_BlindToPerturbation(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for seed := uint64(1); seed <= 3; seed++ {
		st, err := engine.New("icetraders", engine.Config{Seats: 4, Seed: seed, Options: nil})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; !st.Terminal() && ply < 400; ply++ {
			seat := st.ToAct(nil)[0]
			if ply%9 == 0 {
				if p := Perturb(st.Clone(), seat, r); p != nil {
					a, errA := NewDeterminizer(st.Observe(seat).(*pb.Observation), int(seat))
					b, errB := NewDeterminizer(p.Observe(seat).(*pb.Observation), int(seat))
					if errA != nil || errB != nil {
						t.Fatalf("ply %d: %v, %v", ply, errA, errB)
					}
					for i := uint64(0); i < 3; i++ {
						x, _ := a.Sample(nil, rand.New(rand.NewPCG(i, 1))).MarshalBinary()
						y, _ := b.Sample(nil, rand.New(rand.NewPCG(i, 1))).MarshalBinary()
						if !bytes.Equal(x, y) {
							t.Fatalf("seed %d ply %d seat %d: a perturbed state gives another sample", seed, ply, seat)
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
		t.Error("no position had anything hidden")
	}
}
