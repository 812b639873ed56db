package planet

import (
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// The tests below follow rules/planet.md section by section; each is named after its rule.

// --- Geometry -------------------------------------------------------------------------------

// TestAdjacency_SharedEdgeNotCorner [decision]: areas are adjacent only when they share an
// edge; areas meeting at a corner (two apart on a face, or across a vertex) form separate regions.
func TestAdjacency_SharedEdgeNotCorner(t *testing.T) {
	var sf Surface
	faceText(&sf, 0, "F.F..") // areas 0 and 2 of face 0 meet only at the centre
	var sv Survey
	sv.Measure(&sf)
	if sv.N != 2 {
		t.Errorf("two forest areas meeting at a corner: %d regions, want 2", sv.N)
	}
	// Area k of a face and the area across edge k+1's neighbour face share only a vertex.
	var sf2 Surface
	f := 0
	g := Geo.FaceNeighbour[f][1]
	sf2[AreaOf(f, 0)] = Forest
	sf2[AreaOf(g, (edgeToward(t, g, f)+1)%5)] = Forest
	sv.Measure(&sf2)
	if sv.N != 2 {
		t.Errorf("forest areas meeting across a vertex: %d regions, want 2", sv.N)
	}
}

// TestPlacement_AnyFreeFaceAnyRotation: the legal actions are every displayed tile on every
// free face in each of 5 rotations, and rotation r puts tile area i on edge (i+r) mod 5.
func TestPlacement_AnyFreeFaceAnyRotation(t *testing.T) {
	s := newGame(t, 2, 1, nil)
	legal := s.Legal(0, nil)
	if want := 5 * Faces * 5; len(legal) != want {
		t.Fatalf("turn 1: %d legal actions, want %d", len(legal), want)
	}
	tile := s.display[2]
	if err := s.Apply(0, PlaceAction(int(tile), 7, 3)); err != nil {
		t.Fatal(err)
	}
	tiles := s.d.Tiles[tile]
	for i := 0; i < 5; i++ {
		if got := s.planets[0].surface[AreaOf(7, (i+3)%5)]; got != tiles[i] {
			t.Errorf("tile area %d: face 7 edge %d holds %v, want %v", i, (i+3)%5, got, tiles[i])
		}
	}
	// Seat 1 picks from the 4 left; the taken tile is gone from the display.
	if got := len(s.Legal(1, nil)); got != 4*Faces*5 {
		t.Errorf("second pick: %d legal actions, want %d", got, 4*Faces*5)
	}
	err := s.Apply(1, PlaceAction(int(tile), 0, 0))
	wantErr(t, err, engine.ErrIllegalAction, "taking a tile already taken")
}

// TestPlacement_TileNeverMoves: a placed tile stays; its face is no longer free.
func TestPlacement_TileNeverMoves(t *testing.T) {
	s := newGame(t, 2, 2, nil)
	if err := s.Apply(0, PlaceAction(int(s.display[0]), 4, 0)); err != nil {
		t.Fatal(err)
	}
	playFirst(t, s, 2) // seat 1 in turn 1, then seat 1 again: it holds the token in turn 2
	before := s.planets[0].surface
	err := s.Apply(0, PlaceAction(int(s.display[0]), 4, 1))
	if s.toAct() != 0 {
		t.Fatalf("seat %d to act, want 0", s.toAct())
	}
	wantErr(t, err, engine.ErrIllegalAction, "placing on an occupied face")
	for _, a := range s.Legal(0, nil) {
		if _, face, _, _ := Placement(a); face == 4 {
			t.Fatalf("face 4 is listed after it was filled")
		}
	}
	if s.planets[0].surface != before {
		t.Errorf("a rejected placement changed the planet")
	}
}

// TestRegions_MaximalConnectedSetOfOneHabitat: a region takes in every connected area of its
// habitat, across tile edges, and its size is its number of areas.
func TestRegions_MaximalConnectedSetOfOneHabitat(t *testing.T) {
	var sf Surface
	bigBlob(t, &sf, 0, Geo.FaceNeighbour[0][0], Forest, Glacier)
	var sv Survey
	sv.Measure(&sf)
	if sv.N != 2 {
		t.Fatalf("%d regions, want 2 (forest and glacier)", sv.N)
	}
	if got := sv.Value(Requirement{Kind: LargestNotTouching, X: Forest, Y: Ocean}); got != 9 {
		t.Errorf("forest region across two tiles: size %d, want 9", got)
	}
}

// TestTouching_AdjacentAreaOfY: a region touches Y when one of its areas is adjacent to a Y area.
func TestTouching_AdjacentAreaOfY(t *testing.T) {
	var sf Surface
	f := 0
	g := Geo.FaceNeighbour[f][2]
	blob(t, &sf, f, g, Desert, Mountain)
	var sv Survey
	sv.Measure(&sf)
	for _, r := range sv.Regions[:sv.N] {
		if r.Habitat == Desert {
			if !r.Touches(Mountain) || r.Touches(Ocean) || r.Touches(Desert) {
				t.Errorf("desert region touch set %05b, want mountain only", r.Touch)
			}
		}
		if r.Habitat == Mountain && !r.Touches(Desert) {
			t.Errorf("touching is mutual: the mountain area does not touch the desert")
		}
	}
}

// --- Setup ----------------------------------------------------------------------------------

// TestSetup_TenStacksOfFive: the 50 tiles are shuffled from the seed into 10 face-down stacks of
// 5; stacks 11 and 12 start empty.
func TestSetup_TenStacksOfFive(t *testing.T) {
	s := newGame(t, 3, 9, nil)
	seen := map[int16]bool{}
	for i := 0; i < TurnsPerGame; i++ {
		want := StackSize
		if i >= TileStacks {
			want = 0
		}
		if int(s.stackN[i]) != want {
			t.Errorf("stack %d holds %d tiles, want %d", i+1, s.stackN[i], want)
		}
		for _, tl := range s.stacks[i][:s.stackN[i]] {
			if seen[tl] {
				t.Errorf("tile %d dealt twice", tl)
			}
			seen[tl] = true
		}
	}
	if len(seen) != TileCount {
		t.Errorf("%d tiles dealt, want %d", len(seen), TileCount)
	}
	other := newGame(t, 3, 10, nil)
	if other.stacks == s.stacks {
		t.Errorf("seeds 9 and 10 dealt the same stacks")
	}
	again := newGame(t, 3, 9, nil)
	if again.stacks != s.stacks {
		t.Errorf("one seed dealt two different stacks")
	}
}

// TestSetup_AnimalLayoutStandard [decision]: 20 of the 45 cards, laid out 1/1/1/2/2/2/2/3/3/3
// for turns 3 to 12; the other 25 are out of the game, unseen.
func TestSetup_AnimalLayoutStandard(t *testing.T) {
	s := newGame(t, 4, 3, nil)
	want := map[int8]int{3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 9: 2, 10: 3, 11: 3, 12: 3}
	got := map[int8]int{}
	ids := map[int16]bool{}
	for _, c := range s.cards {
		got[c.turn]++
		ids[c.id] = true
		if c.faceDown || !c.open() {
			t.Errorf("card %d starts face down or settled", c.id)
		}
	}
	for turn, n := range want {
		if got[turn] != n {
			t.Errorf("turn %d column has %d cards, want %d", turn, got[turn], n)
		}
	}
	if len(s.cards) != 20 || len(ids) != 20 {
		t.Errorf("%d cards laid out (%d distinct), want 20", len(s.cards), len(ids))
	}
	cols := observe(s, 0).Columns
	if len(cols) != 10 || cols[0].Turn != 3 {
		t.Errorf("observation shows %d columns from turn %d, want 10 from 3", len(cols), cols[0].Turn)
	}
}

// TestSetup_ObjectivesDealtWithoutRepeats [decision]: each seat gets one of the five Natural
// Habitat cards, no two alike.
func TestSetup_ObjectivesDealtWithoutRepeats(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		s := newGame(t, 4, seed, nil)
		seen := map[Habitat]bool{}
		for seat := 0; seat < 4; seat++ {
			h := s.d.Objectives[s.planets[seat].objective].Habitat
			if seen[h] {
				t.Errorf("seed %d: %v dealt twice", seed, h)
			}
			seen[h] = true
		}
	}
}

