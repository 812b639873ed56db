package match

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCutNote_KeepsAtMostTheLimitOnACharactersBoundaryAndMarksTheCut(t *testing.T) {
	for _, tc := range []struct {
		name, note string
		cut        bool
	}{
		{"empty", "", false},
		{"at the limit", strings.Repeat("a", NoteLimit), false},
		{"one byte over", strings.Repeat("a", NoteLimit+1), true},
		{"two-byte characters", strings.Repeat("é", NoteLimit), true},
		{"four-byte characters", strings.Repeat("🪐", 600), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := cutNote(tc.note)
			if !tc.cut {
				if got != tc.note {
					t.Errorf("a note within the limit changed: %d bytes to %d", len(tc.note), len(got))
				}
				return
			}
			want := " …[cut: " + strconv.Itoa(len(tc.note)) + " bytes]"
			if len(got) > NoteLimit || !utf8.ValidString(got) || !strings.HasSuffix(got, want) {
				t.Fatalf("cut to %d bytes (valid UTF-8 %v), ending %q; want at most %d ending %q",
					len(got), utf8.ValidString(got), got[max(0, len(got)-40):], NoteLimit, want)
			}
			if kept := strings.TrimSuffix(got, want); !strings.HasPrefix(tc.note, kept) || len(kept) < NoteLimit-len(want)-3 {
				t.Errorf("kept %d bytes of the note, not its start up to the mark", len(kept))
			}
		})
	}
}
