package fccatan

import (
	"errors"
	"testing"

	"github.com/orrery/orrery/engine"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

// Ticks: every team sends its intents and all resolve at once.

func TestTick_AllTeamsActAtOnce(t *testing.T) {
	s := started(t, 4, nil)
	if got := s.ToAct(nil); len(got) != 4 {
		t.Fatalf("ToAct = %v, want every team", got)
	}
	mustApply(t, s, 2, IntentsAction(Stay(), Stay(), To(2300, 2000)))
	if got := s.ToAct(nil); len(got) != 3 || got[0] != 0 || got[1] != 1 || got[2] != 3 {
		t.Errorf("ToAct after team 2 sent = %v, want [0 1 3]", got)
	}
	if err := s.Apply(2, IntentsAction()); !errors.Is(err, engine.ErrNotYourTurn) {
		t.Errorf("team 2 sending twice: got %v, want ErrNotYourTurn", err)
	}
	if s.tick != 0 || s.teams[2].av[2].pos != s.c.field.Hoops[2].Center {
		t.Errorf("the tick resolved before every team sent")
	}
	for _, team := range []int{0, 1, 3} {
		mustApply(t, s, team, IntentsAction())
	}
	if s.tick != 1 || s.teams[2].av[2].pos == s.c.field.Hoops[2].Center {
		t.Errorf("the tick did not resolve once every team sent")
	}
	if got := s.ToAct(nil); len(got) != 4 {
		t.Errorf("next tick ToAct = %v, want every team", got)
	}
}

func TestTick_AdvanceKeepsTheLastIntents(t *testing.T) {
	s := started(t, 4, nil)
	tick(t, s, IntentsAction(Stay(), Stay(), To(900, 3000)))
	y := s.teams[0].av[2].pos.Y
	// Wall clock: nobody sends; team 0's runner keeps running.
	if err := s.Advance(); err != nil {
		t.Fatal(err)
	}
	if got := s.teams[0].av[2].pos.Y; got != y+60 {
		t.Errorf("after Advance the runner is at y=%d, want %d: missing intents keep the last", got, y+60)
	}
	// A team that did send this tick uses its new intents; the others keep theirs.
	mustApply(t, s, 1, IntentsAction(Stay(), Stay(), To(2300, 3000)))
	if err := s.Advance(); err != nil {
		t.Fatal(err)
	}
	if s.teams[0].av[2].pos.Y != y+120 || s.teams[1].av[2].pos.Y != 460 {
		t.Errorf("after a partial tick: team 0 runner y=%d (want %d), team 1 runner y=%d (want 460)", s.teams[0].av[2].pos.Y, y+120, s.teams[1].av[2].pos.Y)
	}
	if d, ok := s.DefaultAction(0); !ok || d != s.packOrders(0) {
		t.Errorf("DefaultAction in a tick = %v, want the standing intents", s.FormatAction(d))
	}
}

func TestPickup_OneResourcePerRound(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	pile := s.c.field.Piles[0].Pos // wood, near team 0's city
	put(s, 0, 2, pile.X, pile.Y)
	tick(t, s, only(2, Stay().PickUp()))
	if s.teams[0].av[2].carry != Wood {
		t.Fatalf("no pickup")
	}
	home := s.c.field.Hoops[0].Center
	ticks(t, s, 20, only(2, to(home)))
	if s.teams[0].res[Wood] != 1 || s.teams[0].av[2].carry != noRes {
		t.Fatalf("not delivered: res %v carry %v", s.teams[0].res, s.teams[0].av[2].carry)
	}
	ticks(t, s, 20, only(2, to(pile).PickUp()))
	if s.teams[0].av[2].pos != pile || s.teams[0].av[2].carry != noRes {
		t.Errorf("a second pickup in one round: at %v carrying %v", s.teams[0].av[2].pos, s.teams[0].av[2].carry)
	}
	// The next round allows another.
	toBuy(t, s)
	buy(t, s)
	put(s, 0, 2, pile.X, pile.Y)
	tick(t, s, only(2, Stay().PickUp()))
	if s.teams[0].av[2].carry != Wood {
		t.Errorf("no pickup in the next round")
	}
}

func TestPickup_AtMostOneBallCarried(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	hand(s, 0, 2, Ore)
	s.teams[0].av[2].collected = false // as if it had caught a thrown ball
	pile := s.c.field.Piles[0].Pos
	put(s, 0, 2, pile.X, pile.Y)
	before := s.piles[0]
	tick(t, s, only(2, Stay().PickUp()))
	if s.teams[0].av[2].carry != Ore || s.piles[0] != before {
		t.Errorf("a carrier picked up a second ball: carry %v, pile %d -> %d", s.teams[0].av[2].carry, before, s.piles[0])
	}
}

func TestPickup_NoThrowingInTheSeedRuleset(t *testing.T) {
	s := started(t, 4, nil)
	hand(s, 0, 2, Ore)
	wantIllegal(t, s, 0, only(2, Stay().Throw(3)))
}

func TestDeliver_OnlyAtTheTeamsCities(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	build(s, 0, 4, settlement)
	hand(s, 0, 2, Ore)
	put(s, 0, 2, 1200, 1800) // in team 0's settlement
	hand(s, 0, 3, Wood)
	put(s, 0, 3, 2300, 400) // in team 1's city
	tick(t, s)
	if s.teams[0].res != ([numRes]int16{}) || s.teams[0].av[2].carry != Ore || s.teams[0].av[3].carry != Wood {
		t.Errorf("delivered at a settlement or another team's city: res %v", s.teams[0].res)
	}
	s.building[4] = city
	tick(t, s)
	if s.teams[0].res[Ore] != 1 || s.teams[0].av[2].carry != noRes {
		t.Errorf("not delivered at the team's own city: res %v", s.teams[0].res)
	}
}

func TestDeliver_AutomaticOnEnteringACity(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	hand(s, 0, 2, Sheep)
	put(s, 0, 2, 900, 1000)
	ticks(t, s, 9, only(2, To(900, 400))) // no flag: delivery needs none
	if s.teams[0].res[Sheep] != 1 {
		t.Errorf("a carrier entering its city did not deliver: res %v", s.teams[0].res)
	}
	if countEvents(s, evDeliver) != 1 {
		t.Errorf("%d delivery events, want 1", countEvents(s, evDeliver))
	}
}

func TestPlace_OnlyByAnExplicitIntent(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	s.teams[0].av[2].markers = 1
	put(s, 0, 2, 1200, 1800) // free hoop 4
	tick(t, s)
	if s.owner[4] != -1 {
		t.Errorf("a marker was placed without the place intent")
	}
	tick(t, s, only(2, Stay().Place()))
	if s.owner[4] != 0 || s.building[4] != settlement || s.teams[0].av[2].markers != 0 {
		t.Errorf("placing: hoop 4 owner %d building %d, markers %d", s.owner[4], s.building[4], s.teams[0].av[2].markers)
	}
	if s.teams[0].vp != 0 {
		t.Errorf("placing scored %d VP; the purchase scores", s.teams[0].vp)
	}
}

func TestPlace_OneBuildingPerHoop(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	build(s, 1, 4, settlement)
	s.teams[0].av[2].markers = 1
	put(s, 0, 2, 1200, 1800)
	tick(t, s, only(2, Stay().Place()))
	if s.owner[4] != 1 || s.teams[0].av[2].markers != 1 {
		t.Errorf("placed over another building: owner %d, markers %d", s.owner[4], s.teams[0].av[2].markers)
	}
}

func TestTag_KnightsOnly(t *testing.T) {
	s := started(t, 4, nil)
	wantIllegal(t, s, 0, only(2, Stay().Tag()))
	mustApply(t, s, 0, only(0, Stay().Tag()))
}

func TestTag_NeverTeammates(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	wantIllegal(t, s, 0, only(0, Stay().TagPlayer(0, 2)))
	put(s, 0, 0, 2000, 1000)
	put(s, 0, 2, 2010, 1000) // teammate, nearer
	put(s, 1, 2, 2090, 1000) // opponent within reach
	tick(t, s, only(0, Stay().Tag()))
	if s.teams[0].av[2].frozen || !s.teams[1].av[2].frozen {
		t.Errorf("teammate frozen %v, opponent frozen %v; want false, true", s.teams[0].av[2].frozen, s.teams[1].av[2].frozen)
	}
}

func TestTag_FreezesUntilTheWhistle(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	put(s, 0, 0, 2000, 1000)
	put(s, 1, 2, 2050, 1000)
	tick(t, s, only(0, Stay().Tag()))
	v := &s.teams[1].av[2]
	if !v.frozen {
		t.Fatal("not frozen")
	}
	ticks(t, s, 5, engine.Action{}, only(2, To(2050, 3000).PickUp()))
	if v.pos != (Vec{2050, 1000}) || v.vel != (Vec{}) {
		t.Errorf("a frozen player moved to %v", v.pos)
	}
	whistle(t, s)
	if v.frozen {
		t.Errorf("still frozen after the whistle")
	}
}

func TestTag_TakesTheCarriedBall(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	put(s, 0, 0, 2000, 1000)
	put(s, 1, 2, 2050, 1000)
	hand(s, 1, 2, Ore)
	tick(t, s, only(0, Stay().TagPlayer(1, 2)))
	k, v := &s.teams[0].av[0], &s.teams[1].av[2]
	if k.carry != Ore || !k.collected || v.carry != noRes {
		t.Errorf("knight carries %v (collected %v), victim carries %v; want the ore taken", k.carry, k.collected, v.carry)
	}
}

func TestTag_BallBackToAPileWhenTheKnightCannotTakeIt(t *testing.T) {
	for _, tc := range []struct {
		name      string
		carry     bool
		collected bool
	}{{"carrying", true, true}, {"collected", false, true}} {
		s := started(t, 4, nil)
		scatter(s)
		put(s, 0, 0, 2000, 1000)
		put(s, 1, 2, 2050, 1000)
		if tc.carry {
			hand(s, 0, 0, Wood)
		}
		s.teams[0].av[0].collected = tc.collected
		hand(s, 1, 2, Ore) // from pile 6, now 3 balls: the emptiest ore pile
		tick(t, s, only(0, Stay().Tag()))
		if s.teams[1].av[2].carry != noRes || s.teams[0].av[0].carry == Ore {
			t.Errorf("%s knight: ball not returned", tc.name)
		}
		if got := pileBalls(s, Ore); got[0] != 4 {
			t.Errorf("%s knight: ore piles %v, want the ball back on the emptiest", tc.name, got)
		}
	}
}

func TestTag_TwoKnightsTaggingEachOtherBothFreeze(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	put(s, 0, 0, 2000, 1000)
	put(s, 1, 0, 2080, 1000)
	tick(t, s, only(0, Stay().Tag()), only(0, Stay().Tag()))
	if !s.teams[0].av[0].frozen || !s.teams[1].av[0].frozen {
		t.Errorf("mutual tag: frozen %v and %v, want both", s.teams[0].av[0].frozen, s.teams[1].av[0].frozen)
	}
}

func TestWhistle_EveryPlayerStops(t *testing.T) {
	s := started(t, 4, nil)
	ticks(t, s, 3, IntentsAction(To(900, 3000), To(900, 3000), To(900, 3000), To(900, 3000)))
	whistle(t, s)
	for i := range s.teams[0].av {
		if av := s.teams[0].av[i]; av.vel != (Vec{}) || av.order != (Intent{}) {
			t.Errorf("avatar %d after the whistle: velocity %v, intent %v", i, av.vel, av.order)
		}
	}
}

func TestWhistle_CarriedBallsReturnToTheEmptiestPile(t *testing.T) {
	s := started(t, 4, nil)
	scatter(s)
	// Ore piles are 6, 7, 8. Make them 3, 2, 2 balls (5 ore in a team's stock).
	s.piles[6], s.piles[7], s.piles[8] = 3, 2, 2
	s.teams[2].res[Ore] = 4
	hand(s, 0, 2, Ore) // takes from pile 6: 2, 2, 2
	whistle(t, s)
	// The ball goes to the emptiest ore pile, the lowest id breaking the tie.
	if got := pileBalls(s, Ore); got[0] != 3 || got[1] != 2 || got[2] != 2 {
		t.Errorf("ore piles %v, want [3 2 2]", got)
	}
	if s.teams[0].av[2].carry != noRes {
		t.Errorf("still carrying after the whistle")
	}
}

func TestObservation_TheFieldIsPublic_IntentsOnlyForTheirTeam(t *testing.T) {
	s := started(t, 4, nil)
	tick(t, s, IntentsAction(To(900, 3000).Tag()))
	o0 := s.Observe(0).(*fccatanv1.Observation)
	o1 := s.Observe(1).(*fccatanv1.Observation)
	sp := s.Observe(engine.Spectator).(*fccatanv1.Observation)
	a0 := o0.Teams[0].Avatars[0]
	if a0.Intent == nil || a0.Intent.GetTarget().GetY() != 3000 || !a0.Intent.Tag {
		t.Errorf("team 0 does not see its own intent: %v", a0.Intent)
	}
	for _, o := range []*fccatanv1.Observation{o1, sp} {
		a := o.Teams[0].Avatars[0]
		if a.Intent != nil {
			t.Errorf("seat %d sees team 0's intent", o.Seat)
		}
		if a.Position.Y != a0.Position.Y || a.Velocity.Y != 600 || !a.Knight {
			t.Errorf("seat %d sees team 0's avatar 0 as %v, want its public state", o.Seat, a)
		}
		if len(o.Piles) != 12 || len(o.Hoops) != 10 || o.TimeLeftMs != 19900 || o.Round != 1 || o.Tick != 1 {
			t.Errorf("seat %d: %d piles, %d hoops, %d ms left, round %d tick %d", o.Seat, len(o.Piles), len(o.Hoops), o.TimeLeftMs, o.Round, o.Tick)
		}
	}
}

func TestOpenEnded_AnyTargetOnTheFieldIsAccepted(t *testing.T) {
	s := started(t, 4, nil)
	for _, a := range []engine.Action{
		IntentsAction(To(0, 0), To(6000, 4000), To(1234, 3210).PickUp(), Velocity(-32768, 32767)),
		IntentsAction(Velocity(1, 1).Tag(), To(17, 3999).TagPlayer(3, 3).Place(), Stay().PickUp().Place()),
	} {
		if err := s.Clone().Apply(0, a); err != nil {
			t.Errorf("%s rejected: %v", s.FormatAction(a), err)
		}
	}
	bad := []engine.Action{
		IntentsAction(To(6001, 0)),
		IntentsAction(To(0, 4001)),
		{Kind: kindIntents, Arg: [15]int16{5, 5, 0}},                // stay with coordinates
		{Kind: kindIntents, Arg: [15]int16{5, 5, flagTo | flagVel}}, // both motions
		{Kind: kindIntents, Arg: [15]int16{0, 0, 1 << 6}},           // unknown flag
		{Kind: kindIntents, Arg: [15]int16{0, 0, 1 << tagShift}},    // tag target without tag
		{Kind: kindIntents, Arg: [15]int16{12: 1}},                  // stray argument
		IntentsAction(Stay().TagPlayer(0, 1)),                       // own team
		IntentsAction(Stay(), Stay(), Stay().TagPlayer(1, 1)),       // not a knight
	}
	for _, a := range bad {
		wantIllegal(t, s, 0, a)
	}
	// A team of 3 sends nothing for a fourth player.
	s3 := started(t, 4, map[string]string{"team_size": "4,3,4,4"})
	wantIllegal(t, s3, 1, IntentsAction(Stay(), Stay(), Stay(), To(10, 10)))
}