// TestSetup_SeatOneHoldsToken: the first seat (seat 0) holds the first-player token and picks first.
func TestSetup_SeatOneHoldsToken(t *testing.T) {
	s := newGame(t, 3, 1, nil)
	if s.first != 0 || s.toAct() != 0 {
		t.Errorf("first player %d, to act %d; want seat 0", s.first, s.toAct())
	}
}

// --- A turn ---------------------------------------------------------------------------------

// TestTurn_RevealsStackT: turn t lays out stack t face up.
func TestTurn_RevealsStackT(t *testing.T) {
	s := newGame(t, 2, 4, nil)
	for turn := 1; turn <= 4; turn++ {
		if int(s.turn) != turn {
			t.Fatalf("turn %d, want %d", s.turn, turn)
		}
		o := observe(s, 0)
		for i, tl := range o.Display {
			if int16(tl.Id) != s.stacks[turn-1][i] {
				t.Errorf("turn %d display slot %d is tile %d, want stack %d's tile %d", turn, i, tl.Id, turn, s.stacks[turn-1][i])
			}
		}
		playTurns(t, s, 1)
	}
}

// TestTurn_PickClockwiseFromFirstPlayer: the first player picks first, then the next seats in order.
func TestTurn_PickClockwiseFromFirstPlayer(t *testing.T) {
	s := newGame(t, 4, 1, nil)
	playTurns(t, s, 2) // turn 3: seat 2 holds the token
	var order []engine.Seat
	for i := 0; i < 4; i++ {
		order = append(order, s.toAct())
		playFirst(t, s, 1)
	}
	want := []engine.Seat{2, 3, 0, 1}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("turn 3 pick order %v, want %v", order, want)
		}
	}
}

