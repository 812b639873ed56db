package fccatan

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

// The end.

func TestWin_FiveVPCheckedAfterEachMarket(t *testing.T) {
	s := started(t, 4, nil)
	s.teams[2].vp = 4
	grantAll(s, 2, 0, 2, 0, 1)
	toBuy(t, s)
	buy(t, s, engine.Action{}, engine.Action{}, BuyAction(KnightItem(2)))
	if !s.Terminal() {
		t.Fatalf("no end with 5 VP after the market")
	}
	r := s.Result()
	if r.Reason != engine.EndNormal || r.Ranks[2] != 1 || r.Ranks[0] != 2 {
		t.Errorf("result %+v", r)
	}
	if err := s.Apply(0, IntentsAction()); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("after the end: %v", err)
	}
	if err := s.Advance(); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("Advance after the end: %v", err)
	}
	if len(s.ToAct(nil)) != 0 {
		t.Errorf("ToAct after the end")
	}
}

func TestWin_SameMarketMostVPWins_TiesShare(t *testing.T) {
	for _, tc := range []struct {
		vp0, vp1 int16
		ranks    []int
	}{{5, 4, []int{1, 2, 3, 3}}, {4, 4, []int{1, 1, 3, 3}}} {
		s := started(t, 4, nil)
		s.teams[0].vp, s.teams[1].vp = tc.vp0, tc.vp1
		grantAll(s, 0, 0, 2, 0, 1)
		grantAll(s, 1, 0, 2, 0, 1)
		toBuy(t, s)
		buy(t, s, BuyAction(KnightItem(2)), BuyAction(KnightItem(2)))
		r := s.Result()
		for i, want := range tc.ranks {
			if r.Ranks[i] != want {
				t.Errorf("VP %d and %d: ranks %v, want %v", tc.vp0+1, tc.vp1+1, r.Ranks, tc.ranks)
				break
			}
		}
	}
}

func TestCap_FortyRoundsThenMostVP(t *testing.T) {
	s := started(t, 4, map[string]string{"round_cap": "2", "tick_rate": "1"})
	s.teams[3].vp = 3
	for !s.Terminal() {
		toBuy(t, s)
		grantAll(s, 1, 2, 2, 0, 0)
		buy(t, s, engine.Action{}, BuyAction(SettlementItem(2))) // someone buys: not the idle cap
	}
	r := s.Result()
	if r.Reason != engine.EndCap || s.round != 2 || r.Ranks[3] != 1 {
		t.Errorf("round %d result %+v", s.round, r)
	}
	if newMatch(t, 4, nil).c.roundCap != 40 {
		t.Errorf("default round cap is not 40")
	}
}

func TestCap_EightIdleMarketsEndTheGame(t *testing.T) {
	s := started(t, 4, map[string]string{"tick_rate": "1"})
	markets := 0
	for !s.Terminal() {
		toBuy(t, s)
		buy(t, s)
		markets++
	}
	if markets != 8 || s.Result().Reason != engine.EndCap {
		t.Errorf("ended after %d idle markets (%v), want 8", markets, s.Result().Reason)
	}
}

// Precise resolutions.

func TestResolution1_VPOnlyFromPurchasesAndVictoryCards(t *testing.T) {
	s := started(t, 4, nil)
	for team := 0; team < 4; team++ {
		if s.teams[team].vp != 0 {
			t.Errorf("team %d has %d VP from its starting city and knights", team, s.teams[team].vp)
		}
	}
	// Delivering and placing score nothing either.
	scatter(s)
	hand(s, 0, 2, Ore)
	put(s, 0, 2, 900, 400)
	tick(t, s)
	if s.teams[0].vp != 0 {
		t.Errorf("a delivery scored")
	}
}

func TestResolution2_DeliveryBeforeTags(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	hand(s, 0, 2, Ore)
	put(s, 0, 2, 900, 600) // steps into its city this tick
	put(s, 1, 0, 900, 500) // an opposing knight within reach
	tick(t, s, only(2, To(900, 520)), only(0, Stay().Tag()))
	if s.teams[0].res[Ore] != 1 || s.teams[1].av[0].carry != noRes || !s.teams[0].av[2].frozen {
		t.Errorf("res %v, knight carries %v, runner frozen %v; want delivered, nothing taken, frozen", s.teams[0].res, s.teams[1].av[0].carry, s.teams[0].av[2].frozen)
	}
}

