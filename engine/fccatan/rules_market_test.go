package fccatan

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

// offerStep plays the whistle and the first offer step: team i sends offers[i] (zero: pass).
func offerStep(t *testing.T, s *State, offers ...engine.Action) {
	t.Helper()
	whistle(t, s)
	for team := 0; team < s.c.teams; team++ {
		a := PassAction()
		if team < len(offers) && !offers[team].IsZero() {
			a = offers[team]
		}
		mustApply(t, s, team, a)
	}
	if s.phase != PhaseReply {
		t.Fatalf("phase %v, want reply", s.phase)
	}
}

func replyStep(t *testing.T, s *State, replies ...engine.Action) {
	t.Helper()
	for team := 0; team < s.c.teams; team++ {
		a := PassAction()
		if team < len(replies) && !replies[team].IsZero() {
			a = replies[team]
		}
		mustApply(t, s, team, a)
	}
}

func res(w, b, o, sh int) [numRes]int { return [numRes]int{w, b, o, sh} }

func TestTrade_OfferAcceptedByTheTeamOfferedTo(t *testing.T) {
	s := started(t, 4, nil)
	grant(s, 0, Wood, 2)
	grant(s, 1, Ore, 1)
	offerStep(t, s, OfferAction(1, res(2, 0, 0, 0), res(0, 0, 1, 0)))
	wantIllegal(t, s, 2, ReplyAction(1)) // team 0 offered team 2 nothing
	replyStep(t, s, engine.Action{}, ReplyAction(1))
	if s.teams[0].res != [numRes]int16{0, 0, 1, 0} || s.teams[1].res != [numRes]int16{2, 0, 0, 0} {
		t.Errorf("after the trade: team 0 %v, team 1 %v", s.teams[0].res, s.teams[1].res)
	}
	// An accepted trade is public.
	ev := s.Events(3, s.EventCount()-1, nil)[0].(*fccatanv1.Event)
	if len(ev.GetTradesSettled().GetAccepted()) != 1 {
		t.Errorf("team 3 does not see the accepted trade: %v", ev)
	}
}

func TestTrade_DeclinedOfferChangesNothing(t *testing.T) {
	s := started(t, 4, nil)
	grant(s, 0, Wood, 1)
	grant(s, 1, Ore, 1)
	offerStep(t, s, OfferAction(1, res(1, 0, 0, 0), res(0, 0, 1, 0)))
	replyStep(t, s)
	if s.teams[0].res != [numRes]int16{1, 0, 0, 0} || s.teams[1].res != [numRes]int16{0, 0, 1, 0} {
		t.Errorf("a declined offer traded: team 0 %v, team 1 %v", s.teams[0].res, s.teams[1].res)
	}
	if s.phase != PhaseOffer || s.tradeStep != 2 {
		t.Errorf("phase %v step %d, want the second offer step", s.phase, s.tradeStep)
	}
}

func TestTrade_OfferOnlyWhatTheTeamHas(t *testing.T) {
	s := started(t, 4, nil)
	grant(s, 0, Wood, 1)
	whistle(t, s)
	wantIllegal(t, s, 0, OfferAction(1, res(2, 0, 0, 0), res(0, 0, 1, 0)))
	wantIllegal(t, s, 0, OfferAction(0, res(1, 0, 0, 0), res(0, 0, 1, 0))) // itself
	wantIllegal(t, s, 0, OfferAction(1, res(1, 0, 0, 0), res(1, 0, 0, 0))) // both ways
	wantIllegal(t, s, 0, OfferAction(1, res(1, 0, 0, 0), res(0, 0, 0, 0))) // a gift
}

