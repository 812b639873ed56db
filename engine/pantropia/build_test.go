package pantropia

import (
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
)

func one(c Color, n int16) (v [NumColors]int16) { v[c] = n; return v }

func TestTrade_OfferAcceptedMovesChips(t *testing.T) {
	s := blank(t, 4)
	s.pl[0].chips = chips(2, 0, 0, 0, 0, 0)
	s.pl[2].chips = chips(0, 0, 0, 0, 3, 0)
	a := Offer(2, one(Red, 2), one(Blue, 1))
	if !legalHas(s, 0, a) {
		t.Fatalf("2-for-1 offer not listed")
	}
	mustApply(t, s, 0, a)
	if s.phase != PhaseOffer || toAct(s)[0] != 2 {
		t.Fatalf("phase %s to act %v, want p2's reply", phaseNames[s.phase], toAct(s))
	}
	o := s.Observe(2).(*pb.Observation)
	if o.Offer == nil || o.Offer.To != 2 || o.Offer.Give.Red != 2 || o.Offer.Take.Blue != 1 {
		t.Errorf("p2 does not see the offer addressed to it: %v", o.Offer)
	}
	mustFail(t, s, 0, End(), engine.ErrNotYourTurn)
	mustApply(t, s, 2, Reply(true))
	if s.pl[0].chips != chips(0, 0, 0, 0, 1, 0) || s.pl[2].chips != chips(2, 0, 0, 0, 2, 0) {
		t.Errorf("after the trade p0 %v p2 %v", s.pl[0].chips, s.pl[2].chips)
	}
	if s.phase != PhaseMain || toAct(s)[0] != 0 {
		t.Errorf("play does not return to p0")
	}
}

func TestTrade_DeclinedMovesNothing(t *testing.T) {
	s := blank(t, 4)
	s.pl[0].chips = chips(1, 0, 0, 0, 0, 0)
	s.pl[1].chips = chips(0, 1, 0, 0, 0, 0)
	mustApply(t, s, 0, Offer(1, one(Red, 1), one(Orange, 1)))
	if a, ok := s.DefaultAction(1); !ok || a != Reply(false) {
		t.Errorf("the deadline's default answer is %v, want decline", a)
	}
	mustApply(t, s, 1, Reply(false))
	if s.pl[0].chips != chips(1, 0, 0, 0, 0, 0) || s.pl[1].chips != chips(0, 1, 0, 0, 0, 0) {
		t.Errorf("a declined offer moved chips")
	}
}

func TestTrade_OnlyTradesWithTheActivePlayer(t *testing.T) {
	s := blank(t, 4)
	s.pl[0].chips = chips(1, 0, 0, 0, 0, 0)
	s.pl[1].chips = chips(0, 1, 0, 0, 0, 0)
	s.pl[2].chips = chips(0, 0, 1, 0, 0, 0)
	mustFail(t, s, 1, Offer(2, one(Orange, 1), one(Yellow, 1)), engine.ErrNotYourTurn)
	mustFail(t, s, 0, Offer(0, one(Red, 1), one(Red, 1)), engine.ErrIllegalAction)
	for _, a := range s.Legal(0, nil) {
		if a.Kind == KindOffer && a.Arg[0] == 0 {
			t.Errorf("offer to oneself listed")
		}
	}
}

// TestTrade_OffersPerTurnAreBounded covers the [decision] limit (an option, default 8).
func TestTrade_OffersPerTurnAreBounded(t *testing.T) {
	if blank(t, 4).cfg.offersPerTurn != 8 {
		t.Errorf("default offers per turn is not 8")
	}
	s := blank(t, 4, "offers_per_turn=2")
	s.pl[0].chips = chips(5, 0, 0, 0, 0, 0)
	s.pl[1].chips = chips(0, 5, 0, 0, 0, 0)
	a := Offer(1, one(Red, 1), one(Orange, 1))
	for i := 0; i < 2; i++ {
		mustApply(t, s, 0, a)
		mustApply(t, s, 1, Reply(false))
	}
	if countKind(s, 0, KindOffer) != 0 {
		t.Errorf("offers listed beyond the limit")
	}
	mustFail(t, s, 0, a, engine.ErrIllegalAction)
	mustApply(t, s, 0, End())
	for s.active != 0 { // the next turns: the limit is per turn
		s.phase = PhaseMain
		mustApply(t, s, s.active, End())
	}
	s.phase = PhaseMain
	s.pl[0].chips = chips(5, 0, 0, 0, 0, 0)
	if countKind(s, 0, KindOffer) == 0 {
		t.Errorf("the limit did not reset on p0's next turn")
	}
}

