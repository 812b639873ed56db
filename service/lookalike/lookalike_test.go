package lookalike

import (
	"testing"
	"unicode/utf8"
)

// The look-alike house names (U+2010 for the hyphen, a Cyrillic "о") were accepted as
// new names; they fold to the same skeleton as the house bot's.
func TestSame_LookAlikeNames(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"house-greedy", "house\u2010greedy", true},  // U+2010 HYPHEN
		{"house-greedy", "h\u043euse-greedy", true},  // Cyrillic о
		{"house-greedy", "HOUSE-GREEDY", true},       // case
		{"house-greedy", "ｈｏｕｓｅ－ｇｒｅｅｄｙ", true},       // full width
		{"house-greedy", "𝐡𝐨𝐮𝐬𝐞-𝐠𝐫𝐞𝐞𝐝𝐲", true},       // mathematical bold
		{"house-greedy", "house-gree\u200bdy", true}, // a zero-width space
		{"house-greedy", "hóuse-greedy", true},       // a combining or precomposed mark
		{"house-greedy", "house\u2212greedy", true},  // U+2212 MINUS SIGN
		{"house-mcts", "house-rncts", true},          // rn for m
		{"botl", "BotI", true},                       // capital I for l
		{"house-random", "h0use-random", true},       // zero for o
		{"house-greedy", "house-random", false},
		{"ada", "bob", false},
		{"ada", "adb", false},
	} {
		if got := Same(c.a, c.b); got != c.same {
			t.Errorf("Same(%q, %q) = %v, want %v (skeletons %q, %q)", c.a, c.b, got, c.same, Skeleton(c.a), Skeleton(c.b))
		}
	}
}

// Any text folds without a panic to valid UTF-8, and looks like itself.
func FuzzSkeleton(f *testing.F) {
	for _, s := range []string{"house-greedy", "h\u043euse\u2010greedy", "ｈｏｕｓｅ", "\xff\xfe", "rnrnvv", "İı"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := Skeleton(s)
		if !utf8.ValidString(k) {
			t.Errorf("Skeleton(%q) = %q, not UTF-8", s, k)
		}
		if !Same(s, s) {
			t.Errorf("%q does not look like itself", s)
		}
	})
}
