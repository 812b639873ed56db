package fccatan

import "testing"

// TestPlainIntent_OnlyWhatValidIntentAccepts: the quick check of the usual intents passes only
// intents that the full check accepts (every flag word, for a knight and a non-knight, on, at
// the edge of and off the field), and it passes the usual ones.
func TestPlainIntent_OnlyWhatValidIntentAccepts(t *testing.T) {
	s := started(t, 4, nil) // avatars 0 and 1 are knights
	f := s.c.field
	points := [][2]int16{{0, 0}, {1, 0}, {0, 5}, {300, 200}, {int16(f.Width), int16(f.Height)},
		{int16(f.Width) + 1, 0}, {0, int16(f.Height) + 1}, {-1, 3}, {4, -1}}
	passed := 0
	for flags := -1 << 15; flags < 1<<15; flags++ {
		for _, p := range points {
			for _, i := range []int{0, 2} {
				in := Intent{X: p[0], Y: p[1], Flags: int16(flags)}
				if !s.plainIntent(1, i, in) {
					continue
				}
				passed++
				if err := s.validIntent(1, i, in); err != nil {
					t.Fatalf("player %d, %+v: plain, but %v", i, in, err)
				}
			}
		}
	}
	for _, in := range []Intent{Stay(), Stay().Tag(), To(300, 200).PickUp().Tag(), To(0, 0).Place()} {
		if !s.plainIntent(1, 0, in) {
			t.Errorf("%+v is not plain", in)
		}
	}
	if passed == 0 {
		t.Error("no intent passed the quick check")
	}
}
