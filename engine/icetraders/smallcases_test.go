package icetraders

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// The small cases the seed leaves open (rules/icetraders.md, Precise resolution 9), one test
// each, named after the case.

// TestSmallCase_SacrificeMayEndEarly: a large sacrifice ended after one of its three uses
// ends the turn; the unspent uses are lost and the sacrificed ship stays in the stash.
func TestSmallCase_SacrificeMayEndEarly(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	b.sys("r2")
	y := b.ship(a, 0, "y3")
	g := b.ship(a, 0, "g3")
	b.ship(a, 1, "b3")
	b.do(0, FormatAction(Sacrifice(y)))
	if !b.listed(0, "end sacrifice") {
		t.Fatalf("end sacrifice not listed before the first use: %v", b.legalTexts(0))
	}
	b.do(0, FormatAction(Move(g, 1)))
	if b.sac.left != 2 {
		t.Fatalf("uses left %d, want 2", b.sac.left)
	}
	b.do(0, "end sacrifice")
	if b.sac.active || b.cur != 1 || !b.gone(y) || b.stashOf("y3") != 5 {
		t.Errorf("after ending early: sacrifice %+v, seat %d to act, yellow large in stash %d", b.sac, b.cur, b.stashOf("y3"))
	}
	if got := b.shipOf(g); got.loc != 1 {
		t.Errorf("the spent use was undone: green large at %d", got.loc)
	}
	// The lost uses cannot be taken later: seat 1 acts, and seat 0 owes nothing.
	if _, err := ParseAction("move s1 to sys0"); err != nil {
		t.Fatal(err)
	}
	if b.listed(0, "move s1 to sys0") || len(b.legalTexts(0)) != 0 {
		t.Errorf("seat 0 still has actions after ending its sacrifice: %v", b.legalTexts(0))
	}
}

// TestSmallCase_TradeForTheIdenticalPieceIllegal: blue's trade must change the ship: the same
// color and size is refused, as a turn's power and as a sacrifice's use, and never listed.
func TestSmallCase_TradeForTheIdenticalPieceIllegal(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("b3")
	b.ship(a, 0, "b2")
	y := b.ship(a, 0, "y2")
	b.ship(a, 1, "g3")
	b.refuse(0, "trade s0 for blue medium")   // its own power
	b.refuse(0, "trade s1 for yellow medium") // the system's power
	b.do(0, "trade s1 for yellow small")      // a real trade still goes
	if b.shipOf(y).piece != pc("y1") {
		t.Fatalf("trade did not happen")
	}

	// Through a sacrifice: a blue small sacrificed gives one trade to a non-blue ship.
	b = newBoard(t, 2)
	a = b.sys("r3")
	s := b.ship(a, 0, "b1")
	y = b.ship(a, 0, "y2")
	b.ship(a, 1, "g3")
	b.do(0, FormatAction(Sacrifice(s)))
	b.refuse(0, "trade s1 for yellow medium")
	b.do(0, "trade s1 for red medium")
	if b.shipOf(y).piece != pc("r2") {
		t.Errorf("sacrifice trade gave %v", b.shipOf(y).piece)
	}
}

// TestSmallCase_EnterpriseWithNoSmallerPieceDoesNothing: a blue concentration in a system
// whose marker has no smaller piece left in the stash offers nothing, and the turn passes.
func TestSmallCase_EnterpriseWithNoSmallerPieceDoesNothing(t *testing.T) {
	b := newBoard(t, 2, OptStash, "2")
	target := b.sys("y2")
	door := b.sys("y3")
	// Every small piece leaves the stash (2 of each color): four blue smalls in the target
	// make the concentration's first four, and the rest wait in a far system.
	b.addShips(target, 1, "b1", "b1", "b2", "b2")
	far := b.sys("g3")
	b.addShips(far, 1, "r1", "r1", "y1", "y1", "g1", "g1")
	for _, k := range []string{"r1", "y1", "g1", "b1"} {
		if b.stashOf(k) != 0 {
			t.Fatalf("set-up left %s in the stash", k)
		}
	}
	m := b.ship(door, 0, "b3")
	b.ship(door, 0, "r3")
	before := b.locOf(target).marker
	b.do(0, FormatAction(Move(m, target)))
	if b.pend.kind != 0 || b.cur != 1 || b.listed(0, "decline") {
		t.Errorf("an Enterprise was offered with no smaller piece in the stash")
	}
	if l := b.locOf(target); l == nil || l.second.Size != 0 || l.marker != before {
		t.Errorf("the system changed: %+v", l)
	}
	if e := b.lastConcentration(); e == nil || e.kind != evConcentration || e.effect != effNothingStash {
		t.Errorf("concentration event %+v, want one that did nothing for want of a piece", e)
	}
}

