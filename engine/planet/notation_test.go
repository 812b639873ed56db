package planet

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// TestNotation_RoundTrip: "tile T face F rot R" reads back to the same action, in text and proto.
func TestNotation_RoundTrip(t *testing.T) {
	for _, a := range []engine.Action{PlaceAction(0, 0, 0), PlaceAction(49, 11, 4), PlaceAction(17, 3, 2)} {
		text := FormatAction(a)
		back, err := ParseAction(text)
		if err != nil || back != a {
			t.Errorf("%q: got %v, %v", text, back, err)
		}
		back, err = ActionFromProto(ActionProto(a))
		if err != nil || back != a {
			t.Errorf("proto of %q: got %v, %v", text, back, err)
		}
	}
	if got := FormatAction(PlaceAction(17, 3, 2)); got != "tile 17 face 3 rot 2" {
		t.Errorf("notation %q", got)
	}
}

// TestNotation_RejectsMalformed: bad text is ErrBadNotation; a bad typed action is
// ErrIllegalAction, never a panic.
func TestNotation_RejectsMalformed(t *testing.T) {
	for _, text := range []string{"", "tile", "tile 1 face 2", "tile x face 2 rot 3", "tile 1 face 2 rot 99999", "place 1 2 3", "tile 1 face 2 rot 3 now"} {
		if _, err := ParseAction(text); !errors.Is(err, engine.ErrBadNotation) {
			t.Errorf("%q: got %v, want ErrBadNotation", text, err)
		}
	}
	for name, m := range map[string]any{
		"nil":          nil,
		"typed nil":    (*planetv1.Action)(nil),
		"no placement": &planetv1.Action{},
		"wrong type":   &emptypb.Empty{},
		"huge field":   &planetv1.Action{Kind: &planetv1.Action_Place{Place: &planetv1.Place{Tile: 1 << 20}}},
	} {
		var err error
		switch m := m.(type) {
		case nil:
			_, err = ActionFromProto(nil)
		case *planetv1.Action:
			_, err = ActionFromProto(m)
		case *emptypb.Empty:
			_, err = ActionFromProto(m)
		}
		if !errors.Is(err, engine.ErrIllegalAction) {
			t.Errorf("%s: got %v, want ErrIllegalAction", name, err)
		}
	}
}

// FuzzParseAction: whatever parses formats back to text that parses to the same action.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"tile 17 face 3 rot 2", "tile 0 face 0 rot 0", "tile -1 face 12 rot 5", " tile  1 face 2 rot 3 ", "tile 1 face 2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a, err := ParseAction(text)
		if err != nil {
			return
		}
		again, err := ParseAction(FormatAction(a))
		if err != nil || again != a {
			t.Errorf("%q -> %v -> %q -> %v, %v", text, a, FormatAction(a), again, err)
		}
	})
}
