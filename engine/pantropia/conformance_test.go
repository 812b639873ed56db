package pantropia

import (
	"testing"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
)

func TestConformance(t *testing.T) {
	seeds := 6
	enginetest.Run(t, enginetest.Suite{
		Game:    "pantropia",
		Seeds:   seeds,
		Options: map[string]string{"turn_cap": "60"},
		Perturb: Perturb,
		Check:   checkConservation,
	})
}

// checkConservation checks that pieces and cards are conserved after every action.
func checkConservation(t *testing.T, st engine.State) {
	t.Helper()
	s := st.(*state)
	var rings [maxSeats]int16
	for j, o := range s.joints {
		if o >= 0 {
			rings[o]++
		}
		for p := int8(0); p < maxSeats; p++ {
			if s.ringOf[p].has(int16(j)) != (o == p) {
				t.Fatalf("joint j%d holds %d but p%d's ring set says %v", j, o, p, !(o == p))
			}
		}
	}
	var hab, arc [maxSeats]int8
	for x, o := range s.site {
		if o < 0 {
			continue
		}
		if s.arco[x] {
			arc[o]++
		} else {
			hab[o]++
		}
	}
	cards := int(s.reserve) + int(s.countdown) + int(s.lost) + int(s.deckN)
	if s.elevator >= 0 {
		cards++
	}
	if s.phase == PhaseWindow && !s.pendBlack {
		cards++
	}
	for p := int8(0); p < s.seats; p++ {
		pl := &s.pl[p]
		if pl.rings != rings[p] || pl.habitats != hab[p] || pl.arcologies != arc[p] {
			t.Fatalf("p%d counts rings %d/%d habitats %d/%d arcologies %d/%d", p, pl.rings, rings[p], pl.habitats, hab[p], pl.arcologies, arc[p])
		}
		if pl.habitats > supplyHabitats || pl.arcologies > supplyArcologies {
			t.Fatalf("p%d beyond supply", p)
		}
		for c, n := range pl.chips {
			if n < 0 {
				t.Fatalf("p%d has %d %s", p, n, Color(c))
			}
		}
		if pl.shuttle >= 0 && s.site[pl.shuttle] < 0 {
			t.Fatalf("p%d shuttle hangs at empty i%d", p, pl.shuttle)
		}
		cards += pl.handSize()
	}
	want := 0
	for _, n := range s.cfg.deck {
		want += int(n)
	}
	if cards != want {
		t.Fatalf("%d cards accounted for, want %d", cards, want)
	}
}
