package icetraders

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

func newMatch(t *testing.T, seats int, opts ...string) *State {
	t.Helper()
	o := map[string]string{}
	for i := 0; i+1 < len(opts); i += 2 {
		o[opts[i]] = opts[i+1]
	}
	st, err := engine.New(Name, engine.Config{Seats: seats, Seed: 7, Options: o})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

func apply(t *testing.T, s *State, seat int, text string) {
	t.Helper()
	a, err := ParseAction(text)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(engine.Seat(seat), a); err != nil {
		t.Fatalf("%q for seat %d: %v", text, seat, err)
	}
	checkConservation(t, s)
}

func toAct(s *State) []engine.Seat { return s.ToAct(nil) }

func TestStash_DefaultSizeAndOption(t *testing.T) {
	for _, tc := range []struct {
		seats int
		opt   string
		want  int
	}{
		{2, "", 5}, {3, "", 5}, {4, "", 5}, {5, "", 6}, {6, "", 6}, {4, "7", 7}, {6, "5", 5}, {2, "2", 2},
	} {
		var opts []string
		if tc.opt != "" {
			opts = []string{OptStash, tc.opt}
		}
		s := newMatch(t, tc.seats, opts...)
		for k := range s.stash {
			if int(s.stash[k]) != tc.want {
				t.Errorf("seats %d stash=%q: %d %s, want %d", tc.seats, tc.opt, s.stash[k], pieceOfKind(k), tc.want)
			}
		}
		if got := 0; true {
			for k := range s.stash {
				got += int(s.stash[k])
			}
			if got != 12*tc.want {
				t.Errorf("seats %d: %d pieces, want %d", tc.seats, got, 12*tc.want)
			}
		}
	}
}

func TestOptions_BadValuesRejected(t *testing.T) {
	for _, tc := range []struct {
		seats      int
		name, val  string
		wantInText string
	}{
		{4, OptStash, "1", "stash"},
		{6, OptStash, "4", "too small"},
		{4, OptStash, "x", "stash"},
		{4, OptStash, "21", "stash"},
		{4, OptAlignment, "maybe", "alignment"},
		{4, OptTurnCap, "0", "turn_cap"},
		{4, OptTurnCap, "1001", "turn_cap"},
		{4, OptPassRounds, "-1", "pass_rounds"},
	} {
		_, err := engine.New(Name, engine.Config{Seats: tc.seats, Seed: 1, Options: map[string]string{tc.name: tc.val}})
		if !errors.Is(err, engine.ErrBadOption) || !strings.Contains(err.Error(), tc.wantInText) {
			t.Errorf("%s=%s: got %v, want ErrBadOption naming %q", tc.name, tc.val, err, tc.wantInText)
		}
	}
}

func TestAlignment_ChosenSimultaneously(t *testing.T) {
	s := newMatch(t, 3)
	if got := toAct(s); !slices.Equal(got, []engine.Seat{0, 1, 2}) {
		t.Fatalf("ToAct = %v, want every seat", got)
	}
	apply(t, s, 1, "align evil")
	if got := toAct(s); !slices.Equal(got, []engine.Seat{0, 2}) {
		t.Errorf("ToAct = %v, want the seats that have not chosen", got)
	}
	if err := s.Apply(1, ChooseAlignment(Good)); !errors.Is(err, engine.ErrNotYourTurn) {
		t.Errorf("choosing twice: %v, want ErrNotYourTurn", err)
	}
	apply(t, s, 2, "align good")
	apply(t, s, 0, "align good")
	if s.phase != phasePicks || len(toAct(s)) != 3 {
		t.Errorf("after every alignment: phase %v, ToAct %v; want opening picks for all", s.phase, toAct(s))
	}
}

func TestAlignment_SeenOnlyByOwnSeat(t *testing.T) {
	s := newMatch(t, 3)
	apply(t, s, 1, "align evil")
	for _, viewer := range []engine.Seat{engine.Spectator, 0, 2} {
		o := s.Observe(viewer).(*pb.Observation)
		if got := o.GetPlayers()[1].GetAlignment(); got != pb.Alignment_ALIGNMENT_UNSPECIFIED {
			t.Errorf("viewer %d sees seat 1's alignment %v", viewer, got)
		}
		if !o.GetPlayers()[1].GetAlignmentChosen() {
			t.Errorf("viewer %d does not see that seat 1 has chosen", viewer)
		}
		ev := s.Events(viewer, 0, nil)[0].(*pb.Event).GetActionTaken()
		if !ev.GetRedacted() || ev.GetAction() != nil || strings.Contains(ev.GetNotation(), "evil") {
			t.Errorf("viewer %d sees seat 1's choice in its event: %v", viewer, ev)
		}
	}
	o := s.Observe(1).(*pb.Observation)
	if got := o.GetPlayers()[1].GetAlignment(); got != pb.Alignment_ALIGNMENT_EVIL {
		t.Errorf("seat 1 sees its own alignment as %v", got)
	}
	if ev := s.Events(1, 0, nil)[0].(*pb.Event).GetActionTaken(); ev.GetRedacted() || ev.GetNotation() != "align evil" {
		t.Errorf("seat 1's own event is %v", ev)
	}
}

func TestAlignment_RandomOptionAssigns(t *testing.T) {
	evil := 0
	for seed := uint64(1); seed <= 40; seed++ {
		st, err := engine.New(Name, engine.Config{Seats: 4, Seed: seed, Options: map[string]string{OptAlignment: "random"}})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		if s.phase != phasePicks {
			t.Fatalf("random alignments: phase %v, want opening picks", s.phase)
		}
		for i := range s.players {
			if s.players[i].align == Unknown {
				t.Fatalf("seat %d has no alignment", i)
			}
			if s.players[i].align == Evil {
				evil++
			}
			o := s.Observe(engine.Seat(i)).(*pb.Observation)
			for j, p := range o.GetPlayers() {
				if (j == i) != (p.GetAlignment() != pb.Alignment_ALIGNMENT_UNSPECIFIED) {
					t.Errorf("seat %d sees seat %d's alignment as %v", i, j, p.GetAlignment())
				}
			}
		}
	}
	if evil < 40 || evil > 120 {
		t.Errorf("%d Evil of 160 random alignments: not a fair coin", evil)
	}
}

func TestAlignment_SpectatorSeesNoneUntilReveal(t *testing.T) {
	b := newBoard(t, 3)
	sys := b.sys("r3")
	b.ship(sys, 0, "r3")
	b.ship(sys, 1, "g1")
	b.ship(sys, 2, "b2")
	o := b.Observe(engine.Spectator).(*pb.Observation)
	for _, p := range o.GetPlayers() {
		if p.GetAlignment() != pb.Alignment_ALIGNMENT_UNSPECIFIED {
			t.Errorf("spectator sees seat %d's alignment before the reveal", p.GetSeat())
		}
	}
	b.do(0, "attack s1 with s0")
	o = b.Observe(engine.Spectator).(*pb.Observation)
	for _, p := range o.GetPlayers() {
		if p.GetAlignment() == pb.Alignment_ALIGNMENT_UNSPECIFIED {
			t.Errorf("spectator does not see seat %d's alignment after the reveal", p.GetSeat())
		}
	}
}

// pickAll chooses alignments and the given picks for every seat.
func pickAll(t *testing.T, s *State, picks ...string) {
	t.Helper()
	if s.phase == phaseAlign {
		for i := range s.players {
			apply(t, s, i, "align good")
		}
	}
	for i, p := range picks {
		apply(t, s, i, "pick "+p)
	}
}

func TestOpeningPicks_SecretUntilAllChosen(t *testing.T) {
	s := newMatch(t, 3)
	pickAll(t, s, "red large, blue small")
	for _, viewer := range []engine.Seat{engine.Spectator, 1, 2} {
		o := s.Observe(viewer).(*pb.Observation)
		if o.GetPlayers()[0].GetFirstPick() != nil || !o.GetPlayers()[0].GetPicksChosen() {
			t.Errorf("viewer %d: seat 0's picks are %v before the reveal", viewer, o.GetPlayers()[0].GetFirstPick())
		}
		if len(o.GetSystems()) != 0 {
			t.Errorf("viewer %d sees systems before the reveal", viewer)
		}
	}
	if o := s.Observe(0).(*pb.Observation); o.GetPlayers()[0].GetFirstPick().GetColor() != pb.Color_COLOR_RED {
		t.Errorf("seat 0 does not see its own first pick")
	}
	if s.stash[pc("r3").kind()] != 5 {
		t.Errorf("a secret pick took a piece from the stash before the reveal")
	}
	apply(t, s, 1, "pick green medium, green large")
	apply(t, s, 2, "pick yellow small, red medium")
	o := s.Observe(engine.Spectator).(*pb.Observation)
	if len(o.GetSystems()) != 6 || o.GetPlayers()[2].GetSecondPick().GetColor() != pb.Color_COLOR_RED {
		t.Errorf("after every pick: %d systems, want 6, all picks shown", len(o.GetSystems()))
	}
	// Seat s's first pick is system 2s, its second 2s+1.
	for i := range s.players {
		for slot := 0; slot < 2; slot++ {
			l := s.locs[s.locIdx(2*i+slot)]
			if l.marker != s.players[i].picks[slot] {
				t.Errorf("sys%d is %s, want seat %d's pick %s", 2*i+slot, l.marker, i, s.players[i].picks[slot])
			}
		}
	}
}

func TestOpeningPicks_RepickWhenStashShort(t *testing.T) {
	// Stash 2 per kind: first picks are served before second picks, so seat 0's and seat 1's
	// first red large leave none for seat 0's second; seat 1's second (blue small) is served.
	s := newMatch(t, 2, OptStash, "2")
	pickAll(t, s, "red large, red large", "red large, blue small")
	if s.phase != phaseRepick {
		t.Fatalf("phase %v, want repicks", s.phase)
	}
	if !s.players[1].served[0] || !s.players[1].served[1] || !s.players[0].served[0] || s.players[0].served[1] {
		t.Fatalf("served = %v %v: want every pick but seat 0's second", s.players[0].served, s.players[1].served)
	}
	if got := toAct(s); !slices.Equal(got, []engine.Seat{0}) {
		t.Fatalf("ToAct %v, want seat 0 to repick", got)
	}
	revealedEvent := func() *pb.PicksRevealed {
		for _, e := range s.Events(engine.Spectator, 0, nil) {
			if x := e.(*pb.Event).GetPicksRevealed(); x != nil {
				return x
			}
		}
		return nil
	}
	if pr := revealedEvent(); pr.GetPicks()[0].GetSecondServed() {
		t.Errorf("during the repicks the event says seat 0's second pick was served: %v", pr)
	}
	b := board{s, t}
	b.refuse(0, "repick red large")
	if b.listed(0, "repick red large") || !b.listed(0, "repick red medium") {
		t.Errorf("repick lists %v", b.legalTexts(0))
	}
	apply(t, s, 0, "repick red medium")
	if s.phase != phasePlay || s.players[0].picks[1] != pc("r2") || s.locs[s.locIdx(1)].marker != pc("r2") {
		t.Errorf("after the repick: phase %v, seat 0 picks %v", s.phase, s.players[0].picks)
	}
	if pr := revealedEvent(); pr == nil || pr.GetPicks()[0].GetSecondServed() || !pr.GetPicks()[0].GetFirstServed() || !pr.GetPicks()[1].GetFirstServed() {
		t.Errorf("picks revealed event: %v", pr)
	}
}

func TestOpeningPicks_RepicksInSeatOrder(t *testing.T) {
	// Stash 3 per kind, 4 seats all picking red large then blue large: seats 0-2 are served
	// both picks and seat 3 neither, so seat 3 repicks its first pick, then its second.
	s := newMatch(t, 4, OptStash, "3")
	pickAll(t, s, "red large, blue large", "red large, blue large", "red large, blue large", "red large, blue large")
	want := [][2]bool{{true, true}, {true, true}, {true, true}, {false, false}}
	for i := range s.players {
		if s.players[i].served != want[i] {
			t.Errorf("seat %d served %v, want %v", i, s.players[i].served, want[i])
		}
	}
	apply(t, s, 3, "repick green large")
	if got := toAct(s); !slices.Equal(got, []engine.Seat{3}) {
		t.Errorf("ToAct %v, want seat 3 again for its second pick", got)
	}
	o := s.Observe(0).(*pb.Observation)
	if r := o.GetPendingRepick(); r.GetSeat() != 3 || r.GetSlot() != 2 {
		t.Errorf("pending repick %v, want seat 3 slot 2", r)
	}
	apply(t, s, 3, "repick green small")
	if s.phase != phasePlay {
		t.Errorf("phase %v after the last repick, want play", s.phase)
	}
}

func TestConnection_SameSizeOrColorNotBoth(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"r3", "b3", true},  // same size
		{"r3", "r1", true},  // same color
		{"r3", "r3", false}, // both
		{"r3", "b2", false}, // neither
		{"g1", "y1", true},
		{"g1", "g2", true},
	} {
		if got := Connected(pc(tc.a), pc(tc.b)); got != tc.want {
			t.Errorf("Connected(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestFirstPlayer_MostConnectionsOfFirstPick(t *testing.T) {
	// Systems: r3 b1 | g2 y3 | r1 r2. Seat 2's first pick r1 connects to r3, b1, r2 (3).
	s := newMatch(t, 3)
	pickAll(t, s, "red large, blue small", "green medium, yellow large", "red small, red medium")
	if s.first != 2 || s.cur != 2 {
		t.Errorf("first player %d, want seat 2 (connections %d %d %d)", s.first, s.connections(0, 0), s.connections(1, 0), s.connections(2, 0))
	}
}

func TestFirstPlayer_TieBrokenBySecondPick(t *testing.T) {
	// Systems r3 y1 | b3 g3: both first picks have 2 connections; seat 1's second pick g3 has
	// 2 against seat 0's y1 with none.
	s := newMatch(t, 2)
	pickAll(t, s, "red large, yellow small", "blue large, green large")
	c00, c10 := s.connections(0, 0), s.connections(1, 0)
	c01, c11 := s.connections(0, 1), s.connections(1, 1)
	if c00 != c10 {
		t.Fatalf("set-up: first picks have %d and %d connections, want a tie", c00, c10)
	}
	if c11 <= c01 {
		t.Fatalf("set-up: second picks have %d and %d connections, want seat 1 ahead", c01, c11)
	}
	if s.first != 1 {
		t.Errorf("first player %d, want seat 1 by its second pick", s.first)
	}
}

func TestFirstPlayer_TieBrokenByLowestSeat(t *testing.T) {
	s := newMatch(t, 2)
	pickAll(t, s, "red large, red large", "red large, red large")
	if s.first != 0 {
		t.Errorf("first player %d, want the lowest seat", s.first)
	}
	s = newMatch(t, 2)
	pickAll(t, s, "green medium, yellow small", "blue medium, red small")
	if s.connections(0, 0) != s.connections(1, 0) || s.connections(0, 1) != s.connections(1, 1) {
		t.Fatalf("set-up: not a full tie")
	}
	if s.first != 0 {
		t.Errorf("first player %d, want seat 0", s.first)
	}
}

func TestTurnOrder_SeatOrderFromFirstPlayer(t *testing.T) {
	s := newMatch(t, 3)
	pickAll(t, s, "red large, blue small", "green medium, yellow large", "red small, red medium")
	var order []int8
	for i := 0; i < 4; i++ {
		order = append(order, s.cur)
		b := board{s, t}
		apply(t, s, int(s.cur), b.legalTexts(int(s.cur))[0])
	}
	if !slices.Equal(order, []int8{2, 0, 1, 2}) {
		t.Errorf("turn order %v, want 2 0 1 2", order)
	}
}

func TestFirstRound_PlaceSmallShipBesideAnySystem(t *testing.T) {
	s := newMatch(t, 2)
	pickAll(t, s, "red large, blue small", "green medium, yellow large")
	b := board{s, t}
	seat := int(s.cur)
	legal := b.legalTexts(seat)
	if len(legal) != 4*4 {
		t.Errorf("first turn lists %d actions, want 4 systems x 4 colors: %v", len(legal), legal)
	}
	for _, a := range legal {
		if !strings.HasPrefix(a, "place ") {
			t.Errorf("first turn lists %q", a)
		}
	}
	b.refuse(seat, "pass")
	b.do(seat, "place yellow at sys3")
	x := s.ships[0]
	if x.piece != pc("y1") || x.loc != 3 || int(x.owner) != seat || !s.players[seat].placed {
		t.Errorf("placed ship %+v", x)
	}
	if int(s.cur) == seat {
		t.Errorf("the placement did not end the turn")
	}
}