func TestTrade_AnyValidOfferIsAccepted(t *testing.T) {
	s := blank(t, 4)
	s.pl[0].chips = chips(3, 0, 0, 0, 1, 0)
	s.pl[3].chips = chips(0, 0, 0, 2, 0, 0)
	a := Offer(3, chipsOf16(3, 0, 0, 0, 1, 0), one(Green, 2))
	if legalHas(s, 0, a) {
		t.Fatalf("test wants an unlisted offer")
	}
	mustApply(t, s, 0, a)
	mustApply(t, s, 3, Reply(true))
	if s.pl[0].chips != chips(0, 0, 0, 2, 0, 0) || s.pl[3].chips != chips(3, 0, 0, 0, 1, 0) {
		t.Errorf("p0 %v p3 %v", s.pl[0].chips, s.pl[3].chips)
	}
}

func chipsOf16(r, o, y, g, b, p int16) [NumColors]int16 { return [NumColors]int16{r, o, y, g, b, p} }

func TestTrade_OfferNeedsTheChipsOnBothSides(t *testing.T) {
	s := blank(t, 4)
	s.pl[0].chips = chips(1, 0, 0, 0, 0, 0)
	s.pl[1].chips = chips(0, 1, 0, 0, 0, 0)
	for _, a := range []engine.Action{
		Offer(1, one(Red, 2), one(Orange, 1)),     // p0 holds one red
		Offer(1, one(Red, 1), one(Orange, 2)),     // p1 holds one orange
		Offer(1, one(Red, 1), [NumColors]int16{}), // a gift is no trade
	} {
		mustFail(t, s, 0, a, engine.ErrIllegalAction)
	}
	// A corrupted offer (one field changed, the checksum not) is malformed.
	a := Offer(1, one(Red, 1), one(Orange, 1))
	a.Arg[1+int(Orange)+6]++
	mustFail(t, s, 0, a, engine.ErrIllegalAction)
}

func TestEarth_FiveForOne(t *testing.T) {
	s := blank(t, 4)
	s.pl[0].chips = chips(5, 4, 0, 0, 0, 0)
	if !legalHas(s, 0, Earth(Red, Blue)) || legalHas(s, 0, Earth(Orange, Blue)) {
		t.Errorf("5:1 listing wrong")
	}
	mustFail(t, s, 0, Earth(Orange, Blue), engine.ErrIllegalAction)
	mustApply(t, s, 0, Earth(Red, Blue))
	if s.pl[0].chips != chips(0, 4, 0, 0, 1, 0) {
		t.Errorf("after 5 red -> blue: %v", s.pl[0].chips)
	}
}

func TestEarth_SpaceElevatorMakesItThreeForOne(t *testing.T) {
	s := blank(t, 4)
	s.elevator = 0
	s.pl[0].chips = chips(0, 3, 0, 0, 0, 0)
	mustApply(t, s, 0, Earth(Orange, Purple))
	if s.pl[0].chips != chips(0, 0, 0, 0, 0, 1) {
		t.Errorf("after 3 orange -> purple: %v", s.pl[0].chips)
	}
}

func TestEarth_ShuttleMakesItThreeForOneOnItsNodesColors(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	s.build(1, x, false)
	s.pl[0].shuttle = int8(x)
	s.pl[0].chips = chips(3, 0, 0, 3, 3, 0)
	if s.earthRate(0, Red) != 3 || s.earthRate(0, Green) != 3 || s.earthRate(0, Blue) != 5 {
		t.Errorf("rates red %d green %d blue %d, want 3 3 5", s.earthRate(0, Red), s.earthRate(0, Green), s.earthRate(0, Blue))
	}
	mustApply(t, s, 0, Earth(Green, Yellow))
	mustFail(t, s, 0, Earth(Blue, Yellow), engine.ErrIllegalAction)
}

