package pantropia

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
)

// fillAllBut fills every joint except keep with rings of seats 1 and 2.
func fillAllBut(s *state, keep ...int) {
	skip := map[int]bool{}
	for _, k := range keep {
		skip[k] = true
	}
	for j := range s.joints {
		if !skip[j] {
			s.rings(int8(1+j%2), j)
		}
	}
}

func TestEnd_WhenEveryJointHoldsARing(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	e := int(Geo.EndJoint(Geo.Intersections[x].Struts[0], int16(x)))
	s.build(0, x, false)
	fillAllBut(s, e)
	s.pl[0].chips = chips(1, 0, 0, 0, 1, 0)
	mustApply(t, s, 0, Ring(e))
	if !s.Terminal() || len(toAct(s)) != 0 {
		t.Fatalf("game goes on with every joint full")
	}
	r := s.Result()
	if r.Reason != engine.EndNormal {
		t.Errorf("reason %v", r.Reason)
	}
	if r.Scores[0] != 1 || r.Scores[1]+r.Scores[2] != 179 || r.Scores[3] != 0 {
		t.Errorf("scores %v", r.Scores)
	}
	best := 1
	if r.Scores[2] > r.Scores[1] {
		best = 2
	}
	if r.Ranks[best] != 1 || r.Ranks[3-best] != 2 || r.Ranks[0] != 3 || r.Ranks[3] != 4 {
		t.Errorf("scores %v ranks %v: most rings wins", r.Scores, r.Ranks)
	}
	mustFail(t, s, 0, End(), engine.ErrGameOver)
}

// TestEnd_AtOnceEvenPartwayThroughAnOrbitalMirror: the check follows every placement.
func TestEnd_AtOnceEvenPartwayThroughAnOrbitalMirror(t *testing.T) {
	s := blank(t, 4)
	x := site(Red, Green)
	e := int(Geo.EndJoint(Geo.Intersections[x].Struts[0], int16(x)))
	s.build(0, x, false)
	fillAllBut(s, e)
	s.give(0, OrbitalMirror)
	mustApply(t, s, 0, Play(OrbitalMirror))
	mustApply(t, s, 0, Ring(e))
	if !s.Terminal() {
		t.Errorf("the mirror went on after the last joint was filled")
	}
}

// TestEnd_TiesShareTheWin covers the [decision].
func TestEnd_TiesShareTheWin(t *testing.T) {
	s := blank(t, 4)
	s.rings(0, 1, 2)
	s.rings(2, 3, 4)
	s.rings(1, 5)
	r := s.Result()
	if r.Ranks[0] != 1 || r.Ranks[2] != 1 || r.Ranks[1] != 3 || r.Ranks[3] != 4 {
		t.Errorf("ranks %v", r.Ranks)
	}
}

// TestEnd_TurnCap covers the [decision] cap (an option, default 400).
func TestEnd_TurnCap(t *testing.T) {
	if blank(t, 4).cfg.turnCap != 400 {
		t.Errorf("default cap is not 400")
	}
	s := blank(t, 3, "turn_cap=5", "stall_rounds=0")
	for i := 0; i < 5; i++ {
		if s.Terminal() {
			t.Fatalf("ended after %d turns", i)
		}
		s.phase = PhaseMain
		mustApply(t, s, s.active, End())
	}
	if !s.Terminal() || s.Result().Reason != engine.EndCap {
		t.Errorf("not ended by the cap: %v", s.Result())
	}
}

