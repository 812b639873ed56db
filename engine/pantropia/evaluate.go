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
	var proj [maxSeats]float64
	for p := int8(0); p < s.seats; p++ {
		proj[p] = float64(s.pl[p].rings) + s.ringsFrom(p, &prod[p], rounds, true)
	}
	rival := math.Inf(-1)
	for p := int8(0); p < s.seats; p++ {
		if engine.Seat(p) != seat {
			rival = max(rival, proj[p])
		}
	}
	spread := 2 + math.Sqrt(empty)/3
	return 1 / (1 + math.Exp(-(proj[seat]-rival)/spread))
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
