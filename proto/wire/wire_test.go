package wire

import (
	"testing"

	"google.golang.org/protobuf/proto"

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