// TestLeftovers_FillStack11Then12ThenBox [decision]: the tiles nobody took go, in display order,
// onto stack 11 until it holds 5, then stack 12, then the box.
func TestLeftovers_FillStack11Then12ThenBox(t *testing.T) {
	s := newGame(t, 2, 5, nil)
	var left []int16
	for turn := 0; turn < 5; turn++ {
		playTurns(t, s, 1)
		// The two first tiles were taken, so stack turn's last three are the leftovers.
		left = append(left, s.stacks[turn][2:5]...)
	}
	for i := 0; i < 5; i++ {
		if s.stacks[10][i] != left[i] || s.stacks[11][i] != left[5+i] {
			t.Fatalf("stacks 11 %v and 12 %v, want %v then %v", s.stacks[10], s.stacks[11], left[:5], left[5:10])
		}
	}
	if s.stackN[10] != 5 || s.stackN[11] != 5 {
		t.Errorf("stacks 11 and 12 hold %d and %d tiles, want 5 and 5", s.stackN[10], s.stackN[11])
	}
	if s.boxN != 5 {
		t.Errorf("box holds %d tiles, want 5", s.boxN)
	}
	for i := 0; i < 5; i++ {
		if s.box[i] != left[10+i] {
			t.Errorf("box %v, want %v", s.box[:s.boxN], left[10:])
		}
	}
	// Turns 11 and 12 reveal the leftover stacks.
	playTurns(t, s, 5)
	if s.turn != 11 || s.display[0] != left[0] {
		t.Errorf("turn %d display starts with tile %d, want turn 11 and tile %d", s.turn, s.display[0], left[0])
	}
}

// TestLeftovers_PublicInObservation [decision]: everyone saw the leftovers, so stacks 11 and 12
// are listed in every observation, while stacks 1-10 show only their size.
func TestLeftovers_PublicInObservation(t *testing.T) {
	s := newGame(t, 3, 6, nil)
	playTurns(t, s, 2)
	o := observe(s, engine.Spectator)
	for _, st := range o.Stacks {
		switch {
		case st.Number <= TileStacks && len(st.Tiles) != 0:
			t.Errorf("face-down stack %d shows its tiles", st.Number)
		case st.Number == 11 && len(st.Tiles) != 4:
			t.Errorf("stack 11 shows %d tiles, want the 4 leftovers", len(st.Tiles))
		}
	}
	if o.Stacks[0].Number != 4 {
		t.Errorf("during turn 3 the first listed stack is %d, want 4", o.Stacks[0].Number)
	}
}

// TestOriginOfLife_FromTurnThree: no animal is awarded before the end of turn 3.
func TestOriginOfLife_FromTurnThree(t *testing.T) {
	s := newGame(t, 2, 7, nil)
	playTurns(t, s, 2)
	for _, e := range s.events {
		if e.kind == evWon || e.kind == evCarried || e.kind == evReturned {
			t.Fatalf("an animal was settled in turns 1-2")
		}
	}
	playTurns(t, s, 1)
	settled := 0
	for _, e := range s.events {
		if (e.kind == evWon || e.kind == evCarried) && e.turn == 3 {
			settled++
		}
	}
	if settled != 1 {
		t.Errorf("turn 3 settled %d cards, want its 1", settled)
	}
}

// TestRequirement_ThreeKinds: the value of each kind of requirement.
func TestRequirement_ThreeKinds(t *testing.T) {
	sf := blobs(t,
		blobSpec{Forest, Glacier, true},  // 9 forest touching glacier
		blobSpec{Forest, Desert, false},  // 5 forest touching desert
		blobSpec{Forest, Glacier, false}) // 5 forest touching glacier
	var sv Survey
	sv.Measure(&sf)
	for _, tc := range []struct {
		req  string
		want int
	}{
		{"most forest regions", 3},
		{"most glacier regions", 2},
		{"most ocean regions", 0},
		{"largest forest touching glacier", 9},
		{"largest forest touching desert", 5},
		{"largest forest touching ocean", 0},
		{"largest forest not touching glacier", 5},
		{"largest forest not touching desert", 9},
		{"largest forest not touching ocean", 9},
		{"largest glacier touching forest", 1},
		{"largest ocean not touching forest", 0},
	} {
		r, err := ParseRequirement(tc.req)
		if err != nil {
			t.Fatal(err)
		}
		if got := sv.Value(r); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.req, got, tc.want)
		}
	}
}

// resolve sets the seats' surfaces, lays out cards in column turn and runs that turn's origin
// of life.
func resolve(t *testing.T, s *state, turn int8, surfaces []Surface, cards ...string) {
	t.Helper()
	for seat, sf := range surfaces {
		setSurface(&s.planets[seat], sf)
	}
	layCards(t, s, turn, cards...)
	s.turn = turn
	s.originOfLife(turn)
}

