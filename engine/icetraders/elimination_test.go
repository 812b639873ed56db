package icetraders

import (
	"slices"
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// duel is three players in one system: seat 0 with a large red, seat 1 with the given pieces,
// seat 2 with a large blue elsewhere (so one elimination does not end the match).
func duel(t *testing.T, victim ...string) (b board, attacker int, victimIDs []int) {
	b = newBoard(t, 3)
	a := b.sys("g3")
	attacker = b.ship(a, 0, "r3")
	victimIDs = b.addShips(a, 1, victim...)
	b.ship(b.sys("y2"), 2, "b3")
	for i := range b.players {
		b.players[i].everLarge = b.players[i].everLarge || i != 1
	}
	return b, attacker, victimIDs
}

func TestElimination_LastLargeShip(t *testing.T) {
	b, att, v := duel(t, "y3", "g1")
	b.do(0, FormatAction(Attack(att, v[0])))
	if !b.players[1].out {
		t.Errorf("seat 1 lost its last large ship but is still in")
	}
	if got := b.shipOf(v[1]); got.owner != -1 {
		t.Errorf("eliminated seat's small ship owner %d, want nobody", got.owner)
	}
}

func TestElimination_NotWhileALargeShipIsLeft(t *testing.T) {
	b, att, v := duel(t, "y3", "g3")
	b.do(0, FormatAction(Attack(att, v[0])))
	if b.players[1].out {
		t.Errorf("seat 1 still has a large ship but is out")
	}
}

func TestElimination_LastShipIfNeverLarge(t *testing.T) {
	b, att, v := duel(t, "y2", "g1")
	b.do(0, FormatAction(Attack(att, v[0])))
	if b.players[1].out {
		t.Fatalf("seat 1 (never large) still has a ship but is out")
	}
	b.do(1, "pass")
	b.do(2, "pass")
	b.do(0, FormatAction(Attack(att, v[1])))
	if !b.players[1].out {
		t.Errorf("seat 1 (never large) lost its last ship but is still in")
	}
}

func TestElimination_LostByTradeDiscoveryOrReduction(t *testing.T) {
	for _, how := range []string{"trade s1 for yellow medium", "discover s1", "sacrifice s1"} {
		b := newBoard(t, 3)
		a := b.sys("b3")
		b.ship(a, 0, "r3")
		b.ship(a, 1, "y3")
		b.ship(a, 1, "g1")
		b.ship(b.sys("y2"), 2, "b3")
		b.do(0, "pass")
		b.do(1, how)
		if !b.players[1].out {
			t.Errorf("%s: seat 1 has no large ship left but is still in", how)
		}
	}
}

func TestElimination_CheckedOnceAfterWholeAction(t *testing.T) {
	// Precise resolution 1: sacrificing your last large ship to grow another one to large does
	// not eliminate you.
	b := newBoard(t, 2)
	a := b.sys("r3")
	b.ship(a, 0, "g3")
	m := b.ship(a, 0, "b2")
	b.ship(a, 1, "y3")
	b.players[0].everLarge = true
	b.do(0, "sacrifice s0")
	if b.players[0].out {
		t.Fatalf("eliminated in the middle of a sacrifice")
	}
	b.do(0, FormatAction(Grow(m)))
	if b.players[0].out || b.shipOf(m).piece != pc("b3") {
		t.Errorf("seat 0 out %v with %s", b.players[0].out, b.shipOf(m).piece)
	}
}

func TestElimination_FirstTurnExempt(t *testing.T) {
	b := newBoard(t, 3)
	a := b.sys("r3")
	b.ship(a, 0, "r3")
	b.ship(a, 1, "y1")
	b.players[2].placed = false // seat 2 has had no turn and has no ship
	b.do(0, "pass")
	if b.players[2].out {
		t.Errorf("a player before its first turn was eliminated")
	}
}

func TestElimination_OwnerlessShipsStayInPlay(t *testing.T) {
	b, att, v := duel(t, "y3", "g1", "b2")
	b.do(0, FormatAction(Attack(att, v[0])))
	for _, id := range v[1:] {
		if x := b.shipOf(id); x.owner != -1 {
			t.Errorf("ship s%d owner %d, want nobody", id, x.owner)
		}
	}
	o := b.Observe(engine.Spectator).(*pb.Observation)
	if o.GetPlayers()[1].GetShips() != 0 || !o.GetPlayers()[1].GetEliminated() {
		t.Errorf("observation of the eliminated seat: %v", o.GetPlayers()[1])
	}
	if b.cur != 2 {
		t.Errorf("turn went to seat %d, want 2", b.cur)
	}
	b.do(2, "pass")
	if b.cur != 0 {
		t.Errorf("the eliminated seat was not skipped: cur %d", b.cur)
	}
}

func TestCredit_GoesToTheActor(t *testing.T) {
	b, att, v := duel(t, "y3")
	b.do(0, FormatAction(Attack(att, v[0])))
	if b.players[1].outBy != 0 {
		t.Errorf("credit to %d, want seat 0", b.players[1].outBy)
	}
}

func TestCredit_SelfEliminationGivesNone(t *testing.T) {
	b, _, _ := duel(t, "y3")
	b.do(0, "discover s0")
	if !b.players[0].out || b.players[0].outBy != -1 {
		t.Errorf("self-elimination: out %v, credit %d", b.players[0].out, b.players[0].outBy)
	}
}

func TestCredit_NoneIfActorAmongEliminated(t *testing.T) {
	// Precise resolution 2: an Armageddon that takes the actor's last ship and another
	// player's credits nobody and reveals nothing.
	b := newBoard(t, 3)
	target := b.sys("y3")
	door := b.sys("y2")
	for i := 0; i < 4; i++ {
		b.ship(target, 1, "r1")
	}
	b.ship(b.sys("g1"), 2, "b3")
	b.evil(0)
	m := b.ship(door, 0, "r1") // seat 0's only ship, never large
	b.do(0, FormatAction(Move(m, target)))
	if !b.players[0].out || !b.players[1].out {
		t.Fatalf("out: %v %v", b.players[0].out, b.players[1].out)
	}
	if b.players[1].outBy != -1 || b.shown {
		t.Errorf("credit %d, revealed %v; want none", b.players[1].outBy, b.shown)
	}
	if b.Terminal() && b.end == pb.EndKind_END_KIND_EVIL_WINS {
		t.Errorf("an Evil actor among the eliminated won")
	}
}

func TestReveal_FirstEliminationByAnotherPlayer(t *testing.T) {
	b, att, v := duel(t, "y3")
	b.evil(2)
	b.do(0, FormatAction(Attack(att, v[0])))
	if !b.shown || b.countEvents(evRevealed) != 1 {
		t.Fatalf("no reveal")
	}
	for _, viewer := range []engine.Seat{engine.Spectator, 0, 1, 2} {
		o := b.Observe(viewer).(*pb.Observation)
		if o.GetPlayers()[2].GetAlignment() != pb.Alignment_ALIGNMENT_EVIL || o.GetPlayers()[1].GetAlignment() != pb.Alignment_ALIGNMENT_GOOD {
			t.Errorf("viewer %d after the reveal: %v", viewer, o.GetPlayers())
		}
	}
}

func TestReveal_SelfEliminationRevealsNothing(t *testing.T) {
	b, _, _ := duel(t, "y3")
	b.evil(2)
	b.do(0, "discover s0")
	if b.shown || b.countEvents(evRevealed) != 0 {
		t.Errorf("self-elimination revealed the alignments")
	}
	o := b.Observe(1).(*pb.Observation)
	if o.GetPlayers()[2].GetAlignment() != pb.Alignment_ALIGNMENT_UNSPECIFIED {
		t.Errorf("seat 1 sees seat 2's alignment after a self-elimination")
	}
}

func TestGoodTurnsEvil_GoodEliminatesGood(t *testing.T) {
	b, att, v := duel(t, "y3")
	b.evil(2) // so the match goes on
	b.do(0, FormatAction(Attack(att, v[0])))
	if b.players[0].align != Evil || !b.players[0].turnedEvil || b.countEvents(evTurnedEvil) != 1 {
		t.Errorf("Good seat 0 eliminated Good seat 1 and is %v", b.players[0].align)
	}
	if b.Terminal() {
		t.Errorf("the match ended: %s", b.endDetail())
	}
}

func TestGoodTurnsEvil_NotForEliminatingEvil(t *testing.T) {
	b, att, v := duel(t, "y3")
	b.evil(1, 2)
	b.do(0, FormatAction(Attack(att, v[0])))
	if b.players[0].align != Good {
		t.Errorf("Good seat 0 eliminated Evil seat 1 and turned %v", b.players[0].align)
	}
}

func TestEvilWinsAtOnce(t *testing.T) {
	b, att, v := duel(t, "y3")
	b.evil(0)
	b.do(0, FormatAction(Attack(att, v[0])))
	if !b.Terminal() || b.end != pb.EndKind_END_KIND_EVIL_WINS {
		t.Fatalf("Evil seat 0 eliminated seat 1: terminal %v, end %v", b.Terminal(), b.end)
	}
	r := b.Result()
	if !slices.Equal(r.Ranks, []int{1, 2, 2}) || r.Reason != engine.EndNormal {
		t.Errorf("result %+v", r)
	}
}

func TestGoodWinsCollectively_NoEvilLeft(t *testing.T) {
	// Seat 1 is the only Evil player; Good seat 0 eliminates it. Good seat 2 wins too, and so
	// does a Good player eliminated earlier.
	b := newBoard(t, 4)
	a := b.sys("g3")
	att := b.ship(a, 0, "r3")
	v := b.ship(a, 1, "y3")
	b.ship(b.sys("y2"), 2, "b3")
	b.players[3].out = true // eliminated earlier, Good
	b.evil(1)
	b.players[1].everLarge = true
	b.do(0, FormatAction(Attack(att, v)))
	if !b.Terminal() || b.end != pb.EndKind_END_KIND_GOOD_WINS {
		t.Fatalf("no Good win: %v", b.end)
	}
	if r := b.Result(); !slices.Equal(r.Ranks, []int{1, 4, 1, 1}) {
		t.Errorf("ranks %v, want every Good player first, eliminated ones included", r.Ranks)
	}
}

func TestGoodWinsCollectively_NeedsSomeoneEverEvil(t *testing.T) {
	// Everyone Good: Good seat 0 eliminates Good seat 1 and turns Evil; the match goes on.
	b, att, v := duel(t, "y3")
	b.do(0, FormatAction(Attack(att, v[0])))
	if b.Terminal() {
		t.Errorf("the match ended with %v", b.end)
	}
}

func TestGoodWinsCollectively_AfterSelfElimination(t *testing.T) {
	// Precise resolution 3: the Good win is checked after a self-elimination too.
	b, _, _ := duel(t, "y3")
	b.evil(0)
	b.do(0, "discover s0")
	if !b.Terminal() || b.end != pb.EndKind_END_KIND_GOOD_WINS {
		t.Errorf("the only Evil player eliminated itself: end %v", b.end)
	}
	if r := b.Result(); !slices.Equal(r.Ranks, []int{3, 1, 1}) {
		t.Errorf("ranks %v", r.Ranks)
	}
}

func TestGoodWinsCollectively_TurnedEvilCounts(t *testing.T) {
	// Seat 0 turned Evil earlier; Good seat 2 eliminating it is the Good win.
	b := newBoard(t, 3)
	a := b.sys("g3")
	v := b.ship(a, 0, "y3")
	att := b.ship(a, 2, "r3")
	b.players[1].out = true
	b.shown = true
	b.players[0].align, b.players[0].turnedEvil, b.players[0].everLarge = Evil, true, true
	b.cur = 2
	b.do(2, FormatAction(Attack(att, v)))
	if b.end != pb.EndKind_END_KIND_GOOD_WINS || b.winners != 1<<1|1<<2 {
		t.Errorf("end %v winners %b", b.end, b.winners)
	}
}

func TestLastSurvivor_Wins(t *testing.T) {
	// Two Good players: seat 0 eliminates seat 1, turns Evil -- and is the last survivor. (An
	// Evil actor would win at once first: Precise resolution 2.)
	b := newBoard(t, 2)
	a := b.sys("g3")
	att := b.ship(a, 0, "r3")
	v := b.ship(a, 1, "y3")
	b.players[1].everLarge = true
	b.do(0, FormatAction(Attack(att, v)))
	if b.end != pb.EndKind_END_KIND_LAST_SURVIVOR || b.winners != 1 {
		t.Errorf("end %v winners %b", b.end, b.winners)
	}
}

func TestLastSurvivor_AfterSelfElimination(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("g3")
	b.ship(a, 0, "r3")
	b.ship(a, 1, "y3")
	b.do(0, "discover s0")
	if b.end != pb.EndKind_END_KIND_LAST_SURVIVOR || b.winners != 1<<1 {
		t.Errorf("end %v winners %b", b.end, b.winners)
	}
}

func TestNoSurvivor_NobodyWins(t *testing.T) {
	b := newBoard(t, 2)
	target := b.sys("y3")
	door := b.sys("y2")
	for i := 0; i < 4; i++ {
		b.ship(target, 1, "r1")
	}
	m := b.ship(door, 0, "r1")
	b.do(0, FormatAction(Move(m, target)))
	if b.end != pb.EndKind_END_KIND_NO_SURVIVOR || b.winners != 0 {
		t.Errorf("end %v winners %b", b.end, b.winners)
	}
	if r := b.Result(); !slices.Equal(r.Ranks, []int{2, 2}) {
		t.Errorf("ranks %v", r.Ranks)
	}
}

func TestEliminations_OneActionSeveralPlayersInOrder(t *testing.T) {
	// Precise resolution 2: a Good actor's Armageddon eliminates a Good and an Evil player:
	// the reveal, then the actor turns Evil (a Good fell), then no Good win (the actor is Evil).
	b := newBoard(t, 4)
	target := b.sys("y3")
	door := b.sys("y2")
	b.addShips(target, 1, "r1", "r1")
	b.addShips(target, 2, "r1", "r1")
	b.ship(b.sys("g1"), 3, "b3")
	b.evil(2)
	m := b.ship(door, 0, "r1")
	b.ship(door, 0, "g3")
	b.do(0, FormatAction(Move(m, target)))
	if !b.players[1].out || !b.players[2].out || b.players[1].outBy != 0 || b.players[2].outBy != 0 {
		t.Fatalf("eliminations: %+v %+v", b.players[1], b.players[2])
	}
	if !b.shown || b.players[0].align != Evil || b.Terminal() {
		t.Errorf("revealed %v, actor %v, terminal %v", b.shown, b.players[0].align, b.Terminal())
	}
}

func TestTurnCap_DrawAmongUneliminated(t *testing.T) {
	b := newBoard(t, 3, OptTurnCap, "3")
	a := b.sys("g3")
	b.ship(a, 0, "r3")
	b.ship(a, 1, "y3")
	b.ship(a, -1, "b1")
	b.players[2].out = true
	for i := range b.players {
		b.players[i].turns = 2
	}
	b.do(0, "pass")
	b.do(1, "pass")
	if !b.Terminal() || b.end != pb.EndKind_END_KIND_TURN_CAP {
		t.Fatalf("no turn cap after 3 turns each: %v", b.end)
	}
	r := b.Result()
	if r.Reason != engine.EndCap || !slices.Equal(r.Ranks, []int{1, 1, 3}) {
		t.Errorf("result %+v", r)
	}
	o := b.Observe(engine.Spectator).(*pb.Observation)
	for _, al := range o.GetGameOver().GetAlignments() {
		if al == pb.Alignment_ALIGNMENT_UNSPECIFIED {
			t.Errorf("alignments not revealed in the result: %v", o.GetGameOver())
		}
	}
}

func TestPassRounds_DrawAfterTwoFullRoundsOfPasses(t *testing.T) {
	b := newBoard(t, 3)
	a := b.sys("g3")
	b.ship(a, 0, "r3")
	b.ship(a, 1, "y3")
	b.ship(a, 2, "b1")
	for i := 0; i < 5; i++ {
		b.do(int(b.cur), "pass")
	}
	if b.Terminal() {
		t.Fatalf("ended after 5 passes")
	}
	b.do(int(b.cur), "pass")
	if !b.Terminal() || b.end != pb.EndKind_END_KIND_PASS_CAP || b.Result().Reason != engine.EndCap {
		t.Errorf("no pass cap after 2 rounds: %v", b.end)
	}
}

func TestPassRounds_AnActionResetsTheCount(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("g3")
	b.ship(a, 0, "r3")
	b.ship(a, 1, "y2")
	b.do(0, "pass")
	b.do(1, "pass")
	b.do(0, "pass")
	b.do(1, "grow s1")
	b.do(0, "pass")
	if b.Terminal() || b.passes != 1 {
		t.Errorf("passes %d, terminal %v", b.passes, b.Terminal())
	}
}

func TestGameOver_AlignmentsRevealedAndNoMoreActions(t *testing.T) {
	b, att, v := duel(t, "y3")
	b.evil(0)
	b.do(0, FormatAction(Attack(att, v[0])))
	if len(b.ToAct(nil)) != 0 || len(b.Legal(0, nil)) != 0 {
		t.Errorf("actions after the end")
	}
	evs := b.Events(2, 0, nil)
	last := evs[len(evs)-1].(*pb.Event).GetGameOver()
	if last == nil || last.GetAlignments()[0] != pb.Alignment_ALIGNMENT_EVIL || last.GetKind() != pb.EndKind_END_KIND_EVIL_WINS {
		t.Errorf("last event %v", evs[len(evs)-1])
	}
}
