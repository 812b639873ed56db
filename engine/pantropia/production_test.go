package pantropia

import (
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
)

func TestProduction(t *testing.T) {
	rg := site(Red, Green)
	cases := []struct {
		name     string
		arcology bool
		perm, sw Color
		want     [NumColors]int32
	}{
		{"OtherColor", false, Red, Blue, chips(0, 0, 0, 1, 0, 0)},
		{"OtherColorFromSwappableDie", false, Blue, Green, chips(1, 0, 0, 0, 0, 0)},
		{"BothColorsRolledGiveOneOfEach", false, Red, Green, chips(1, 0, 0, 1, 0, 0)},
		{"DoubleGivesBothColors", false, Red, Red, chips(1, 0, 0, 1, 0, 0)},
		{"UntouchedGetsNothing", false, Blue, Yellow, chips(0, 0, 0, 0, 0, 0)},
		{"ArcologyDoubles", true, Red, Blue, chips(0, 0, 0, 2, 0, 0)},
		{"ArcologyDoublesBothColors", true, Green, Red, chips(2, 0, 0, 2, 0, 0)},
		{"ArcologyOnDoubleGetsTwoOfEach", true, Green, Green, chips(2, 0, 0, 2, 0, 0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := blank(t, 4)
			s.build(1, rg, c.arcology)
			s.resolveRoll(0, c.perm, D4, c.sw)
			if s.pl[1].chips != c.want {
				t.Errorf("rolled %s+%s: p1 got %v, want %v", c.perm, c.sw, s.pl[1].chips, c.want)
			}
			if s.phase != PhaseMain {
				t.Errorf("phase %s after a colored roll, want main", phaseNames[s.phase])
			}
		})
	}
}

func TestProduction_DoubleGivesEveryHabitatOnTheCircle(t *testing.T) {
	s := blank(t, 4)
	onRed := []int{site(Red, Orange), site(Red, Yellow), site(Red, Purple)}
	off := site(Blue, Yellow)
	for i, x := range onRed {
		s.build(int8(i), x, false)
	}
	s.build(3, off, false)
	s.resolveRoll(0, Red, D4, Red)
	for i, x := range onRed {
		cs := Geo.Intersections[x].Colors
		if s.pl[i].chips[cs[0]] != 1 || s.pl[i].chips[cs[1]] != 1 || s.pl[i].total() != 2 {
			t.Errorf("p%d at i%d got %v, want one of each of %v", i, x, s.pl[i].chips, cs)
		}
	}
	if s.pl[3].total() != 0 {
		t.Errorf("p3 off the red circle got %v", s.pl[3].chips)
	}
}

// TestProduction_BankNeverRunsOut covers the [decision] that chips are unlimited.
func TestProduction_BankNeverRunsOut(t *testing.T) {
	s := blank(t, 4)
	s.build(0, site(Red, Green), true)
	s.pl[0].chips[Green] = 100000
	s.resolveRoll(0, Red, D4, Blue)
	if s.pl[0].chips[Green] != 100002 {
		t.Errorf("green %d, want 100002", s.pl[0].chips[Green])
	}
}

// TestBlack_LudditeWindowThenRollerChooses: after black, the window asks in seat order, then
// the roller chooses Terraforming or Pantropy.
func TestBlack_LudditeWindowThenRollerChooses(t *testing.T) {
	s := blank(t, 4)
	s.give(1, Luddite)
	s.resolveRoll(0, Black, D4, Red)
	if s.phase != PhaseWindow || toAct(s)[0] != 1 {
		t.Fatalf("phase %s to act %v, want p1's Luddite window", phaseNames[s.phase], toAct(s))
	}
	if !legalHas(s, 1, React(true)) || !legalHas(s, 1, React(false)) {
		t.Errorf("p1 may not both react and pass")
	}
	mustApply(t, s, 1, React(false))
	if s.phase != PhaseBlack || toAct(s)[0] != 0 {
		t.Fatalf("phase %s to act %v, want p0's black choice", phaseNames[s.phase], toAct(s))
	}
	if countKind(s, 0, KindTerraform) == 0 || countKind(s, 0, KindPantropy) == 0 {
		t.Errorf("p0 lacks a Terraforming or a Pantropy choice")
	}
	if countKind(s, 0, KindTerraform)+countKind(s, 0, KindPantropy) != len(s.Legal(0, nil)) {
		t.Errorf("the black choice offers something else")
	}
}

func TestTerraforming_ProducesFromTheSwappableDieAloneThenSwaps(t *testing.T) {
	s := blank(t, 4)
	s.build(0, site(Red, Green), false)
	s.build(1, site(Blue, Green), false)
	s.resolveRoll(0, Black, D4, Red)
	mustApply(t, s, 0, Terraform(D4, D20))
	if s.pl[0].chips != chips(0, 0, 0, 1, 0, 0) || s.pl[1].total() != 0 {
		t.Errorf("terraforming on red: p0 %v p1 %v", s.pl[0].chips, s.pl[1].chips)
	}
	if s.dieHolder[D4] != -1 || s.dieHolder[D20] != 0 {
		t.Errorf("holders %v after swapping d4 and d20", s.dieHolder)
	}
	if s.phase != PhaseMain {
		t.Errorf("phase %s", phaseNames[s.phase])
	}
}