// TestWinning_StrictBestWins: the planet that meets the requirement best, alone, wins the card.
func TestWinning_StrictBestWins(t *testing.T) {
	s := newGame(t, 3, 1, nil)
	a := blobs(t, blobSpec{Forest, Mountain, false})
	b := blobs(t, blobSpec{Forest, Mountain, true})
	c := blobs(t, blobSpec{Forest, Desert, true})
	resolve(t, s, 5, []Surface{a, b, c}, "Bear")
	if got := cardState(t, s, "Bear"); got.owner != 1 {
		t.Errorf("Bear went to %d, want seat 1 (9 beats 5)", got.owner)
	}
}

// TestWinning_ZeroWinsNothing: a value of 0 wins nothing, even alone; the card waits.
func TestWinning_ZeroWinsNothing(t *testing.T) {
	s := newGame(t, 2, 1, nil)
	var a, b Surface
	faceText(&a, 0, "OOOOO") // ocean touching nothing: Seal wants ocean touching mountain
	resolve(t, s, 5, []Surface{a, b}, "Seal")
	if got := cardState(t, s, "Seal"); got.owner >= 0 || got.turn != 6 {
		t.Errorf("Seal: owner %d, column %d; want unwon, moved to turn 6", got.owner, got.turn)
	}
}

// TestWinning_TieMovesToEndOfNextColumn: a tie, or nobody qualifying, moves the card to the end
// of the next turn's column.
func TestWinning_TieMovesToEndOfNextColumn(t *testing.T) {
	s := newGame(t, 2, 1, nil)
	var a, b Surface
	blob(t, &a, 0, Geo.FaceNeighbour[0][0], Forest, Mountain)
	blob(t, &b, 3, Geo.FaceNeighbour[3][1], Forest, Mountain)
	for seat, sf := range []Surface{a, b} {
		setSurface(&s.planets[seat], sf)
	}
	s.cards = []card{
		{id: cardID(t, "Bear"), turn: 5, owner: -1},
		{id: cardID(t, "Seal"), turn: 5, owner: -1},
		{id: cardID(t, "Camel"), turn: 6, owner: -1},
	}
	s.settled, s.laid = 0, int8(len(s.cards)) // in column order
	s.turn = 5
	s.originOfLife(5)
	var col6 []string
	for _, c := range s.cards {
		if c.turn == 6 {
			col6 = append(col6, s.d.Animals[c.id].Name)
		}
	}
	if strings.Join(col6, ",") != "Camel,Bear,Seal" {
		t.Errorf("turn 6 column %v, want Camel then the tied Bear then the unmet Seal", col6)
	}
	o := observe(s, 0)
	if len(o.Columns[1].Cards) != 3 || o.Columns[1].Cards[1].Name != "Bear" {
		t.Errorf("observation's turn 6 column %v", o.Columns[1].Cards)
	}
	// Next turn the carried card can be won.
	bigBlob(t, &s.planets[1].surface, 3, Geo.FaceNeighbour[3][1], Forest, Mountain)
	setSurface(&s.planets[1], s.planets[1].surface)
	s.turn = 6
	s.originOfLife(6)
	if got := cardState(t, s, "Bear"); got.owner != 1 {
		t.Errorf("carried Bear went to %d, want seat 1", got.owner)
	}
}

// TestLastTurn_MostRegionsTieGoesToBox: on turn 12 a tied or unmet "most regions" card goes
// back to the box.
func TestLastTurn_MostRegionsTieGoesToBox(t *testing.T) {
	s := newGame(t, 2, 1, nil)
	var a, b Surface
	faceText(&a, 0, "F.F..")
	faceText(&b, 0, "F.F..")
	resolve(t, s, 12, []Surface{a, b}, "Panda", "Dolphin")
	for _, name := range []string{"Panda", "Dolphin"} {
		if got := cardState(t, s, name); !got.returned || got.owner >= 0 {
			t.Errorf("%s on turn 12: returned %v owner %d; want back in the box", name, got.returned, got.owner)
		}
	}
	if len(observe(s, 0).Returned) != 2 {
		t.Errorf("observation lists %d returned cards, want 2", len(observe(s, 0).Returned))
	}
}

// TestLastTurn_SecondRegionBreaksTie is the seed's example: Matthew and Celine both have a
// 9-area forest touching glacier; only Celine has a second one (5 areas), so she wins the fox.
func TestLastTurn_SecondRegionBreaksTie(t *testing.T) {
	s := newGame(t, 2, 1, nil)
	matthew := blobs(t, blobSpec{Forest, Glacier, true})
	celine := blobs(t, blobSpec{Forest, Glacier, true}, blobSpec{Forest, Glacier, false})
	resolve(t, s, 12, []Surface{matthew, celine}, "Fox")
	if got := cardState(t, s, "Fox"); got.owner != 1 {
		t.Errorf("Fox went to %d, want Celine (seat 1)", got.owner)
	}
	last := s.events[len(s.events)-1]
	if last.kind != evWon || last.x != 2 || last.b != 9 {
		t.Errorf("event %+v, want a win by tie-break 2 with value 9", last)
	}
}

