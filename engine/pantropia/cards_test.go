package pantropia

import (
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
)

// TestDeck_DefaultComposition covers the [decision] deck, which is data.
func TestDeck_DefaultComposition(t *testing.T) {
	s := newGame(t, 4, 1, nil)
	var got [numCards]int
	for i := int8(0); i < s.deckN; i++ {
		got[s.deck[i]]++
	}
	want := [numCards]int{OrbitalMirror: 3, SolarShade: 2, SpaceElevator: 2, ShuttleCard: 3, Aquifer: 2, GuidedComet: 3, Luddite: 3}
	if got != want {
		t.Errorf("deck %v, want %v", got, want)
	}
	if s.reserve != 5 {
		t.Errorf("Technocalypse reserve %d, want 5", s.reserve)
	}
	s2 := newGame(t, 4, 1, map[string]string{"deck": "aquifer:4 technocalypse:1"})
	if s2.deckN != 4 || s2.reserve != 1 {
		t.Errorf("deck option: %d cards, reserve %d", s2.deckN, s2.reserve)
	}
}

func TestDeck_ShuffledFromTheMatchSeed(t *testing.T) {
	a, b, c := newGame(t, 4, 1, nil), newGame(t, 4, 1, nil), newGame(t, 4, 2, nil)
	if a.deck != b.deck {
		t.Errorf("one seed, two deck orders")
	}
	if a.deck == c.deck {
		t.Errorf("two seeds, one deck order")
	}
}

func TestCards_HandHiddenButCountVisible(t *testing.T) {
	s := blank(t, 4)
	s.give(0, Aquifer)
	own := s.Observe(0).(*pb.Observation)
	other := s.Observe(1).(*pb.Observation)
	if len(own.Hand) != 1 || own.Hand[0] != pb.CardKind_CARD_KIND_AQUIFER {
		t.Errorf("p0 sees its hand as %v", own.Hand)
	}
	if len(other.Hand) != 0 || other.Players[0].HandSize != 1 {
		t.Errorf("p1 sees p0's hand %v, size %d", other.Hand, other.Players[0].HandSize)
	}
	s.stack(GuidedComet)
	s.pl[0].chips = chips(0, 0, 1, 1, 0, 1)
	mustApply(t, s, 0, Buy())
	n := s.EventCount() - 1
	mine := s.Events(0, n, nil)[0].(*pb.Event)
	theirs := s.Events(1, n, nil)[0].(*pb.Event)
	spect := s.Events(engine.Spectator, n, nil)[0].(*pb.Event)
	if mine.Card != pb.CardKind_CARD_KIND_GUIDED_COMET {
		t.Errorf("the drawer sees %v", mine.Card)
	}
	if theirs.Card != pb.CardKind_CARD_KIND_UNSPECIFIED || spect.Card != pb.CardKind_CARD_KIND_UNSPECIFIED || theirs.Text != spect.Text {
		t.Errorf("others see the drawn card: %v / %v", theirs, spect)
	}
}

func TestCards_OnePerTurn(t *testing.T) {
	s := blank(t, 4)
	s.give(0, Aquifer, GuidedComet)
	mustApply(t, s, 0, PlayAquifer(Red))
	if countKind(s, 0, KindPlay) != 0 {
		t.Errorf("a second card listed")
	}
	mustFail(t, s, 0, PlayComet(0, Red), engine.ErrIllegalAction)
	mustApply(t, s, 0, End())
	for s.active != 0 {
		s.phase = PhaseMain
		mustApply(t, s, s.active, End())
	}
	s.phase = PhaseMain
	if countKind(s, 0, KindPlay) == 0 {
		t.Errorf("no card playable on the next turn")
	}
}

func TestCards_PlayedCardGoesToTheBottom(t *testing.T) {
	s := blank(t, 4)
	s.give(0, Aquifer)
	mustApply(t, s, 0, PlayAquifer(Red))
	if s.deck[s.deckN-1] != Aquifer {
		t.Errorf("bottom card %s, want the played Aquifer", s.deck[s.deckN-1])
	}
}

func TestCards_LudditeAndTechnocalypseAreNotPlayedFromHand(t *testing.T) {
	s := blank(t, 4)
	s.give(0, Luddite)
	s.pl[0].hand[Technocalypse] = 1
	if countKind(s, 0, KindPlay) != 0 {
		t.Errorf("Luddite or Technocalypse listed as a play")
	}
	mustFail(t, s, 0, Play(Luddite), engine.ErrIllegalAction)
}

