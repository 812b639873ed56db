package fccatan

import (
	"math/bits"

	"github.com/orrery/orrery/engine"
)

// --- Setup: each team, in seat order, picks a free start hoop and names its knights.

func (s *State) validSetup(t int, a engine.Action) error {
	if a.Kind != kindSetup || !argsZeroFrom(a, 2) {
		return illegal("setup expects a start hoop and knights")
	}
	h := int(a.Arg[0])
	if h < 0 || h >= len(s.c.field.Hoops) || !s.c.field.Hoops[h].Start {
		return illegal("hoop %d is not a start hoop", h)
	}
	if s.owner[h] >= 0 {
		return illegal("start hoop %d is taken", h)
	}
	mask := a.Arg[1]
	if mask < 0 || int(mask) >= 1<<s.teams[t].size {
		return illegal("knights name avatars 0..%d", s.teams[t].size-1)
	}
	if k := bits.OnesCount16(uint16(mask)); s.c.knights >= 0 && k != s.c.knights {
		return illegal("a team names %d knights, not %d", s.c.knights, k)
	}
	return nil
}

// applySetup: the start hoop holds the team's starting city; the named players are knights.
func (s *State) applySetup(t int, a engine.Action) {
	h, mask := int(a.Arg[0]), a.Arg[1]
	tm := &s.teams[t]
	tm.start = int8(h)
	s.owner[h], s.building[h] = int8(t), city
	for i := 0; i < int(tm.size); i++ {
		tm.av[i].knight = mask&(1<<i) != 0
		tm.av[i].pos = s.c.field.Hoops[h].Center
	}
	s.log(event{kind: evSetup, seat: int8(t), x: int32(h), y: int32(mask)})
	s.setupSeat++
	if int(s.setupSeat) == s.c.teams {
		s.startRound()
	}
}

// --- Round start: each team places its players in hoops holding its buildings.

// homeHoops appends the hoops holding team t's buildings, in id order.
func (s *State) homeHoops(t int, buf []int8) []int8 {
	for h := range s.c.field.Hoops {
		if int(s.owner[h]) == t {
			buf = append(buf, int8(h))
		}
	}
	return buf
}

func (s *State) startRound() {
	s.round++
	s.tick = 0
	s.phase = PhaseDeploy
	s.resetStep()
	all := true
	var buf [maxHoops]int8
	for t := 0; t < s.c.teams; t++ {
		// A team with one building has nothing to choose.
		if hs := s.homeHoops(t, buf[:0]); len(hs) == 1 {
			s.deploy(t, DeployAction(int(hs[0]), int(hs[0]), int(hs[0]), int(hs[0])))
			s.teams[t].done = true
		} else {
			all = false
		}
	}
	if all {
		s.beginTicks()
	}
}

func (s *State) validDeploy(t int, a engine.Action) error {
	if a.Kind != kindDeploy {
		return illegal("place the players first")
	}
	size := int(s.teams[t].size)
	for i := 0; i < maxAvatars; i++ {
		h := int(a.Arg[i])
		if i >= size {
			if h != 0 {
				return illegal("team %d has %d players", t, size)
			}
			continue
		}
		if h < 0 || h >= len(s.c.field.Hoops) || int(s.owner[h]) != t {
			return illegal("player %d cannot start in hoop %d: it holds none of the team's buildings", i, h)
		}
	}
	if !argsZeroFrom(a, maxAvatars) {
		return illegal("deploy takes one hoop per player")
	}
	return nil
}

func (s *State) deploy(t int, a engine.Action) {
	tm := &s.teams[t]
	for i := 0; i < int(tm.size); i++ {
		tm.av[i].pos = s.c.field.Hoops[a.Arg[i]].Center
	}
}

func (s *State) resolveDeploy() {
	for t := 0; t < s.c.teams; t++ {
		if tm := &s.teams[t]; tm.pending.Kind == kindDeploy {
			s.deploy(t, tm.pending)
		}
	}
	s.beginTicks()
}