// TestLastTurn_ThirdRegionBreaksTie: if several tied players meet the requirement a second
// time, a third time decides.
func TestLastTurn_ThirdRegionBreaksTie(t *testing.T) {
	s := newGame(t, 3, 1, nil)
	g := blobSpec{Glacier, Ocean, false}
	a := blobs(t, g, g)    // a second region
	b := blobs(t, g, g, g) // a third
	c := blobs(t, g, g, g) // a third too
	resolve(t, s, 12, []Surface{a, b, c}, "Penguin")
	if got := cardState(t, s, "Penguin"); !got.returned {
		t.Errorf("b and c both have three regions: Penguin owner %d, want back in the box", got.owner)
	}

	s = newGame(t, 3, 1, nil)
	c = blobs(t, g) // one region only
	resolve(t, s, 12, []Surface{a, b, c}, "Penguin")
	if got := cardState(t, s, "Penguin"); got.owner != 1 {
		t.Errorf("a and b have a second region, only b a third: Penguin owner %d, want seat 1", got.owner)
	}
	if last := s.events[len(s.events)-1]; last.x != 3 {
		t.Errorf("won by tie-break %d, want 3", last.x)
	}
}

// TestLastTurn_NoSecondRegionGoesToBox: tied players with no second qualifying region, or a
// card nobody qualifies for, go back to the box on turn 12.
func TestLastTurn_NoSecondRegionGoesToBox(t *testing.T) {
	s := newGame(t, 2, 1, nil)
	var a, b Surface
	blob(t, &a, 0, Geo.FaceNeighbour[0][0], Desert, Mountain)
	blob(t, &b, 0, Geo.FaceNeighbour[0][0], Desert, Mountain)
	resolve(t, s, 12, []Surface{a, b}, "Elephant", "Penguin")
	for _, name := range []string{"Elephant", "Penguin"} {
		if got := cardState(t, s, name); !got.returned {
			t.Errorf("%s: owner %d, want back in the box", name, got.owner)
		}
	}
}

// TestLastTurn_TieBreakAmongTiedOnly: a seat outside the tie cannot win by having more regions.
func TestLastTurn_TieBreakAmongTiedOnly(t *testing.T) {
	s := newGame(t, 3, 1, nil)
	a := blobs(t, blobSpec{Forest, Glacier, true})
	b := blobs(t, blobSpec{Forest, Glacier, true})
	c := blobs(t, blobSpec{Forest, Glacier, false}, blobSpec{Forest, Glacier, false})
	resolve(t, s, 12, []Surface{a, b, c}, "Fox")
	if got := cardState(t, s, "Fox"); !got.returned {
		t.Errorf("Fox owner %d: the tied seats 0 and 1 have no second region, want back in the box", got.owner)
	}
}

// TestToken_PassesToNextSeat: after each turn the first-player token passes to the next seat.
func TestToken_PassesToNextSeat(t *testing.T) {
	s := newGame(t, 3, 1, nil)
	for turn := 1; turn <= 5; turn++ {
		if want := int8((turn - 1) % 3); s.first != want {
			t.Errorf("turn %d: token at seat %d, want %d", turn, s.first, want)
		}
		playTurns(t, s, 1)
	}
}

// TestToken_RotationOption: the rotation may be switched off; seat 0 then always picks first.
func TestToken_RotationOption(t *testing.T) {
	s := newGame(t, 3, 1, map[string]string{OptRotate: "false"})
	for turn := 1; turn <= 5; turn++ {
		if s.first != 0 || s.toAct() != 0 {
			t.Errorf("turn %d: token at seat %d, want 0", turn, s.first)
		}
		playTurns(t, s, 1)
	}
}

// --- End and scoring ------------------------------------------------------------------------

// TestEnd_AfterTwelveTurnsCoresFull: the game ends after turn 12 with every core full.
func TestEnd_AfterTwelveTurnsCoresFull(t *testing.T) {
	s := newGame(t, 4, 2, nil)
	playTurns(t, s, 11)
	if s.over {
		t.Fatal("over after 11 turns")
	}
	playTurns(t, s, 1)
	if !s.over || s.Result().Reason != engine.EndNormal {
		t.Fatalf("after 12 turns: over %v reason %v, want a normal end", s.over, s.Result().Reason)
	}
	for seat := 0; seat < 4; seat++ {
		if s.planets[seat].surface.Count(None) != 0 || s.planets[seat].placed != Faces {
			t.Errorf("seat %d core not full", seat)
		}
	}
}

// TestObjective_ScaleScores: the objective scores the highest step reached; the seed's example
// is 11 to 13 glacier areas for 2 points.
func TestObjective_ScaleScores(t *testing.T) {
	var glacier *Objective
	for i := range Default.Objectives {
		if Default.Objectives[i].Habitat == Glacier {
			glacier = &Default.Objectives[i]
		}
	}
	for n, want := range map[int]int{0: 0, 7: 0, 8: 1, 10: 1, 11: 2, 12: 2, 13: 2, 14: 4, 22: 8, 23: 10, 60: 10} {
		if got := glacier.Score(n); got != want {
			t.Errorf("%d glacier areas: %d points, want %d", n, got, want)
		}
	}
}

