package pantropia

import "github.com/orrery/orrery/engine"

// blocked reports whether spreading through intersection at is closed to seat p: another
// player's arcology stands there (a habitat does not block).
func (s *state) blocked(at int16, p int8) bool {
	o := s.site[at]
	return o >= 0 && o != p && s.arco[at]
}

// connected marks p's rings that reach one of p's habitats or arcologies by a path of p's own
// adjacent rings that never passes through another player's arcology (resolution 7).
func (s *state) connected(p int8, mark *[NumJoints]bool) {
	var queue [NumJoints]int16
	n := 0
	for x := range s.site {
		if s.site[x] != p {
			continue
		}
		for _, st := range Geo.Intersections[x].Struts {
			e := Geo.EndJoint(st, int16(x))
			if s.joints[e] == p && !mark[e] {
				mark[e] = true
				queue[n] = e
				n++
			}
		}
	}
	for i := 0; i < n; i++ {
		j := &Geo.Joints[queue[i]]
		for _, nb := range j.Along {
			if s.joints[nb] == p && !mark[nb] {
				mark[nb] = true
				queue[n] = nb
				n++
			}
		}
		if j.At >= 0 && !s.blocked(j.At, p) {
			for _, nb := range j.Through {
				if s.joints[nb] == p && !mark[nb] {
					mark[nb] = true
					queue[n] = nb
					n++
				}
			}
		}
	}
}

// ringTargets marks the joints where p may place a ring: empty or another player's, next to
// a connected ring of p's (not through another player's arcology), or an end joint at one of
// p's own structures. It returns how many there are.
func (s *state) ringTargets(p int8, out *[NumJoints]bool) int {
	var conn [NumJoints]bool
	s.connected(p, &conn)
	count := 0
	add := func(j int16) {
		if s.joints[j] != p && !out[j] {
			out[j] = true
			count++
		}
	}
	for x := range s.site {
		if s.site[x] != p {
			continue
		}
		for _, st := range Geo.Intersections[x].Struts {
			add(Geo.EndJoint(st, int16(x)))
		}
	}
	for j := range conn {
		if !conn[j] {
			continue
		}
		g := &Geo.Joints[j]
		for _, nb := range g.Along {
			add(nb)
		}
		if g.At >= 0 && !s.blocked(g.At, p) {
			for _, nb := range g.Through {
				add(nb)
			}
		}
	}
	return count
}

// hasRingTarget reports whether p has any joint to build on.
func (s *state) hasRingTarget(p int8) bool {
	var t [NumJoints]bool
	return s.ringTargets(p, &t) > 0
}

// touchesRing reports whether one of p's rings sits on an end joint at intersection x.
func (s *state) touchesRing(p int8, x int) bool {
	for _, st := range Geo.Intersections[x].Struts {
		if s.joints[Geo.EndJoint(st, int16(x))] == p {
			return true
		}
	}
	return false
}

// habitatSite reports whether p may build a habitat at x: empty, touching p's ring, and two
// struts from every structure except that it may be one strut from p's own arcology.
func (s *state) habitatSite(p int8, x int) bool {
	if s.site[x] >= 0 || !s.touchesRing(p, x) {
		return false
	}
	for _, y := range Geo.Intersections[x].Neighbors {
		if o := s.site[y]; o >= 0 && !(o == p && s.arco[y]) {
			return false
		}
	}
	return true
}

// setupSite reports whether a setup habitat may go at x with its rings on strut st: x empty,
// two struts from every habitat, st touching x with all three joints empty.
func (s *state) setupSite(x, st int) bool {
	if x < 0 || x >= NumIntersections || st < 0 || st >= NumStruts || s.site[x] >= 0 {
		return false
	}
	if a, b := Geo.Struts[st].A, Geo.Struts[st].B; int(a) != x && int(b) != x {
		return false
	}
	for _, y := range Geo.Intersections[x].Neighbors {
		if s.site[y] >= 0 {
			return false
		}
	}
	return s.joints[3*st] < 0 && s.joints[3*st+1] < 0 && s.joints[3*st+2] < 0
}

// anySetup reports whether the current setup seat has any placement.
func (s *state) anySetup() bool {
	for x := 0; x < NumIntersections; x++ {
		for _, st := range Geo.Intersections[x].Struts {
			if s.setupSite(x, int(st)) {
				return true
			}
		}
	}
	return false
}

// produce resolves production for the rolled colors (single: only c2 was rolled). A site gets
// the other color of its intersection for each rolled color on it, both colors when both
// were rolled, and on a double every site on that circle gets both colors; arcologies double.
func (s *state) produce(c1, c2 Color, single bool) {
	var got [maxSeats][NumColors]int32
	for x := range s.site {
		o := s.site[x]
		if o < 0 {
			continue
		}
		cs := Geo.Intersections[x].Colors
		var gain [2]int32 // of cs[0], cs[1]
		for k, c := range cs {
			other := 1 - k
			if c == c2 || (!single && c == c1) {
				gain[other] = 1
			}
		}
		if !single && c1 == c2 && (cs[0] == c1 || cs[1] == c1) {
			gain = [2]int32{1, 1}
		}
		if s.arco[x] {
			gain[0] *= 2
			gain[1] *= 2
		}
		got[o][cs[0]] += gain[0]
		got[o][cs[1]] += gain[1]
	}
	for p := int8(0); p < s.seats; p++ {
		any := false
		for c, n := range got[p] {
			s.pl[p].chips[c] += n
			any = any || n > 0
		}
		if any {
			e := event{kind: evProduce, seat: p}
			e.setChips(got[p])
			s.log(e)
		}
	}
}

// placeRing puts p's ring on joint j, returning the replaced owner (-1 none), and ends the
// game at once when the last joint is filled.
func (s *state) placeRing(p int8, j int) int8 {
	old := s.joints[j]
	if old >= 0 {
		s.pl[old].rings--
	} else {
		s.lastFill = s.turn
	}
	s.joints[j] = p
	s.pl[p].rings++
	return old
}

// checkFull ends the game when every joint holds a ring (checked after every placement).
func (s *state) checkFull() bool {
	for _, o := range s.joints {
		if o < 0 {
			return false
		}
	}
	s.finish(engine.EndNormal, "every joint holds a ring")
	return true
}

func (s *state) finish(reason engine.EndReason, why string) {
	s.phase = PhaseOver
	s.reason = reason
	s.detail = why
	s.log(event{kind: evGameOver})
}

// removeStructure empties intersection x; shuttles hanging there return to their owners.
func (s *state) removeStructure(x int) {
	s.site[x] = -1
	s.arco[x] = false
	for p := int8(0); p < s.seats; p++ {
		if int(s.pl[p].shuttle) == x {
			s.pl[p].shuttle = -1
			s.log(event{kind: evShuttleReturned, seat: p, a: int16(x)})
		}
	}
}
