package icetraders

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
)

// EventsPublic is true only where every viewer reads the same events: a server then builds
// them once for every seat, so a redacted event it missed would leak. Over seeded random
// games, with chosen and with assigned alignments, each run of events a step added reads
// alike for every seat and the spectator whenever EventsPublic says so, and is redacted for
// someone at least once when it does not.
func TestEvents_PublicReadAlikeForEveryViewer(t *testing.T) {
	for _, align := range []string{"chosen", "random"} {
		public, private := 0, 0
		for seed := uint64(1); seed <= 12; seed++ {
			st, err := engine.New(Name, engine.Config{Seats: 4, Seed: seed, Options: map[string]string{OptAlignment: align}})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(seed, 9))
			check := func(from int) {
				same := true
				want := st.Events(engine.Spectator, from, nil)
				for seat := engine.Seat(0); seat < 4; seat++ {
					got := st.Events(seat, from, nil)
					for i := range got {
						if !proto.Equal(got[i], want[i]) {
							same = false
						}
					}
				}
				switch pub := st.(engine.PublicEvents).EventsPublic(from); {
				case pub && !same:
					t.Fatalf("%s seed %d: events from %d are public but read otherwise for some seat", align, seed, from)
				case pub:
					public++
				case !same:
					private++
				}
			}
			check(0)
			var toAct []engine.Seat
			var legal []engine.Action
			for ply := 0; ply < 400 && !st.Terminal(); ply++ {
				toAct = st.ToAct(toAct[:0])
				seat := toAct[r.IntN(len(toAct))]
				legal = st.Legal(seat, legal[:0])
				from := st.EventCount()
				if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
				check(from)
			}
		}
		if public == 0 || private == 0 {
			t.Errorf("%s: %d public and %d redacted runs of events: the test saw too little", align, public, private)
		}
	}
}
