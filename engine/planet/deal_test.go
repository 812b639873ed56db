package planet

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestSetup_ShufflesAreRandPerm: New's shuffles, drawn from the PCG directly, are rand.Perm's
// permutations from the same draws, and leave the source where rand.Perm leaves it, for every
// length up to past the scratch room.
func TestSetup_ShufflesAreRandPerm(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		src, ref := engine.NewRand(seed), engine.NewRand(seed)
		r := rand.New(ref)
		var scratch [permScratch]int
		for n := 0; n <= permScratch+10; n++ {
			got, want := perm(src, scratch[:0], n), r.Perm(n)
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d, n %d: perm %v, rand.Perm %v", seed, n, got, want)
			}
		}
		if *src != *ref {
			t.Errorf("seed %d: the sources differ after the shuffles", seed)
		}
	}
}
