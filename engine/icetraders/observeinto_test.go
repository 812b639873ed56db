package icetraders

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
)

// A view built in the memory of an earlier one (ObserveInto, as a server builds each seat's
// next decision) is the view Observe builds, whatever the earlier one held: over seeded
// random games of every size, each seat's scratch is reused at every step, through fleets
// and boards that grow and shrink, and through the other seats' views in one shared scratch.
func TestObserveInto_SameAsObserve(t *testing.T) {
	for seats := 2; seats <= maxSeats; seats++ {
		for seed := uint64(1); seed <= 6; seed++ {
			st, err := engine.New(Name, engine.Config{Seats: seats, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(seed, 11))
			own := make([]any, seats)
			var shared any
			var toAct []engine.Seat
			var legal []engine.Action
			for ply := 0; !st.Terminal(); ply++ {
				for seat := engine.Spectator; seat < engine.Seat(seats); seat++ {
					want := st.Observe(seat)
					if seat >= 0 {
						if got := st.(*State).ObserveInto(seat, &own[seat]); !proto.Equal(got, want) {
							t.Fatalf("%d seats, seed %d, ply %d, seat %d: own scratch gives\n%v\nwant\n%v", seats, seed, ply, seat, got, want)
						}
					}
					if got := st.(*State).ObserveInto(seat, &shared); !proto.Equal(got, want) {
						t.Fatalf("%d seats, seed %d, ply %d, seat %d: shared scratch gives\n%v\nwant\n%v", seats, seed, ply, seat, got, want)
					}
				}
				toAct = st.ToAct(toAct[:0])
				seat := toAct[r.IntN(len(toAct))]
				legal = st.Legal(seat, legal[:0])
				if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
