package pantropia

import (
	"math/bits"
	"slices"

	"github.com/orrery/orrery/engine"
)

// Legal lists seat's actions in a stable order. Every listed action passes validate.
func (s *state) Legal(seat engine.Seat, buf []engine.Action) []engine.Action {
	if s.phase == PhaseOver || seat < 0 || int(seat) >= int(s.seats) || int8(seat) != s.decider() {
		return buf
	}
	p := int8(seat)
	switch s.phase {
	case PhaseSetup:
		level := s.setupLevel()
		for x := 0; x < NumIntersections; x++ {
			for _, st := range Geo.Intersections[x].Struts {
				if s.setupSiteAt(x, int(st), level) {
					buf = append(buf, Settle(x, int(st)))
				}
			}
		}
	case PhaseWindow:
		if s.pl[p].hand[Luddite] > 0 {
			buf = append(buf, React(true))
		}
		buf = append(buf, React(false))
	case PhaseBlack:
		for a := 0; a < NumDice; a++ {
			for b := a + 1; b < NumDice; b++ {
				if s.dieHolder[a] >= 0 || s.dieHolder[b] >= 0 {
					buf = append(buf, Terraform(a, b))
				}
			}
		}
		buf = s.pantropyLegal(p, buf)
	case PhaseMain:
		buf = s.mainLegal(p, buf)
	case PhaseOffer:
		buf = append(buf, Reply(true), Reply(false))
	case PhaseMirror:
		buf = appendRings(buf, s.ringTargets(p))
	case PhaseShade:
		buf = append(buf, Remove(-1))
		for j, o := range s.joints {
			if o >= 0 {
				buf = append(buf, Remove(j))
			}
		}
	case PhaseTechno:
		if s.abandon[p] > 0 {
			for x := range s.site {
				if s.site[x] == p && s.arco[x] {
					buf = append(buf, Abandon(x))
				}
			}
			break
		}
		for c := Color(0); c < NumColors; c++ {
			for n := int32(1); n <= s.pl[p].chips[c] && n <= int32(s.discard[p]); n++ {
				buf = append(buf, Discard(c, int(n)))
			}
		}
	}
	return buf
}

// appendRings lists a ring on each joint of t, in joint order.
func appendRings(buf []engine.Action, t jointSet) []engine.Action {
	n, k := len(buf), 0
	for _, w := range t {
		k += bits.OnesCount64(w)
	}
	out := slices.Grow(buf, k)[:n+k]
	for w := range t {
		for m := t[w]; m != 0; m &= m - 1 {
			out[n] = ringAt[w<<6+bits.TrailingZeros64(m)]
			n++
		}
	}
	return out[:n]
}

// The actions that name one joint or one intersection, made once: a list copies them whole
// (making one in place and copying it stalls the copy on the store just made).
var (
	ringAt     [NumJoints]engine.Action
	habitatAt  [NumIntersections]engine.Action
	arcologyAt [NumIntersections]engine.Action
	shuttleAt  [NumIntersections]engine.Action
)

func init() {
	for j := range ringAt {
		ringAt[j] = Ring(j)
	}
	for x := 0; x < NumIntersections; x++ {
		habitatAt[x], arcologyAt[x], shuttleAt[x] = Habitat(x), Arcology(x), BuildShuttle(x)
	}
}

// pantropyLegal lists the swaps of a slot of the rolled color with a slot of another color,
// or the one "none" when no such swap exists (resolution 4).
func (s *state) pantropyLegal(p int8, buf []engine.Action) []engine.Action {
	c := s.lastRoll.swappable
	m := &s.pl[p].menu
	n := len(buf)
	for from := 0; from < s.cfg.slots; from++ {
		if m[from] != c {
			continue
		}
		for to := 0; to < s.cfg.slots; to++ {
			if m[to] != c {
				buf = append(buf, Pantropy(from, to))
			}
		}
	}
	if len(buf) == n {
		buf = append(buf, PantropyNone())
	}
	return buf
}