func TestResolution2_TagsUseMovedPositionsAndComeBeforePickups(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	pile := s.c.field.Piles[1].Pos // wood at (30,11)
	put(s, 0, 2, pile.X+50, pile.Y)
	put(s, 1, 0, pile.X+200, pile.Y) // out of reach before the move
	tick(t, s, only(2, Stay().PickUp()), only(0, To(int16(pile.X+120), int16(pile.Y)).Tag()))
	if !s.teams[0].av[2].frozen || s.teams[0].av[2].carry != noRes {
		t.Errorf("runner frozen %v carrying %v: the tag lands after the move and before the pickup", s.teams[0].av[2].frozen, s.teams[0].av[2].carry)
	}
}

func TestResolution2_OnlyKnightsUntaggedAtTheStartOfTheTickTag(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	put(s, 0, 0, 2000, 1000)
	s.teams[0].av[0].frozen = true
	put(s, 1, 2, 2050, 1000)
	tick(t, s, only(0, Stay().Tag()))
	if s.teams[1].av[2].frozen {
		t.Errorf("a frozen knight tagged")
	}
	// A frozen player is no target either: a second knight's tag finds nobody else.
	put(s, 2, 0, 2000, 1050)
	s.teams[1].av[2].frozen = true
	tick(t, s, engine.Action{}, engine.Action{}, only(0, Stay().TagPlayer(1, 2)))
	if countEvents(s, evTag) != 0 {
		t.Errorf("%d tags on frozen players or by frozen knights", countEvents(s, evTag))
	}
}

func TestResolution3_NearerPlayerWinsTheLastBall(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	pile := s.c.field.Piles[0].Pos
	s.piles[0] = 1
	s.piles[1] += 3
	put(s, 0, 2, pile.X+80, pile.Y)
	put(s, 1, 2, pile.X, pile.Y-30)
	tick(t, s, only(2, Stay().PickUp()), only(2, Stay().PickUp()))
	if s.teams[1].av[2].carry != Wood || s.teams[0].av[2].carry != noRes || s.piles[0] != 0 {
		t.Errorf("the nearer did not win the last ball")
	}
}

func TestResolution3_NearerPlayerWinsTheHoop(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	s.teams[0].av[2].markers = 1
	s.teams[1].av[3].markers = 1
	put(s, 0, 2, 1200, 1900)
	put(s, 1, 3, 1220, 1800)
	tick(t, s, only(2, Stay().Place()), only(3, Stay().Place()))
	if s.owner[4] != 1 || s.teams[0].av[2].markers != 1 {
		t.Errorf("hoop 4 owner %d, want the nearer team 1", s.owner[4])
	}
}

func TestResolution3_EquallyNearDecidedByLotFromTheSeed(t *testing.T) {
	wins := map[int]int{}
	for seed := uint64(1); seed <= 40; seed++ {
		play := func() *State {
			st, _ := engine.New("fccatan", engine.Config{Seats: 4, Seed: seed})
			s := st.(*State)
			for team := 0; team < 4; team++ {
				mustApply(t, s, team, SetupAction(team, 0b11))
			}
			scatter(s)
			pile := s.c.field.Piles[0].Pos
			s.piles[0], s.piles[1] = 1, 7 // one ball left here
			put(s, 0, 2, pile.X+50, pile.Y)
			put(s, 1, 2, pile.X-50, pile.Y)
			tick(t, s, only(2, Stay().PickUp()), only(2, Stay().PickUp()))
			return s
		}
		a, b := play(), play()
		winner := 0
		if a.teams[1].av[2].carry == Wood {
			winner = 1
		}
		if (b.teams[1].av[2].carry == Wood) != (winner == 1) {
			t.Errorf("seed %d: the same seed drew two winners", seed)
		}
		wins[winner]++
	}
	if wins[0] == 0 || wins[1] == 0 {
		t.Errorf("ties went %v over 40 seeds: not a fair draw", wins)
	}
}

func TestResolution4_MarketIsSimultaneous(t *testing.T) {
	s := started(t, 4, nil)
	grantAll(s, 0, 2, 2, 0, 0)
	toBuy(t, s)
	mustApply(t, s, 0, BuyAction(SettlementItem(0)))
	// Team 0's declaration is hidden until every team has declared.
	if s.teams[0].vp != 0 || s.teams[0].res[Wood] != 2 {
		t.Errorf("a declaration resolved before the others declared")
	}
	if o := s.Observe(1).(*fccatanv1.Observation); o.Teams[0].Resources.Wood != 2 || o.Submitted {
		t.Errorf("team 1 sees %v, submitted %v", o.Teams[0].Resources, o.Submitted)
	}
	if o := s.Observe(0).(*fccatanv1.Observation); !o.Submitted {
		t.Errorf("team 0 does not see that it has declared")
	}
	buy(t, s)
	if s.teams[0].vp != 1 {
		t.Errorf("vp %d after the market", s.teams[0].vp)
	}
}

