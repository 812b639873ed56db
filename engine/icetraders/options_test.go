package icetraders

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// The rules' [decision]s are options (rules/README.md): these tests play each non-default
// value; the default values are what the other rule tests play.

// ruleOptions are the [decision] options with their default and other value.
var ruleOptions = []struct{ name, def, alt string }{
	{OptGreenAdd, "own", "any"},
	{OptReduceColor, "same", "choose"},
	{OptRndWhere, "same", "any"},
	{OptRepickOrder, "seat", "pairs"},
	{OptGoodWinEliminated, "true", "false"},
	{OptFirstTiebreak, "second_pick", "lowest_seat"},
}

func TestOptions_RuleDecisionsDocumentedWithDefaults(t *testing.T) {
	info := game{}.Info()
	for _, o := range ruleOptions {
		i := slices.IndexFunc(info.Options, func(x engine.Option) bool { return x.Name == o.name })
		if i < 0 {
			t.Errorf("option %s missing from Info", o.name)
			continue
		}
		opt := info.Options[i]
		if opt.Default != o.def {
			t.Errorf("%s defaults to %q, want %q", o.name, opt.Default, o.def)
		}
		for _, v := range []string{o.def, o.alt} {
			if !strings.Contains(opt.Help, v) {
				t.Errorf("%s's help does not mention %q: %s", o.name, v, opt.Help)
			}
		}
	}
	var c config
	if c.ruleBits() != 0 {
		t.Errorf("a zero config does not play the default rules")
	}
	d, err := parseConfig(engine.Config{Seats: 2})
	if err != nil || d.ruleBits() != 0 {
		t.Errorf("the default options set rule bits %b, %v", d.ruleBits(), err)
	}
}

func TestOptions_RuleDecisionsBadValuesRejected(t *testing.T) {
	for _, o := range ruleOptions {
		for _, v := range []string{"", "maybe", strings.ToUpper(o.alt)} {
			_, err := engine.New(Name, engine.Config{Seats: 2, Seed: 1, Options: map[string]string{o.name: v}})
			if !errors.Is(err, engine.ErrBadOption) {
				t.Errorf("%s=%q: got %v, want ErrBadOption", o.name, v, err)
				continue
			}
			for _, want := range []string{o.name, o.def, o.alt} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s=%q: error %q does not name %q", o.name, v, err, want)
				}
			}
		}
		for _, v := range []string{o.def, o.alt} {
			if _, err := engine.New(Name, engine.Config{Seats: 2, Seed: 1, Options: map[string]string{o.name: v}}); err != nil {
				t.Errorf("%s=%q rejected: %v", o.name, v, err)
			}
		}
	}
}

// TestOptions_OldValuesRefusedNamingTheNew: the enumerated values renamed to lower_snake_case
// (issue 12) refuse their old spelling with a message naming the new one.
func TestOptions_OldValuesRefusedNamingTheNew(t *testing.T) {
	for old, now := range map[string]string{"second-pick": "second_pick", "lowest-seat": "lowest_seat"} {
		_, err := engine.New(Name, engine.Config{Seats: 2, Seed: 1, Options: map[string]string{OptFirstTiebreak: old}})
		if !errors.Is(err, engine.ErrBadOption) || !strings.Contains(err.Error(), `was renamed "`+now+`"`) {
			t.Errorf("%s=%s: got %v, want ErrBadOption naming %q", OptFirstTiebreak, old, err, now)
		}
	}
	// A value renamed for one option is no value of another.
	_, err := engine.New(Name, engine.Config{Seats: 2, Seed: 1, Options: map[string]string{OptRepickOrder: "lowest-seat"}})
	if !errors.Is(err, engine.ErrBadOption) || strings.Contains(err.Error(), "renamed") {
		t.Errorf("%s=lowest-seat: got %v, want a plain bad value", OptRepickOrder, err)
	}
}

func TestOptions_RuleDecisionsInState(t *testing.T) {
	def, _ := newMatch(t, 2).MarshalBinary()
	seen := map[string]string{}
	for _, o := range ruleOptions {
		b, _ := newMatch(t, 2, o.name, o.alt).MarshalBinary()
		if bytes.Equal(b, def) {
			t.Errorf("%s=%s does not show in MarshalBinary", o.name, o.alt)
		}
		if other, dup := seen[string(b)]; dup {
			t.Errorf("%s=%s and %s marshal alike", o.name, o.alt, other)
		}
		seen[string(b)] = o.name
	}
}

// ---- green_add ----

func adds(b board, seat int) []string {
	var out []string
	for _, s := range b.legalTexts(seat) {
		if strings.HasPrefix(s, "add ") {
			out = append(out, s)
		}
	}
	return out
}

