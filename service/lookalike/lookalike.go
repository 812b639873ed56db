// Package lookalike folds text that looks alike to one skeleton, so that a name cannot pass
// for a reserved one by a look-alike letter: a Cyrillic "о" for "o", U+2010 for "-", a
// full-width or mathematical letter, a combining mark, "rn" for "m". It follows the idea of
// Unicode TS #39's skeleton with a small table of its most used confusables (Latin look-alikes
// in Cyrillic, Greek and Latin extensions, dashes, digits), not the whole of confusables.txt:
// golang.org/x/text has no confusables data, only the normalisation and case folding used here.
package lookalike

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Same reports whether a and b look alike.
func Same(a, b string) bool { return Skeleton(a) == Skeleton(b) }

var fold = cases.Fold()

// Skeleton is s with compatibility forms normalised (NFKC), marks and invisible characters
// removed, look-alikes mapped to the Latin letter they imitate, and case folded.
func Skeleton(s string) string {
	s = norm.NFKD.String(norm.NFKC.String(s))
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r), unicode.Is(unicode.Me, r), unicode.Is(unicode.Cf, r),
			unicode.Is(unicode.Variation_Selector, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
			continue // combining marks, zero-width joiners and the like draw nothing of their own
		}
		if m, ok := before[r]; ok {
			r = m
		}
		b.WriteRune(r)
	}
	s = fold.String(b.String())
	b.Reset()
	for _, r := range s {
		if m, ok := after[r]; ok {
			r = m
		}
		b.WriteRune(r)
	}
	return pairs.Replace(norm.NFC.String(b.String()))
}

// before maps look-alikes whose case folding would lose the likeness (Cyrillic "В" looks
// like "B", its lower case "в" like nothing Latin), and letters that look like another Latin
// letter in the same case ("I" and "1" like "l", "0" like "o").
var before = map[rune]rune{
	'I': 'l', '1': 'l', '|': 'l', '0': 'o',
	// Cyrillic capitals
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C',
	'Т': 'T', 'Х': 'X', 'У': 'Y', 'Ѕ': 'S', 'І': 'l', 'Ј': 'J', 'Ӏ': 'l', 'Ԛ': 'Q', 'Ԝ': 'W',
	// Greek capitals
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'l', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N',
	'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	// dashes and minus signs
	'‐': '-', '‑': '-', '‒': '-', '–': '-', '—': '-', '―': '-', '−': '-', '⁃': '-', '˗': '-',
	'﹘': '-', '‧': '.', '·': '.', '٠': '.', '۰': '.',
}

// after maps lower-case look-alikes, once case is folded.
var after = map[rune]rune{
	// Cyrillic
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i',
	'ј': 'j', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ё': 'e', 'ҽ': 'e', 'ɩ': 'i',
	// Greek
	'α': 'a', 'ο': 'o', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'ρ': 'p', 'υ': 'u', 'χ': 'x', 'ϲ': 'c',
	// Latin extensions
	'ı': 'i', 'ɑ': 'a', 'ɡ': 'g', 'ʏ': 'y', 'ɪ': 'i', 'ꜱ': 's', 'ᴠ': 'v', 'ᴡ': 'w',
	'ℓ': 'l',
}

// pairs are letter pairs that read as one letter.
var pairs = strings.NewReplacer("rn", "m", "vv", "w")