// TestEnd_StallRule_TenFullRoundsAfterTheLastFill covers the revised stall rule: after a
// fill in turn t the count restarts with turn t+1, and with 3 seats the game ends at the
// end of turn t+30, not a turn earlier.
func TestEnd_StallRule_TenFullRoundsAfterTheLastFill(t *testing.T) {
	s := blank(t, 3)
	s.lastFill = -1 // as after setup
	y := site(Blue, Yellow)
	s.build(2, y, false)
	const fill = 5
	for !s.Terminal() && s.turn < 100 {
		s.phase = PhaseMain
		if s.turn == fill { // p2 fills an empty joint: the count starts again
			s.active = 2
			s.pl[2].chips = chips(1, 0, 0, 0, 1, 0)
			mustApply(t, s, 2, Ring(int(Geo.EndJoint(Geo.Intersections[y].Struts[0], int16(y)))))
			if got := s.Observe(engine.Spectator).(*pb.Observation).StallTurns; got != 0 {
				t.Errorf("stall_turns %d in the turn of the fill, want 0", got)
			}
		}
		if s.turn == fill+30 && s.Observe(engine.Spectator).(*pb.Observation).StallTurns != 29 {
			t.Errorf("stall_turns in turn t+30 is %d, want 29 whole turns", s.Observe(engine.Spectator).(*pb.Observation).StallTurns)
		}
		mustApply(t, s, s.active, End())
	}
	if !s.Terminal() || s.Result().Reason != engine.EndCap || !strings.Contains(s.Result().Detail, "10 rounds") {
		t.Errorf("turn %d: %v", s.turn, s.Result())
	}
	if want := int32(fill + 30 + 1); s.turn != want {
		t.Errorf("%d turns were played, want %d: the game ends at the end of turn t+30 (t=%d)", s.turn, want, fill)
	}
}

// TestEnd_StallRule_CountsFromTheFirstTurn: with no fill at all after setup, the game ends at
// the end of the 40th turn with 4 seats.
func TestEnd_StallRule_CountsFromTheFirstTurn(t *testing.T) {
	s := newGame(t, 4, 9, nil)
	for s.phase == PhaseSetup {
		d := s.decider()
		mustApply(t, s, d, s.Legal(engine.Seat(d), nil)[0])
	}
	for !s.Terminal() && s.turn < 100 {
		s.phase = PhaseMain
		mustApply(t, s, s.active, End())
	}
	if s.turn != 40 || s.Result().Reason != engine.EndCap {
		t.Errorf("ended after %d turns (%v), want 40", s.turn, s.Result().Reason)
	}
}

func TestOptions_BadValuesAreRejected(t *testing.T) {
	for _, o := range []map[string]string{
		{"turn_cap": "0"},
		{"turn_cap": "many"},
		{"offers_per_turn": "-1"},
		{"luddite_window": "sometimes"},
		{"dice": "d4:1,1,1,1,0,0"}, // other dice missing
		{"dice": "d4:2,0,1,1,1,0 d6:0,2,1,1,0,2 d10:2,1,1,2,3,1 d12:2,1,3,3,1,2 d20:4,2,3,4,5,2"}, // 5 faces
		{"deck": "jokers:3"},
		{"menu": "atmosphere:blue,plaid"},
		{"menu": "atmosphere:blue"}, // items missing
	} {
		if _, err := engine.New("pantropia", engine.Config{Seats: 4, Seed: 1, Options: o}); !errors.Is(err, engine.ErrBadOption) {
			t.Errorf("%v: got %v, want ErrBadOption", o, err)
		}
	}
}

// TestOptions_NamesAreSnakeCaseAndUnknownOnesRefused covers issue 12: one style of option
// name, unknown names refused by the game itself, and client text in errors clipped.
func TestOptions_NamesAreSnakeCaseAndUnknownOnesRefused(t *testing.T) {
	info := game{}.Info()
	for _, o := range info.Options {
		if !engine.IsSnakeCase(o.Name) {
			t.Errorf("option %q is not lower_snake_case", o.Name)
		}
	}
	huge := strings.Repeat("x", 10000)
	for _, c := range []struct {
		opts map[string]string
		want string
	}{
		{map[string]string{"turnCap": "5"}, `no option "turnCap"`},
		{map[string]string{huge: "1"}, "(10000 bytes)"},
		{map[string]string{"turn_cap": huge}, "(10000 bytes)"},
		{map[string]string{"replace": huge}, "(10000 bytes)"},
		{map[string]string{"replace": "sometimes"}, "neither blocked nor always"},
		{map[string]string{"deck": huge + ":1"}, "(10000 bytes)"},
	} {
		_, err := game{}.New(engine.Config{Seats: 4, Seed: 1, Options: c.opts})
		if !errors.Is(err, engine.ErrBadOption) || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 600 {
			t.Errorf("got %.200v, want ErrBadOption saying %q in under 600 bytes", err, c.want)
		}
	}
	if s := blank(t, 4); s.cfg.replaceAlways {
		t.Errorf("replace defaults to always, want blocked")
	}
}

