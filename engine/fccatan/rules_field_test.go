package fccatan

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/orrery/orrery/engine"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

// Seats, players and the field.

func TestSeats_TeamsOfThreeOrFourPlayers(t *testing.T) {
	for _, tc := range []struct {
		seats int
		size  string
		want  []int8
		err   bool
	}{
		{4, "4", []int8{4, 4, 4, 4}, false},
		{3, "3", []int8{3, 3, 3}, false},
		{3, "4,3,4", []int8{4, 3, 4}, false},
		{4, "5", nil, true},
		{4, "2", nil, true},
		{3, "4,4", nil, true},
		{3, "x", nil, true},
	} {
		st, err := engine.New("fccatan", engine.Config{Seats: tc.seats, Seed: 1, Options: map[string]string{"team_size": tc.size}})
		if tc.err {
			if !errors.Is(err, engine.ErrBadOption) {
				t.Errorf("team_size=%s: got %v, want ErrBadOption", tc.size, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		o := st.Observe(0).(*fccatanv1.Observation)
		for team, w := range tc.want {
			if got := len(o.Teams[team].Avatars); got != int(w) {
				t.Errorf("team_size=%s: team %d has %d avatars, want %d", tc.size, team, got, w)
			}
		}
	}
	if _, err := engine.New("fccatan", engine.Config{Seats: 2, Seed: 1}); !errors.Is(err, engine.ErrBadOption) {
		t.Errorf("2 teams: got %v, want ErrBadOption", err)
	}
}

func TestField_DefaultMapIsData(t *testing.T) {
	f := DefaultField()
	if f.Width != 6000 || f.Height != 4000 {
		t.Errorf("field %dx%d cm, want 6000x4000", f.Width, f.Height)
	}
	want := []struct {
		x, y  int32
		start bool
	}{
		{900, 400, true}, {2300, 400, true}, {3700, 400, true}, {5100, 400, true},
		{1200, 1800, false}, {3000, 1800, false}, {4800, 1800, false},
		{2000, 2800, false}, {4000, 2800, false}, {3000, 3600, false},
	}
	if len(f.Hoops) != len(want) {
		t.Fatalf("%d hoops, want 10", len(f.Hoops))
	}
	for h, w := range want {
		if hp := f.Hoops[h]; hp.Center != (Vec{w.x, w.y}) || hp.Radius != 150 || hp.Start != w.start {
			t.Errorf("hoop %d = %+v, want (%d,%d) r150 start=%v", h, hp, w.x, w.y, w.start)
		}
	}
	if len(f.Piles) != 12 || f.PileCapacity != 4 || f.BallsPerResource != 12 {
		t.Errorf("%d piles of capacity %d, %d balls per resource; want 12, 4, 12", len(f.Piles), f.PileCapacity, f.BallsPerResource)
	}
	var per [numRes]int
	var nearest [numRes]int64 // from any start hoop
	for r := range nearest {
		nearest[r] = 1 << 62
	}
	for _, p := range f.Piles {
		per[p.Resource]++
		if p.Balls != 4 {
			t.Errorf("pile %+v starts with %d balls, want 4", p, p.Balls)
		}
		for _, h := range f.Hoops[:4] {
			nearest[p.Resource] = min(nearest[p.Resource], dist2(p.Pos, h.Center))
		}
		for _, h := range f.Hoops {
			if within(p.Pos, h.Center, h.Radius+100) {
				t.Errorf("pile %+v is within reach of hoop %+v", p, h)
			}
		}
	}
	for r, n := range per {
		if n != 3 {
			t.Errorf("%d piles of %s, want 3", n, Resource(r))
		}
	}
	// Ore and sheep, near the top, are farther from the start hoops than wood and brick.
	if min(nearest[Ore], nearest[Sheep]) <= max(nearest[Wood], nearest[Brick]) {
		t.Errorf("ore/sheep piles are not farther from the start hoops than wood/brick: %v", nearest)
	}
	// The catalog holds both maps for clients to draw, and names each ruleset's own map.
	c := game{}.Catalog().(*fccatanv1.Catalog)
	if len(c.Maps) != 2 || c.Maps[0].GetName() != "default" || len(c.Maps[0].Hoops) != 10 || len(c.Maps[0].Piles) != 12 || c.Maps[0].WidthCm != 6000 ||
		c.Maps[1].GetName() != "published" || c.Maps[1].WidthCm != 3600 || len(c.Maps[1].Piles) != 12 {
		t.Errorf("catalog maps: %v", c.Maps)
	}
	if len(c.Rulesets) != 2 || len(c.Deck) != 5 || c.Rulesets[0].GetMap() != "default" || c.Rulesets[1].GetMap() != "published" {
		t.Errorf("catalog rulesets %v, deck entries %d", c.Rulesets, len(c.Deck))
	}
}

func TestMotion_TopSpeedSixMetresASecond(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	put(s, 0, 2, 1000, 2000)
	put(s, 0, 3, 1000, 2500)
	tick(t, s, IntentsAction(Stay(), Stay(), To(4000, 2000), Velocity(3000, 4000)))
	if p := s.teams[0].av[2].pos; p != (Vec{1060, 2000}) {
		t.Errorf("runner toward a far point moved to %v, want (1060,2000): 6 m/s at 10 ticks/s", p)
	}
	// A velocity beyond top speed is scaled down to it: (3000,4000) -> (360,480) cm/s.
	if p, v := s.teams[0].av[3].pos, s.teams[0].av[3].vel; p != (Vec{1036, 2548}) || v != (Vec{360, 480}) {
		t.Errorf("velocity runner at %v with velocity %v, want (1036,2548) and (360,480)", p, v)
	}
	if v := s.teams[0].av[2].vel; v != (Vec{600, 0}) {
		t.Errorf("observed velocity %v, want (600,0) cm/s", v)
	}
	// A target nearer than one step is reached exactly.
	tick(t, s, IntentsAction(Stay(), Stay(), To(1100, 2000)))
	if p := s.teams[0].av[2].pos; p != (Vec{1100, 2000}) {
		t.Errorf("near target: at %v, want (1100,2000)", p)
	}
}

func TestMotion_ClampedToTheFieldAndNoCollisions(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	put(s, 0, 2, 20, 2000)
	put(s, 1, 2, 1000, 1000)
	put(s, 1, 3, 1060, 1000)
	tick(t, s, IntentsAction(Stay(), Stay(), Velocity(-600, 0)), IntentsAction(Stay(), Stay(), To(1060, 1000), To(1000, 1000)))
	if p := s.teams[0].av[2].pos; p != (Vec{0, 2000}) {
		t.Errorf("runner off the left edge at %v, want (0,2000)", p)
	}
	if a, b := s.teams[1].av[2].pos, s.teams[1].av[3].pos; a != (Vec{1060, 1000}) || b != (Vec{1000, 1000}) {
		t.Errorf("players passing through each other at %v and %v, want swapped", a, b)
	}
	wantIllegal(t, s, 0, IntentsAction(To(6001, 100)))
	wantIllegal(t, s, 0, IntentsAction(To(-1, 100)))
}

func TestMotion_ReachOneMetre(t *testing.T) {
	for _, tc := range []struct {
		dx   int32
		pick bool
	}{{0, true}, {100, true}, {101, false}} {
		s := started(t, 4, nil)
		scatter(s)
		pile := s.c.field.Piles[0].Pos // wood
		put(s, 0, 2, pile.X+tc.dx, pile.Y)
		tick(t, s, only(2, Stay().PickUp()))
		if got := s.teams[0].av[2].carry == Wood; got != tc.pick {
			t.Errorf("%d cm from the pile: picked up %v, want %v", tc.dx, got, tc.pick)
		}
	}
}

func TestMotion_InAHoopWithinItsRadius(t *testing.T) {
	for _, tc := range []struct {
		dx      int32
		deliver bool
	}{{0, true}, {150, true}, {151, false}} {
		s := started(t, 4, nil)
		scatter(s)
		hand(s, 0, 2, Ore)
		h := s.c.field.Hoops[0].Center // team 0's start city
		put(s, 0, 2, h.X+tc.dx, h.Y)
		tick(t, s)
		if got := s.teams[0].res[Ore] == 1; got != tc.deliver {
			t.Errorf("%d cm from the hoop centre: delivered %v, want %v", tc.dx, got, tc.deliver)
		}
	}
}

// Setup.

func TestSetup_StartHoopsPickedInSeatOrder(t *testing.T) {
	s := newMatch(t, 4, nil)
	if got := s.ToAct(nil); len(got) != 1 || got[0] != 0 {
		t.Fatalf("ToAct at setup = %v, want [0]", got)
	}
	if err := s.Apply(1, SetupAction(1, 0b11)); !errors.Is(err, engine.ErrNotYourTurn) {
		t.Errorf("team 1 before team 0: got %v, want ErrNotYourTurn", err)
	}
	mustApply(t, s, 0, SetupAction(2, 0b11))
	wantIllegal(t, s, 1, SetupAction(2, 0b11)) // taken
	wantIllegal(t, s, 1, SetupAction(5, 0b11)) // not a start hoop
	for _, a := range s.Legal(1, nil) {
		if a.Arg[0] == 2 {
			t.Errorf("taken hoop listed: %s", s.FormatAction(a))
		}
	}
	mustApply(t, s, 1, SetupAction(0, 0b11))
	mustApply(t, s, 2, SetupAction(3, 0b11))
	mustApply(t, s, 3, SetupAction(1, 0b11))
	for team, h := range []int{2, 0, 3, 1} {
		if int(s.teams[team].start) != h || int(s.owner[h]) != team || s.building[h] != city {
			t.Errorf("team %d: start %d, hoop %d owner %d building %d", team, s.teams[team].start, h, s.owner[h], s.building[h])
		}
	}
}

func TestSetup_KnightsNamed(t *testing.T) {
	s := newMatch(t, 4, nil)
	wantIllegal(t, s, 0, SetupAction(0, 0b111)) // 3 knights, default is 2
	wantIllegal(t, s, 0, SetupAction(0, 0b1))
	wantIllegal(t, s, 0, SetupAction(0, 0b10000)) // no avatar 4
	mustApply(t, s, 0, SetupAction(0, 0b1010))
	for i, want := range []bool{false, true, false, true} {
		if s.teams[0].av[i].knight != want {
			t.Errorf("avatar %d knight = %v, want %v", i, s.teams[0].av[i].knight, want)
		}
	}
	// "Choose a number": with knights=any a team names as many as it likes.
	s = newMatch(t, 4, map[string]string{"knights": "any"})
	mustApply(t, s, 0, SetupAction(0, 0))
	mustApply(t, s, 1, SetupAction(1, 0b1111))
	if n := len(s.Legal(2, nil)); n != 2*16 {
		t.Errorf("knights=any: %d setups listed, want 2 hoops x 16 knight sets", n)
	}
	s = newMatch(t, 4, map[string]string{"knights": "3"})
	mustApply(t, s, 0, SetupAction(0, 0b111))
}

func TestSetup_TeamOfThreeAmongTeamsOfFourStartsWithOneVP(t *testing.T) {
	s := newMatch(t, 4, map[string]string{"team_size": "4,3,4,4"})
	for team, want := range []int16{0, 1, 0, 0} {
		if s.teams[team].vp != want {
			t.Errorf("team %d starts with %d VP, want %d", team, s.teams[team].vp, want)
		}
	}
	s = newMatch(t, 4, map[string]string{"team_size": "3"})
	for team := 0; team < 4; team++ {
		if s.teams[team].vp != 0 {
			t.Errorf("all teams of 3: team %d starts with %d VP, want 0", team, s.teams[team].vp)
		}
	}
}

// Rounds.

func TestRound_TwentySecondsOfTenTicks(t *testing.T) {
	for _, tc := range []struct {
		opts  map[string]string
		ticks int
		ms    int
	}{
		{nil, 200, 100},
		{map[string]string{"round_seconds": "12", "tick_rate": "4"}, 48, 250},
		{map[string]string{"ruleset": "published"}, 80, 100},
	} {
		s := started(t, 4, tc.opts)
		if s.c.ticksPerRound != tc.ticks || s.TickInterval() != time.Duration(tc.ms)*time.Millisecond {
			t.Errorf("%v: %d ticks of %v, want %d of %d ms", tc.opts, s.c.ticksPerRound, s.TickInterval(), tc.ticks, tc.ms)
		}
		n := 0
		for s.phase == PhaseTick {
			tick(t, s)
			n++
		}
		if n != tc.ticks || s.phase != PhaseOffer {
			t.Errorf("%v: round ended after %d ticks in phase %v", tc.opts, n, s.phase)
		}
		if d, err := TickInterval(tc.opts); err != nil || d != s.TickInterval() {
			t.Errorf("TickInterval(%v) = %v, %v", tc.opts, d, err)
		}
	}
	if _, err := TickInterval(map[string]string{"tick_rate": "7"}); !errors.Is(err, engine.ErrBadOption) {
		t.Errorf("tick_rate=7: got %v, want ErrBadOption", err)
	}
}

func TestRound_PlayersStartInHoopsOfTheirBuildings(t *testing.T) {
	s := started(t, 4, nil)
	build(s, 0, 4, settlement)
	toBuy(t, s)
	buy(t, s)
	if s.phase != PhaseDeploy {
		t.Fatalf("phase %v, want deploy", s.phase)
	}
	if got := s.ToAct(nil); len(got) != 1 || got[0] != 0 {
		t.Errorf("deploy ToAct = %v, want only team 0, the one with a choice", got)
	}
	wantIllegal(t, s, 0, DeployAction(0, 4, 5, 0)) // hoop 5 holds nothing of team 0
	if n := len(s.Legal(0, nil)); n != 16 {
		t.Errorf("%d deployments listed, want 2^4", n)
	}
	mustApply(t, s, 0, DeployAction(0, 4, 4, 0))
	for i, h := range []int{0, 4, 4, 0} {
		if p := s.teams[0].av[i].pos; p != s.c.field.Hoops[h].Center {
			t.Errorf("avatar %d at %v, want hoop %d", i, p, h)
		}
	}
	if p := s.teams[1].av[2].pos; p != s.c.field.Hoops[1].Center {
		t.Errorf("team 1 (one hoop) avatar at %v, want its start hoop", p)
	}
	if s.phase != PhaseTick || s.round != 2 {
		t.Errorf("phase %v round %d, want the ticks of round 2", s.phase, s.round)
	}
}

// TestMove_IsqrtIsTheFloorOfTheSquareRoot checks the integer square root every move takes,
// whose float fast path must agree exactly with floor(sqrt(n)): on every small n, at and
// beside every square a field's distances reach, around 2^50 and 2^52 where the fast paths end,
// at and beside the squares below 2^50, and on random large n.
func TestMove_IsqrtIsTheFloorOfTheSquareRoot(t *testing.T) {
	check := func(n int64) {
		x := isqrt(n)
		if x < 0 || x*x > n || (x+1)*(x+1) <= n {
			t.Errorf("isqrt(%d) = %d", n, x)
		}
	}
	for n := int64(0); n < 1<<16; n++ {
		check(n)
	}
	for x := int64(1); x < 1<<17; x++ { // distances up to 1.3 km, in cm
		check(x*x - 1)
		check(x * x)
		check(x*x + 1)
	}
	for _, edge := range []int64{1 << 50, 1 << 52} {
		for n := edge - 1<<12; n < edge+1<<12; n++ {
			check(n)
		}
	}
	for x := int64(1<<25 - 1<<16); x <= 1<<25; x++ { // the largest squares below 2^50
		check(x*x - 1)
		check(x * x)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		check(r.Int64N(1 << 62))
	}
}