func TestResolution5_FewestBallsTieGoesToTheLowestPile(t *testing.T) {
	s := started(t, 4, nil)
	s.piles[3], s.piles[4], s.piles[5] = 2, 2, 3 // brick
	s.teams[1].res[Brick] = 5
	s.returnBall(Brick)
	s.teams[1].res[Brick]--
	if got := pileBalls(s, Brick); got[0] != 3 || got[1] != 2 {
		t.Errorf("brick piles %v, want the ball on pile 3, the lowest of the emptiest", got)
	}
}

func TestResolution8_MissedIntentsKeepThePrevious(t *testing.T) {
	// Lockstep with a deadline: the server calls Advance; a team that missed it keeps its
	// intents, exactly as in real time.
	s := started(t, 4, nil)
	tick(t, s, engine.Action{}, IntentsAction(To(2300, 2000), To(2300, 2000)))
	mustApply(t, s, 0, IntentsAction())
	mustApply(t, s, 2, IntentsAction())
	mustApply(t, s, 3, IntentsAction())
	if err := s.Advance(); err != nil {
		t.Fatal(err)
	}
	if y := s.teams[1].av[0].pos.Y; y != 520 {
		t.Errorf("team 1's knight at y=%d, want 520: it kept running", y)
	}
}

// The published ruleset.

func TestPublished_EightVPEightSecondsThrowingNewCosts(t *testing.T) {
	s := started(t, 4, map[string]string{"ruleset": "published"})
	if s.c.winVP != 8 || s.c.ticksPerRound != 80 || !s.c.throwing || !s.c.citySheepOrOre {
		t.Errorf("published: %d VP, %d ticks, throwing %v", s.c.winVP, s.c.ticksPerRound, s.c.throwing)
	}
	s = started(t, 4, map[string]string{"ruleset": "published", "win_vp": "6", "round_seconds": "10"})
	if s.c.winVP != 6 || s.c.ticksPerRound != 100 {
		t.Errorf("overrides: %d VP, %d ticks", s.c.winVP, s.c.ticksPerRound)
	}
}

func TestThrow_PassesTheBallToATeammateInRange(t *testing.T) {
	for _, tc := range []struct {
		gap    int32
		caught bool
	}{{1000, true}, {1001, false}} {
		s := started(t, 4, map[string]string{"ruleset": "published"})
		scatter(s)
		hand(s, 0, 2, Ore)
		put(s, 0, 2, 1000, 1000)
		put(s, 0, 3, 1000+tc.gap, 1000)
		tick(t, s, only(2, Stay().Throw(3)))
		if got := s.teams[0].av[3].carry == Ore; got != tc.caught || got == (s.teams[0].av[2].carry == Ore) {
			t.Errorf("throw over %d cm: caught %v, want %v", tc.gap, got, tc.caught)
		}
	}
}

// Determinism, options and notation.