func TestOrbitalMirror_ThreeFreeRingsThenOneEachInSeatOrder(t *testing.T) {
	s := blank(t, 4)
	s.active = 1
	for p := int8(0); p < 4; p++ {
		s.build(p, int(Geo.PairSites[p][0]), false)
	}
	s.give(1, OrbitalMirror)
	mustApply(t, s, 1, Play(OrbitalMirror))
	var builders []int8
	for s.phase == PhaseMirror {
		d := s.decider()
		builders = append(builders, d)
		for _, a := range s.Legal(engine.Seat(d), nil) {
			if s.joints[a.Arg[0]] < 0 {
				mustApply(t, s, d, a)
				break
			}
		}
	}
	want := []int8{1, 1, 1, 2, 3, 0}
	if len(builders) != len(want) {
		t.Fatalf("builders %v, want %v", builders, want)
	}
	for i := range want {
		if builders[i] != want[i] {
			t.Fatalf("builders %v, want %v", builders, want)
		}
	}
	if s.pl[1].rings != 3 || s.pl[0].rings != 1 || s.pl[1].total() != 0 {
		t.Errorf("rings p1 %d p0 %d; the builds are free", s.pl[1].rings, s.pl[0].rings)
	}
	if s.phase != PhaseMain || s.active != 1 {
		t.Errorf("play does not resume with p1")
	}
}

// TestOrbitalMirror_ReplacementsCount covers the [decision] that mirror builds may replace.
func TestOrbitalMirror_ReplacementsCount(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	s.build(0, x, false)
	s.build(1, int(Geo.Intersections[x].Antipode), false)
	e := int(Geo.EndJoint(Geo.Intersections[x].Struts[0], int16(x)))
	for _, st := range Geo.Intersections[x].Struts { // p0's path is blocked: it may replace
		s.rings(1, int(Geo.EndJoint(st, int16(x))))
	}
	s.give(0, OrbitalMirror)
	mustApply(t, s, 0, Play(OrbitalMirror))
	if !legalHas(s, 0, Ring(e)) {
		t.Fatalf("replacing p1's ring is not a mirror build")
	}
	mustApply(t, s, 0, Ring(e))
	if s.joints[e] != 0 || s.pl[1].rings != 3 {
		t.Errorf("replacement during the mirror failed")
	}
}

func TestOrbitalMirror_PlayerWithNoJointIsSkipped(t *testing.T) {
	s := blank(t, 4)
	s.build(0, site(Red, Green), false)
	s.build(2, site(Blue, Yellow), false)
	s.give(0, OrbitalMirror)
	mustApply(t, s, 0, Play(OrbitalMirror))
	for s.phase == PhaseMirror {
		d := s.decider()
		if d == 1 || d == 3 {
			t.Fatalf("p%d has nowhere to build but is asked", d)
		}
		mustApply(t, s, d, s.Legal(engine.Seat(d), nil)[0])
	}
	skips := 0
	for _, e := range s.events.all() {
		if e.kind == evMirrorSkip {
			skips++
		}
	}
	if skips != 2 {
		t.Errorf("%d skip events, want 2", skips)
	}
}

func TestSolarShade_EveryPlayerMayRemoveAnyRing(t *testing.T) {
	s := blank(t, 4)
	s.active = 2
	s.rings(0, 10, 11)
	s.rings(1, 20)
	s.give(2, SolarShade)
	mustApply(t, s, 2, Play(SolarShade))
	var order []int8
	moves := map[int8]engine.Action{2: Remove(10), 3: Remove(-1), 0: Remove(20), 1: Remove(11)}
	for s.phase == PhaseShade {
		d := s.decider()
		order = append(order, d)
		if !legalHas(s, d, Remove(-1)) {
			t.Errorf("p%d may not decline", d)
		}
		mustApply(t, s, d, moves[d])
	}
	if len(order) != 4 || order[0] != 2 || order[1] != 3 || order[2] != 0 || order[3] != 1 {
		t.Errorf("order %v, want 2 3 0 1", order)
	}
	if s.pl[0].rings != 0 || s.pl[1].rings != 0 || s.emptyJoints() != NumJoints {
		t.Errorf("rings p0 %d p1 %d: removed rings return to their owners", s.pl[0].rings, s.pl[1].rings)
	}
}

