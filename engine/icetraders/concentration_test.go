package icetraders

import (
	"testing"

	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// crowd is a system with four ships of piece c (seat 1's) and a way in for seat 0: a ship c
// in a yellow system next door (connected by color), whose system power moves it in.
func crowd(t *testing.T, c string) (b board, target, mover int) {
	b = newBoard(t, 2)
	target = b.sys("y3")
	door := b.sys("y2")
	for i := 0; i < 4; i++ {
		b.ship(target, 1, c)
	}
	b.ship(b.sys("g2"), 1, "g3") // keeps seat 1 in the game
	mover = b.ship(door, 0, c)
	b.ship(door, 0, "b3") // keeps seat 0 in the game
	return b, target, mover
}

func TestArmageddon_DiscardsSystemAndEveryShip(t *testing.T) {
	b, target, mover := crowd(t, "r1")
	b.do(0, FormatAction(Move(mover, target)))
	if b.locOf(target) != nil {
		t.Errorf("Armageddon left the system")
	}
	if b.shipsAt(int16(target)) != 0 || !b.gone(mover) {
		t.Errorf("Armageddon left ships")
	}
	if e := b.lastConcentration(); e == nil || e.conc != pb.ConcentrationKind_CONCENTRATION_KIND_ARMAGEDDON {
		t.Errorf("no Armageddon event")
	}
}

func TestArmageddon_DualSystemLosesBothMarkers(t *testing.T) {
	b := newBoard(t, 2)
	target := b.sys("y3", "b2")
	door := b.sys("y1")
	for i := 0; i < 4; i++ {
		b.ship(target, 1, "r1")
	}
	b.ship(b.sys("g2"), 1, "g3")
	m := b.ship(door, 0, "r1")
	b.ship(door, 0, "b3")
	b.do(0, FormatAction(Move(m, target)))
	if b.locOf(target) != nil || b.stashOf("b2") != 5 || b.stashOf("y3") != 5 {
		t.Errorf("dual system after Armageddon: loc %v, stash blue medium %d", b.locOf(target), b.stashOf("b2"))
	}
}

func TestHyperspace_YellowConcentrationMakesHyperspace(t *testing.T) {
	b, target, mover := crowd(t, "y1")
	b.do(0, FormatAction(Move(mover, target)))
	l := b.locOf(target)
	if l == nil || !l.hyper || l.marker.Size != 0 {
		t.Fatalf("location after yellow concentration: %+v, want a hyperspace", l)
	}
	if b.shipsAt(int16(target)) != 5 || b.stashOf("y3") != 5 {
		t.Errorf("hyperspace holds %d ships; yellow large in stash %d", b.shipsAt(int16(target)), b.stashOf("y3"))
	}
	o := b.Observe(0).(*pb.Observation)
	if len(o.GetHyperspaces()) != 1 || o.GetHyperspaces()[0].GetId() != int32(target) {
		t.Errorf("observation hyperspaces %v", o.GetHyperspaces())
	}
}

func TestHyperspace_FiveRedDiscardEveryShip(t *testing.T) {
	b := newBoard(t, 2)
	b.sys("r3")
	h := b.hyper()
	for i := 0; i < 4; i++ {
		b.ship(h, 1, "r1")
	}
	b.ship(h, 1, "y1")
	b.ship(b.sys("g2"), 1, "g3")
	h2 := b.hyper()
	m := b.ship(h2, 0, "r1")
	y := b.ship(h2, 0, "y2")
	b.ship(0, 0, "b3")
	b.do(0, FormatAction(Sacrifice(y)))
	b.do(0, FormatAction(Move(m, h)))
	if b.locOf(h) != nil || b.shipsAt(int16(h)) != 0 {
		t.Errorf("five red in a hyperspace left ships or the hyperspace")
	}
}

func TestHyperspace_OtherConcentrationsDoNothing(t *testing.T) {
	for _, c := range []string{"y1", "g1", "b1"} {
		b := newBoard(t, 2)
		b.sys("r3")
		h := b.hyper()
		for i := 0; i < 4; i++ {
			b.ship(h, 1, c)
		}
		b.ship(b.sys("g2"), 1, "g3")
		h2 := b.hyper()
		b.ship(0, 0, "r3")
		if c == "y1" {
			m := b.ship(h2, 0, "y2")
			b.do(0, FormatAction(Move(m, h)))
		} else {
			m := b.ship(h2, 0, c)
			y := b.ship(h2, 0, "y1")
			b.do(0, FormatAction(Sacrifice(y)))
			b.do(0, FormatAction(Move(m, h)))
		}
		if b.shipsAt(int16(h)) != 5 || b.pend.kind != 0 || b.cur != 1 {
			t.Errorf("%s: concentration in a hyperspace had an effect", c)
		}
		if e := b.lastConcentration(); e == nil || e.effect != effNothingHyper {
			t.Errorf("%s: concentration event %+v", c, e)
		}
	}
}

func TestEnterprise_CauserChoosesSmallerPieceOrDeclines(t *testing.T) {
	b, target, mover := crowd(t, "b1")
	b.do(0, FormatAction(Move(mover, target)))
	if b.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_ENTERPRISE || b.cur != 0 {
		t.Fatalf("no Enterprise choice for the causer: %+v", b.pend)
	}
	legal := b.legalTexts(0)
	if len(legal) != 7+1 || legal[len(legal)-1] != "decline" || b.listed(0, "enterprise blue small") {
		t.Errorf("Enterprise lists %v, want every small and medium piece in the stash (no blue small left) and decline", legal)
	}
	b.refuse(0, "enterprise red large")
	b.refuse(0, "pass")
	b.do(0, "enterprise green medium")
	l := b.locOf(target)
	if l.second != pc("g2") || b.cur != 1 {
		t.Errorf("second marker %s, cur %d", l.second, b.cur)
	}
}

func TestEnterprise_Decline(t *testing.T) {
	b, target, mover := crowd(t, "b1")
	b.do(0, FormatAction(Move(mover, target)))
	b.do(0, "decline")
	if b.locOf(target).second.Size != 0 || b.cur != 1 {
		t.Errorf("decline added a marker or kept the turn")
	}
}

func TestEnterprise_NothingIfMarkerSmallOrAlreadyDual(t *testing.T) {
	for _, markers := range [][]string{{"y1"}, {"y3", "r1"}} {
		b := newBoard(t, 2)
		target := b.sys(markers[0], markers[1:]...)
		door := b.sys("y2")
		for i := 0; i < 4; i++ {
			b.ship(target, 1, "b1")
		}
		b.ship(b.sys("g2"), 1, "g3")
		m := b.ship(door, 0, "b1")
		b.ship(door, 0, "r3")
		b.do(0, FormatAction(Move(m, target)))
		if b.pend.kind != 0 || b.cur != 1 {
			t.Errorf("markers %v: an Enterprise was offered", markers)
		}
	}
}

func TestEnterprise_ConnectionsFollowMainMarker(t *testing.T) {
	b := newBoard(t, 2)
	dual := b.sys("r3", "b2")
	b.sys("b2") // would connect to the second marker (same both) -- irrelevant
	b.sys("y2") // connects to b2 by size, not to r3
	b.sys("g3") // connects to r3 by size
	b.ship(dual, 0, "y1")
	b.ship(dual, 1, "g3")
	var moves []string
	for _, x := range b.legalTexts(0) {
		if len(x) > 4 && x[:4] == "move" {
			moves = append(moves, x)
		}
	}
	if len(moves) != 1 || moves[0] != "move s0 to sys3" {
		t.Errorf("moves from a r3+b2 dual system: %v, want sys3 only", moves)
	}
}

func TestRevolt_TakesOwnership(t *testing.T) {
	b, target, mover := crowd(t, "g1")
	enemy := b.ship(target, 1, "y3")
	b.do(0, FormatAction(Move(mover, target)))
	if b.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_REVOLT {
		t.Fatalf("no Revolt offered")
	}
	b.refuse(0, FormatAction(Revolt(mover)))
	b.do(0, FormatAction(Revolt(enemy)))
	if got := b.shipOf(enemy); got.owner != 0 {
		t.Errorf("revolted ship owner %d, want 0", got.owner)
	}
	if !b.players[0].everLarge {
		t.Errorf("taking a large ship by Revolt does not count as having one")
	}
}

func TestRevolt_Decline(t *testing.T) {
	b, target, mover := crowd(t, "g1")
	b.do(0, FormatAction(Move(mover, target)))
	b.do(0, "decline")
	for i := range b.ships {
		if b.ships[i].loc == int16(target) && b.ships[i].id != int16(mover) && b.ships[i].owner != 1 {
			t.Errorf("decline changed ownership")
		}
	}
}

func TestRevolt_FurtherCatalystFurtherRevolt(t *testing.T) {
	// Two green ships moving in one after another (one sacrifice of a medium yellow) each cause a
	// Revolt: the second catalyst is the sixth green ship.
	b := newBoard(t, 2)
	target := b.sys("y3")
	door := b.sys("y1")
	for i := 0; i < 4; i++ {
		b.ship(target, 1, "g1")
	}
	b.ship(b.sys("g2"), 1, "g3")
	y := b.ship(door, 0, "y2")
	g1 := b.ship(door, 0, "g1")
	g2 := b.ship(door, 0, "g2")
	b.ship(door, 0, "b3")
	b.do(0, FormatAction(Sacrifice(y)))
	b.do(0, FormatAction(Move(g1, target)))
	b.do(0, "revolt s0")
	if b.cur != 0 || !b.sac.active {
		t.Fatalf("the sacrifice did not go on after the Revolt")
	}
	b.do(0, FormatAction(Move(g2, target)))
	if b.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_REVOLT {
		t.Fatalf("second catalyst caused no second Revolt")
	}
	b.do(0, "revolt s1")
	if b.shipOf(0).owner != 0 || b.shipOf(1).owner != 0 || b.cur != 1 {
		t.Errorf("after two revolts: owners %d %d, cur %d", b.shipOf(0).owner, b.shipOf(1).owner, b.cur)
	}
}

func TestConcentration_ColorChangeIsCatalyst(t *testing.T) {
	b := newBoard(t, 2)
	target := b.sys("y3")
	for i := 0; i < 4; i++ {
		b.ship(target, 1, "r1")
	}
	b.ship(b.sys("g2"), 1, "g3")
	x := b.ship(target, 0, "b1")
	b.ship(b.sys("g1"), 0, "b3")
	b.do(0, FormatAction(Trade(x, pc("r1"))))
	if b.locOf(target) != nil {
		t.Errorf("trading into the fifth red caused no Armageddon")
	}
}

func TestConcentration_SameColorChangeIsNoCatalyst(t *testing.T) {
	b := newBoard(t, 2)
	target := b.sys("b3")
	for i := 0; i < 5; i++ {
		b.ship(target, 1, "r1")
	}
	x := b.ship(target, 0, "r3")
	b.ship(target, 0, "b3")
	b.do(0, FormatAction(Trade(x, pc("r2"))))
	if b.locOf(target) == nil || b.countEvents(evConcentration) != 0 {
		t.Errorf("a red ship becoming a smaller red ship was a catalyst")
	}
}

func TestConcentration_CheckedAfterEachSacrificeUse(t *testing.T) {
	// A large yellow sacrifice moves three blue ships in, one by one: the first makes five blue
	// and offers an Enterprise; the sacrifice then goes on.
	b := newBoard(t, 2)
	target := b.sys("y3")
	door := b.sys("y1")
	for i := 0; i < 4; i++ {
		b.ship(target, 1, "b1")
	}
	b.ship(b.sys("g2"), 1, "g3")
	y := b.ship(door, 0, "y3")
	b1 := b.ship(door, 0, "b1")
	b2 := b.ship(door, 0, "b2")
	b.ship(door, 0, "r3")
	b.do(0, FormatAction(Sacrifice(y)))
	b.do(0, FormatAction(Move(b1, target)))
	if b.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_ENTERPRISE {
		t.Fatalf("first use made no Enterprise")
	}
	b.do(0, "enterprise red medium")
	b.do(0, FormatAction(Move(b2, target)))
	if b.pend.kind != 0 {
		t.Errorf("a dual system offered a second Enterprise")
	}
	if !b.sac.active || b.sac.left != 1 {
		t.Errorf("sacrifice state %+v, want one use left", b.sac)
	}
}

func TestConcentration_ResearchPieceIsCatalyst(t *testing.T) {
	b := newBoard(t, 2)
	target := b.sys("y3")
	for i := 0; i < 4; i++ {
		b.ship(target, 1, "r1")
	}
	b.ship(b.sys("g2"), 1, "g3")
	ids := b.addShips(target, 0, "b1", "g1", "y1")
	b.ship(b.sys("g1"), 0, "b3")
	b.do(0, FormatAction(Research(ids[0], ids[1], ids[2], pc("r2"))))
	if b.locOf(target) != nil {
		t.Errorf("R&D's new red ship, the fifth, caused no Armageddon")
	}
}

func TestConcentration_FirstShipPlacementIsCatalyst(t *testing.T) {
	b := newBoard(t, 2)
	target := b.sys("y3")
	for i := 0; i < 4; i++ {
		b.ship(target, 1, "r1")
	}
	b.ship(b.sys("g2"), 1, "g3")
	b.players[0].placed = false
	b.do(0, "place red at sys0")
	if b.locOf(target) != nil {
		t.Errorf("the placed fifth red ship caused no Armageddon")
	}
}

func TestHyperspace_DualSystemLosesBothMarkers(t *testing.T) {
	b := newBoard(t, 2)
	target := b.sys("y3", "b2")
	door := b.sys("y2")
	for i := 0; i < 4; i++ {
		b.ship(target, 1, "y1")
	}
	b.ship(b.sys("g2"), 1, "g3")
	m := b.ship(door, 0, "y1")
	b.ship(door, 0, "b3")
	b.do(0, FormatAction(Move(m, target)))
	l := b.locOf(target)
	if l == nil || !l.hyper || l.second.Size != 0 || b.stashOf("b2") != 5 || b.stashOf("y3") != 5 {
		t.Errorf("dual system after a yellow concentration: %+v, stash blue medium %d", l, b.stashOf("b2"))
	}
}

func TestEnterprise_NothingIfStashHasNoSmallerPiece(t *testing.T) {
	b := newBoard(t, 2, OptStash, "2")
	target := b.sys("y2")
	door := b.sys("y3")
	// Take every small piece out of the stash: four blue smalls are not enough of them, so
	// park the others on a far system.
	b.addShips(target, 1, "b1", "b1", "b2", "b2")
	far := b.sys("g3")
	b.addShips(far, 1, "r1", "r1", "y1", "y1", "g1", "g1")
	m := b.ship(door, 0, "b3")
	b.ship(door, 0, "r3")
	b.do(0, FormatAction(Move(m, target)))
	if b.pend.kind != 0 || b.cur != 1 {
		t.Errorf("an Enterprise was offered with no smaller piece in the stash")
	}
	if e := b.lastConcentration(); e == nil || e.effect != effNothingStash {
		t.Errorf("concentration event %+v", e)
	}
}

func TestDefaultAction_PassEndOrDecline(t *testing.T) {
	b, target, mover := crowd(t, "b1")
	if a, ok := b.DefaultAction(0); !ok || a != Pass() {
		t.Errorf("turn default %v %v", a, ok)
	}
	if _, ok := b.DefaultAction(1); ok {
		t.Errorf("a seat not to act has a default")
	}
	b.do(0, FormatAction(Move(mover, target)))
	if a, ok := b.DefaultAction(0); !ok || a != Decline() {
		t.Errorf("Enterprise default %v %v", a, ok)
	}
	s := newMatch(t, 2)
	if _, ok := s.DefaultAction(0); ok {
		t.Errorf("a secret alignment has a default: the timeout policy chooses it")
	}
}