func (s *State) beginTicks() {
	s.phase = PhaseTick
	s.resetStep()
	for t := 0; t < s.c.teams; t++ {
		for i := range s.teams[t].av {
			av := &s.teams[t].av[i]
			av.vel, av.order = Vec{}, Intent{}
		}
	}
	s.log(event{kind: evRound, x: int32(s.round)})
}

// --- Ticks.

func (s *State) validIntents(t int, a engine.Action) error {
	if a.Kind != kindIntents {
		return illegal("a tick takes the team's intents")
	}
	tm := &s.teams[t]
	w, h := s.c.field.Width, s.c.field.Height
	for i := range tm.av[:tm.size] {
		if in := intentOf(&a, i); !plainIntent(in, tm.av[i].knight, w, h) {
			if err := s.validIntent(t, i, in); err != nil {
				return err
			}
		}
	}
	for i := int(tm.size); i < maxAvatars; i++ {
		if intentOf(&a, i) != (Intent{}) {
			return illegal("team %d has %d players", t, tm.size)
		}
	}
	for _, x := range a.Arg[3*maxAvatars:] { // read in place, not copied as argsZeroFrom's argument
		if x != 0 {
			return illegal("intents take three numbers per player")
		}
	}
	return nil
}

// plainIntent reports whether in is a run to a point on the field or standing still, picking
// up, placing and tagging the nearest (a knight's): the intents nearly every tick sends, all of
// which validIntent accepts, checked at once.
func (s *State) plainIntent(t, i int, in Intent) bool {
	return plainIntent(in, s.teams[t].av[i].knight, s.c.field.Width, s.c.field.Height)
}

// plainIntent is State.plainIntent for a player who is a knight or not, on a w x h cm field (w
// and h at most 32767, so a coordinate is on it just when it is at most w or h as a uint16).
func plainIntent(in Intent, knight bool, w, h int32) bool {
	plain := int16(flagTo | flagPick | flagPlace)
	if knight {
		plain |= flagTag
	}
	switch f := in.Flags; {
	case f&^plain != 0:
		return false
	case f&flagTo == 0:
		return in.X == 0 && in.Y == 0
	}
	return uint16(in.X) <= uint16(w) && uint16(in.Y) <= uint16(h)
}

func (s *State) validIntent(t, i int, in Intent) error {
	f := in.Flags
	if f&^knownFlags != 0 {
		return illegal("player %d: unknown intent flags", i)
	}
	switch {
	case f&flagTo != 0 && f&flagVel != 0:
		return illegal("player %d: a target or a velocity, not both", i)
	case f&flagTo != 0:
		if in.X < 0 || int32(in.X) > s.c.field.Width || in.Y < 0 || int32(in.Y) > s.c.field.Height {
			return illegal("player %d: target (%d, %d) is off the %dx%d cm field", i, in.X, in.Y, s.c.field.Width, s.c.field.Height)
		}
	case f&flagVel == 0:
		if in.X != 0 || in.Y != 0 {
			return illegal("player %d: standing still takes no coordinates", i)
		}
	}
	if f&flagTag != 0 {
		if !s.teams[t].av[i].knight {
			return illegal("player %d is not a knight and cannot tag", i)
		}
		if ts, ta, ok := in.tagTarget(); ok && (ts >= s.c.teams || ts == t || ta >= int(s.teams[ts].size)) {
			return illegal("player %d: tag target s%da%d is not an opponent", i, ts, ta)
		}
	} else if f&tagMask != 0 {
		return illegal("player %d: a tag target without a tag", i)
	}
	if f&flagThrow != 0 {
		if !s.c.throwing {
			return illegal("balls may not be thrown in the %s ruleset", s.c.ruleset)
		}
		if to := in.throwTo(); to == i || to >= int(s.teams[t].size) {
			return illegal("player %d cannot throw to player %d", i, to)
		}
	} else if f&throwMask != 0 {
		return illegal("player %d: a throw target without a throw", i)
	}
	return nil
}