func TestSpaceElevator_PaidWhenItResolvesKeptFaceUp(t *testing.T) {
	s := blank(t, 4)
	s.give(0, SpaceElevator)
	s.pl[0].chips = chips(1, 1, 1, 1, 1, 0)
	if countKind(s, 0, KindPlay) != 0 {
		t.Errorf("elevator playable without one chip of each color")
	}
	s.pl[0].chips = chips(1, 1, 1, 1, 1, 4)
	mustApply(t, s, 0, Play(SpaceElevator))
	if s.elevator != 0 || s.pl[0].chips != chips(0, 0, 0, 0, 0, 3) {
		t.Errorf("elevator %d chips %v", s.elevator, s.pl[0].chips)
	}
	if s.earthRate(0, Purple) != 3 {
		t.Errorf("rate %d with the elevator", s.earthRate(0, Purple))
	}
	if !s.Observe(1).(*pb.Observation).Players[0].SpaceElevator {
		t.Errorf("the elevator is not face up")
	}
}

func TestSpaceElevator_EndsWhenSomeoneElsePlaysOne(t *testing.T) {
	s := blank(t, 4)
	s.elevator = 0
	s.active = 1
	s.give(1, SpaceElevator)
	s.removeFromDeck(SpaceElevator) // the face-up one is p0's
	s.pl[1].chips = chips(1, 1, 1, 1, 1, 1)
	mustApply(t, s, 1, Play(SpaceElevator))
	if s.elevator != 1 || s.earthRate(0, Red) != 5 {
		t.Errorf("elevator %d, p0 rate %d", s.elevator, s.earthRate(0, Red))
	}
	if s.deck[s.deckN-1] != SpaceElevator {
		t.Errorf("the superseded elevator is not at the bottom of the deck")
	}
}

func TestShuttleCard_MovesYourShuttleOrAnothersOffYourStructure(t *testing.T) {
	s := blank(t, 4)
	a, b, c := site(Red, Green), site(Blue, Yellow), site(Orange, Purple)
	s.build(0, a, false)
	s.build(1, b, false)
	s.build(2, c, false)
	s.pl[0].shuttle = int8(b)
	s.pl[1].shuttle = int8(a) // on p0's structure
	s.pl[2].shuttle = int8(b) // not on p0's
	s.give(0, ShuttleCard)
	if !legalHas(s, 0, PlayShuttle(0, c)) || !legalHas(s, 0, PlayShuttle(1, c)) {
		t.Errorf("own shuttle or the one on p0's habitat not movable")
	}
	mustFail(t, s, 0, PlayShuttle(2, c), engine.ErrIllegalAction)
	mustFail(t, s, 0, PlayShuttle(0, b), engine.ErrIllegalAction) // it is there already
	mustApply(t, s, 0, PlayShuttle(1, c))
	if s.pl[1].shuttle != int8(c) {
		t.Errorf("p1's shuttle at %d", s.pl[1].shuttle)
	}
}

func TestAquifer_EveryoneGivesYouAllOfTheColor(t *testing.T) {
	s := blank(t, 4)
	s.give(0, Aquifer)
	s.pl[0].chips = chips(0, 0, 0, 0, 1, 0)
	s.pl[1].chips = chips(0, 0, 0, 0, 3, 1)
	s.pl[3].chips = chips(2, 0, 0, 0, 4, 0)
	mustApply(t, s, 0, PlayAquifer(Blue))
	if s.pl[0].chips[Blue] != 8 || s.pl[1].chips != chips(0, 0, 0, 0, 0, 1) || s.pl[3].chips != chips(2, 0, 0, 0, 0, 0) {
		t.Errorf("p0 %v p1 %v p3 %v", s.pl[0].chips, s.pl[1].chips, s.pl[3].chips)
	}
}

