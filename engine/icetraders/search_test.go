package icetraders

import (
	"math"
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
	enginetest.CheckDeterminizerBlind(t, "icetraders", engine.Config{Seats: 4, Seed: 1, Options: nil}, 8, Perturb,
		func(obs proto.Message, seat engine.Seat) (enginetest.Sampler, error) {
			return NewDeterminizer(obs.(*pb.Observation), int(seat))
		})
}

// TestDeterminizer_DrawsHiddenAlignmentsMostlyEvil: an unrevealed chosen alignment is drawn
// Evil about EvilOdds of the time, and a seat's own and revealed alignments are never redrawn.
func TestDeterminizer_DrawsHiddenAlignmentsMostlyEvil(t *testing.T) {
	b := newBoard(t, 4)
	b.evil(0)
	o := b.State.Observe(0).(*pb.Observation)
	det, err := NewDeterminizer(o, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(det.align) != 3 {
		t.Fatalf("%d hidden alignments to draw, want the 3 other seats'", len(det.align))
	}
	r := rand.New(rand.NewPCG(1, 2))
	const draws = 4000
	evil := 0
	var st engine.State
	for range draws {
		st = det.Sample(st, r)
		s := st.(*State)
		if s.players[0].align != Evil {
			t.Fatal("the seat's own alignment was redrawn")
		}
		for _, i := range det.align {
			if s.players[i].align == Evil {
				evil++
			}
		}
	}
	if got := float64(evil) / (3 * draws); math.Abs(got-EvilOdds) > 0.03 {
		t.Errorf("%.3f of hidden alignments drawn Evil, want about %.2f", got, EvilOdds)
	}
}

// TestGuessHidden_ReadsTheStateAsTheSeatsRebuiltView: the alignments a seat cannot see are
// guessed Good, as FromObservation without a guess reads that seat's observation; its own,
// and every one once the alignments are revealed, stay as they are.
func TestGuessHidden_ReadsTheStateAsTheSeatsRebuiltView(t *testing.T) {
	for _, shown := range []bool{false, true} {
		b := newBoard(t, 4)
		b.evil(0, 1, 2, 3)
		b.sys("r3")
		b.shown = shown
		view, err := FromObservation(b.Observe(1).(*pb.Observation), nil)
		if err != nil {
			t.Fatal(err)
		}
		s := b.clone()
		s.GuessHidden(1)
		for i := range s.players {
			if got, want := s.players[i].align, view.players[i].align; got != want {
				t.Errorf("shown %v: seat %d is %v, seat 1's rebuilt view has %v", shown, i, got, want)
			}
		}
		if want := shown; (s.players[0].align == Evil) != want {
			t.Errorf("shown %v: seat 0 is %v", shown, s.players[0].align)
		}
	}
}