func (s *state) mainLegal(p int8, buf []engine.Action) []engine.Action {
	me := &s.pl[p]
	chips, pr := chipBytes(&me.chips), s.prices(p)
	// The colors p holds enough of to give to Earth, a byte's top bit each, as covers finds.
	for m := ((chips | byteTops) - s.earthRates(p)) & byteTops; m != 0; m &= m - 1 {
		buf = append(buf, earthRun[bits.TrailingZeros64(m)>>3%NumColors][:]...)
	}
	if int(s.offersMade) < s.cfg.offersPerTurn {
		buf = s.offerLegal(p, chips, buf)
	}
	if me.rings < supplyRings && covers(chips, pr[ItemAtmosphere]) {
		buf = appendRings(buf, s.ringTargets(p))
	}
	if me.habitats < supplyHabitats && covers(chips, pr[ItemHabitat]) {
		buf = appendSites(buf, s.habitatSites(p), &habitatAt)
	}
	if me.arcologies < supplyArcologies && covers(chips, pr[ItemArcology]) {
		m := s.sites()
		buf = appendSites(buf, m.own[p]&^m.arcos, &arcologyAt) // p's habitats
	}
	if me.shuttle < 0 && covers(chips, pr[ItemShuttle]) {
		buf = appendSites(buf, s.sites().taken, &shuttleAt)
	}
	if s.deckN > 0 && covers(chips, pr[ItemCard]) {
		buf = append(buf, buyAction)
	}
	if !s.cardPlayed {
		buf = s.playLegal(p, buf)
	}
	return append(buf, endAction)
}

var buyAction, endAction = Buy(), End()

// elevatorPrice is the Space Elevator's price, one chip of each color, as price gives one.
const elevatorPrice = 0x010101010101

// offerRun[q][x] are the listed offers to seat q giving x, for each other color y in order:
// 1 x for 1 y, 2 x for 1 y, 1 x for 2 y. pairRun[q][x] are those of them that give one x
// only: 1 x for 1 y, 1 x for 2 y. Offers are most of a main-phase list, so they are built
// once and copied.
var offerRun, pairRun = func() (r [maxSeats][NumColors][NumColors - 1][3]engine.Action, u [maxSeats][NumColors][NumColors - 1][2]engine.Action) {
	for q := range r {
		for x := Color(0); x < NumColors; x++ {
			k := 0
			for y := Color(0); y < NumColors; y++ {
				if y != x {
					r[q][x][k] = [3]engine.Action{Offer(q, one16(x, 1), one16(y, 1)), Offer(q, one16(x, 2), one16(y, 1)), Offer(q, one16(x, 1), one16(y, 2))}
					u[q][x][k] = [2]engine.Action{r[q][x][k][0], r[q][x][k][2]}
					k++
				}
			}
		}
	}
	return r, u
}()

// earthRun[c] is the Earth trades giving c, for each other color in order.
var earthRun = func() (r [NumColors][NumColors - 1]engine.Action) {
	for c := Color(0); c < NumColors; c++ {
		k := 0
		for d := Color(0); d < NumColors; d++ {
			if d != c {
				r[c][k] = Earth(c, d)
				k++
			}
		}
	}
	return r
}()

func one16(c Color, n int16) (v [NumColors]int16) {
	v[c] = n
	return v
}

// offerLegal lists a bounded, useful family of offers: one chip for one, two for one and one
// for two, of single colors each side, with every other seat that holds what is asked.
// Apply accepts any other valid offer too. mine is p's chipBytes.
func (s *state) offerLegal(p int8, mine uint64, buf []engine.Action) []engine.Action {
	one, two := holdsBytes(mine, 1), holdsBytes(mine, 2)
	// The list is written in place: buf grows once to the most it can take, with room past
	// the last seat's offers for a whole offerSpan.
	n := len(buf)
	buf = slices.Grow(buf, int(s.seats-2)*NumColors*offersPerColor+len(offerSpan{}))
	out := buf[:cap(buf)]
	for q := int8(0); q < s.seats; q++ {
		if q == p {
			continue
		}
		// How many offers each color y makes listed, one a byte: giving two x, 2 when q
		// holds one y and 3 when two; giving one x, 1 and 2.
		theirs := chipBytes(&s.pl[q].chips)
		has, hasTwo := holdsBytes(theirs, 1), holdsBytes(theirs, 2)
		lenTwo, lenOne := 2*has+hasTwo, has+hasTwo
		n += offersTo((*offerSpan)(out[n:]), &offerRun[q], &pairRun[q], one, two, lenTwo, lenOne)
	}
	return out[:n]
}