func TestTrade_AcceptedButNoLongerAffordableFails(t *testing.T) {
	s := started(t, 4, nil)
	grant(s, 0, Wood, 1)
	grant(s, 2, Brick, 1)
	grant(s, 1, Ore, 1)
	// Both offers want team 1's only ore; they settle in the offerers' seat order.
	offerStep(t, s, OfferAction(1, res(1, 0, 0, 0), res(0, 0, 1, 0)), engine.Action{}, OfferAction(1, res(0, 1, 0, 0), res(0, 0, 1, 0)))
	replyStep(t, s, engine.Action{}, ReplyAction(1|4))
	if s.teams[0].res[Ore] != 1 || s.teams[2].res[Brick] != 1 || s.teams[1].res[Brick] != 0 {
		t.Errorf("team 0 %v, team 1 %v, team 2 %v", s.teams[0].res, s.teams[1].res, s.teams[2].res)
	}
	if s.offers[1].status != offerFailed {
		t.Errorf("the second offer's status is %d, want failed", s.offers[1].status)
	}
}

// TestTrade_OffersSeenOnlyByTheTwoTeamsInvolved is the perturbation test for trade offers:
// changing an offer between teams 0 and 1 changes nothing teams 2 and 3 or a spectator see.
func TestTrade_OffersSeenOnlyByTheTwoTeamsInvolved(t *testing.T) {
	s := started(t, 4, nil)
	grant(s, 0, Wood, 2)
	grant(s, 1, Ore, 2)
	offerStep(t, s, OfferAction(1, res(1, 0, 0, 0), res(0, 0, 1, 0)))
	p := s.Clone().(*State)
	p.offers[0].want = [numRes]int8{0, 0, 2, 0}
	q := s.Clone().(*State) // and a world with no offer at all
	q.offers = q.offers[:0]
	views := func(st *State, seat engine.Seat) []byte {
		var b []byte
		m, _ := proto.MarshalOptions{Deterministic: true}.Marshal(st.Observe(seat))
		b = append(b, m...)
		b = append(b, st.Render(seat)...)
		for _, a := range st.Legal(seat, nil) {
			b = append(b, st.FormatAction(a)...)
		}
		return b
	}
	for _, seat := range []engine.Seat{2, 3, engine.Spectator} {
		if !bytes.Equal(views(s, seat), views(p, seat)) || !bytes.Equal(views(s, seat), views(q, seat)) {
			t.Errorf("seat %d sees an offer between teams 0 and 1", seat)
		}
	}
	for _, seat := range []engine.Seat{0, 1} {
		if bytes.Equal(views(s, seat), views(p, seat)) {
			t.Errorf("seat %d does not see its own offer", seat)
		}
	}
	// Declined, it stays between the two; the events say so.
	replyStep(t, s)
	for seat, want := range map[engine.Seat]int{0: 1, 1: 1, 2: 0, engine.Spectator: 0} {
		got := 0
		for _, m := range s.Events(seat, 0, nil) {
			e := m.(*fccatanv1.Event)
			got += len(e.GetOffersMade().GetOffers()) + len(e.GetTradesSettled().GetDeclined())
		}
		if got != 2*want {
			t.Errorf("seat %d sees %d offer records, want %d", seat, got, 2*want)
		}
	}
}

func TestMarket_DevelopmentCardsResolveBeforeOtherPurchases(t *testing.T) {
	s := started(t, 4, nil)
	s.deck[0] = cardMonopoly
	grantAll(s, 0, 2, 0, 1, 0) // a card: 2 wood, 1 ore
	grantAll(s, 1, 2, 2, 0, 0) // a settlement: 2 wood, 2 brick
	toBuy(t, s)
	// Team 1's settlement is affordable when declared; team 0's card resolves first.
	buy(t, s, BuyAction(CardItem()), BuyAction(SettlementItem(2)))
	if s.phase != PhaseCardChoice || s.pendingSeat != 0 {
		t.Fatalf("phase %v, want team 0's monopoly choice", s.phase)
	}
	mustApply(t, s, 0, MonopolyAction(Wood))
	if s.teams[1].vp != 0 || s.teams[1].av[2].markers != 0 || s.teams[1].res[Brick] != 2 {
		t.Errorf("team 1's settlement was not dropped after the monopoly: vp %d res %v", s.teams[1].vp, s.teams[1].res)
	}
	if s.teams[0].res[Wood] != 2 {
		t.Errorf("team 0 holds %d wood, want team 1's 2", s.teams[0].res[Wood])
	}
}

