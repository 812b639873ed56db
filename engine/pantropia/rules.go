package pantropia

import (
	"math/bits"

	"github.com/orrery/orrery/engine"
)

// reach is where p's atmosphere reaches: every joint next to one of p's rings that connects
// to p's habitats or arcologies by a path of p's own adjacent rings, never through another
// player's arcology (resolution 7), plus the end joints at p's own structures. It holds
// empty joints and other players' rings, never p's own.
//
// It depends on p's rings, p's structures and the other players' arcologies alone, and most
// actions change none of them: the last answer is kept per seat with those inputs, and given
// again while they are unchanged.
func (s *state) reach(p int8) jointSet {
	sm := s.sites()
	// The intersections with p's structures; with another player's arcology.
	own, closed := sm.own[p], sm.arcos&^sm.own[p]
	m := &s.reachMemo[p]
	if m.known && m.own == own && m.closed == closed && m.rings == s.ringOf[p] {
		return m.out
	}
	out := s.reachFrom(p, own, closed)
	*m = reachMemo{known: true, own: own, closed: closed, rings: s.ringOf[p], out: out}
	return out
}

// reachMemo is reach's last answer for one seat and the inputs it came from.
type reachMemo struct {
	known       bool
	own, closed uint32
	rings, out  jointSet
}

// reachFrom is reach computed: from the rings at p's own structures (own), along p's
// adjacent rings, not through the intersections in closed. It spreads a round at a time:
// the joints next to the rings reached so far are added to the reach, and p's rings among
// them not yet reached are the next round's.
func (s *state) reachFrom(p int8, own, closed uint32) jointSet {
	mine := &s.ringOf[p]
	var out jointSet
	for m := own; m != 0; m &= m - 1 {
		out.or(&endsAt[bits.TrailingZeros32(m)])
	}
	var conn, front jointSet // p's rings reached; those reached in the last round
	for w := range out {
		front[w] = out[w] & mine[w]
	}
	for !front.isEmpty() {
		for w := range front {
			for m := front[w]; m != 0; m &= m - 1 {
				j := w<<6 + bits.TrailingZeros64(m)
				nb := &aroundSet[j]
				if at := jointAt[j]; at >= 0 && closed&(1<<at) != 0 {
					nb = &alongSet[j]
				}
				out.or(nb)
			}
			conn[w] |= front[w]
		}
		for w := range front {
			front[w] = out[w] & mine[w] &^ conn[w]
		}
	}
	for w := range out {
		out[w] &^= mine[w]
	}
	return out
}

// emptySet is the set of joints without a ring.
func (s *state) emptySet() jointSet {
	_ = [1]struct{}{}[maxSeats-4] // written out for four seats
	r := &s.ringOf
	var e jointSet
	for w := range e {
		e[w] = allJoints[w] &^ (r[0][w] | r[1][w] | r[2][w] | r[3][w])
	}
	return e
}

// ringTargets is where p may place a ring now: the joints p's atmosphere reaches. Another
// player's ring may be replaced only when p's path is blocked, that is, when no empty joint
// is within reach [decision, revised 2026-11-30]; replace=always allows it at any time.
func (s *state) ringTargets(p int8) jointSet {
	t := s.reach(p)
	if s.cfg.replaceAlways {
		return t
	}
	e := s.emptySet()
	open := false
	for w := range e {
		e[w] &= t[w]
		open = open || e[w] != 0
	}
	if open {
		return e
	}
	return t
}

// hasRingTarget reports whether p has any joint to build on.
func (s *state) hasRingTarget(p int8) bool {
	t := s.reach(p)
	return !t.isEmpty()
}

// touchesRing reports whether one of p's rings sits on an end joint at intersection x.
func (s *state) touchesRing(p int8, x int) bool {
	ends, mine := &endsAt[x], &s.ringOf[p]
	return ends[0]&mine[0]|ends[1]&mine[1]|ends[2]&mine[2] != 0
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

// The setup rule relaxes one step at a time until the seat placing has a place, so that no
// seat is ever skipped [decision, 2026-11-30]: with 8 habitats on 30 intersections the
// seed's rule can leave a player nowhere to go.
const (
	setupStrict   = iota // two struts from every habitat; all three joints of the strut empty
	setupPartial         // two struts from every habitat; at least one joint of the strut empty
	setupAnyEmpty        // any empty intersection; whichever joints of the strut are empty
)

// setupSiteAt reports whether a setup habitat may go at x with its rings on strut st under
// the given step of the setup rule.
func (s *state) setupSiteAt(x, st, level int) bool {
	if x < 0 || x >= NumIntersections || st < 0 || st >= NumStruts || s.site[x] >= 0 {
		return false
	}
	if a, b := Geo.Struts[st].A, Geo.Struts[st].B; int(a) != x && int(b) != x {
		return false
	}
	if level < setupAnyEmpty {
		for _, y := range Geo.Intersections[x].Neighbors {
			if s.site[y] >= 0 {
				return false
			}
		}
	}
	free := 0
	for k := 0; k < 3; k++ {
		if s.joints[3*st+k] < 0 {
			free++
		}
	}
	switch level {
	case setupStrict:
		return free == 3
	case setupPartial:
		return free > 0
	}
	return true
}

// setupLevel is the strictest step of the setup rule under which the seat placing now has a
// placement; the last step always has one, as 8 habitats never fill 30 intersections.
func (s *state) setupLevel() int {
	for level := setupStrict; level < setupAnyEmpty; level++ {
		for x := 0; x < NumIntersections; x++ {
			for _, st := range Geo.Intersections[x].Struts {
				if s.setupSiteAt(x, int(st), level) {
					return level
				}
			}
		}
	}
	return setupAnyEmpty
}

// setupSite reports whether a setup habitat may go at x with its rings on strut st now.
func (s *state) setupSite(x, st int) bool { return s.setupSiteAt(x, st, s.setupLevel()) }

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
	s.setJoint(j, p)
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
