package pantropia

import (
	"math"

	"github.com/orrery/orrery/engine"
)

// Evaluate scores seat's chance to win for a search that stops before the end. Rings are the
// score, so each seat's standing is its rings now plus the rings it can still buy before the
// sphere fills: its chips and what its settlements produce in the rounds left (by the dice in
// play), paid at its own menu chart's atmosphere price, a scarce color made up at its Earth
// rate. A Pantropy that moves the price onto colors a seat does not produce, a settlement on
// the colors it lacks, and a hand of chips that buys nothing all show in that projection,
// which counting rings and pieces alone does not see. The seat's projection is compared with
// the best rival's on a logistic scale that widens with the rounds left.
func (s *state) Evaluate(seat engine.Seat) float64 {
	if s.phase == PhaseOver {
		for p := int8(0); p < s.seats; p++ {
			if s.pl[p].rings > s.pl[seat].rings {
				return 0
			}
		}
		return 1
	}
	var proj [maxSeats]float64
	spread := s.project(&proj)
	return standing(proj[:s.seats], int(seat), spread)
}

// project fills proj with each seat's projected rings at the end, and is the spread of the
// logistic scale they are compared on.
func (s *state) project(proj *[maxSeats]float64) (spread float64) {
	var prod [maxSeats][NumColors]float64
	s.production(&prod)
	// The rounds left: the empty joints at the pace all seats can buy rings, within the turn cap.
	pace := 0.0
	for p := int8(0); p < s.seats; p++ {
		pace += s.ringsFrom(p, &prod[p], 1, false)
	}
	empty := float64(s.emptyJoints())
	rounds := empty / max(pace, 0.5)
	if s.cfg.turnCap > 0 {
		rounds = min(rounds, float64(s.cfg.turnCap-int(s.turn))/float64(s.seats))
	}
	rounds = max(rounds, 0)
	for p := int8(0); p < s.seats; p++ {
		proj[p] = float64(s.pl[p].rings) + s.ringsFrom(p, &prod[p], rounds, true)
	}
	return 2 + math.Sqrt(empty)/3
}

// standing is seat's projection against the best rival's, on the logistic scale.
func standing(proj []float64, seat int, spread float64) float64 {
	rival := math.Inf(-1)
	for p, v := range proj {
		if p != seat {
			rival = max(rival, v)
		}
	}
	return 1 / (1 + math.Exp(-(proj[seat]-rival)/spread))
}

// EvaluateSplit scores every seat into rewards (one per seat) as Evaluate does, with the
// production and projections worked out once for all, and with wins counted as tournaments
// count them: at the end a first place shared by k seats is worth 1/k to each, not 1, so the
// search is not indifferent between filling the last joint level with a rival and a ring
// ahead of it.
func EvaluateSplit(st engine.State, rewards []float64) []float64 {
	s := st.(*state)
	if s.phase == PhaseOver {
		most, first := int16(-1), 0
		for p := int8(0); p < s.seats; p++ {
			switch r := s.pl[p].rings; {
			case r > most:
				most, first = r, 1
			case r == most:
				first++
			}
		}
		for p := int8(0); p < s.seats; p++ {
			v := 0.0
			if s.pl[p].rings == most {
				v = 1 / float64(first)
			}
			rewards = append(rewards, v)
		}
		return rewards
	}
	var proj [maxSeats]float64
	spread := s.project(&proj)
	for p := 0; p < int(s.seats); p++ {
		rewards = append(rewards, standing(proj[:s.seats], p, spread))
	}
	return rewards
}

// production fills prod with each seat's expected chips of each color per round (one turn
// of every seat): a settlement gets the other color of its intersection when one of its
// colors is rolled, on the permanent die (each color one face in eight) or on the swappable
// die of the seat whose turn it is; arcologies twice.
func (s *state) production(prod *[maxSeats][NumColors]float64) {
	var rolled [NumColors]float64 // how often each color is rolled in a round
	for c := range rolled {
		rolled[c] = float64(s.seats) / 8
	}
	for d, holder := range s.dieHolder {
		if holder < 0 {
			continue
		}
		for c := range rolled {
			rolled[c] += float64(s.cfg.dice[d][c]) / float64(dieSides[d])
		}
	}
	for x, o := range s.site {
		if o < 0 {
			continue
		}
		mult := 1.0
		if s.arco[x] {
			mult = 2
		}
		cs := Geo.Intersections[x].Colors
		prod[o][cs[0]] += mult * rolled[cs[1]]
		prod[o][cs[1]] += mult * rolled[cs[0]]
	}
}

// ringsFrom is how many rings seat p buys with rounds of its production prod (and its chips,
// when withChips): as many as its scarcest atmosphere color pays for, and with what is left
// of every color traded to Earth at p's rate.
func (s *state) ringsFrom(p int8, prod *[NumColors]float64, rounds float64, withChips bool) float64 {
	price := s.cost(p, ItemAtmosphere)
	var have [NumColors]float64
	per := 0.0 // chips a ring costs
	for c := range have {
		have[c] = rounds * prod[c]
		if withChips {
			have[c] += float64(s.pl[p].chips[c])
		}
		per += float64(price[c])
	}
	if per == 0 {
		return 0
	}
	rings := math.Inf(1)
	for c, n := range price {
		if n > 0 {
			rings = min(rings, have[c]/float64(n))
		}
	}
	left := 0.0 // what the rest buys from Earth, in chips of the scarce color
	for c, n := range price {
		left += (have[c] - rings*float64(n)) / float64(s.earthRate(p, Color(c)))
	}
	return rings + left/per
}