// TestGuidedComet_RecolorsOneMenuSlot covers resolution 5: no chips change hands.
func TestGuidedComet_RecolorsOneMenuSlot(t *testing.T) {
	s := blank(t, 4)
	s.give(0, GuidedComet)
	slot := s.cfg.slotByName("atm.1") // red
	mustFail(t, s, 0, PlayComet(slot, Red), engine.ErrIllegalAction)
	mustApply(t, s, 0, PlayComet(slot, Green))
	if s.cost(0, ItemAtmosphere) != chips(0, 0, 0, 1, 1, 0) || s.pl[0].total() != 0 {
		t.Errorf("atmosphere costs %v, chips %v", s.cost(0, ItemAtmosphere), s.pl[0].chips)
	}
}

func TestLuddite_CancelsACardWhichIsLost(t *testing.T) {
	s := blank(t, 4)
	s.give(0, Aquifer)
	s.give(1, GuidedComet) // asked, but has no Luddite
	s.give(2, Luddite)
	s.pl[1].chips = chips(0, 0, 0, 0, 3, 0)
	deck := s.deckN
	mustApply(t, s, 0, PlayAquifer(Blue))
	if s.phase != PhaseWindow || s.decider() != 1 {
		t.Fatalf("window asks p%d, want p1", s.decider())
	}
	if legal := s.Legal(1, nil); len(legal) != 1 || legal[0] != React(false) {
		t.Errorf("p1 without a Luddite may do %v", legal)
	}
	mustApply(t, s, 1, React(false))
	mustApply(t, s, 2, React(true))
	if s.pl[1].chips[Blue] != 3 {
		t.Errorf("the cancelled Aquifer resolved")
	}
	if s.lost != 1 || s.phase != PhaseMain || !s.cardPlayed {
		t.Errorf("lost %d phase %s cardPlayed %v", s.lost, phaseNames[s.phase], s.cardPlayed)
	}
	if s.deckN != deck+2 || s.reserve != 4 {
		t.Errorf("deck %d->%d reserve %d: Luddite and a Technocalypse go into the deck", deck, s.deckN, s.reserve)
	}
}

// TestLuddite_CancelsABlackRoll covers the [decision]: nothing is produced.
func TestLuddite_CancelsABlackRoll(t *testing.T) {
	s := blank(t, 4)
	s.build(0, site(Red, Green), false)
	s.give(3, Luddite)
	s.resolveRoll(0, Black, D4, Red)
	mustApply(t, s, 3, React(true))
	if s.phase != PhaseMain || s.pl[0].total() != 0 {
		t.Errorf("phase %s chips %v: nothing is produced", phaseNames[s.phase], s.pl[0].chips)
	}
	if s.dieHolder[D4] != 0 {
		t.Errorf("dice swapped")
	}
	if s.cardPlayed {
		t.Errorf("p0 lost its card play to another's Luddite")
	}
}

// TestLuddite_AskedClockwiseAfterTheTrigger covers resolution 8.
func TestLuddite_AskedClockwiseAfterTheTrigger(t *testing.T) {
	s := blank(t, 4)
	s.active = 2
	s.give(2, Aquifer)
	for _, p := range []int8{0, 1, 3} {
		s.give(p, Luddite)
	}
	mustApply(t, s, 2, PlayAquifer(Red))
	var asked []int8
	for s.phase == PhaseWindow {
		asked = append(asked, s.decider())
		mustApply(t, s, s.decider(), React(false))
	}
	if len(asked) != 3 || asked[0] != 3 || asked[1] != 0 || asked[2] != 1 {
		t.Errorf("asked %v, want 3 0 1", asked)
	}
}

// TestLuddite_CannotBeCancelled covers resolution 8: no window follows a Luddite.
func TestLuddite_CannotBeCancelled(t *testing.T) {
	s := blank(t, 4)
	s.give(0, Aquifer)
	s.give(1, Luddite)
	s.give(2, Luddite)
	mustApply(t, s, 0, PlayAquifer(Red))
	mustApply(t, s, 1, React(true))
	if s.phase != PhaseMain {
		t.Errorf("a window opened on the Luddite: phase %s", phaseNames[s.phase])
	}
}

// TestLuddite_CancelledElevatorCostsNothing covers resolution 8.
func TestLuddite_CancelledElevatorCostsNothing(t *testing.T) {
	s := blank(t, 4)
	s.give(0, SpaceElevator)
	s.give(1, Luddite)
	s.pl[0].chips = chips(1, 1, 1, 1, 1, 1)
	mustApply(t, s, 0, Play(SpaceElevator))
	mustApply(t, s, 1, React(true))
	if s.pl[0].chips != chips(1, 1, 1, 1, 1, 1) || s.elevator != -1 {
		t.Errorf("chips %v elevator %d", s.pl[0].chips, s.elevator)
	}
}