// TestBuild_PrintedCosts checks the default menu (data) against the printed costs.
func TestBuild_PrintedCosts(t *testing.T) {
	s := blank(t, 4)
	want := map[int][NumColors]int32{
		ItemAtmosphere: chips(1, 0, 0, 0, 1, 0),
		ItemHabitat:    chips(1, 1, 1, 1, 1, 0),
		ItemArcology:   chips(0, 1, 2, 0, 0, 2),
		ItemShuttle:    chips(1, 0, 0, 1, 1, 0),
		ItemCard:       chips(0, 0, 1, 1, 0, 1),
	}
	for it, c := range want {
		if got := s.cost(0, it); got != c {
			t.Errorf("%s costs %v, want %v", itemNames[it], got, c)
		}
	}
}

func TestBuild_AsOftenAsYouCanPay(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	s.build(0, x, false)
	s.pl[0].chips = chips(2, 0, 0, 0, 2, 0)
	for i := 0; i < 2; i++ {
		for j := range ringTargetsOf(s, 0) {
			mustApply(t, s, 0, Ring(j))
			break
		}
	}
	if s.pl[0].rings != 2 || s.pl[0].total() != 0 {
		t.Errorf("rings %d chips %v", s.pl[0].rings, s.pl[0].chips)
	}
	if countKind(s, 0, KindRing) != 0 {
		t.Errorf("rings listed without the chips")
	}
}

func ringTargetsOf(s *state, p int8) map[int]bool {
	t := s.ringTargets(p)
	m := map[int]bool{}
	for j := int16(0); j < NumJoints; j++ {
		if t.has(j) {
			m[int(j)] = true
		}
	}
	return m
}

func TestAtmosphere_SpreadsToAdjacentJoints(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	st := int(Geo.Intersections[x].Struts[0])
	js := strutJoints(st, x)
	s.build(0, x, false)
	s.rings(0, js[0])
	got := ringTargetsOf(s, 0)
	if !got[js[1]] {
		t.Errorf("the next joint along the strut is not a target")
	}
	if got[js[2]] {
		t.Errorf("a joint two away is a target")
	}
	// All of the strut, then through its far intersection to the other three struts there.
	s.rings(0, js[1], js[2])
	y := int(Geo.Struts[st].A) + int(Geo.Struts[st].B) - x
	got = ringTargetsOf(s, 0)
	for _, st2 := range Geo.Intersections[y].Struts {
		e := int(Geo.EndJoint(st2, int16(y)))
		if int(st2) != st && !got[e] {
			t.Errorf("end joint j%d at i%d not reached through the intersection", e, y)
		}
	}
}

func TestAtmosphere_SpreadingThroughAnotherPlayersArcologyIsBlocked(t *testing.T) {
	for _, arcology := range []bool{true, false} {
		s := blank(t, 4)
		x := site(Red, Green)
		st := int(Geo.Intersections[x].Struts[0])
		y := int(Geo.Struts[st].A) + int(Geo.Struts[st].B) - x
		s.build(0, x, false)
		s.rings(0, strutJoints(st, x)...)
		s.build(1, y, arcology)
		got := ringTargetsOf(s, 0)
		for _, st2 := range Geo.Intersections[y].Struts {
			e := int(Geo.EndJoint(st2, int16(y)))
			if int(st2) != st && got[e] == arcology {
				t.Errorf("arcology %v: through i%d to j%d allowed = %v", arcology, y, e, got[e])
			}
		}
	}
}