func TestDeterminism_SameSeedAndIntentsSameGameBitForBit(t *testing.T) {
	play := func() []byte {
		st, _ := engine.New("fccatan", engine.Config{Seats: 4, Seed: 99, Options: map[string]string{"tick_rate": "2"}})
		r := rand.New(rand.NewPCG(5, 5))
		for !st.Terminal() {
			seat := st.ToAct(nil)[0]
			legal := st.Legal(seat, nil)
			if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		b, _ := st.MarshalBinary()
		return b
	}
	if !bytes.Equal(play(), play()) {
		t.Errorf("two plays of one seed and one action list differ")
	}
}

func TestOptions_BadValuesRejected(t *testing.T) {
	for _, o := range []map[string]string{
		{"ruleset": "modern"}, {"map": "moon"}, {"knights": "5"}, {"knights": "some"},
		{"round_seconds": "0"}, {"tick_rate": "3"}, {"tick_rate": "0"}, {"win_vp": "x"},
		{"top_speed_cm_s": "5"}, {"reach_cm": "-1"}, {"round_cap": "0"}, {"idle_markets": "0"},
		{"trade_steps": "9"}, {"throw_range_cm": "-3"}, {"market_seconds": "0"}, {"choice_seconds": "x"},
		{"no_such": "1"},
	} {
		if _, err := engine.New("fccatan", engine.Config{Seats: 4, Seed: 1, Options: o}); !errors.Is(err, engine.ErrBadOption) {
			t.Errorf("%v: got %v, want ErrBadOption", o, err)
		}
	}
	for _, o := range gameInfo.Options {
		if _, err := engine.New("fccatan", engine.Config{Seats: 4, Seed: 1, Options: map[string]string{o.Name: o.Default}}); err != nil {
			t.Errorf("option %s=%s (its default): %v", o.Name, o.Default, err)
		}
	}
}

func TestNotation_EveryKindRoundTrips(t *testing.T) {
	for _, want := range []string{
		"pass",
		"setup h1 knights a0 a2",
		"setup h3 knights none",
		"deploy h0 h4 h4 h0",
		"intents a0:to(1200,3400)+pick a1:stay+tag a2:vel(300,-200)+place a3:to(0,0)+tag=s2a1+throw=a1",
		"offer s2 give wood=1,brick=2 want ore=1",
		"accept s0,s3",
		"buy card, settlement a2, city h4, city h5 ore, knight a3, marker a1>a2",
		"plenty wood=2,ore=1",
		"monopoly ore",
		"discard brick=1,sheep=2",
		"barbarians h5",
	} {
		a, err := ParseAction(want)
		if err != nil {
			t.Errorf("%q: %v", want, err)
			continue
		}
		if got := FormatAction(a); got != want {
			t.Errorf("%q formats as %q", want, got)
		}
		back, err := ActionFromProto(ActionToProto(a))
		if err != nil || back != a {
			t.Errorf("%q: proto round trip %v, %v", want, FormatAction(back), err)
		}
	}
	for _, bad := range []string{"", "buy", "intents a0:stay", "offer s1 give wood=0 want ore=1", "setup h1 knights a0 a0", "monopoly gold", "fly"} {
		if _, err := ParseAction(bad); !errors.Is(err, engine.ErrBadNotation) {
			t.Errorf("%q: got %v, want ErrBadNotation", bad, err)
		}
	}
}

func TestActionFromProto_RejectsMalformedMessages(t *testing.T) {
	for _, m := range []*fccatanv1.Action{
		{},
		{Kind: &fccatanv1.Action_Setup{Setup: &fccatanv1.Setup{Hoop: 99}}},
		{Kind: &fccatanv1.Action_Setup{Setup: &fccatanv1.Setup{Knights: []int32{1, 1}}}},
		{Kind: &fccatanv1.Action_Deploy{Deploy: &fccatanv1.Deploy{Hoops: []int32{0, 0, 0, 0, 0}}}},
		{Kind: &fccatanv1.Action_Intents{Intents: &fccatanv1.Intents{Avatars: []*fccatanv1.AvatarIntent{{Motion: &fccatanv1.AvatarIntent_Target{Target: &fccatanv1.Vec{X: 40000}}}}}}},
		{Kind: &fccatanv1.Action_Intents{Intents: &fccatanv1.Intents{Avatars: []*fccatanv1.AvatarIntent{{TagTarget: &fccatanv1.AvatarRef{}}}}}},
		{Kind: &fccatanv1.Action_Offer{Offer: &fccatanv1.Offer{ToSeat: 9}}},
		{Kind: &fccatanv1.Action_Buy{Buy: &fccatanv1.Buy{Purchases: []*fccatanv1.Purchase{{}}}}},
		{Kind: &fccatanv1.Action_Monopoly{Monopoly: &fccatanv1.Monopoly{}}},
		{Kind: &fccatanv1.Action_Discard{Discard: &fccatanv1.Discard{Discard: &fccatanv1.Resources{Ore: -1}}}},
	} {
		if _, err := ActionFromProto(m); !errors.Is(err, engine.ErrIllegalAction) {
			t.Errorf("%v: got %v, want ErrIllegalAction", m, err)
		}
	}
	if _, err := ActionFromProto(nil); !errors.Is(err, engine.ErrIllegalAction) {
		t.Errorf("nil: %v", err)
	}
	if _, err := ActionFromProto((*fccatanv1.Action)(nil)); !errors.Is(err, engine.ErrIllegalAction) {
		t.Errorf("typed nil: %v", err)
	}
}