// TestAnimals_OneOrTwoPointsByHabitat: a card scores 1 if its habitat is the owner's objective
// habitat, else 2, whether or not the objective's minimum was met.
func TestAnimals_OneOrTwoPointsByHabitat(t *testing.T) {
	s := newGame(t, 2, 1, nil)
	forest := int8(-1)
	for i, o := range s.d.Objectives {
		if o.Habitat == Forest {
			forest = int8(i)
		}
	}
	s.planets[0].objective = forest
	layCards(t, s, 12, "Bear", "Panda", "Penguin")
	s.cards[0].owner, s.cards[1].owner, s.cards[2].owner = 0, 0, 0
	sc := s.scores()[0]
	if sc.Objective != 0 || sc.Animals != 1+1+2 || sc.Cards != 3 {
		t.Errorf("score %+v, want objective 0 (no forest), animals 4 from 3 cards", sc)
	}
	sf := s.planets[0].surface
	faceText(&sf, 0, "FFFFF")
	faceText(&sf, 1, "FFFFF")
	setSurface(&s.planets[0], sf)
	if sc := s.scores()[0]; sc.Objective != 1 || sc.Total() != 5 {
		t.Errorf("10 forest areas: score %+v, want objective 1 and total 5", sc)
	}
}

// TestAnimalHabitat_IsRequirementX [decision]: the card's scoring habitat is its requirement's X.
func TestAnimalHabitat_IsRequirementX(t *testing.T) {
	for i, a := range Default.Animals {
		p := animalProto(i, a)
		if Habitat(p.Habitat) != a.Req.X {
			t.Errorf("%s: habitat %v, want %v", a.Name, p.Habitat, a.Req.X)
		}
	}
}

// TestWinner_MostPointsThenAnimalsThenShared: most points wins; a tie goes to the most animal
// cards; a tie on both is a shared win.
func TestWinner_MostPointsThenAnimalsThenShared(t *testing.T) {
	s := newGame(t, 4, 1, map[string]string{OptBeginners: "true"})
	// In the beginners' game points equal cards: seats 0 and 1 tie on both.
	layCards(t, s, 12, "Bear", "Panda", "Penguin", "Fox")
	s.cards[0].owner, s.cards[1].owner = 0, 0
	s.cards[2].owner, s.cards[3].owner = 1, 1
	s.finish()
	res := s.Result()
	if got := res.Ranks; got[0] != 1 || got[1] != 1 || got[2] != 3 || got[3] != 3 {
		t.Errorf("ranks %v, want [1 1 3 3] (a shared win)", got)
	}
	if !strings.Contains(res.Detail, "share") {
		t.Errorf("detail %q does not say the win is shared", res.Detail)
	}

	// Equal points, more animal cards: with objectives, one 2-point card equals two 1-point cards.
	s = newGame(t, 2, 1, nil)
	layCards(t, s, 12, "Bear", "Panda", "Penguin")
	obj0 := s.d.Objectives[s.planets[0].objective].Habitat
	obj1 := s.d.Objectives[s.planets[1].objective].Habitat
	// Pick cards so seat 0 gets two of its own habitat (1+1) and seat 1 one foreign card (2).
	var own0, foreign1 []int16
	for i, a := range s.d.Animals {
		if a.Req.X == obj0 && len(own0) < 2 {
			own0 = append(own0, int16(i))
		}
		if a.Req.X != obj1 && a.Req.X != obj0 && len(foreign1) < 1 {
			foreign1 = append(foreign1, int16(i))
		}
	}
	s.cards = []card{{id: own0[0], owner: 0}, {id: own0[1], owner: 0}, {id: foreign1[0], owner: 1}}
	s.finish()
	if res := s.Result(); res.Scores[0] != 2 || res.Scores[1] != 2 || res.Ranks[0] != 1 || res.Ranks[1] != 2 {
		t.Errorf("scores %v ranks %v: want 2 and 2, seat 0 first on animal count", res.Scores, res.Ranks)
	}
	if !strings.Contains(s.Result().Detail, "seat 0 wins") {
		t.Errorf("detail %q", s.Result().Detail)
	}
}

// --- Hidden information ---------------------------------------------------------------------

// TestHidden_OwnObjectiveOnlyUntilTheEnd: a seat sees its own objective, no other; the
// spectator sees none; at the end all are revealed.
func TestHidden_OwnObjectiveOnlyUntilTheEnd(t *testing.T) {
	s := newGame(t, 3, 8, nil)
	for viewer := engine.Spectator; viewer < 3; viewer++ {
		o := observe(s, viewer)
		for _, p := range o.Planets {
			if mine := engine.Seat(p.Seat) == viewer; (p.Objective != nil) != mine {
				t.Errorf("viewer %d sees seat %d's objective: %v", viewer, p.Seat, p.Objective != nil)
			}
		}
		for _, m := range s.Events(viewer, 0, nil) {
			if d := m.(*planetv1.Event).GetObjectiveDealt(); d != nil && (d.Habitat != 0) != (engine.Seat(d.Seat) == viewer) {
				t.Errorf("viewer %d: objective event for seat %d shows %v", viewer, d.Seat, d.Habitat)
			}
		}
		if strings.Contains(s.Render(viewer), "objective") != (viewer >= 0) {
			t.Errorf("viewer %d: render and own objective disagree", viewer)
		}
	}
	playTurns(t, s, 12)
	for _, p := range observe(s, engine.Spectator).Planets {
		if p.Objective == nil {
			t.Errorf("after the end seat %d's objective is still hidden", p.Seat)
		}
	}
}

