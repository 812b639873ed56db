package pantropia

import "github.com/orrery/orrery/engine"

// do plays a validated action.
func (s *state) do(p int8, a engine.Action) {
	me := &s.pl[p]
	switch a.Kind {
	case KindSettle:
		x, st := a.Arg[0], a.Arg[1]
		s.site[x] = p
		me.habitats++
		e := event{kind: evSettle, seat: p, a: x, b: st}
		for k := int16(0); k < 3; k++ {
			if s.joints[3*st+k] < 0 { // a relaxed setup rings only the strut's empty joints
				s.placeRing(p, int(3*st+k))
				e.c++
			}
		}
		if s.setupStep >= s.seats { // the second habitat: one chip of each of its colors
			cs := Geo.Intersections[x].Colors
			me.chips[cs[0]]++
			me.chips[cs[1]]++
			e.chips[cs[0]]++
			e.chips[cs[1]]++
		}
		s.log(e)
		s.setupStep++
		s.startPlayAfterSetup()
	case KindReact:
		if a.Arg[0] == 0 {
			s.log(event{kind: evLudditePass, seat: p})
			if q := s.nextAsked(s.windowAt); q >= 0 {
				s.windowAt = q
			} else {
				s.closeWindow()
			}
			return
		}
		s.playLuddite(p)
	case KindTerraform:
		s.produce(0, s.lastRoll.swappable, true)
		d1, d2 := a.Arg[0], a.Arg[1]
		s.dieHolder[d1], s.dieHolder[d2] = s.dieHolder[d2], s.dieHolder[d1]
		s.log(event{kind: evTerraform, seat: p, a: d1, b: d2})
		s.phase = PhaseMain
	case KindPantropy:
		from, to := a.Arg[0], a.Arg[1]
		if from >= 0 {
			me.menu[from], me.menu[to] = me.menu[to], me.menu[from]
		}
		s.log(event{kind: evPantropy, seat: p, a: from, b: to})
		s.phase = PhaseMain
	case KindEarth:
		give, take := Color(a.Arg[0]), Color(a.Arg[1])
		r := s.earthRate(p, give)
		me.chips[give] -= r
		me.chips[take]++
		e := event{kind: evEarth, seat: p}
		e.chips[give] = int16(r)
		e.chips2[take] = 1
		s.log(e)
	case KindOffer:
		to, give, take := OfferParts(a)
		s.offer = offer{to: int8(to), give: give, take: take}
		s.offersMade++
		s.phase = PhaseOffer
		s.log(event{kind: evOffer, seat: p, other: int8(to), chips: give, chips2: take})
	case KindReply:
		o := s.offer
		kind := evDecline
		if a.Arg[0] == 1 {
			kind = evAccept
			for c := 0; c < NumColors; c++ {
				d := int32(o.take[c]) - int32(o.give[c])
				s.pl[s.active].chips[c] += d
				s.pl[o.to].chips[c] -= d
			}
		}
		s.log(event{kind: kind, seat: p, other: s.active, chips: o.give, chips2: o.take})
		s.offer = offer{}
		s.phase = PhaseMain
	case KindRing:
		if s.phase == PhaseMain {
			s.pay(p, s.cost(p, ItemAtmosphere))
		}
		old := s.placeRing(p, int(a.Arg[0]))
		s.log(event{kind: evRing, seat: p, other: old, a: a.Arg[0], b: b2i16(s.phase == PhaseMirror)})
		if s.checkFull() {
			return
		}
		if s.phase == PhaseMirror {
			s.mirrorLeft--
			s.advanceMirror()
		}
	case KindHabitat:
		s.pay(p, s.cost(p, ItemHabitat))
		s.site[a.Arg[0]] = p
		me.habitats++
		s.log(event{kind: evHabitat, seat: p, a: a.Arg[0]})
	case KindArcology:
		s.pay(p, s.cost(p, ItemArcology))
		s.arco[a.Arg[0]] = true
		me.habitats--
		me.arcologies++
		s.log(event{kind: evArcology, seat: p, a: a.Arg[0]})
	case KindShuttle:
		s.pay(p, s.cost(p, ItemShuttle))
		me.shuttle = int8(a.Arg[0])
		s.log(event{kind: evShuttle, seat: p, a: a.Arg[0]})
	case KindBuy:
		s.pay(p, s.cost(p, ItemCard))
		s.log(event{kind: evBuy, seat: p})
		s.draw(p)
		s.startTechno()
	case KindPlay:
		me.hand[a.Arg[0]]--
		s.cardPlayed = true
		s.log(playEvent(evPlay, p, a))
		s.openWindow(p, false, a)
	case KindRemove:
		if j := a.Arg[0]; j >= 0 {
			owner := s.joints[j]
			s.setJoint(int(j), -1)
			s.pl[owner].rings--
			s.log(event{kind: evRemove, seat: p, other: owner, a: j})
		} else {
			s.log(event{kind: evShadeSkip, seat: p})
		}
		s.shadeDone++
		s.cur = s.next(s.cur)
		if s.shadeDone == s.seats {
			s.phase = PhaseMain
		}
	case KindAbandon:
		x := a.Arg[0]
		me.arcologies--
		s.log(event{kind: evAbandon, seat: p, a: x})
		s.removeStructure(int(x))
		s.abandon[p]--
		if s.abandon[p] == 0 {
			s.demoteAll(p)
		}
		s.advanceTechno()
	case KindDiscard:
		c, n := a.Arg[0], a.Arg[1]
		me.chips[c] -= int32(n)
		s.discard[p] -= n
		e := event{kind: evDiscard, seat: p}
		e.chips[c] = n
		s.log(e)
		s.advanceTechno()
	case KindEnd:
		s.endTurn()
	}
}

func b2i16(b bool) int16 { return int16(b2i(b)) }