func TestGreen_AddInAnySystemWhenOptionSet(t *testing.T) {
	b := newBoard(t, 2, OptGreenAdd, "any")
	a := b.sys("r3")
	c := b.sys("y2")
	full := b.sys("b1")
	x := b.ship(a, 0, "g2")
	b.ship(a, 1, "b3")
	b.addShips(c, 1, "y1", "y1", "y1")
	b.addShips(full, 1, "r1", "r1", "r1", "r1")
	h := b.hyper()
	b.ship(h, 1, "y2")
	want := []string{
		fmt.Sprintf("add small from s%d to sys%d", x, a), fmt.Sprintf("add medium from s%d to sys%d", x, a),
		fmt.Sprintf("add small from s%d to sys%d", x, c), fmt.Sprintf("add medium from s%d to sys%d", x, c),
	}
	if got := adds(b, 0); !slices.Equal(got, want) {
		t.Errorf("adds %v, want %v", got, want)
	}
	b.refuse(0, fmt.Sprintf("add small from s%d", x))                     // the system must be named
	b.refuse(0, fmt.Sprintf("add small from s%d to sys%d", x, full))      // four ships
	b.refuse(0, fmt.Sprintf("add small from s%d to sys%d", x, h))         // a hyperspace
	b.refuse(0, fmt.Sprintf("add small from s%d to sys%d", x, b.nextLoc)) // no such system
	b.refuse(0, fmt.Sprintf("add large from s%d to sys%d", x, c))         // larger than the ship
	b.do(0, fmt.Sprintf("add medium from s%d to sys%d", x, c))
	n := b.ships[len(b.ships)-1]
	if n.piece != pc("g2") || n.loc != int16(c) || n.owner != 0 {
		t.Errorf("added ship %+v, want seat 0's green medium in sys%d", n, c)
	}
	if b.shipsAt(int16(a)) != 2 {
		t.Errorf("the acting ship's system changed: %d ships", b.shipsAt(int16(a)))
	}
}

func TestGreen_AddFromHyperspaceToASystemWhenOptionSet(t *testing.T) {
	// The seed's "a system" does not tie the new ship to the acting ship's place: a green
	// ship in a hyperspace may add one to a system, though never to the hyperspace.
	b := newBoard(t, 2, OptGreenAdd, "any")
	a := b.sys("r3")
	b.ship(a, 1, "b3")
	h := b.hyper()
	x := b.ship(h, 0, "g1")
	if got, want := adds(b, 0), []string{fmt.Sprintf("add small from s%d to sys%d", x, a)}; !slices.Equal(got, want) {
		t.Errorf("adds %v, want %v", got, want)
	}
	b.do(0, fmt.Sprintf("add small from s%d to sys%d", x, a))
	if n := b.ships[len(b.ships)-1]; n.loc != int16(a) || n.owner != 0 {
		t.Errorf("added ship %+v", n)
	}
}

func TestGreen_AddNamesNoSystemByDefault(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	c := b.sys("y2")
	x := b.ship(a, 0, "g2")
	b.ship(a, 1, "b3")
	b.refuse(0, fmt.Sprintf("add small from s%d to sys%d", x, c))
	b.refuse(0, fmt.Sprintf("add small from s%d to sys%d", x, a))
	b.do(0, fmt.Sprintf("add small from s%d", x))
}

func TestGreen_SacrificeAddsToAnySystemWhenOptionSet(t *testing.T) {
	// Through a sacrifice, the receiving ship's color still decides the new ship's color.
	b := newBoard(t, 2, OptGreenAdd, "any")
	a := b.sys("r3")
	c := b.sys("y2")
	g := b.ship(a, 0, "g1")
	x := b.ship(a, 0, "b2")
	b.ship(a, 1, "y3")
	b.do(0, FormatAction(Sacrifice(g)))
	b.refuse(0, FormatAction(Add(x, Medium)))
	b.do(0, FormatAction(AddTo(x, Medium, c)))
	if n := b.ships[len(b.ships)-1]; n.piece != pc("b2") || n.loc != int16(c) {
		t.Errorf("added ship %+v, want blue medium in sys%d", n, c)
	}
}

// ---- reduce_color ----

func attacks(b board, seat int) []string {
	var out []string
	for _, s := range b.legalTexts(seat) {
		if strings.HasPrefix(s, "attack ") {
			out = append(out, s)
		}
	}
	return out
}