// TestLuddite_ShuffledInAloneWhenReserveIsEmpty covers resolution 9.
func TestLuddite_ShuffledInAloneWhenReserveIsEmpty(t *testing.T) {
	s := blank(t, 4)
	s.reserve = 0
	s.give(0, Aquifer)
	s.give(1, Luddite)
	n := s.deckN
	mustApply(t, s, 0, PlayAquifer(Red))
	mustApply(t, s, 1, React(true))
	techno := 0
	for i := int8(0); i < s.deckN; i++ {
		if s.deck[i] == Technocalypse {
			techno++
		}
	}
	if s.deckN != n+1 || techno != 0 {
		t.Errorf("deck %d->%d with %d Technocalypse", n, s.deckN, techno)
	}
}

// TestLuddite_WindowAsksEveryCardHolderByDefault: being asked must not reveal a Luddite, so
// by default every other seat holding any card is asked; the holders option asks only
// Luddite holders.
func TestLuddite_WindowAsksEveryCardHolderByDefault(t *testing.T) {
	for _, c := range []struct {
		opt   string
		asked int
	}{{"", 2}, {"luddite_window=all", 2}, {"luddite_window=holders", 1}} {
		var opts []string
		if c.opt != "" {
			opts = append(opts, c.opt)
		}
		s := blank(t, 4, opts...)
		s.give(0, Aquifer)
		s.give(1, OrbitalMirror)
		s.give(3, Luddite)
		mustApply(t, s, 0, PlayAquifer(Red))
		asked := 0
		for s.phase == PhaseWindow {
			asked++
			mustApply(t, s, s.decider(), React(false))
		}
		if asked != c.asked {
			t.Errorf("%s: %d seats asked, want %d", c.opt, asked, c.asked)
		}
	}
}

func TestTechnocalypse_GoesToTheCountdownAndTheDrawerDrawsAgain(t *testing.T) {
	s := blank(t, 4)
	s.stack(Technocalypse, Aquifer)
	s.pl[0].chips = chips(0, 0, 1, 1, 0, 1)
	mustApply(t, s, 0, Buy())
	if s.countdown != 1 || s.pl[0].hand[Aquifer] != 1 || s.pl[0].hand[Technocalypse] != 0 {
		t.Errorf("countdown %d hand %v", s.countdown, s.pl[0].hand)
	}
	if s.Observe(2).(*pb.Observation).Countdown != 1 {
		t.Errorf("the countdown is not face up")
	}
}

// TestTechnocalypse_DrawAgainStopsAtAnEmptyDeck covers resolution 9.
func TestTechnocalypse_DrawAgainStopsAtAnEmptyDeck(t *testing.T) {
	s := blank(t, 4)
	s.deckN = 0
	s.stack(Technocalypse)
	s.pl[0].chips = chips(0, 0, 1, 1, 0, 1)
	mustApply(t, s, 0, Buy())
	if s.countdown != 1 || s.pl[0].handSize() != 0 || s.pl[0].total() != 0 {
		t.Errorf("countdown %d hand %d chips %v", s.countdown, s.pl[0].handSize(), s.pl[0].chips)
	}
}