// TestAtmosphere_ReplaceOnlyWhenBlocked covers the revised rule [decision, 2026-11-30]:
// while an empty joint is open to you, another player's ring may not be replaced; once none
// is, it may, and the replaced ring returns to its owner's supply.
func TestAtmosphere_ReplaceOnlyWhenBlocked(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	js := strutJoints(int(Geo.Intersections[x].Struts[0]), x)
	s.build(0, x, false)
	s.rings(0, js[0])
	s.rings(1, js[1])
	s.pl[0].chips = chips(1, 0, 0, 0, 1, 0)
	if legalHas(s, 0, Ring(js[1])) {
		t.Errorf("replacing p1's ring is listed while p0 has empty joints")
	}
	mustFail(t, s, 0, Ring(js[1]), engine.ErrIllegalAction)
	// p1's rings on the other end joints at x: p0's path is blocked.
	for _, st := range Geo.Intersections[x].Struts[1:] {
		s.rings(1, int(Geo.EndJoint(st, int16(x))))
	}
	if got := ringTargetsOf(s, 0); len(got) != 4 || !got[js[1]] {
		t.Errorf("blocked p0 may build on %v, want the four joints of p1 next to its ring", got)
	}
	mustApply(t, s, 0, Ring(js[1]))
	if s.joints[js[1]] != 0 || s.pl[1].rings != 3 || s.pl[0].rings != 2 {
		t.Errorf("joint %d, p1 rings %d, p0 rings %d", s.joints[js[1]], s.pl[1].rings, s.pl[0].rings)
	}
	if s.pl[0].total() != 0 {
		t.Errorf("a replacement costs one atmosphere: %v left", s.pl[0].chips)
	}
	if e := lastEvent(s, evRing); e == nil || e.other != 1 {
		t.Errorf("ring event does not name the replaced owner")
	}
	// Replacing opened the joint beyond: now p0 must build there, not replace again.
	s.pl[0].chips = chips(1, 0, 0, 0, 1, 0)
	if got := ringTargetsOf(s, 0); len(got) != 1 || !got[js[2]] {
		t.Errorf("after the replacement p0 may build on %v, want only the empty j%d", got, js[2])
	}
}

// TestAtmosphere_ReplaceAlwaysKeepsTheOldReading: replace=always allows replacing another
// player's ring while empty joints are open.
func TestAtmosphere_ReplaceAlwaysKeepsTheOldReading(t *testing.T) {
	s := blank(t, 4, "replace=always")
	x := site(Red, Green)
	js := strutJoints(int(Geo.Intersections[x].Struts[0]), x)
	s.build(0, x, false)
	s.rings(0, js[0])
	s.rings(1, js[1])
	s.pl[0].chips = chips(1, 0, 0, 0, 1, 0)
	if !legalHas(s, 0, Ring(js[1])) || !legalHas(s, 0, Ring(int(Geo.EndJoint(Geo.Intersections[x].Struts[1], int16(x))))) {
		t.Errorf("replace=always does not list both the replacement and the empty joints")
	}
	mustApply(t, s, 0, Ring(js[1]))
	if s.joints[js[1]] != 0 || s.pl[1].rings != 0 {
		t.Errorf("p1's ring was not replaced")
	}
}

// TestOrbitalMirror_ReplacesOnlyWhenBlocked: the mirror's free rings follow the same rule.
func TestOrbitalMirror_ReplacesOnlyWhenBlocked(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	js := strutJoints(int(Geo.Intersections[x].Struts[0]), x)
	s.build(0, x, false)
	s.rings(0, js[0])
	s.rings(1, js[1])
	s.give(0, OrbitalMirror)
	mustApply(t, s, 0, Play(OrbitalMirror))
	if s.phase != PhaseMirror {
		t.Fatalf("phase %s, want the mirror", phaseNames[s.phase])
	}
	mustFail(t, s, 0, Ring(js[1]), engine.ErrIllegalAction)
	for _, a := range s.Legal(0, nil) {
		if s.joints[a.Arg[0]] >= 0 {
			t.Errorf("the mirror lists %s, a replacement, with empty joints open", s.FormatAction(a))
		}
	}
}