// TestPublic_EveryPlanetVisible: players may look at each other's planets at any time.
func TestPublic_EveryPlanetVisible(t *testing.T) {
	s := newGame(t, 2, 8, nil)
	playFirst(t, s, 1)
	o := observe(s, 1)
	if len(o.Planets[0].Tiles) != 1 {
		t.Errorf("seat 1 sees %d tiles on seat 0's planet, want 1", len(o.Planets[0].Tiles))
	}
	if SurfaceOf(o.Planets[0]) != s.planets[0].surface {
		t.Errorf("seat 0's areas differ in seat 1's view")
	}
}

// --- Variants -------------------------------------------------------------------------------

// TestVariant1_Beginners: no objective cards, and every animal is worth 1 point.
func TestVariant1_Beginners(t *testing.T) {
	s := newGame(t, 2, 1, map[string]string{OptBeginners: "true"})
	for seat := 0; seat < 2; seat++ {
		if s.planets[seat].objective != -1 || observe(s, engine.Seat(seat)).Planets[seat].Objective != nil {
			t.Errorf("seat %d has an objective in the beginners' game", seat)
		}
	}
	layCards(t, s, 12, "Bear", "Penguin")
	s.cards[0].owner, s.cards[1].owner = 0, 0
	faceText(&s.planets[0].surface, 0, "FFFFF")
	if sc := s.scores()[0]; sc.Total() != 2 || sc.Objective != 0 {
		t.Errorf("beginners' score %+v, want 2 points from 2 animals", sc)
	}
}

// TestVariant2_MysteryLayout: two rows of 10, each of turns 3-12 with one face-up and one
// face-down card.
func TestVariant2_MysteryLayout(t *testing.T) {
	s := newGame(t, 4, 3, map[string]string{OptMystery: "true"})
	up, down := map[int8]int{}, map[int8]int{}
	for _, c := range s.cards {
		up[c.turn]++
		if c.faceDown {
			down[c.turn]++
		}
	}
	for turn := int8(3); turn <= 12; turn++ {
		if up[turn] != 2 {
			t.Errorf("turn %d has %d cards, want 2", turn, up[turn])
		}
		if wantDown := turn > 3; (down[turn] == 1) != wantDown {
			t.Errorf("turn %d: %d face down at setup", turn, down[turn])
		}
	}
}

// TestVariant2_RevealedThreeTurnsAhead [decision]: the face-down card for turn k is turned up at
// the end of turn k-3 (turn 3's at setup), so during turn t the cards up to turn t+2 are known.
func TestVariant2_RevealedThreeTurnsAhead(t *testing.T) {
	s := newGame(t, 2, 3, map[string]string{OptMystery: "true"})
	for turn := 1; turn <= 9; turn++ {
		for _, col := range observe(s, 0).Columns {
			wantDown := int32(0)
			if int(col.Turn) > turn+2 {
				wantDown = 1
			}
			if col.FaceDown != wantDown {
				t.Errorf("during turn %d, column %d has %d face down, want %d", turn, col.Turn, col.FaceDown, wantDown)
			}
		}
		playTurns(t, s, 1)
	}
	// The option changes how far ahead.
	s = newGame(t, 2, 3, map[string]string{OptMystery: "true", OptAhead: "1"})
	for _, col := range observe(s, 0).Columns {
		if col.FaceDown != 1 {
			t.Errorf("ahead 1, turn 1: column %d has %d face down, want 1", col.Turn, col.FaceDown)
		}
	}
	playTurns(t, s, 2)
	if col := observe(s, 0).Columns[0]; col.Turn != 3 || col.FaceDown != 0 {
		t.Errorf("ahead 1, turn 3: its column has %d face down, want 0", col.FaceDown)
	}
}

// --- Safety and data checks -----------------------------------------------------------------

// TestCap_EndsWithReasonCap: with a cap under 12 turns the game is scored after the cap's turn
// and the result says the cap ended it; the default of 12 is the normal end.
func TestCap_EndsWithReasonCap(t *testing.T) {
	s := newGame(t, 3, 1, map[string]string{OptCap: "5"})
	playTurns(t, s, 5)
	res := s.Result()
	if !s.over || res.Reason != engine.EndCap || !strings.Contains(res.Detail, "cap") {
		t.Errorf("after 5 turns with cap 5: over %v, result %+v", s.over, res)
	}
	if len(res.Ranks) != 3 || len(res.Scores) != 3 {
		t.Errorf("result %+v lacks ranks or scores", res)
	}
	s = newGame(t, 3, 1, nil)
	playTurns(t, s, 12)
	if s.Result().Reason != engine.EndNormal {
		t.Errorf("12 turns: reason %v, want normal", s.Result().Reason)
	}
}