// TestOptions_DefaultsAreTheDataFiles: the printed defaults live in embedded files.
func TestOptions_DefaultsAreTheDataFiles(t *testing.T) {
	info := game{}.Info()
	for _, o := range info.Options {
		if o.Default == "" {
			t.Errorf("option %s has no default", o.Name)
		}
	}
	s := blank(t, 4, "menu="+oneLine(menuFile))
	if s.cfg.menu != blank(t, 4).cfg.menu {
		t.Errorf("menu option differs from the default")
	}
}

func TestNotation_RoundTrips(t *testing.T) {
	s := blank(t, 4)
	for _, a := range []engine.Action{
		Settle(3, 7), React(true), React(false), Terraform(D4, D20), Pantropy(0, 5), PantropyNone(),
		Earth(Red, Blue), Offer(2, chipsOf16(2, 0, 0, 0, 1, 0), one(Purple, 3)), Reply(true), Reply(false),
		Ring(179), Habitat(0), Arcology(29), BuildShuttle(4), Buy(), End(), Play(OrbitalMirror), Play(SolarShade),
		Play(SpaceElevator), PlayShuttle(3, 11), PlayAquifer(Yellow), PlayComet(17, Orange), Remove(12), Remove(-1),
		Abandon(9), Discard(Green, 4),
	} {
		text := s.FormatAction(a)
		back, err := s.ParseAction(text)
		if err != nil || back != a {
			t.Errorf("%q: %v %v", text, back, err)
		}
		m := s.ActionProto(a)
		wire, _ := proto.Marshal(m)
		m2 := &pb.Action{}
		if err := proto.Unmarshal(wire, m2); err != nil {
			t.Fatal(err)
		}
		if back, err := s.ActionFromProto(m2); err != nil || back != a {
			t.Errorf("proto of %q: %v %v", text, back, err)
		}
	}
	for _, bad := range []string{"", "ring", "ring j180", "ring j01", "settle i3", "offer p1 give 0red take 1blue", "terraform d20 d4", "play joker", "discard 0 red", "pantropy atm.9 hab.0"} {
		if _, err := s.ParseAction(bad); !errors.Is(err, engine.ErrBadNotation) {
			t.Errorf("%q parsed: %v", bad, err)
		}
	}
}

func TestActionFromProto_RejectsMalformed(t *testing.T) {
	s := blank(t, 4)
	for _, m := range []proto.Message{
		nil, &emptypb.Empty{}, &pb.Action{},
		&pb.Action{Kind: &pb.Action_Ring{Ring: &pb.BuildRing{Joint: 180}}},
		&pb.Action{Kind: &pb.Action_EarthTrade{EarthTrade: &pb.EarthTrade{Give: pb.Color_COLOR_BLACK, Take: pb.Color_COLOR_RED}}},
		&pb.Action{Kind: &pb.Action_Offer{Offer: &pb.Offer{To: 1, Give: &pb.Chips{Red: -1}}}},
		&pb.Action{Kind: &pb.Action_PlayCard{PlayCard: &pb.PlayCard{}}},
		&pb.Action{Kind: &pb.Action_PlayCard{PlayCard: nil}},
		&pb.Action{Kind: &pb.Action_Terraform{Terraform: &pb.Terraform{DieA: pb.Die_DIE_D20, DieB: pb.Die_DIE_D4}}},
		&pb.Action{Kind: &pb.Action_Discard{Discard: &pb.Discard{Color: pb.Color_COLOR_RED}}},
	} {
		if _, err := s.ActionFromProto(m); !errors.Is(err, engine.ErrIllegalAction) {
			t.Errorf("%v accepted: %v", m, err)
		}
	}
}

