package fccatan

import (
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

// TestTensors_OneOrderPerAvatarAtOnce: the avatar heads compose. Ids that change every free
// avatar's order at once name one intents action, which Apply accepts, and once the tick has
// resolved each avatar stands on the order its head named.
func TestTensors_OneOrderPerAvatarAtOnce(t *testing.T) {
	s := started(t, 3, nil)
	tz, _, err := engine.TensorsOf("fccatan", engine.Config{Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	heads := tz.Heads()
	obs := s.Observe(0)
	legal := s.Legal(0, nil)
	mask := make([]bool, engine.NumDistinctActions(tz))
	if err := engine.LegalMask(tz, obs, legal, mask, make([]int32, len(legal)*len(heads))); err != nil {
		t.Fatal(err)
	}
	ids := []int32{int32(tz.(*tensors).d.intents), 0, 0, 0, 0}
	changed := 0
	off := heads[0]
	for h := 1; h < len(heads); h++ {
		for id := 1; id < heads[h]; id++ { // the first order other than keep that the mask allows
			if mask[off+id] {
				ids[h] = int32(id)
				changed++
				break
			}
		}
		off += heads[h]
	}
	if changed < 2 {
		t.Fatalf("%d avatars have an order to change to at the first tick; the test needs two", changed)
	}
	a, ok := tz.Action(obs, legal, ids)
	if !ok {
		t.Fatalf("ids %v name no action", ids)
	}
	mustApply(t, s, 0, a)
	for team := 1; team < 3; team++ { // the others keep theirs, and the tick resolves
		mustApply(t, s, team, s.Legal(engine.Seat(team), nil)[0])
	}
	after := s.Observe(0).(*pb.Observation)
	var got [1 + maxAvatars]int32
	if !tz.ActionIDs(obs, []engine.Action{a}, got[:]) || got != [5]int32(ids) {
		t.Errorf("the composed action's ids are %v, want %v", got, ids)
	}
	for i, av := range after.Teams[0].Avatars {
		in, err := intentFrom(av.Intent)
		if err != nil {
			t.Fatal(err)
		}
		if in != intentOf(&a, i) {
			t.Errorf("avatar %d stands on %+v, not the order sent %+v", i, in, intentOf(&a, i))
		}
	}
}
