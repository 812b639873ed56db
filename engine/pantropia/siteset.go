package pantropia

import (
	"math/bits"

	"github.com/orrery/orrery/engine"
)

// siteSets is who holds each intersection, as sets of intersections, one bit each: derived
// from site and arco, and kept with the copies of them it came from, so that a list or a
// reach asks the 30 sites once per change rather than once per question.
type siteSets struct {
	known bool
	site  [NumIntersections]int8
	arco  [NumIntersections]bool
	taken uint32           // a structure of anyone's
	arcos uint32           // an arcology of anyone's
	own   [maxSeats]uint32 // each seat's structures
}

// sites is s's site sets, worked out again only when site or arco has changed since.
func (s *state) sites() *siteSets {
	m := &s.siteSets
	if m.known && m.site == s.site && m.arco == s.arco {
		return m
	}
	*m = siteSets{known: true, site: s.site, arco: s.arco}
	for x, o := range s.site {
		if o < 0 {
			continue
		}
		m.taken |= 1 << x
		m.own[o%maxSeats] |= 1 << x
		if s.arco[x] {
			m.arcos |= 1 << x
		}
	}
	return m
}

// neighborSet[x] is the intersections one strut from x.
var neighborSet = func() (t [NumIntersections]uint32) {
	for x := range t {
		for _, y := range Geo.Intersections[x].Neighbors {
			t[x] |= 1 << y
		}
	}
	return t
}()

// allSites is every intersection.
const allSites = 1<<NumIntersections - 1

// habitatSites is where p may build a habitat, as habitatSite says of each intersection:
// empty, not one strut from any structure but p's own arcology, and touching p's ring.
func (s *state) habitatSites(p int8) uint32 {
	m := s.sites()
	var near uint32
	for b := m.taken &^ (m.own[p] & m.arcos); b != 0; b &= b - 1 {
		near |= neighborSet[bits.TrailingZeros32(b)]
	}
	var out uint32
	for b := allSites &^ m.taken &^ near; b != 0; b &= b - 1 {
		if x := bits.TrailingZeros32(b); s.touchesRing(p, x) {
			out |= 1 << x
		}
	}
	return out
}

// appendSites lists the action of at for each intersection of set, in order.
func appendSites(buf []engine.Action, set uint32, at *[NumIntersections]engine.Action) []engine.Action {
	for ; set != 0; set &= set - 1 {
		buf = append(buf, at[bits.TrailingZeros32(set)])
	}
	return buf
}