// TestAtmosphere_ChainMustConnectToYourStructure covers resolution 7: a chain cut off from
// your habitats, or connected only through another's arcology, cannot grow.
func TestAtmosphere_ChainMustConnectToYourStructure(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	far := int(Geo.Intersections[x].Antipode)
	fs := int(Geo.Intersections[far].Struts[0])
	fj := strutJoints(fs, far)
	s.build(0, x, false)
	s.rings(0, fj[1])
	got := ringTargetsOf(s, 0)
	if got[fj[0]] || got[fj[2]] {
		t.Errorf("a cut-off ring spreads")
	}
	// Connected only through p1's arcology at y: not connected.
	s2 := blank(t, 4)
	st := int(Geo.Intersections[x].Struts[0])
	y := int(Geo.Struts[st].A) + int(Geo.Struts[st].B) - x
	s2.build(0, x, false)
	s2.rings(0, strutJoints(st, x)...)
	s2.build(1, y, true)
	var beyond int
	for _, st2 := range Geo.Intersections[y].Struts {
		if int(st2) != st {
			beyond = int(st2)
			break
		}
	}
	bj := strutJoints(beyond, y)
	s2.rings(0, bj[0], bj[1])
	if ringTargetsOf(s2, 0)[bj[2]] {
		t.Errorf("a chain connected only through another's arcology spreads")
	}
}

// TestAtmosphere_EndJointAtYourOwnStructure covers resolution 7: no ring of yours is needed.
func TestAtmosphere_EndJointAtYourOwnStructure(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	s.build(0, x, true)
	got := ringTargetsOf(s, 0)
	if len(got) != 4 {
		t.Errorf("%d targets, want the 4 end joints at i%d", len(got), x)
	}
	for _, st := range Geo.Intersections[x].Struts {
		if !got[int(Geo.EndJoint(st, int16(x)))] {
			t.Errorf("end joint of s%d at i%d not a target", st, x)
		}
	}
}

func TestSupply_RingsLimited(t *testing.T) {
	s := blank(t, 4)
	s.build(0, site(Red, Green), false)
	s.pl[0].rings = supplyRings // as if all 180 were out
	s.pl[0].chips = rich()
	if countKind(s, 0, KindRing) != 0 {
		t.Errorf("rings listed with an empty supply")
	}
}

func TestHabitat_MustTouchYourRing(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	st := int(Geo.Intersections[x].Struts[0])
	y := int(Geo.Struts[st].A) + int(Geo.Struts[st].B) - x
	st2, z := -1, -1
	for _, c := range Geo.Intersections[y].Struts {
		far := int(Geo.Struts[c].A) + int(Geo.Struts[c].B) - y
		if int(c) != st && strutBetween(far, x) < 0 { // two struts from p0's habitat
			st2, z = int(c), far
			break
		}
	}
	s.build(0, x, false)
	s.rings(0, strutJoints(st, x)...)
	s.rings(0, strutJoints(st2, y)[:2]...)
	s.pl[0].chips = rich()
	mustFail(t, s, 0, Habitat(z), engine.ErrIllegalAction) // no ring of p0's touches z yet
	s.rings(0, strutJoints(st2, y)[2])
	if !legalHas(s, 0, Habitat(z)) {
		t.Errorf("habitat at i%d not listed once a ring touches it", z)
	}
}

func TestHabitat_TwoStrutsFromEveryStructure(t *testing.T) {
	x := site(Red, Green)
	y := int(Geo.Intersections[x].Neighbors[0])
	for _, c := range []struct {
		name     string
		owner    int8
		arcology bool
		ok       bool
	}{
		{"OthersHabitat", 1, false, false},
		{"OthersArcology", 1, true, false},
		{"OwnHabitat", 0, false, false},
		{"OwnArcologyException", 0, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := blank(t, 4)
			s.build(c.owner, y, c.arcology)
			for _, st := range Geo.Intersections[x].Struts {
				s.rings(0, int(Geo.EndJoint(st, int16(x))))
			}
			s.pl[0].chips = rich()
			if got := legalHas(s, 0, Habitat(x)); got != c.ok {
				t.Errorf("habitat one strut from %s: listed %v, want %v", c.name, got, c.ok)
			}
		})
	}
}