// TestHidden_OtherHandsAndDeckOrderChangeNothingSeen is the perturbation test on positions
// reached by random play: deal other seats' hands and the deck anew; the viewing seat's
// observation, text, events, legal actions and error messages must not change.
func TestHidden_OtherHandsAndDeckOrderChangeNothingSeen(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	changed := 0
	for seed := uint64(1); seed <= 3; seed++ {
		s := newGame(t, 4, seed, nil)
		for step := 0; step < 3000 && !s.Terminal(); step++ {
			d := s.decider()
			legal := s.Legal(engine.Seat(d), nil)
			mustApply(t, s, d, legal[r.IntN(len(legal))])
			if step%150 != 0 {
				continue
			}
			for seat := engine.Spectator; seat < 4; seat++ {
				p := Perturb(s.Clone(), seat, r)
				if p == nil {
					continue
				}
				a, _ := s.MarshalBinary()
				b, _ := p.MarshalBinary()
				if !bytes.Equal(a, b) {
					changed++
				}
				same := func(x, y proto.Message) bool {
					bx, _ := proto.MarshalOptions{Deterministic: true}.Marshal(x)
					by, _ := proto.MarshalOptions{Deterministic: true}.Marshal(y)
					return bytes.Equal(bx, by)
				}
				if !same(s.Observe(seat), p.Observe(seat)) || s.Render(seat) != p.Render(seat) {
					t.Fatalf("seed %d step %d: seat %d's view changed", seed, step, seat)
				}
				ea, eb := s.Events(seat, 0, nil), p.Events(seat, 0, nil)
				for i := range ea {
					if !same(ea[i], eb[i]) {
						t.Fatalf("seat %d: event %d changed", seat, i)
					}
				}
				if seat < 0 {
					continue
				}
				la, lb := s.Legal(seat, nil), p.Legal(seat, nil)
				if len(la) != len(lb) {
					t.Fatalf("seat %d: legal actions changed", seat)
				}
				for _, a := range []engine.Action{Play(OrbitalMirror), Play(Aquifer), React(true), Buy()} {
					e1, e2 := s.Clone().Apply(seat, a), p.Clone().Apply(seat, a)
					if (e1 == nil) != (e2 == nil) || (e1 != nil && e1.Error() != e2.Error()) {
						t.Fatalf("seat %d %s: %v vs %v", seat, s.FormatAction(a), e1, e2)
					}
				}
			}
		}
	}
	if changed == 0 {
		t.Errorf("the perturbation never changed a state")
	}
}

func TestCatalog_HoldsTheSphereAndDefaults(t *testing.T) {
	c := game{}.Catalog().(*pb.Catalog)
	if len(c.Intersections) != 30 || len(c.Struts) != 60 || len(c.Joints) != 180 {
		t.Errorf("catalog sphere %d/%d/%d", len(c.Intersections), len(c.Struts), len(c.Joints))
	}
	if len(c.Slots) != 18 || len(c.DefaultMenu) != 18 || len(c.DefaultDice) != 5 || len(c.DefaultDeck) != 8 {
		t.Errorf("catalog data %d slots %d dice %d deck entries", len(c.Slots), len(c.DefaultDice), len(c.DefaultDeck))
	}
	x := c.Intersections[7]
	if x.X*x.X+x.Y*x.Y+x.Z*x.Z < 2.5 || x.ColorA == x.ColorB {
		t.Errorf("intersection 7: %v", x)
	}
}

// TestRandomGames_ConservePiecesAndCards plays whole games at the default options, checking
// after every action that rings, structures and cards are all accounted for, and that the
// rarer flows (Technocalypse, windows, mirrors, shades, offers) happen.
func TestRandomGames_ConservePiecesAndCards(t *testing.T) {
	seen := map[uint8]int{}
	for seed := uint64(1); seed <= 8; seed++ {
		s := newGame(t, 3+int(seed%2), seed, nil)
		r := rand.New(rand.NewPCG(seed, 2))
		for !s.Terminal() {
			d := s.decider()
			legal := s.Legal(engine.Seat(d), nil)
			mustApply(t, s, d, legal[r.IntN(len(legal))])
			checkConservation(t, s)
		}
		for _, e := range s.events.all() {
			seen[e.kind]++
		}
	}
	for _, k := range []uint8{evTechnocalypse, evLuddite, evRing, evRemove, evAccept, evTerraform, evPantropy, evAquifer, evComet, evElevator, evShuttleMoved} {
		if seen[k] == 0 {
			t.Errorf("event kind %d never happened in eight random games", k)
		}
	}
}
