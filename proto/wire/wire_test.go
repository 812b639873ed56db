package wire

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/icetraders"

	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
	icetradersv1 "github.com/orrery/orrery/proto/orrery/icetraders/v1"
	pantropiav1 "github.com/orrery/orrery/proto/orrery/pantropia/v1"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// The direct path and the reflective one must put each game's message in the same arm.
func TestWrap_DirectPathMatchesReflection(t *testing.T) {
	for _, m := range []proto.Message{&icetradersv1.Action{}, &planetv1.Action{}, &pantropiav1.Action{}, &fccatanv1.Action{}} {
		slow := &orreryv1.Action{}
		if err := wrap(slow, m); err != nil {
			t.Fatal(err)
		}
		if fast := Action(m); !proto.Equal(fast, slow) || GameAction(fast) != m {
			t.Errorf("%T: direct %v, reflective %v", m, fast, slow)
		}
	}
	for _, m := range []proto.Message{&icetradersv1.Observation{}, &planetv1.Observation{}, &pantropiav1.Observation{}, &fccatanv1.Observation{}} {
		slow := &orreryv1.Observation{}
		if err := wrap(slow, m); err != nil {
			t.Fatal(err)
		}
		if fast := Observation(m); !proto.Equal(fast, slow) || GameObservation(fast) != m {
			t.Errorf("%T: direct %v, reflective %v", m, fast, slow)
		}
	}
	for _, m := range []proto.Message{&icetradersv1.Event{}, &planetv1.Event{}, &pantropiav1.Event{}, &fccatanv1.Event{}} {
		slow := &orreryv1.GameEvent{}
		if err := wrap(slow, m); err != nil {
			t.Fatal(err)
		}
		if fast := GameEvent(m); !proto.Equal(fast, slow) || GameEventOf(fast) != m {
			t.Errorf("%T: direct %v, reflective %v", m, fast, slow)
		}
	}
	if err := wrap(&orreryv1.Action{}, &orreryv1.Result{}); err == nil {
		t.Errorf("a message with no arm was wrapped")
	}
}

// A cached decision is the same message as one built afresh, and a cached notation the
// action's own.
func TestCachedDecision_SameAsFresh(t *testing.T) {
	st, err := engine.New("icetraders", engine.Config{Seats: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	cache := new(ActionCache)
	var legal []engine.Action
	for ply := 0; ply < 40 && !st.Terminal(); ply++ {
		seat := st.ToAct(nil)[0]
		legal = st.Legal(seat, legal[:0])
		fresh := Decision(st, seat, legal, int64(ply))
		cached := CachedDecision(st, seat, legal, int64(ply), cache)
		if !proto.Equal(fresh, cached) {
			t.Fatalf("ply %d: cached decision differs", ply)
		}
		a := legal[ply%len(legal)]
		if got, want := cache.Notation(st, a), st.FormatAction(a); got != want {
			t.Errorf("ply %d: cached notation %q, want %q", ply, got, want)
		}
		if err := st.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
	}
}
