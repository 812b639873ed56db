package icetraders

import (
	"slices"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

func TestShipPower_OwnColorOnce(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	c := b.sys("b3") // connected to a (same size)
	y := b.ship(a, 0, "y2")
	b.ship(c, 1, "g3")
	b.do(0, "move s0 to sys1")
	if b.shipOf(y).loc != int16(c) {
		t.Errorf("yellow ship did not move")
	}
	if b.cur != 1 {
		t.Errorf("one power use did not end the turn")
	}
}

func TestSystemPower_ShipUsesItsSystemsColor(t *testing.T) {
	b := newBoard(t, 2)
	home := b.sys("y3") // yellow system: any ship here may move
	away := b.sys("b3")
	g := b.ship(home, 0, "g2")
	b.ship(away, 1, "r3")
	if !b.listed(0, "move s0 to sys1") {
		t.Fatalf("a green ship in a yellow system cannot move: %v", b.legalTexts(0))
	}
	b.do(0, "move s0 to sys1")
	if b.shipOf(g).loc != int16(away) {
		t.Errorf("ship did not move by system power")
	}
	// In the blue system it may trade (system) or grow (own), but not move.
	b.do(1, "pass")
	b.refuse(0, "move s0 to sys0")
	if !b.listed(0, "trade s0 for red medium") || !b.listed(0, "grow s0") {
		t.Errorf("green ship in a blue system lacks trade or grow: %v", b.legalTexts(0))
	}
}

func TestSystemPower_DualSystemEitherColor(t *testing.T) {
	b := newBoard(t, 2)
	dual := b.sys("r3", "y2")
	other := b.sys("g3")
	b.ship(dual, 0, "b2")
	b.ship(dual, 1, "b1")
	b.ship(other, 1, "g1")
	for _, want := range []string{"attack s1 with s0", "move s0 to sys1", "trade s0 for green small"} {
		if !b.listed(0, want) {
			t.Errorf("dual red/yellow system: %q not listed: %v", want, b.legalTexts(0))
		}
	}
	if b.listed(0, "grow s0") {
		t.Errorf("dual red/yellow system gives green's grow")
	}
}

func TestDiscovery_ShipBecomesNewEmptySystem(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	x := b.ship(a, 0, "b2")
	b.ship(a, 0, "g3")
	b.ship(a, 1, "y1")
	b.do(0, "discover s0")
	if !b.gone(x) {
		t.Errorf("discovered ship still a ship")
	}
	l := b.locOf(1)
	if l == nil || l.hyper || l.marker != pc("b2") || b.shipsAt(1) != 0 {
		t.Errorf("new system %+v, want an empty blue medium system sys1", l)
	}
}

func TestSacrifice_UsesBySize(t *testing.T) {
	for _, tc := range []struct {
		piece string
		uses  int
	}{{"y1", 1}, {"y2", 2}, {"y3", 3}} {
		b := newBoard(t, 2)
		a := b.sys("r3")
		c := b.sys("r2") // connected to a by color
		b.ship(a, 0, tc.piece)
		g := b.ship(a, 0, "g3")
		b.ship(c, 1, "b3")
		b.do(0, "sacrifice s0")
		for i := 0; i < tc.uses; i++ {
			if b.cur != 0 || !b.sac.active || int(b.sac.left) != tc.uses-i {
				t.Fatalf("%s: use %d: sacrifice state %+v, cur %d", tc.piece, i+1, b.sac, b.cur)
			}
			dest := c
			if b.shipOf(g).loc == int16(c) {
				dest = a
			}
			b.do(0, FormatAction(Move(g, dest)))
		}
		if b.sac.active || b.cur != 1 {
			t.Errorf("%s: after %d uses the sacrifice is still on (%+v), cur %d", tc.piece, tc.uses, b.sac, b.cur)
		}
	}
}

func TestSacrifice_OnlyShipsOfOtherColors(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	b.sys("r2")
	b.ship(a, 0, "y2")
	b.ship(a, 0, "y1") // yellow: cannot receive a yellow sacrifice
	b.ship(a, 0, "g3")
	b.ship(a, 1, "b3")
	b.do(0, "sacrifice s0")
	b.refuse(0, "move s1 to sys1")
	b.refuse(0, "grow s2")
	if !b.listed(0, "move s2 to sys1") || !b.listed(0, "end sacrifice") {
		t.Errorf("sacrifice uses: %v", b.legalTexts(0))
	}
	for _, a := range b.legalTexts(0) {
		if a != "end sacrifice" && a != "move s2 to sys1" {
			t.Errorf("sacrifice lists %q", a)
		}
	}
}

func TestSacrifice_UsesGoToDifferentShipsOneAfterAnother(t *testing.T) {
	// The seed's example: a large yellow moves one green ship once and one red ship twice.
	b := newBoard(t, 2)
	a := b.sys("r3")
	c := b.sys("r2")
	d := b.sys("r1")
	b.ship(a, 0, "y3")
	g := b.ship(a, 0, "g3")
	r := b.ship(a, 0, "r2")
	b.ship(d, 1, "b3")
	b.do(0, "sacrifice s0")
	b.do(0, FormatAction(Move(g, c)))
	b.do(0, FormatAction(Move(r, c)))
	b.do(0, FormatAction(Move(r, d)))
	if b.shipOf(g).loc != int16(c) || b.shipOf(r).loc != int16(d) || b.cur != 1 {
		t.Errorf("green at sys%d, red at sys%d, cur %d", b.shipOf(g).loc, b.shipOf(r).loc, b.cur)
	}
}

func TestSacrifice_EndEarly(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	b.sys("r2")
	b.ship(a, 0, "y3")
	b.ship(a, 0, "g3")
	b.ship(a, 1, "b3")
	b.do(0, "sacrifice s0")
	b.do(0, "move s1 to sys1")
	b.do(0, "end sacrifice")
	if b.sac.active || b.cur != 1 {
		t.Errorf("end sacrifice did not end the turn")
	}
}

func TestSacrifice_EndsWhenNoUseIsLeft(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	b.ship(a, 0, "y3")
	b.ship(a, 0, "g3") // no other system: no move to make
	b.ship(a, 1, "b3")
	b.do(0, "sacrifice s0")
	if b.sac.active || b.cur != 1 {
		t.Errorf("a sacrifice with no possible use still waits: %+v", b.sac)
	}
}

func TestSacrifice_UseByReceivingShipsSizeAndPlace(t *testing.T) {
	// A sacrificed large red gives attacks; each is made by the receiving small blue ship with
	// its own size, so it reduces a medium enemy instead of destroying it, and only in its place.
	b := newBoard(t, 2)
	a := b.sys("g3")
	far := b.sys("y3")
	b.ship(a, 0, "r3")
	blue := b.ship(a, 0, "b1")
	enemy := b.ship(a, 1, "g2")
	farEnemy := b.ship(far, 1, "y1")
	b.ship(far, 0, "g3")
	b.do(0, "sacrifice s0")
	b.refuse(0, FormatAction(Attack(blue, farEnemy)))
	b.do(0, FormatAction(Attack(blue, enemy)))
	if got := b.shipOf(enemy).piece; got != pc("g1") {
		t.Errorf("small attacker against a medium: %s, want reduced to green small", got)
	}
}

func TestResearch_ThreeShipsInOneSystemForAnyPiece(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	ids := b.addShips(a, 0, "g1", "b1", "y1")
	b.ship(a, 1, "b3")
	b.do(0, FormatAction(Research(ids[0], ids[1], ids[2], pc("r3"))))
	for _, id := range ids {
		if !b.gone(id) {
			t.Errorf("researched ship s%d still there", id)
		}
	}
	x := b.ships[len(b.ships)-1]
	if x.piece != pc("r3") || x.loc != int16(a) || x.owner != 0 {
		t.Errorf("R&D's new ship %+v, want seat 0's red large where the three were", x)
	}
	if !b.players[0].everLarge {
		t.Errorf("R&D to a large ship does not count as having had one")
	}
}

func TestResearch_NeedsThreeOwnShipsInOneSystem(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	c := b.sys("r2")
	b.addShips(a, 0, "g1", "b1")
	b.ship(c, 0, "y1")
	b.ship(a, 1, "b3")
	b.refuse(0, "research s0 s1 s2 for red large")
	b.refuse(0, "research s0 s1 s3 for red large")
	for _, a := range b.legalTexts(0) {
		if strings.HasPrefix(a, "research") {
			t.Errorf("R&D listed: %s", a)
		}
	}
}

func TestResearch_ReturnedPiecesMayBeTakenBack(t *testing.T) {
	b := newBoard(t, 2, OptStash, "2")
	a := b.sys("r3")
	b.addShips(a, 0, "g1", "g1", "y1") // the stash now holds no green small
	b.ship(a, 1, "b3")
	if b.stashOf("g1") != 0 {
		t.Fatalf("set-up: stash holds %d green small", b.stashOf("g1"))
	}
	b.do(0, "research s0 s1 s2 for green small")
}

func TestPass_DoesNothing(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	b.ship(a, 0, "g1")
	b.ship(a, 1, "b3")
	before := len(b.ships)
	b.do(0, "pass")
	if b.cur != 1 || len(b.ships) != before || b.passes != 1 {
		t.Errorf("pass: cur %d, passes %d", b.cur, b.passes)
	}
}

func TestYellow_MoveOnlyToConnectedSystems(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	b.sys("r1") // same color
	b.sys("g3") // same size
	b.sys("r3") // both: not connected
	b.sys("b2") // neither
	b.ship(a, 0, "y1")
	b.ship(a, 1, "g3")
	var moves []string
	for _, x := range b.legalTexts(0) {
		if len(x) > 4 && x[:4] == "move" {
			moves = append(moves, x)
		}
	}
	if !slices.Equal(moves, []string{"move s0 to sys1", "move s0 to sys2"}) {
		t.Errorf("moves %v, want sys1 and sys2 only", moves)
	}
	b.refuse(0, "move s0 to sys3")
	b.refuse(0, "move s0 to sys4")
	b.refuse(0, "move s0 to sys0")
}

func TestHyperspace_MoveOutToAnySystem(t *testing.T) {
	b := newBoard(t, 2)
	b.sys("r3")
	b.sys("b2") // connected to nothing else here
	h := b.hyper()
	b.ship(h, 0, "y1")
	b.ship(h, 0, "g3")
	h2 := b.hyper()
	b.ship(h2, 1, "b3")
	b.ship(h2, 1, "b1")
	var moves []string
	for _, x := range b.legalTexts(0) {
		if len(x) > 7 && x[:7] == "move s0" {
			moves = append(moves, x)
		}
	}
	if !slices.Equal(moves, []string{"move s0 to sys0", "move s0 to sys1", "move s0 to sys3"}) {
		t.Errorf("moves out of a hyperspace %v, want every system and the other hyperspace", moves)
	}
	b.do(0, "move s0 to sys1")
}

func TestHyperspace_EntryOnlyFromAnotherHyperspace(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	h := b.hyper()
	b.ship(h, 1, "b3")
	b.ship(a, 0, "y3")
	b.refuse(0, FormatAction(Move(1, h)))
}

func TestHyperspace_NoSystemPower(t *testing.T) {
	b := newBoard(t, 2)
	b.sys("y3")
	h := b.hyper()
	b.ship(h, 0, "g2")
	b.ship(h, 1, "b3")
	for _, x := range b.legalTexts(0) {
		if x != "grow s0" && x != "discover s0" && x != "sacrifice s0" && x != "pass" {
			t.Errorf("a green ship in a hyperspace may %q", x)
		}
	}
}

func TestHyperspace_DisappearsWhenEmpty(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	h := b.hyper()
	b.ship(h, 0, "y1")
	b.ship(a, 0, "g3")
	b.ship(a, 1, "b3")
	b.do(0, FormatAction(Move(0, a)))
	if b.locOf(h) != nil {
		t.Errorf("empty hyperspace still open")
	}
	if b.countEvents(evHyperClosed) != 1 {
		t.Errorf("no closing event")
	}
}

func TestHyperspace_RedMayAttack(t *testing.T) {
	b := newBoard(t, 2)
	b.sys("r3")
	h := b.hyper()
	b.ship(h, 0, "r2")
	b.ship(h, 0, "g3")
	x := b.ship(h, 1, "b1")
	b.ship(h, 1, "b3")
	b.do(0, FormatAction(Attack(0, x)))
	if !b.gone(x) {
		t.Errorf("attack in a hyperspace did not destroy the target")
	}
}

func TestHyperspace_NoGreenAddNoResearch(t *testing.T) {
	b := newBoard(t, 2)
	b.sys("r3")
	h := b.hyper()
	b.addShips(h, 0, "g2", "b1", "y1")
	b.ship(h, 1, "b3")
	b.refuse(0, "add small from s0")
	b.refuse(0, "research s0 s1 s2 for red large")
	if !b.listed(0, "grow s0") {
		t.Errorf("green grow should work in a hyperspace")
	}
}

func TestBlue_TradeForEqualOrSmallerPiece(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	x := b.ship(a, 0, "b2")
	b.ship(a, 1, "g3")
	b.refuse(0, "trade s0 for red large")
	b.refuse(0, "trade s0 for blue medium")
	var trades int
	for _, s := range b.legalTexts(0) {
		if len(s) > 5 && s[:5] == "trade" {
			trades++
		}
	}
	if trades != 7 { // 4 small + 4 medium, less blue medium itself
		t.Errorf("%d trades listed, want 7", trades)
	}
	b.do(0, "trade s0 for yellow small")
	got := b.shipOf(x)
	if got.piece != pc("y1") || got.loc != int16(a) || got.owner != 0 {
		t.Errorf("traded ship %+v, want the same id, place and owner as yellow small", got)
	}
	if b.stashOf("b2") != 5 || b.stashOf("y1") != 4 {
		t.Errorf("stash after trade: blue medium %d, yellow small %d", b.stashOf("b2"), b.stashOf("y1"))
	}
}

func TestBlue_TradeNeedsPieceInStash(t *testing.T) {
	b := newBoard(t, 2, OptStash, "2")
	a := b.sys("r3")
	b.ship(a, 0, "b2")
	b.addShips(a, 1, "g1", "g1")
	b.refuse(0, "trade s0 for green small")
}

func TestGreen_GrowToNextLargerOfSameColor(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	x := b.ship(a, 0, "g1")
	b.ship(a, 1, "b3")
	b.do(0, "grow s0")
	if b.shipOf(x).piece != pc("g2") {
		t.Errorf("grown ship is %s", b.shipOf(x).piece)
	}
	b.do(1, "pass")
	b.do(0, "grow s0")
	if b.shipOf(x).piece != pc("g3") || !b.players[0].everLarge {
		t.Errorf("grown ship is %s", b.shipOf(x).piece)
	}
	b.do(1, "pass")
	b.refuse(0, "grow s0")
}

func TestGreen_AddShipInOwnSystemUnderFourShips(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	b.ship(a, 0, "g2")
	b.ship(a, 1, "b3")
	var adds []string
	for _, s := range b.legalTexts(0) {
		if len(s) > 3 && s[:3] == "add" {
			adds = append(adds, s)
		}
	}
	if !slices.Equal(adds, []string{"add small from s0", "add medium from s0"}) {
		t.Errorf("adds %v", adds)
	}
	b.refuse(0, "add large from s0")
	b.do(0, "add medium from s0")
	x := b.ships[len(b.ships)-1]
	if x.piece != pc("g2") || x.loc != int16(a) || x.owner != 0 {
		t.Errorf("added ship %+v", x)
	}
	b.do(1, "pass")
	b.do(0, "add small from s0") // now four ships
	b.do(1, "pass")
	b.refuse(0, "add small from s0")
}

func TestGreen_SacrificeUsesReceivingShipsColor(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	b.ship(a, 0, "g2")
	x := b.ship(a, 0, "b1")
	b.ship(a, 1, "y3")
	b.do(0, "sacrifice s0")
	b.do(0, FormatAction(Grow(x)))
	if b.shipOf(x).piece != pc("b2") {
		t.Errorf("green sacrifice grew blue small into %s, want blue medium", b.shipOf(x).piece)
	}
	b.do(0, FormatAction(Add(x, Medium)))
	if got := b.ships[len(b.ships)-1].piece; got != pc("b2") {
		t.Errorf("green sacrifice added %s, want the receiving ship's color", got)
	}
}

func TestRed_AttackDiscardsEqualOrSmaller(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("g3")
	b.ship(a, 0, "r2")
	b.ship(a, 0, "b3")
	eq := b.ship(a, 1, "y2")
	sm := b.ship(a, 1, "g1")
	b.ship(b.sys("g2"), 1, "b3")
	b.do(0, FormatAction(Attack(0, eq)))
	b.do(1, "pass")
	b.do(0, FormatAction(Attack(0, sm)))
	if !b.gone(eq) || !b.gone(sm) {
		t.Errorf("equal or smaller targets not discarded")
	}
	if b.stashOf("y2") != 5 || b.stashOf("g1") != 5 {
		t.Errorf("discarded ships not back in the stash")
	}
}

func TestRed_ReducesLargerToNextSmallerOfItsColor(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("g3")
	b.ship(a, 0, "r1")
	b.ship(a, 0, "b3")
	big := b.ship(a, 1, "y3")
	b.ship(a, 1, "b3")
	b.do(0, FormatAction(Attack(0, big)))
	if got := b.shipOf(big); got.piece != pc("y2") || got.owner != 1 {
		t.Errorf("reduced ship %+v, want seat 1's yellow medium", got)
	}
}

func TestRed_ReduceNotAllowedWithoutStashPiece(t *testing.T) {
	b := newBoard(t, 2, OptStash, "2")
	a := b.sys("g3")
	b.ship(a, 0, "r1")
	b.ship(a, 0, "b3")
	big := b.ship(a, 1, "y3")
	b.addShips(b.sys("y2"), 1, "y2") // the marker and this ship take both yellow mediums
	b.refuse(0, FormatAction(Attack(0, big)))
}

func TestRed_MayAttackOwnShipButNotItself(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("g3")
	b.ship(a, 0, "r2")
	own := b.ship(a, 0, "b1")
	b.ship(a, 0, "b3")
	b.ship(a, 1, "y3")
	b.refuse(0, "attack s0 with s0")
	b.do(0, FormatAction(Attack(0, own)))
	if !b.gone(own) {
		t.Errorf("attack on own ship did not discard it")
	}
}

func TestNeutralShips_CannotActButCanBeAttacked(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("g3")
	b.ship(a, 0, "r3")
	n := b.ship(a, -1, "y2")
	b.ship(a, 1, "b3")
	b.refuse(0, FormatAction(Discover(n)))
	b.do(0, FormatAction(Attack(0, n)))
	if !b.gone(n) {
		t.Errorf("ownerless ship not discarded")
	}
}

func TestObserve_BoardAndPending(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3", "y1")
	b.ship(a, 0, "g3")
	b.ship(a, 1, "b3")
	b.do(0, "sacrifice s0")
	o := b.Observe(0).(*pb.Observation)
	if o.GetPendingSacrifice() != nil {
		t.Fatalf("the lone green sacrifice had no use and should have ended")
	}
	sys := o.GetSystems()[0]
	if sys.GetSecondMarker().GetColor() != pb.Color_COLOR_YELLOW || len(sys.GetShips()) != 1 || sys.GetShips()[0].GetOwner() != 1 {
		t.Errorf("system view %v", sys)
	}
	_ = engine.Spectator
}
