package planet

import (
	"testing"

	"github.com/orrery/orrery/engine/enginetest"
)

func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts map[string]string
	}{
		{"standard", nil},
		{"mystery", map[string]string{OptMystery: "true"}},
		{"beginners-fixed-token", map[string]string{OptBeginners: "true", OptRotate: "false"}},
		{"cap", map[string]string{OptCap: "7", OptMystery: "true", OptAhead: "2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seeds := 10
			if tc.opts != nil {
				seeds = 4
			}
			enginetest.Run(t, enginetest.Suite{Game: "planet", Options: tc.opts, Seeds: seeds, Perturb: Perturb})
		})
	}
}