// TestSmallCase_EveryoneEliminatedAtOnceNoEvilEver: an Armageddon that takes every remaining
// player, none of whom was ever Evil, ends the game with nobody winning: a draw among none,
// every seat ranked last together.
func TestSmallCase_EveryoneEliminatedAtOnceNoEvilEver(t *testing.T) {
	for _, seats := range []int{2, 3} {
		b := newBoard(t, seats)
		target := b.sys("y3")
		door := b.sys("y2")
		// Seats 1.. have their only ships in the target; seat 0 moves its only ship in.
		for i := 0; i < 4; i++ {
			b.ship(target, 1+i%(seats-1), "r1")
		}
		m := b.ship(door, 0, "r1")
		b.do(0, FormatAction(Move(m, target)))
		if !b.Terminal() || b.end != pb.EndKind_END_KIND_NO_SURVIVOR || b.winners != 0 {
			t.Errorf("%d seats: end %v winners %b", seats, b.end, b.winners)
		}
		r := b.Result()
		if w := r.Winners(); len(w) != 0 {
			t.Errorf("%d seats: winners %v, want none", seats, w)
		}
		for i, rank := range r.Ranks {
			if rank != seats || r.Scores[i] != 0 {
				t.Errorf("%d seats: seat %d rank %d score %v, want every seat last (%d) with 0", seats, i, rank, r.Scores[i], seats)
			}
		}
		if r.Reason != engine.EndNormal || !strings.Contains(r.Detail, "nobody wins") {
			t.Errorf("%d seats: reason %v detail %q", seats, r.Reason, r.Detail)
		}
	}
}

// TestSmallCase_StashTooSmallRefusedAtCreation: a stash option that cannot give every seat a
// small first ship (4 x stash < 3 x seats) is refused when the match is created, and the
// smallest stash that can is accepted.
func TestSmallCase_StashTooSmallRefusedAtCreation(t *testing.T) {
	for seats := 2; seats <= 6; seats++ {
		least := (3*seats + 3) / 4 // the smallest n with 4n >= 3 x seats
		least = max(least, 2)      // and the option's own floor
		for _, n := range []int{least - 1, least} {
			_, err := engine.New(Name, engine.Config{Seats: seats, Seed: 1, Options: map[string]string{OptStash: strconv.Itoa(n)}})
			switch {
			case n < least && n >= 2:
				if !errors.Is(err, engine.ErrBadOption) || !strings.Contains(err.Error(), "too small") {
					t.Errorf("%d seats, stash=%d: got %v, want refused as too small", seats, n, err)
				}
			case n < 2:
				if !errors.Is(err, engine.ErrBadOption) {
					t.Errorf("%d seats, stash=%d: got %v, want refused", seats, n, err)
				}
			default:
				if err != nil {
					t.Errorf("%d seats, stash=%d: %v", seats, n, err)
				}
			}
		}
	}
}

// ---- Who sees what ----

// alignmentsSeen is what viewer's observation shows of every seat's alignment.
func alignmentsSeen(s *State, viewer engine.Seat) []pb.Alignment {
	o := s.Observe(viewer).(*pb.Observation)
	var out []pb.Alignment
	for _, p := range o.GetPlayers() {
		out = append(out, p.GetAlignment())
	}
	return out
}

// eventAlignments collects every alignment viewer's events show.
func eventAlignments(s *State, viewer engine.Seat) []pb.Alignment {
	var out []pb.Alignment
	for _, m := range s.Events(viewer, 0, nil) {
		e := m.(*pb.Event)
		switch k := e.GetKind().(type) {
		case *pb.Event_AlignmentAssigned:
			out = append(out, k.AlignmentAssigned.GetAlignment())
		case *pb.Event_AlignmentsRevealed:
			out = append(out, k.AlignmentsRevealed.GetAlignments()...)
		case *pb.Event_GameOver:
			out = append(out, k.GameOver.GetAlignments()...)
		case *pb.Event_ActionTaken:
			if strings.HasPrefix(k.ActionTaken.GetNotation(), "align") {
				out = append(out, good) // a seat's own choice, shown in full (the value does not matter here)
			}
		}
	}
	var known []pb.Alignment
	for _, a := range out {
		if a != pb.Alignment_ALIGNMENT_UNSPECIFIED {
			known = append(known, a)
		}
	}
	return known
}

const (
	good = pb.Alignment_ALIGNMENT_GOOD
	evil = pb.Alignment_ALIGNMENT_EVIL
	none = pb.Alignment_ALIGNMENT_UNSPECIFIED
)

