package pantropia

import (
	"testing"

	"github.com/orrery/orrery/engine"
)

// FuzzParseAction: any text either fails to parse or reads as an action whose canonical
// notation reads back to the same action; applying it never panics.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{
		"settle i5 s12", "luddite", "pass", "terraform d4 d20", "pantropy atm.0 hab.2", "pantropy none",
		"earth red blue", "offer p2 give 2red take 1blue+1green", "accept", "decline", "ring j17",
		"habitat i5", "arcology i5", "shuttle i5", "buy", "end", "play orbital_mirror", "play shuttle p2 i7",
		"play aquifer red", "play guided_comet hab.2 blue", "remove j17", "remove none", "abandon i5", "discard 3 red",
	} {
		f.Add(s)
	}
	st, err := engine.New("pantropia", engine.Config{Seats: 4, Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a, err := st.ParseAction(text)
		if err != nil {
			return
		}
		canon := st.FormatAction(a)
		b, err := st.ParseAction(canon)
		if err != nil || b != a {
			t.Fatalf("%q -> %q -> %v, %v", text, canon, b, err)
		}
		c := st.Clone()
		for seat := engine.Seat(0); seat < 4; seat++ {
			_ = c.Apply(seat, a)
		}
	})
}