// TestHabitat_OwnArcologyExceptionStillTwoFromOthers: next to your arcology, but still two
// struts from every habitat and from other players' arcologies.
func TestHabitat_OwnArcologyExceptionStillTwoFromOthers(t *testing.T) {
	x := site(Red, Green)
	n := Geo.Intersections[x].Neighbors
	for _, other := range []struct {
		owner    int8
		arcology bool
	}{{1, true}, {1, false}, {0, false}} {
		s := blank(t, 4)
		s.build(0, int(n[0]), true)
		s.build(other.owner, int(n[1]), other.arcology)
		for _, st := range Geo.Intersections[x].Struts {
			s.rings(0, int(Geo.EndJoint(st, int16(x))))
		}
		s.pl[0].chips = rich()
		mustFail(t, s, 0, Habitat(x), engine.ErrIllegalAction)
	}
}

func TestArcology_ReplacesYourHabitat(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	s.build(0, x, false)
	s.build(1, site(Blue, Yellow), false)
	s.pl[0].chips = chips(0, 1, 2, 0, 0, 2)
	mustFail(t, s, 0, Arcology(site(Blue, Yellow)), engine.ErrIllegalAction)
	mustApply(t, s, 0, Arcology(x))
	if !s.arco[x] || s.pl[0].habitats != 0 || s.pl[0].arcologies != 1 || s.pl[0].total() != 0 {
		t.Errorf("arco %v habitats %d arcologies %d chips %v", s.arco[x], s.pl[0].habitats, s.pl[0].arcologies, s.pl[0].chips)
	}
	o := s.Observe(engine.Spectator).(*pb.Observation)
	if o.Players[0].HabitatsLeft != 8 || o.Players[0].ArcologiesLeft != 4 {
		t.Errorf("supply seen as %d habitats %d arcologies", o.Players[0].HabitatsLeft, o.Players[0].ArcologiesLeft)
	}
}

func TestSupply_HabitatsAndArcologiesLimited(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	s.pl[0].habitats = supplyHabitats
	s.build(0, x, false) // a ninth on the board, for the test
	s.pl[0].chips = rich()
	for _, st := range Geo.Intersections[Geo.Intersections[x].Antipode].Struts {
		s.rings(0, int(Geo.EndJoint(st, Geo.Intersections[x].Antipode)))
	}
	if countKind(s, 0, KindHabitat) != 0 {
		t.Errorf("a habitat listed beyond the supply of 8")
	}
	s.pl[0].arcologies = supplyArcologies
	if countKind(s, 0, KindArcology) != 0 {
		t.Errorf("an arcology listed beyond the supply of 5")
	}
}

func TestShuttle_HangsOnAnyPlayersStructureOnce(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	s.build(2, x, false)
	s.pl[0].chips = chips(2, 0, 0, 2, 2, 0)
	if countKind(s, 0, KindShuttle) != 1 {
		t.Errorf("%d shuttle builds, want 1 (the only structure)", countKind(s, 0, KindShuttle))
	}
	mustFail(t, s, 0, BuildShuttle(site(Blue, Yellow)), engine.ErrIllegalAction)
	mustApply(t, s, 0, BuildShuttle(x))
	if s.pl[0].shuttle != int8(x) {
		t.Errorf("shuttle at %d", s.pl[0].shuttle)
	}
	mustFail(t, s, 0, BuildShuttle(x), engine.ErrIllegalAction) // one shuttle per player
}

func TestCard_BuyDrawsTheTopCard(t *testing.T) {
	s := blank(t, 4)
	s.stack(Aquifer)
	n := s.deckN
	s.pl[0].chips = chips(0, 0, 1, 1, 0, 1)
	mustApply(t, s, 0, Buy())
	if s.pl[0].hand[Aquifer] != 1 || s.deckN != n-1 || s.pl[0].total() != 0 {
		t.Errorf("hand %v deck %d->%d chips %v", s.pl[0].hand, n, s.deckN, s.pl[0].chips)
	}
}

// TestCard_NoBuyFromAnEmptyDeck covers resolution 9.
func TestCard_NoBuyFromAnEmptyDeck(t *testing.T) {
	s := blank(t, 4)
	s.deckN = 0
	s.pl[0].chips = rich()
	if legalHas(s, 0, Buy()) {
		t.Errorf("buy listed with an empty deck")
	}
	mustFail(t, s, 0, Buy(), engine.ErrIllegalAction)
}