func TestMarket_CardsOnePerTeamInTurnInSeatOrder(t *testing.T) {
	s := started(t, 4, nil)
	s.deck[0], s.deck[1], s.deck[2] = cardVP, cardBarbarians, cardPlenty
	grantAll(s, 0, 4, 0, 2, 0)
	grantAll(s, 1, 2, 0, 1, 0)
	toBuy(t, s)
	buy(t, s, BuyAction(CardItem(), CardItem()), BuyAction(CardItem()))
	// Team 0's first card, then team 1's (barbarians, no target: wasted), then team 0's second.
	if s.phase != PhaseCardChoice || s.pendingCard != cardPlenty || s.pendingSeat != 0 {
		t.Fatalf("phase %v card %d seat %d, want team 0 deciding year of plenty", s.phase, s.pendingCard, s.pendingSeat)
	}
	if s.teams[0].cards[0] != cardVP || s.teams[1].cards[0] != cardBarbarians {
		t.Errorf("cards %v and %v", s.teams[0].cards, s.teams[1].cards)
	}
}

func TestMarket_PurchasesRecheckedInTheOrderDeclared(t *testing.T) {
	s := started(t, 4, nil)
	s.deck[0] = cardRobber
	grantAll(s, 0, 4, 4, 1, 1) // card (2w 1o), then settlement (2w 2b), then knight (2b 1s)
	toBuy(t, s)
	buy(t, s, BuyAction(KnightItem(2), CardItem(), SettlementItem(3)))
	if s.phase != PhaseDiscard {
		t.Fatalf("phase %v, want the robber's discards", s.phase)
	}
	// After the card team 0 holds 2 wood 4 brick 0 ore 1 sheep = 7: it discards 4.
	if s.teams[0].discard != 4 {
		t.Fatalf("team 0 owes %d, want 4", s.teams[0].discard)
	}
	mustApply(t, s, 0, DiscardAction(res(0, 3, 0, 1)))
	// Left: 2 wood, 1 brick. The knight (declared first) is no longer affordable; neither is
	// the settlement.
	if s.teams[0].vp != 0 || s.teams[0].av[2].knight || s.teams[0].av[3].markers != 0 {
		t.Errorf("dropped purchases went through: vp %d", s.teams[0].vp)
	}
	dropped := 0
	for _, e := range s.events {
		if e.kind == evBought && e.av == 1 {
			dropped++
		}
	}
	if dropped != 2 {
		t.Errorf("%d dropped purchases logged, want 2", dropped)
	}
}

func TestMarket_SpentBallsReturnToPilesOfAtMostFour(t *testing.T) {
	s := started(t, 4, nil)
	grantAll(s, 0, 2, 2, 0, 0)
	toBuy(t, s)
	buy(t, s, BuyAction(SettlementItem(0)))
	for _, r := range []Resource{Wood, Brick} {
		total := 0
		for _, n := range pileBalls(s, r) {
			if n > 4 {
				t.Errorf("%s pile of %d balls", r, n)
			}
			total += int(n)
		}
		if total != 12 {
			t.Errorf("%d %s on the field after spending, want all 12", total, r)
		}
	}
}

