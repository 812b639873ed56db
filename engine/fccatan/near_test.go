package fccatan

import (
	"fmt"
	"testing"
)

// TestGrid_NearHoldsEverySpotInRange: on every map, at every point of a fine lattice over the
// field (and off it), the grid's candidates hold every pile within reach and every hoop the
// point stands in, so a tick that measures only the candidates finds what a scan of all finds.
func TestGrid_NearHoldsEverySpotInRange(t *testing.T) {
	for name, f := range fields {
		for _, reach := range []int32{1, 100, 257, 1000} {
			t.Run(fmt.Sprintf("%s/reach=%d", name, reach), func(t *testing.T) {
				sp := newSpots(f, reach)
				missed := 0
				for x := int32(-300); x <= f.Width+300 && missed < 5; x += 7 {
					for y := int32(-300); y <= f.Height+300 && missed < 5; y += 7 {
						p := Vec{x, y}
						piles, hoops := sp.piles.near(p), sp.hoops.near(p)
						for k, pile := range f.Piles {
							if within(p, pile.Pos, reach) && piles&(1<<k) == 0 {
								t.Errorf("%v: pile %d is within reach, not a candidate", p, k)
								missed++
							}
						}
						for h, hp := range f.Hoops {
							if within(p, hp.Center, hp.Radius) && hoops&(1<<h) == 0 {
								t.Errorf("%v: stands in hoop %d, not a candidate", p, h)
								missed++
							}
						}
					}
				}
			})
		}
	}
}