// TestOptions_BadValuesRejected: a bad option value is an error wrapping ErrBadOption that
// names the option.
func TestOptions_BadValuesRejected(t *testing.T) {
	for _, tc := range []struct{ name, value string }{
		{OptBeginners, "maybe"},
		{OptMystery, ""},
		{OptRotate, "yes please"},
		{OptAhead, "0"},
		{OptAhead, "11"},
		{OptCap, "13"},
		{OptCap, "x"},
		{OptData, "{"},
		{OptData, "/no/such/planet/data.json"},
		{OptData, string(defaultJSON[:100])},
	} {
		_, err := engine.New("planet", engine.Config{Seats: 2, Seed: 1, Options: map[string]string{tc.name: tc.value}})
		wantErr(t, err, engine.ErrBadOption, tc.name+"="+tc.value)
		if err != nil && !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s=%q: error %q does not name the option", tc.name, tc.value, err)
		}
	}
}

// TestHidden_PerturbationKeepsEveryView: changing the other seats' objectives, the order and
// contents of the unrevealed stacks and the face-down mystery animals changes nothing the
// viewing seat sees: observation, render, events or legal actions.
func TestHidden_PerturbationKeepsEveryView(t *testing.T) {
	s := newGame(t, 4, 11, map[string]string{OptMystery: "true"})
	playTurns(t, s, 2)
	playFirst(t, s, 1)
	r := rand.New(rand.NewPCG(1, 2))
	for viewer := engine.Spectator; viewer < 4; viewer++ {
		var stacks, objectives, animals bool // each part changed in one of the tries
		for try := 0; try < 5; try++ {
			p := Perturb(s.Clone(), viewer, r).(*state)
			stacks = stacks || p.stacks != s.stacks
			objectives = objectives || p.objDeal != s.objDeal
			for i := range s.cards {
				animals = animals || s.cards[i] != p.cards[i]
			}
			if viewer >= 0 && p.planets[viewer].objective != s.planets[viewer].objective {
				t.Errorf("viewer %d: its own objective changed", viewer)
			}
			if !proto.Equal(s.Observe(viewer), p.Observe(viewer)) || s.Render(viewer) != p.Render(viewer) {
				t.Errorf("viewer %d: the view changed", viewer)
			}
			ea, eb := s.Events(viewer, 0, nil), p.Events(viewer, 0, nil)
			for i := range ea {
				if !proto.Equal(ea[i], eb[i]) {
					t.Errorf("viewer %d: event %d changed", viewer, i)
				}
			}
		}
		if !stacks || !objectives || !animals {
			t.Errorf("viewer %d: changed stacks %v, objectives %v, face-down animals %v; want all", viewer, stacks, objectives, animals)
		}
	}
}

// TestHidden_OmniscientOnlyShowsAll: ObserveAll, for finished matches, shows every objective and
// every face-down stack that the public view hides.
func TestHidden_OmniscientOnlyShowsAll(t *testing.T) {
	s := newGame(t, 3, 4, map[string]string{OptCap: "2"})
	playTurns(t, s, 2)
	all := s.ObserveAll().(*planetv1.Observation)
	pub := observe(s, engine.Spectator)
	for _, st := range all.Stacks {
		if st.Number <= TileStacks && len(st.Tiles) != int(st.Size) {
			t.Errorf("omniscient stack %d shows %d of %d tiles", st.Number, len(st.Tiles), st.Size)
		}
	}
	for _, st := range pub.Stacks {
		if st.Number <= TileStacks && len(st.Tiles) != 0 {
			t.Errorf("public stack %d shows its tiles", st.Number)
		}
	}
	for _, p := range all.Planets {
		if p.Objective == nil {
			t.Errorf("omniscient view hides seat %d's objective", p.Seat)
		}
	}
}

// TestOptions_OldNamesRefusedNamingTheNew: the options renamed to lower_snake_case refuse
// their old names with a message naming the new one, through the registry and the game alike.
func TestOptions_OldNamesRefusedNamingTheNew(t *testing.T) {
	for _, tc := range []struct{ old, value, now string }{
		{"cap", "5", OptCap},
		{"mystery-ahead", "2", OptAhead},
		{"rotate-first-player", "false", OptRotate},
	} {
		cfg := engine.Config{Seats: 2, Seed: 1, Options: map[string]string{tc.old: tc.value}}
		_, viaRegistry := engine.New("planet", cfg)
		_, viaGame := game{}.New(cfg)
		for _, err := range []error{viaRegistry, viaGame} {
			wantErr(t, err, engine.ErrBadOption, tc.old)
			if err != nil && !strings.Contains(err.Error(), `"`+tc.now+`"`) {
				t.Errorf("%s: error %q does not name %s", tc.old, err, tc.now)
			}
		}
		if _, err := engine.New("planet", engine.Config{Seats: 2, Seed: 1, Options: map[string]string{tc.now: tc.value}}); err != nil {
			t.Errorf("%s=%s: %v", tc.now, tc.value, err)
		}
	}
}