func TestCosts_ByRuleset(t *testing.T) {
	for _, tc := range []struct {
		ruleset string
		item    Item
		cost    [numRes]int
	}{
		{RulesetSeed, SettlementItem(0), res(2, 2, 0, 0)},
		{RulesetSeed, CityItem(4, false), res(1, 1, 1, 1)},
		{RulesetSeed, KnightItem(2), res(0, 2, 0, 1)},
		{RulesetSeed, CardItem(), res(2, 0, 1, 0)},
		{RulesetPublished, SettlementItem(0), res(2, 2, 0, 0)},
		{RulesetPublished, CityItem(4, false), res(2, 2, 0, 1)},
		{RulesetPublished, CityItem(4, true), res(2, 2, 1, 0)},
		{RulesetPublished, KnightItem(2), res(0, 0, 2, 0)},
		{RulesetPublished, CardItem(), res(0, 0, 0, 2)},
	} {
		s := started(t, 4, map[string]string{"ruleset": tc.ruleset})
		build(s, 0, 4, settlement)
		toBuy(t, s)
		for r := Resource(0); r < numRes; r++ {
			if tc.cost[r] == 0 {
				continue
			}
			short := s.Clone().(*State)
			grantAll(short, 0, tc.cost[0], tc.cost[1], tc.cost[2], tc.cost[3])
			short.teams[0].res[r]--
			wantIllegal(t, short, 0, BuyAction(tc.item))
		}
		grantAll(s, 0, tc.cost[0], tc.cost[1], tc.cost[2], tc.cost[3])
		vp := s.teams[0].vp
		buy(t, s, BuyAction(tc.item))
		if s.teams[0].res != ([numRes]int16{}) {
			t.Errorf("%s %s: left %v after paying", tc.ruleset, formatItem(tc.item), s.teams[0].res)
		}
		if tc.item.Kind != buyCard && s.teams[0].vp != vp+1 {
			t.Errorf("%s %s: %d VP, want %d", tc.ruleset, formatItem(tc.item), s.teams[0].vp, vp+1)
		}
	}
	s := started(t, 4, nil)
	build(s, 0, 4, settlement)
	grantAll(s, 0, 1, 1, 1, 1)
	toBuy(t, s)
	wantIllegal(t, s, 0, BuyAction(CityItem(4, true))) // sheep-or-ore is the published city
}

func TestSettlement_MarkerToAChosenPlayer_PlacedInALaterRound(t *testing.T) {
	s := started(t, 4, nil)
	grantAll(s, 0, 2, 2, 0, 0)
	toBuy(t, s)
	buy(t, s, BuyAction(SettlementItem(3)))
	if s.teams[0].vp != 1 || s.teams[0].av[3].markers != 1 {
		t.Fatalf("vp %d, avatar 3 markers %d", s.teams[0].vp, s.teams[0].av[3].markers)
	}
	for h := 4; h < 10; h++ {
		if s.owner[h] >= 0 {
			t.Errorf("a settlement stands in hoop %d before it was placed", h)
		}
	}
	if s.phase != PhaseTick {
		t.Fatalf("phase %v", s.phase)
	}
	ticks(t, s, 30, only(3, To(1200, 1800).Place()))
	if s.owner[4] != 0 || s.building[4] != settlement {
		t.Errorf("the marker was not placed in round 2")
	}
}

func TestResolution7_AMarkerNotPlacedMayBeHandedOverInAMarket(t *testing.T) {
	s2 := started(t, 4, nil)
	s2.teams[0].av[1].markers = 1
	toBuy(t, s2)
	wantIllegal(t, s2, 0, BuyAction(HandoverItem(2, 3))) // avatar 2 holds none
	buy(t, s2, BuyAction(HandoverItem(1, 2)))
	if s2.teams[0].av[1].markers != 0 || s2.teams[0].av[2].markers != 1 || s2.teams[0].vp != 0 {
		t.Errorf("handover: markers %d -> %d, vp %d", s2.teams[0].av[1].markers, s2.teams[0].av[2].markers, s2.teams[0].vp)
	}
}

func TestCity_UpgradesAPlacedSettlementAtOnce(t *testing.T) {
	s := started(t, 4, nil)
	build(s, 0, 4, settlement)
	build(s, 1, 5, settlement)
	grantAll(s, 0, 2, 2, 2, 2)
	toBuy(t, s)
	wantIllegal(t, s, 0, BuyAction(CityItem(0, false))) // already a city
	wantIllegal(t, s, 0, BuyAction(CityItem(5, false))) // another team's
	wantIllegal(t, s, 0, BuyAction(CityItem(6, false))) // empty
	wantIllegal(t, s, 0, BuyAction(CityItem(4, false), CityItem(4, false)))
	buy(t, s, BuyAction(CityItem(4, false)))
	if s.building[4] != city || s.teams[0].vp != 1 {
		t.Errorf("hoop 4 building %d, vp %d", s.building[4], s.teams[0].vp)
	}
	// Deliveries now count there.
	mustApply(t, s, 0, DeployAction(0, 0, 0, 0))
	mustApply(t, s, 1, DeployAction(1, 1, 1, 1))
	scatter(s)
	hand(s, 0, 2, Ore)
	put(s, 0, 2, 1200, 1800)
	tick(t, s)
	if s.teams[0].res[Ore] != 2 {
		t.Errorf("no delivery at the new city: %v", s.teams[0].res)
	}
}