// offersTo writes the offers to one seat at the start of out, from its runs, and returns how
// many it listed. one and two have a byte 1 for each color the giver holds one and two of;
// lenTwo and lenOne a byte for each color, how many offers it makes listed (offerLegal).
// For each color x given, each triple (or pair) of the run is copied whole, without a
// branch, and the count moves past as many of it as the color's byte says: an offer not
// listed is written over by the next, or left past the end. The copies are written out
// here, not called, so that the loop keeps its values in registers.
func offersTo(out *offerSpan, run *[NumColors][NumColors - 1][3]engine.Action, pairs *[NumColors][NumColors - 1][2]engine.Action, one, two, lenTwo, lenOne uint64) int {
	_ = [1]struct{}{}[NumColors-6] // written out for five other colors
	n := 0
	for xs := one; xs != 0; xs &= xs - 1 {
		low := xs & -xs // x's byte, the lowest left
		x := bits.TrailingZeros64(low) >> 3
		below := low - 1 // the colors before x; those after it move down a byte
		if two&low != 0 {
			r, l := &run[x], lenTwo&below|lenTwo>>8&^below
			*(*[3]engine.Action)(out[n&127:]) = r[0]
			n += int(l & 0xff)
			*(*[3]engine.Action)(out[n&127:]) = r[1]
			n += int(l >> 8 & 0xff)
			*(*[3]engine.Action)(out[n&127:]) = r[2]
			n += int(l >> 16 & 0xff)
			*(*[3]engine.Action)(out[n&127:]) = r[3]
			n += int(l >> 24 & 0xff)
			*(*[3]engine.Action)(out[n&127:]) = r[4]
			n += int(l >> 32 & 0xff)
		} else {
			r, l := &pairs[x], lenOne&below|lenOne>>8&^below
			*(*[2]engine.Action)(out[n&127:]) = r[0]
			n += int(l & 0xff)
			*(*[2]engine.Action)(out[n&127:]) = r[1]
			n += int(l >> 8 & 0xff)
			*(*[2]engine.Action)(out[n&127:]) = r[2]
			n += int(l >> 16 & 0xff)
			*(*[2]engine.Action)(out[n&127:]) = r[3]
			n += int(l >> 24 & 0xff)
			*(*[2]engine.Action)(out[n&127:]) = r[4]
			n += int(l >> 32 & 0xff)
		}
	}
	return n
}

// holdsBytes has a byte 1 for each color of which chips (chipBytes) holds at least n, 0 for
// the others, as covers finds.
func holdsBytes(chips, n uint64) uint64 {
	return ((chips | byteTops) - n*0x010101010101) & byteTops >> 7
}

// offerSpan is where one seat's listed offers are written: room for all of them, and for
// whole triples copied past the last.
type offerSpan [128 + 3]engine.Action

// offersPerColor is how many listed offers give one color: three for each other color.
const offersPerColor = 3 * (NumColors - 1)

func (s *state) playLegal(p int8, buf []engine.Action) []engine.Action {
	me := &s.pl[p]
	_ = [1]struct{}{}[Luddite-7] // written out for the six cards played in the main phase
	if h := &me.hand; h[1]|h[2]|h[3]|h[4]|h[5]|h[6] == 0 {
		return buf // most hands hold none
	}
	for k := OrbitalMirror; k < Luddite; k++ {
		if me.hand[k] == 0 {
			continue
		}
		switch k {
		case OrbitalMirror, SolarShade:
			buf = append(buf, Play(k))
		case SpaceElevator:
			if covers(chipBytes(&me.chips), elevatorPrice) {
				buf = append(buf, Play(k))
			}
		case ShuttleCard:
			for q := int8(0); q < s.seats; q++ {
				if !s.shuttleMovable(p, q) {
					continue
				}
				for x := 0; x < NumIntersections; x++ {
					if s.site[x] >= 0 && int8(x) != s.pl[q].shuttle {
						buf = append(buf, PlayShuttle(int(q), x))
					}
				}
			}
		case Aquifer:
			for c := Color(0); c < NumColors; c++ {
				buf = append(buf, PlayAquifer(c))
			}
		case GuidedComet:
			for slot := 0; slot < s.cfg.slots; slot++ {
				for c := Color(0); c < NumColors; c++ {
					if c != me.menu[slot] {
						buf = append(buf, PlayComet(slot, c))
					}
				}
			}
		}
	}
	return buf
}

// shuttleMovable reports whether p's Shuttle card may move q's shuttle: p's own shuttle
// anywhere on the sphere, another's only off one of p's structures.
func (s *state) shuttleMovable(p, q int8) bool {
	at := s.pl[q].shuttle
	if at < 0 {
		return false
	}
	return q == p || s.site[at] == p
}
