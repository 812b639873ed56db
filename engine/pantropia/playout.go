package pantropia

import (
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
)

// Playout is a playout policy for search bots: seat plays as the built-in greedy player does
// in outline, at a fraction of its cost. It builds what it can, habitats first, then
// arcologies, then rings (where, at random); buys a card now and then with nothing to build;
// trades with Earth only chips its atmosphere price can spare for a color it lacks; ends
// its turn otherwise. It never offers a trade and declines those offered. On black it swaps
// its menu only when that makes an atmosphere easier to pay from its production, and
// otherwise terraforms at random. Elsewhere (setup, reactions, the Solar Shade, the
// Technocalypse) it picks at random.
func Playout(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action {
	s, ok := st.(*state)
	if !ok || len(legal) == 0 || s.phase != PhaseMain && s.phase != PhaseBlack && s.phase != PhaseOffer {
		return legal[r.IntN(len(legal))]
	}
	p := int8(seat)
	switch s.phase {
	case PhaseOffer:
		for _, a := range legal {
			if a.Kind == KindReply && a.Arg[0] == 0 {
				return a
			}
		}
	case PhaseBlack:
		return s.blackChoice(p, legal, r)
	}
	var count [numKinds]int
	for _, a := range legal {
		count[a.Kind]++
	}
	for _, k := range [...]uint16{KindHabitat, KindArcology, KindRing} {
		if count[k] > 0 {
			return nth(legal, k, r.IntN(count[k]))
		}
	}
	if count[KindBuy] > 0 && r.IntN(2) == 0 {
		return nth(legal, KindBuy, 0)
	}
	if count[KindEarth] > 0 {
		price := s.cost(p, ItemAtmosphere)
		chips := &s.pl[p].chips
		for _, a := range legal {
			give, take := a.Arg[0], a.Arg[1]
			if a.Kind == KindEarth && price[take] > chips[take] && chips[give]-s.earthRate(p, Color(give)) >= price[give] {
				return a
			}
		}
	}
	if count[KindEnd] > 0 {
		return nth(legal, KindEnd, 0)
	}
	return legal[r.IntN(len(legal))]
}

// nth is the i-th action of kind in legal.
func nth(legal []engine.Action, kind uint16, i int) engine.Action {
	for _, a := range legal {
		if a.Kind == kind {
			if i == 0 {
				return a
			}
			i--
		}
	}
	return legal[0]
}

// blackChoice is the playout's answer to black: the Pantropy swap that most eases p's
// atmosphere price by its production, when one eases it, else a Terraforming at random.
func (s *state) blackChoice(p int8, legal []engine.Action, r *rand.Rand) engine.Action {
	var prod [maxSeats][NumColors]float64
	s.production(&prod)
	menu := &s.pl[p].menu
	f, n := int(s.cfg.itemFirst[ItemAtmosphere]), int(s.cfg.itemSlots[ItemAtmosphere])
	hardness := func(from, to int) float64 {
		h := 0.0
		for k := f; k < f+n; k++ {
			c := menu[k]
			switch k {
			case from:
				c = menu[to]
			case to:
				c = menu[from]
			}
			h += 1 / (prod[p][c] + 0.05)
		}
		return h
	}
	now := hardness(-1, -1)
	best, eased, terraforms := -1, 0.0, 0
	for i, a := range legal {
		switch a.Kind {
		case KindTerraform:
			terraforms++
		case KindPantropy:
			if a.Arg[0] < 0 {
				continue
			}
			if e := now - hardness(int(a.Arg[0]), int(a.Arg[1])); e > eased {
				best, eased = i, e
			}
		}
	}
	switch {
	case best >= 0:
		return legal[best]
	case terraforms > 0:
		return nth(legal, KindTerraform, r.IntN(terraforms))
	}
	return legal[r.IntN(len(legal))]
}