func TestKnight_PromotesANonKnight_NoneLeftIsIllegal(t *testing.T) {
	s := started(t, 4, nil)
	grantAll(s, 0, 0, 6, 0, 3)
	toBuy(t, s)
	wantIllegal(t, s, 0, BuyAction(KnightItem(0)))                // already a knight
	wantIllegal(t, s, 0, BuyAction(KnightItem(2), KnightItem(2))) // twice the same
	buy(t, s, BuyAction(KnightItem(2), KnightItem(3)))
	if !s.teams[0].av[2].knight || !s.teams[0].av[3].knight || s.teams[0].vp != 2 {
		t.Errorf("knights %v %v, vp %d", s.teams[0].av[2].knight, s.teams[0].av[3].knight, s.teams[0].vp)
	}
	toBuy(t, s)
	for _, a := range s.Legal(0, nil) {
		for k := 0; a.Kind == kindBuy && k < int(a.Arg[0]); k++ {
			if itemOf(a, k).Kind == buyKnight {
				t.Errorf("a knight is listed with none left: %s", s.FormatAction(a))
			}
		}
	}
	for i := 0; i < 4; i++ {
		wantIllegal(t, s, 0, BuyAction(KnightItem(i)))
	}
}

func TestDeck_EightCardsShuffledFromTheSeed(t *testing.T) {
	decks := map[[deckSize]int8]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		st, _ := engine.New("fccatan", engine.Config{Seats: 4, Seed: seed})
		s := st.(*State)
		var n [6]int
		for _, c := range s.deck {
			n[c]++
		}
		if n != [6]int{0, 4, 1, 1, 1, 1} {
			t.Errorf("seed %d deck %v", seed, s.deck)
		}
		again, _ := engine.New("fccatan", engine.Config{Seats: 4, Seed: seed})
		if again.(*State).deck != s.deck {
			t.Errorf("seed %d: two decks differ", seed)
		}
		decks[s.deck] = true
	}
	if len(decks) < 10 {
		t.Errorf("only %d deck orders in 20 seeds", len(decks))
	}
}

func TestDeck_NoCardsOnceItRunsOut(t *testing.T) {
	s := started(t, 4, nil)
	s.deckTop = deckSize - 1
	grantAll(s, 0, 4, 0, 2, 0)
	toBuy(t, s)
	wantIllegal(t, s, 0, BuyAction(CardItem(), CardItem()))
	s.deckTop = deckSize
	wantIllegal(t, s, 0, BuyAction(CardItem()))
	if o := s.Observe(0).(*fccatanv1.Observation); o.DeckLeft != 0 {
		t.Errorf("deck_left %d", o.DeckLeft)
	}
}

// cardMarket reaches the purchases with team 0 able to buy one card, the deck's top set.
func cardMarket(t *testing.T, card int8) *State {
	s := started(t, 4, nil)
	s.deck[0] = card
	grantAll(s, 0, 2, 0, 1, 0)
	return s
}

func TestCard_VictoryPoint(t *testing.T) {
	s := cardMarket(t, cardVP)
	toBuy(t, s)
	buy(t, s, BuyAction(CardItem()))
	if s.teams[0].vp != 1 {
		t.Errorf("vp %d, want 1", s.teams[0].vp)
	}
}