// TestWhoSeesWhat_SpectatorSeesWhatEveryPlayerKnows: before the reveal a player sees only its
// own alignment and a spectator none, in the observation, its text and the events; a
// self-elimination reveals nothing; the first elimination credited to a player reveals every
// alignment to everyone, the spectator included, and from then on a Good player turned Evil
// is seen as Evil by all.
func TestWhoSeesWhat_SpectatorSeesWhatEveryPlayerKnows(t *testing.T) {
	b := newBoard(t, 4)
	b.evil(3)
	a := b.sys("r3")
	far := b.sys("g3")
	b.ship(a, 0, "r3")
	b.ship(a, 1, "g1")   // seat 1's only ship: seat 0 will destroy it
	b.ship(far, 2, "y1") // seat 2's only ship: seat 2 will discover it (self-elimination)
	b.ship(far, 3, "b2") // seat 3 (Evil) stays
	b.ship(far, 3, "b1") // a second ship, so seat 3 survives
	b.ship(far, 2, "g1") // seat 2 keeps a ship until its discovery below
	b.players[1].align = Good

	check := func(stage string, want map[engine.Seat][]pb.Alignment) {
		t.Helper()
		for viewer, w := range want {
			if got := alignmentsSeen(b.State, viewer); !slices.Equal(got, w) {
				t.Errorf("%s: seat %d sees alignments %v, want %v", stage, viewer, got, w)
			}
		}
		spec := b.Render(engine.Spectator)
		hidden := slices.Equal(want[engine.Spectator], []pb.Alignment{none, none, none, none})
		if hidden && (strings.Contains(spec, "Good") || strings.Contains(spec, "Evil")) {
			t.Errorf("%s: the spectator's text shows an alignment:\n%s", stage, spec)
		}
		if hidden && len(eventAlignments(b.State, engine.Spectator)) != 0 {
			t.Errorf("%s: the spectator's events show an alignment", stage)
		}
	}
	check("before any elimination", map[engine.Seat][]pb.Alignment{
		engine.Spectator: {none, none, none, none},
		0:                {good, none, none, none},
		3:                {none, none, none, evil},
	})

	// Seat 0 passes; seat 1 passes; seat 2 discovers one ship and later its last: a
	// self-elimination reveals nothing.
	b.do(0, "pass")
	b.do(1, "pass")
	b.do(2, "discover s5")
	b.do(3, "pass")
	b.do(0, "pass")
	b.do(1, "pass")
	b.do(2, "discover s2")
	if !b.players[2].out || b.players[2].outBy != -1 {
		t.Fatalf("seat 2 did not eliminate itself: %+v", b.players[2])
	}
	check("after a self-elimination", map[engine.Seat][]pb.Alignment{
		engine.Spectator: {none, none, none, none},
		1:                {none, good, none, none},
	})

	// Seat 3 passes; seat 0 (Good) destroys seat 1 (Good): the reveal, and seat 0 turns Evil.
	b.do(3, "pass")
	b.do(0, "attack s1 with s0")
	if b.Terminal() || !b.players[0].turnedEvil {
		t.Fatalf("Good seat 0 did not turn Evil: terminal %v, %+v", b.Terminal(), b.players[0])
	}
	all := []pb.Alignment{evil, good, good, evil}
	check("after the first credited elimination", map[engine.Seat][]pb.Alignment{
		engine.Spectator: all, 0: all, 1: all, 2: all, 3: all,
	})
	o := b.Observe(engine.Spectator).(*pb.Observation)
	if !o.GetAlignmentsRevealed() || !o.GetPlayers()[0].GetTurnedEvil() {
		t.Errorf("spectator: revealed %v, seat 0 turned Evil %v", o.GetAlignmentsRevealed(), o.GetPlayers()[0].GetTurnedEvil())
	}
	// The spectator's events now carry the reveal, with the alignments as they were then.
	var revealed []pb.Alignment
	for _, m := range b.Events(engine.Spectator, 0, nil) {
		if r := m.(*pb.Event).GetAlignmentsRevealed(); r != nil {
			revealed = r.GetAlignments()
		}
	}
	if !slices.Equal(revealed, []pb.Alignment{good, good, good, evil}) {
		t.Errorf("the reveal event shows %v", revealed)
	}
}

// TestWhoSeesWhat_RandomAlignmentsHiddenFromSpectator: assigned alignments are told to each
// seat alone; a spectator's events and view hold none until the reveal.
func TestWhoSeesWhat_RandomAlignmentsHiddenFromSpectator(t *testing.T) {
	s := newMatch(t, 4, OptAlignment, "random")
	if got := alignmentsSeen(s, engine.Spectator); !slices.Equal(got, []pb.Alignment{none, none, none, none}) {
		t.Errorf("spectator sees %v", got)
	}
	if n := len(eventAlignments(s, engine.Spectator)); n != 0 {
		t.Errorf("spectator's events show %d alignments", n)
	}
	for seat := 0; seat < 4; seat++ {
		seen := alignmentsSeen(s, engine.Seat(seat))
		for i, a := range seen {
			if (i == seat) != (a != none) {
				t.Errorf("seat %d sees alignments %v", seat, seen)
			}
		}
		if n := len(eventAlignments(s, engine.Seat(seat))); n != 1 {
			t.Errorf("seat %d's events show %d alignments, want its own", seat, n)
		}
	}
}
