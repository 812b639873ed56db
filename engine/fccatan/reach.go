package fccatan

import (
	"fmt"
	"strconv"

	"github.com/orrery/orrery/engine"
)

// towards is one tick's run from p toward target: straight at it, at most step cm, stopping on
// it. Movement and the reachability check share it, so the check runs exactly as players do.
func towards(p, target Vec, step int64) (dx, dy int64) {
	dx, dy = int64(target.X)-int64(p.X), int64(target.Y)-int64(p.Y)
	// The run stops on the target when it is within a step: isqrt(n) > step just when n >=
	// (step+1)², and only a longer run needs the distance itself.
	if n := dx*dx + dy*dy; n >= (step+1)*(step+1) {
		d := isqrt(n)
		// On a field (at most 32767 cm a side) at any allowed speed the products fit 32 bits,
		// and a 32-bit division is several times faster than a 64-bit one, with the same
		// quotient: every running player divides twice a tick.
		if px, py := dx*step, dy*step; px == int64(int32(px)) && py == int64(int32(py)) {
			dx, dy = int64(int32(px)/int32(d)), int64(int32(py)/int32(d))
		} else {
			dx, dy = px/d, py/d
		}
	}
	return dx, dy
}

// hoopAt is the hoop p stands in (the nearest centre when hoops overlap), or -1.
func (f *Field) hoopAt(p Vec) int {
	best, bestD := -1, int64(-1)
	for h, hp := range f.Hoops {
		if d := dist2(p, hp.Center); d <= int64(hp.Radius)*int64(hp.Radius) && (best < 0 || d < bestD) {
			best, bestD = h, d
		}
	}
	return best
}

// nearestPileOf is the pile of r nearest p, the lowest id on ties, or -1 if the map has none.
func (f *Field) nearestPileOf(p Vec, r Resource) int {
	best, bestD := -1, int64(0)
	for k, spot := range f.Piles {
		if d := dist2(p, spot.Pos); spot.Resource == r && (best < 0 || d < bestD) {
			best, bestD = k, d
		}
	}
	return best
}

// fetchTicks is how many ticks a player needs, starting in start hoop h at its centre and
// running at top speed, to come within reach of pile p (it picks up on that tick) and then
// stand in h again (the ball counts as collected on that tick). It gives up past limit ticks.
func (c *config) fetchTicks(h, p, limit int) int {
	f := c.field
	pos, pile, home := f.Hoops[h].Center, f.Piles[p].Pos, f.Hoops[h].Center
	step := int64(c.step)
	n := 0
	for picked := false; n <= limit; {
		target := pile
		if picked {
			target = home
		}
		dx, dy := towards(pos, target, step)
		pos = Vec{pos.X + int32(dx), pos.Y + int32(dy)}
		n++
		switch {
		case picked && f.hoopAt(pos) == h:
			return n
		case !picked && within(pos, pile, c.reach):
			picked = true
		}
	}
	return n
}

// checkReach refuses a map and settings on which the game cannot be played (rules/
// full-contact-catan.md, 2026-11-30): from every start hoop, the nearest pile of every
// resource must be reached and its ball delivered back within one round at top speed. On the
// full-size field ore and sheep take 8.1-10.5 s, so the published 8-second round needs its own
// map.
func (c *config) checkReach() error {
	f := c.field
	for h, hoop := range f.Hoops {
		if !hoop.Start {
			continue
		}
		for r := Resource(0); r < numRes; r++ {
			p := f.nearestPileOf(hoop.Center, r)
			if p < 0 {
				return fmt.Errorf("%w: fccatan map %q has no %s pile", engine.ErrBadOption, f.Name, r)
			}
			n := c.fetchTicks(h, p, 4*c.ticksPerRound)
			if n <= c.ticksPerRound {
				continue
			}
			took := fmt.Sprintf("%d ticks (%s s)", n, decimal(n*c.tickMS, 1000))
			if n > 4*c.ticksPerRound {
				took = fmt.Sprintf("more than %d ticks", 4*c.ticksPerRound)
			}
			pos := f.Piles[p].Pos
			return fmt.Errorf("%w: fccatan map %q cannot be played with %s-second rounds at %d cm/s: from start hoop %d, "+
				"the nearest %s pile (pile %d at %s, %s m) takes %s to reach and deliver back, more than the round's %d ticks",
				engine.ErrBadOption, f.Name, decimal(c.ticksPerRound*c.tickMS, 1000), c.speed, h, r, p,
				decimal(int(pos.X), 100), decimal(int(pos.Y), 100), took, c.ticksPerRound)
		}
	}
	return nil
}

// decimal is n/div as a short decimal: 8, 10.1, 0.25.
func decimal(n, div int) string {
	return strconv.FormatFloat(float64(n)/float64(div), 'f', -1, 64)
}