func TestCard_YearOfPlentyTakesThreeOfTheTeamsChoice(t *testing.T) {
	s := cardMarket(t, cardPlenty)
	toBuy(t, s)
	buy(t, s, BuyAction(CardItem()))
	wantIllegal(t, s, 0, PlentyAction(res(1, 1, 0, 0)))
	wantIllegal(t, s, 0, PlentyAction(res(2, 2, 0, 0)))
	mustApply(t, s, 0, PlentyAction(res(0, 0, 2, 1)))
	if s.teams[0].res != [numRes]int16{0, 0, 2, 1} {
		t.Errorf("res %v after year of plenty", s.teams[0].res)
	}
	if got := pileBalls(s, Ore); got[0]+got[1]+got[2] != 10 {
		t.Errorf("ore piles %v, want 2 taken", got)
	}
}

func TestCard_YearOfPlentyWithFewerThanThreeBallsTakesWhatExists(t *testing.T) {
	s := cardMarket(t, cardPlenty)
	toBuy(t, s)
	// Leave 2 balls on the field (the rest in team 3's stock).
	for p, spot := range s.c.field.Piles {
		s.teams[3].res[spot.Resource] += int16(s.piles[p])
		s.piles[p] = 0
	}
	s.piles[0], s.teams[3].res[Wood] = 1, s.teams[3].res[Wood]-1
	s.piles[9], s.teams[3].res[Sheep] = 1, s.teams[3].res[Sheep]-1
	buy(t, s, BuyAction(CardItem()))
	// Paying the card put 2 wood and an ore back: 5 on the field now.
	for p := range s.c.field.Piles {
		s.teams[3].res[s.c.field.Piles[p].Resource] += int16(s.piles[p])
		s.piles[p] = 0
	}
	s.piles[0], s.teams[3].res[Wood] = 1, s.teams[3].res[Wood]-1
	s.piles[9], s.teams[3].res[Sheep] = 1, s.teams[3].res[Sheep]-1
	wantIllegal(t, s, 0, PlentyAction(res(2, 0, 0, 1)))
	if n := len(s.Legal(0, nil)); n != 1 {
		t.Errorf("%d choices listed, want 1", n)
	}
	mustApply(t, s, 0, PlentyAction(res(1, 0, 0, 1)))
	if s.fieldBalls() != 0 {
		t.Errorf("%d balls left on the field", s.fieldBalls())
	}
}

func TestCard_MonopolyTakesAllOfOneResource(t *testing.T) {
	s := cardMarket(t, cardMonopoly)
	grant(s, 1, Sheep, 2)
	grant(s, 2, Sheep, 1)
	grant(s, 3, Ore, 1)
	toBuy(t, s)
	buy(t, s, BuyAction(CardItem()))
	mustApply(t, s, 0, MonopolyAction(Sheep))
	if s.teams[0].res[Sheep] != 3 || s.teams[1].res[Sheep] != 0 || s.teams[2].res[Sheep] != 0 || s.teams[3].res[Ore] != 1 {
		t.Errorf("after monopoly: %v %v %v %v", s.teams[0].res, s.teams[1].res, s.teams[2].res, s.teams[3].res)
	}
}

func TestCard_RobberEveryTeamDiscardsHalfRoundedUpOfItsChoice(t *testing.T) {
	s := cardMarket(t, cardRobber)
	grantAll(s, 0, 0, 1, 0, 0)
	grantAll(s, 1, 1, 1, 1, 0)
	grantAll(s, 2, 0, 0, 0, 1)
	toBuy(t, s)
	buy(t, s, BuyAction(CardItem()))
	if s.phase != PhaseDiscard {
		t.Fatalf("phase %v", s.phase)
	}
	if got := s.ToAct(nil); len(got) != 3 || got[2] != 2 {
		t.Errorf("ToAct %v, want the teams holding balls: 0, 1, 2", got)
	}
	for team, want := range []int8{1, 2, 1, 0} {
		if s.teams[team].discard != want {
			t.Errorf("team %d discards %d, want %d", team, s.teams[team].discard, want)
		}
	}
	wantIllegal(t, s, 1, DiscardAction(res(1, 0, 0, 0)))
	wantIllegal(t, s, 1, DiscardAction(res(0, 0, 0, 2)))
	mustApply(t, s, 0, DiscardAction(res(0, 1, 0, 0)))
	mustApply(t, s, 1, DiscardAction(res(1, 0, 1, 0)))
	mustApply(t, s, 2, DiscardAction(res(0, 0, 0, 1)))
	if s.teams[1].res != [numRes]int16{0, 1, 0, 0} || s.teams[2].res != ([numRes]int16{}) {
		t.Errorf("after the robber: %v %v", s.teams[1].res, s.teams[2].res)
	}
}

