package planet

import (
	"math/rand/v2"
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

// TestDeterminizer_ReadsTheMatchOptions: a match without the first player's rotation, or with
// mystery animals turned up a different number of turns ahead, is sampled with those options
// (the samples' views equal the seat's), as the observation now carries them.
func TestDeterminizer_ReadsTheMatchOptions(t *testing.T) {
	for _, opts := range []map[string]string{
		{OptRotate: "false"},
		{OptMystery: "true", OptAhead: "2"},
		{OptMystery: "true", OptAhead: "5", OptRotate: "false"},
	} {
		enginetest.CheckDeterminizer(t, "planet", engine.Config{Seats: 3, Seed: 23, Options: opts}, 3,
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

// TestEvaluate_WorthOfAPlanet: the search's evaluation rates a planet ahead that is set to win
// an open card or that holds more of its objective's habitat, a nearer card above a farther
// one, and the end by the ranks.
func TestEvaluate_WorthOfAPlanet(t *testing.T) {
	bear := blobs(t, blobSpec{Forest, Mountain, true}) // 9 forest touching mountain
	objectiveOf := func(h Habitat) int8 {
		for k, o := range Default.Objectives {
			if o.Habitat == h {
				return int8(k)
			}
		}
		t.Fatalf("no objective for %v", h)
		return -1
	}
	// position is a two-seat game at turn 3 with the Bear in column turn, seat 0's planet
	// mine, seat 1's empty, and both seats holding the objective of habitat obj.
	position := func(turn int8, mine Surface, obj Habitat) *state {
		s := newGame(t, 2, 7, nil)
		playTurns(t, s, 2)
		layCards(t, s, turn, "Bear")
		for i := range s.planets {
			setSurface(&s.planets[i], Surface{})
			s.planets[i].objective = objectiveOf(obj)
		}
		setSurface(&s.planets[0], mine)
		return s
	}
	for _, tc := range []struct {
		name string
		s    *state
	}{
		{"set to win the Bear", position(4, bear, Ocean)},
		{"more of its objective's habitat", position(4, bear, Forest)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if me, rival := tc.s.Evaluate(0), tc.s.Evaluate(1); !(me > 0.5 && rival < 0.5) {
				t.Errorf("seat 0 rated %.3f, seat 1 %.3f: want seat 0 ahead", me, rival)
			}
		})
	}
	t.Run("a nearer card counts more", func(t *testing.T) {
		near, far := position(4, bear, Ocean).Evaluate(0), position(8, bear, Ocean).Evaluate(0)
		if near <= far {
			t.Errorf("the Bear next turn rated %.3f, in turn 8 %.3f: want the nearer higher", near, far)
		}
	})
	t.Run("the end by the ranks", func(t *testing.T) {
		s := newGame(t, 2, 7, nil)
		playTurns(t, s, TurnsPerGame)
		if !s.over {
			t.Fatal("the game did not end after 12 turns")
		}
		for seat := range s.result.Ranks {
			want := 0.0
			if s.result.Ranks[seat] == 1 {
				want = 1
			}
			if got := s.Evaluate(engine.Seat(seat)); got != want {
				t.Errorf("seat %d ranked %d rated %.3f, want %v", seat, s.result.Ranks[seat], got, want)
			}
		}
	})
}

// TestDeterminizer_DrawsObjectivesByThePlanetsLean: a rival whose planet is all of one
// habitat after eight turns is drawn that habitat's objective far more often than a uniform draw
// would (one in four, the viewer holding the fifth); the draw stays a deal without repeats
// that never gives the viewer's card away.
func TestDeterminizer_DrawsObjectivesByThePlanetsLean(t *testing.T) {
	s := newGame(t, 3, 31, nil)
	playTurns(t, s, 8)
	det, err := NewDeterminizer(observe(s, 0), 0)
	if err != nil {
		t.Fatal(err)
	}
	own := s.planets[0].objective
	leanTo := func(seat int) Habitat {
		for k, o := range Default.Objectives {
			if int8(k) != own && o.Habitat != Default.Objectives[s.planets[seat].objective].Habitat {
				return o.Habitat // a habitat not its true objective's, so the lean is what counts
			}
		}
		t.Fatal("no other objective")
		return None
	}
	h := leanTo(1)
	sf := &det.base.planets[1].surface
	for a := range sf {
		if sf[a] != None {
			sf[a] = h
		}
	}
	setSurface(&det.base.planets[1], *sf)
	det.drawn = det.drawn[:0]
	det.leanings(det.base, own)
	r := rand.New(engine.NewRand(5))
	var dst engine.State
	const draws = 2000
	hits := 0
	for range draws {
		dst = det.Sample(dst, r)
		x := dst.(*state)
		seen := map[int8]bool{}
		for i := 0; i < int(x.objN); i++ {
			if seen[x.objDeal[i]] {
				t.Fatalf("objective %d dealt twice: %v", x.objDeal[i], x.objDeal[:x.objN])
			}
			seen[x.objDeal[i]] = true
		}
		if x.planets[0].objective != own || x.objDeal[0] != own {
			t.Fatalf("the viewer's objective %d drawn as %d", own, x.planets[0].objective)
		}
		if Default.Objectives[x.planets[1].objective].Habitat == h {
			hits++
		}
	}
	if hits < draws*3/4 {
		t.Errorf("seat 1, all %v, drew that objective %d times in %d: want most", h, hits, draws)
	}
}

// TestEvaluateAll_EqualsEachSeatsEvaluate: the search's one-pass scoring of every seat gives
// each seat exactly its Evaluate, mid-game and at the end.
func TestEvaluateAll_EqualsEachSeatsEvaluate(t *testing.T) {
	for _, turns := range []int{1, 5, 9, TurnsPerGame} {
		s := newGame(t, 4, 13, nil)
		playTurns(t, s, turns)
		all := EvaluateAll(s, nil)
		if len(all) != 4 {
			t.Fatalf("after %d turns: %d rewards for 4 seats", turns, len(all))
		}
		for seat, got := range all {
			if want := s.Evaluate(engine.Seat(seat)); got != want {
				t.Errorf("after %d turns, seat %d: EvaluateAll %v, Evaluate %v", turns, seat, got, want)
			}
		}
	}
}