// TestTerraforming_SwapIsMandatoryAndNeedsAHeldDie covers resolution 6.
func TestTerraforming_SwapIsMandatoryAndNeedsAHeldDie(t *testing.T) {
	s := blank(t, 3)
	s.resolveRoll(0, Black, D4, Red)
	mustFail(t, s, 0, Terraform(D12, D20), engine.ErrIllegalAction)
	if legalHas(s, 0, Terraform(D12, D20)) {
		t.Errorf("two reserve dice listed")
	}
	if got := countKind(s, 0, KindTerraform); got != 9 {
		t.Errorf("%d terraform swaps, want 9 (10 pairs less the reserve pair)", got)
	}
	mustApply(t, s, 0, Terraform(D6, D10)) // two other players' dice
	if s.dieHolder[D6] != 2 || s.dieHolder[D10] != 1 {
		t.Errorf("holders %v", s.dieHolder)
	}
}

func TestPantropy_SwapsMenuSlotsAndProducesNothing(t *testing.T) {
	s := blank(t, 4)
	s.build(0, site(Blue, Green), false)
	s.resolveRoll(0, Black, D4, Blue)
	atm0 := s.cfg.slotByName("atm.0") // blue
	hab2 := s.cfg.slotByName("hab.2") // yellow
	mustApply(t, s, 0, Pantropy(atm0, hab2))
	if s.pl[0].total() != 0 {
		t.Errorf("Pantropy produced %v", s.pl[0].chips)
	}
	if s.cost(0, ItemAtmosphere) != chips(1, 0, 1, 0, 0, 0) || s.cost(0, ItemHabitat) != chips(1, 1, 0, 1, 2, 0) {
		t.Errorf("costs after the swap: atmosphere %v habitat %v", s.cost(0, ItemAtmosphere), s.cost(0, ItemHabitat))
	}
	// Effective at once: yellow and red now build a ring.
	s.pl[0].chips = chips(1, 0, 1, 0, 0, 0)
	if countKind(s, 0, KindRing) == 0 {
		t.Errorf("the new atmosphere cost does not apply at once")
	}
	if s.pl[1].menu != s.cfg.menu {
		t.Errorf("another player's chart changed")
	}
}

// TestPantropy_RollerPicksWhichSlot covers resolution 4: the color may sit in several slots.
func TestPantropy_RollerPicksWhichSlot(t *testing.T) {
	s := blank(t, 4)
	s.resolveRoll(0, Black, D4, Blue)
	from := map[int16]bool{}
	for _, a := range s.Legal(0, nil) {
		if a.Kind == KindPantropy {
			from[a.Arg[0]] = true
			if s.pl[0].menu[a.Arg[0]] != Blue || s.pl[0].menu[a.Arg[1]] == Blue {
				t.Errorf("pantropy %s does not swap a blue slot with another color", s.FormatAction(a))
			}
		}
	}
	if len(from) != 3 { // atm.0, hab.1 and shu.1 are blue
		t.Errorf("%d blue slots offered, want 3", len(from))
	}
	mustFail(t, s, 0, PantropyNone(), engine.ErrIllegalAction)
}

// TestPantropy_NothingWhenNoSlotHoldsTheColor covers resolution 4 after Guided Comets.
func TestPantropy_NothingWhenNoSlotHoldsTheColor(t *testing.T) {
	s := blank(t, 4)
	for i := 0; i < s.cfg.slots; i++ {
		if s.pl[0].menu[i] == Blue {
			s.pl[0].menu[i] = Green
		}
	}
	before := s.pl[0].menu
	s.resolveRoll(0, Black, D4, Blue)
	if countKind(s, 0, KindPantropy) != 1 || !legalHas(s, 0, PantropyNone()) {
		t.Fatalf("want exactly the one 'pantropy none'")
	}
	mustApply(t, s, 0, PantropyNone())
	if s.pl[0].menu != before {
		t.Errorf("menu changed")
	}
}

// TestMenuChart_VisibleToEveryone covers the [decision] that charts sit on the table.
func TestMenuChart_VisibleToEveryone(t *testing.T) {
	s := blank(t, 4)
	s.pl[0].menu[0] = Purple
	for _, seat := range []engine.Seat{engine.Spectator, 1} {
		o := s.Observe(seat).(*pb.Observation)
		if o.Players[0].Menu[0] != pb.Color_COLOR_PURPLE {
			t.Errorf("seat %d sees p0's slot 0 as %v", seat, o.Players[0].Menu[0])
		}
	}
}