func TestRed_ReduceToChosenColorWhenOptionSet(t *testing.T) {
	b := newBoard(t, 2, OptReduceColor, "choose", OptStash, "2")
	a := b.sys("g3")
	r := b.ship(a, 0, "r1")
	b.ship(a, 0, "b3")
	big := b.ship(a, 1, "y3")
	small := b.ship(a, 1, "b1")
	b.addShips(b.sys("g2"), 1, "g2", "b3") // the marker and a ship take both green mediums
	want := []string{
		fmt.Sprintf("attack s%d with s%d into red", big, r),
		fmt.Sprintf("attack s%d with s%d into yellow", big, r),
		fmt.Sprintf("attack s%d with s%d into blue", big, r),
		fmt.Sprintf("attack s%d with s%d", small, r),
	}
	var got []string
	for _, s := range attacks(b, 0) {
		if strings.HasPrefix(s, fmt.Sprintf("attack s%d with s%d", big, r)) || strings.HasPrefix(s, fmt.Sprintf("attack s%d with s%d", small, r)) {
			got = append(got, s)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("s%d's attacks %v, want %v", r, got, want)
	}
	b.refuse(0, fmt.Sprintf("attack s%d with s%d", big, r))             // the color must be named
	b.refuse(0, fmt.Sprintf("attack s%d with s%d into green", big, r))  // none in the stash
	b.refuse(0, fmt.Sprintf("attack s%d with s%d into blue", small, r)) // discarded, not reduced
	b.do(0, fmt.Sprintf("attack s%d with s%d into blue", big, r))
	if got := b.shipOf(big); got.piece != pc("b2") || got.owner != 1 {
		t.Errorf("reduced ship %+v, want seat 1's blue medium", got)
	}
	if b.stashOf("y3") != 2 || b.stashOf("b2") != 1 {
		t.Errorf("stash: %d yellow large (want 2), %d blue medium (want 1)", b.stashOf("y3"), b.stashOf("b2"))
	}
	if b.players[1].out {
		t.Errorf("seat 1 is out, with a blue large left")
	}
}

func TestRed_ReduceNamesNoColorByDefault(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("g3")
	r := b.ship(a, 0, "r1")
	b.ship(a, 0, "b3")
	big := b.ship(a, 1, "y3")
	b.refuse(0, fmt.Sprintf("attack s%d with s%d into blue", big, r))
	b.refuse(0, fmt.Sprintf("attack s%d with s%d into yellow", big, r))
	b.do(0, fmt.Sprintf("attack s%d with s%d", big, r))
}

func TestRed_ReduceToNewColorIsCatalystWhenOptionSet(t *testing.T) {
	// Reducing a ship into green where four green ships stand is a concentration: a Revolt for
	// the attacker, who changed the ship's color.
	b := newBoard(t, 2, OptReduceColor, "choose")
	a := b.sys("y3")
	r := b.ship(a, 0, "r1")
	b.addShips(a, 1, "g1", "g1", "g1", "g1")
	big := b.ship(a, 1, "b3")
	b.ship(b.sys("b2"), 0, "b3")
	b.do(0, fmt.Sprintf("attack s%d with s%d into green", big, r))
	e := b.lastConcentration()
	if e == nil || e.conc != pb.ConcentrationKind_CONCENTRATION_KIND_REVOLT || int(e.ship) != big || e.seat != 0 {
		t.Fatalf("concentration %+v, want seat 0's Revolt with catalyst s%d", e, big)
	}
	if b.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_REVOLT || b.cur != 0 {
		t.Errorf("no Revolt offered to the attacker")
	}
}

// ---- rnd_where ----

func TestResearch_NewShipInAnySystemWhenOptionSet(t *testing.T) {
	b := newBoard(t, 2, OptRndWhere, "any")
	a := b.sys("r3")
	c := b.sys("g2")
	ids := b.addShips(a, 0, "g1", "b1", "y1")
	b.ship(a, 1, "b3")
	h := b.hyper()
	b.ship(h, 1, "y1")
	var systems []int
	for _, s := range b.legalTexts(0) {
		if strings.HasPrefix(s, "research ") && strings.Contains(s, " for red large at ") {
			var x, y, z, sys int
			if _, err := fmt.Sscanf(s, "research s%d s%d s%d for red large at sys%d", &x, &y, &z, &sys); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			systems = append(systems, sys)
		}
	}
	if !slices.Equal(systems, []int{a, c}) {
		t.Errorf("R&D for red large lists systems %v, want %v (no hyperspace)", systems, []int{a, c})
	}
	b.refuse(0, FormatAction(Research(ids[0], ids[1], ids[2], pc("r3"))))        // the system must be named
	b.refuse(0, FormatAction(ResearchAt(ids[0], ids[1], ids[2], pc("r3"), h)))   // a hyperspace
	b.refuse(0, FormatAction(ResearchAt(ids[0], ids[1], ids[2], pc("r3"), 999))) // no such system
	b.do(0, FormatAction(ResearchAt(ids[0], ids[1], ids[2], pc("r3"), c)))
	x := b.ships[len(b.ships)-1]
	if x.piece != pc("r3") || x.loc != int16(c) || x.owner != 0 {
		t.Errorf("R&D's new ship %+v, want seat 0's red large in sys%d", x, c)
	}
	if b.shipsAt(int16(a)) != 1 {
		t.Errorf("the three ships are not all gone from sys%d", a)
	}
}

func TestResearch_NamesNoSystemByDefault(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	ids := b.addShips(a, 0, "g1", "b1", "y1")
	b.ship(a, 1, "b3")
	b.refuse(0, FormatAction(ResearchAt(ids[0], ids[1], ids[2], pc("r3"), a)))
	b.do(0, FormatAction(Research(ids[0], ids[1], ids[2], pc("r3"))))
}

func TestResearch_NewShipIsCatalystWhereItAppearsWhenOptionSet(t *testing.T) {
	b := newBoard(t, 2, OptRndWhere, "any")
	a := b.sys("r3")
	c := b.sys("g2")
	ids := b.addShips(a, 0, "g1", "b1", "r1")
	b.ship(a, 1, "b3")
	b.addShips(c, 1, "y1", "y1", "y1", "y1")
	b.do(0, FormatAction(ResearchAt(ids[0], ids[1], ids[2], pc("y1"), c)))
	if l := b.locOf(c); l == nil || !l.hyper {
		t.Errorf("the fifth yellow ship in sys%d made no hyperspace", c)
	}
}

func TestResearch_NotFromHyperspaceWhenOptionSet(t *testing.T) {
	// R&D swaps ships "in the same system": a hyperspace is none, whatever rnd_where says.
	b := newBoard(t, 2, OptRndWhere, "any")
	a := b.sys("r3")
	b.ship(a, 1, "b3")
	h := b.hyper()
	ids := b.addShips(h, 0, "g1", "b1", "r1")
	b.refuse(0, FormatAction(ResearchAt(ids[0], ids[1], ids[2], pc("y1"), a)))
}

// ---- repick_order ----

func TestOpeningPicks_PairsServedInSeatOrderWhenOptionSet(t *testing.T) {
	// Stash 2 per kind, as in TestOpeningPicks_RepickWhenStashShort: seat 0's two red larges
	// are served first, so seat 1's first pick (red large) is the one chosen again.
	s := newMatch(t, 2, OptStash, "2", OptRepickOrder, "pairs")
	pickAll(t, s, "red large, red large", "red large, blue small")
	if s.phase != phaseRepick {
		t.Fatalf("phase %v, want repick", s.phase)
	}
	want := [][2]bool{{true, true}, {false, true}}
	for i := range s.players {
		if s.players[i].served != want[i] {
			t.Errorf("seat %d served %v, want %v", i, s.players[i].served, want[i])
		}
	}
	if got := toAct(s); !slices.Equal(got, []engine.Seat{1}) {
		t.Errorf("ToAct %v, want seat 1", got)
	}
	apply(t, s, 1, "repick green large")
	if s.phase != phasePlay || s.players[1].picks[0] != pc("g3") || !s.players[1].repicked[0] {
		t.Errorf("after the repick: phase %v, seat 1 picks %v", s.phase, s.players[1].picks)
	}
}

// ---- good_win_includes_eliminated ----

func TestGoodWinsCollectively_OnlyPlayersLeftWhenOptionSet(t *testing.T) {
	// As TestGoodWinsCollectively_NoEvilLeft, but the Good seat 3 eliminated earlier loses.
	b := newBoard(t, 4, OptGoodWinEliminated, "false")
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
	if r := b.Result(); !slices.Equal(r.Ranks, []int{1, 3, 1, 3}) {
		t.Errorf("ranks %v, want only the Good players left first", r.Ranks)
	}
}

// ---- first_tiebreak ----

func TestFirstPlayer_TieBrokenByLowestSeatWhenOptionSet(t *testing.T) {
	// The set-up of TestFirstPlayer_TieBrokenBySecondPick, where seat 1's second pick would
	// win the tie: the option gives it to seat 0.
	s := newMatch(t, 2, OptFirstTiebreak, "lowest_seat")
	pickAll(t, s, "red large, yellow small", "blue large, green large")
	if s.connections(0, 0) != s.connections(1, 0) || s.connections(1, 1) <= s.connections(0, 1) {
		t.Fatalf("set-up: want tied first picks and seat 1's second pick ahead")
	}
	if s.first != 0 {
		t.Errorf("first player %d, want the lowest tied seat", s.first)
	}
	// Most connections of the first pick still decide before any tie-break.
	// Systems r3 y1 | r2 g2: seat 1's red medium connects to r3 and g2, seat 0's red large to
	// r2 only.
	s = newMatch(t, 2, OptFirstTiebreak, "lowest_seat")
	pickAll(t, s, "red large, yellow small", "red medium, green medium")
	if s.first != 1 {
		t.Errorf("first player %d, want seat 1 by its first pick (%d vs %d connections)", s.first, s.connections(1, 0), s.connections(0, 0))
	}
}