func TestTechnocalypse_FifthCardStrikes(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	s.build(1, x, true)
	s.elevator = 3
	s.countdown = 4
	s.reserve = 0
	s.pl[0].chips = chips(0, 0, 1, 1, 0, 1)
	s.pl[2].chips = chips(5, 6, 0, 0, 0, 0) // 11: discards 6
	s.pl[3].chips = chips(10, 0, 0, 0, 0, 0)
	s.stack(Technocalypse, Aquifer)
	mustApply(t, s, 0, Buy())
	if s.arco[x] || s.site[x] != 1 || s.pl[1].habitats != 1 || s.pl[1].arcologies != 0 {
		t.Errorf("arcology not demoted to a habitat")
	}
	if s.elevator != -1 || s.deck[s.deckN-1] != SpaceElevator {
		t.Errorf("the Space Elevator was not discarded to the bottom of the deck")
	}
	if s.countdown != 0 || s.reserve != 5 {
		t.Errorf("countdown %d reserve %d: the cards return to the reserve", s.countdown, s.reserve)
	}
	if s.pl[0].hand[Aquifer] != 1 {
		t.Errorf("the drawer did not draw again")
	}
	if s.phase != PhaseTechno || s.decider() != 2 || s.discard[2] != 6 || s.discard[3] != 0 {
		t.Fatalf("phase %s decider %d discards %v", phaseNames[s.phase], s.decider(), s.discard)
	}
	// The player chooses which chips to discard (resolution 11).
	if !legalHas(s, 2, Discard(Orange, 6)) || legalHas(s, 2, Discard(Red, 6)) {
		t.Errorf("discard choices wrong")
	}
	mustFail(t, s, 2, Discard(Orange, 7), engine.ErrIllegalAction)
	mustApply(t, s, 2, Discard(Red, 2))
	mustApply(t, s, 2, Discard(Orange, 4))
	if s.pl[2].chips != chips(3, 2, 0, 0, 0, 0) || s.phase != PhaseMain || s.decider() != 0 {
		t.Errorf("chips %v phase %s", s.pl[2].chips, phaseNames[s.phase])
	}
}

// TestTechnocalypse_ShortOfHabitatsThePlayerPicksEmptySites covers resolution 10.
func TestTechnocalypse_ShortOfHabitatsThePlayerPicksEmptySites(t *testing.T) {
	s := blank(t, 4)
	for i := 0; i < 7; i++ {
		s.build(1, 2*i, false)
	}
	a1, a2 := 20, 22
	s.build(1, a1, true)
	s.build(1, a2, true)
	s.pl[3].shuttle = int8(a2)
	s.countdown = 4
	s.reserve = 0
	s.deckN = 0
	s.stack(Technocalypse)
	s.pl[0].chips = chips(0, 0, 1, 1, 0, 1)
	mustApply(t, s, 0, Buy())
	if s.phase != PhaseTechno || s.decider() != 1 || s.abandon[1] != 1 {
		t.Fatalf("phase %s decider %d abandon %v", phaseNames[s.phase], s.decider(), s.abandon)
	}
	if !legalHas(s, 1, Abandon(a1)) || !legalHas(s, 1, Abandon(a2)) || len(s.Legal(1, nil)) != 2 {
		t.Errorf("abandon choices %v", s.Legal(1, nil))
	}
	mustApply(t, s, 1, Abandon(a2))
	if s.site[a2] != -1 || s.site[a1] != 1 || s.arco[a1] || s.pl[1].habitats != 8 || s.pl[1].arcologies != 0 {
		t.Errorf("after abandoning: sites %d %d arco %v habitats %d", s.site[a1], s.site[a2], s.arco[a1], s.pl[1].habitats)
	}
	if s.pl[3].shuttle != -1 {
		t.Errorf("the shuttle at the empty site did not return to its owner")
	}
	if s.phase != PhaseMain {
		t.Errorf("phase %s", phaseNames[s.phase])
	}
}

// TestCrowding_DemotionsMayLeaveAdjacentHabitats covers resolution 1.
func TestCrowding_DemotionsMayLeaveAdjacentHabitats(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	y := int(Geo.Intersections[x].Neighbors[0])
	s.build(0, x, true)
	s.build(0, y, false) // legal next to its own arcology
	s.countdown = 4
	s.stack(Technocalypse)
	s.pl[0].chips = chips(0, 0, 1, 1, 0, 1)
	mustApply(t, s, 0, Buy())
	if s.site[x] != 0 || s.site[y] != 0 || s.arco[x] {
		t.Errorf("adjacent habitats were not left standing")
	}
}

func TestObserveAll_ShowsEveryHandOnlyThere(t *testing.T) {
	s := blank(t, 4)
	s.give(2, Aquifer)
	all := s.ObserveAll().(*pb.Observation)
	if len(all.Players[2].Hand) != 1 || all.Players[2].Hand[0] != pb.CardKind_CARD_KIND_AQUIFER {
		t.Errorf("omniscient view of p2's hand: %v", all.Players[2].Hand)
	}
	for seat := engine.Spectator; seat < 4; seat++ {
		for _, p := range s.Observe(seat).(*pb.Observation).Players {
			if len(p.Hand) != 0 {
				t.Errorf("seat %d sees p%d's hand in Player", seat, p.Seat)
			}
		}
	}
}