func TestCard_BarbariansRemoveASettlementOrDowngradeACity(t *testing.T) {
	s := cardMarket(t, cardBarbarians)
	build(s, 1, 4, settlement)
	build(s, 2, 5, city)
	build(s, 0, 6, settlement) // its own: no target
	s.teams[1].vp, s.teams[2].vp = 2, 2
	toBuy(t, s)
	s2 := s.Clone().(*State)
	buy(t, s, BuyAction(CardItem()))
	wantIllegal(t, s, 0, BarbariansAction(1)) // a starting city
	wantIllegal(t, s, 0, BarbariansAction(6)) // its own
	wantIllegal(t, s, 0, BarbariansAction(7)) // empty
	if n := len(s.Legal(0, nil)); n != 2 {
		t.Errorf("%d targets listed, want 2", n)
	}
	mustApply(t, s, 0, BarbariansAction(4))
	if s.owner[4] != -1 || s.building[4] != noBuilding {
		t.Errorf("settlement not removed")
	}
	buy(t, s2, BuyAction(CardItem()))
	mustApply(t, s2, 0, BarbariansAction(5))
	if s2.owner[5] != 2 || s2.building[5] != settlement {
		t.Errorf("city not downgraded")
	}
	if s2.teams[2].vp != 2 || s.teams[1].vp != 2 {
		t.Errorf("barbarians took VP: %d and %d, want 2 and 2", s2.teams[2].vp, s.teams[1].vp)
	}
}

func TestCard_BarbariansWithoutATargetAreWasted(t *testing.T) {
	s := cardMarket(t, cardBarbarians)
	toBuy(t, s)
	buy(t, s, BuyAction(CardItem()))
	if s.phase != PhaseTick || s.round != 2 {
		t.Errorf("phase %v: barbarians with only starting cities should be wasted", s.phase)
	}
}

func TestRealTime_AdvanceClosesMarketStepsWithDefaults(t *testing.T) {
	s := started(t, 4, nil)
	grantAll(s, 0, 2, 2, 0, 0)
	whistle(t, s)
	for s.phase != PhaseTick {
		if err := s.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	if s.round != 2 || s.teams[0].vp != 0 || s.teams[0].res[Wood] != 2 {
		t.Errorf("advancing the market bought or traded: round %d vp %d", s.round, s.teams[0].vp)
	}
	if s.AdvanceAfter() != s.TickInterval() {
		t.Errorf("AdvanceAfter in a tick = %v", s.AdvanceAfter())
	}
	// Random Advances and actions never break the game.
	r := rand.New(rand.NewPCG(1, 2))
	for !s.Terminal() {
		if r.IntN(3) == 0 {
			if err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		seat := s.ToAct(nil)[0]
		legal := s.Legal(seat, nil)
		mustApply(t, s, int(seat), legal[r.IntN(len(legal))])
	}
}

func TestMarket_ABoundedNumberOfTradeSteps(t *testing.T) {
	for _, steps := range []int{0, 1, 2, 3} {
		s := started(t, 4, map[string]string{"trade_steps": string(rune('0' + steps))})
		whistle(t, s)
		offers := 0
		for s.phase == PhaseOffer || s.phase == PhaseReply {
			if s.phase == PhaseOffer {
				offers++
			}
			for team := 0; team < 4; team++ {
				mustApply(t, s, team, PassAction())
			}
		}
		if offers != steps || s.phase != PhaseBuy {
			t.Errorf("trade_steps=%d: %d offer steps, then %v", steps, offers, s.phase)
		}
	}
}
