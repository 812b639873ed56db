package fccatan

import (
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

// Event kinds of the compact log.
const (
	evSetup uint8 = iota + 1
	evRound
	evPickup
	evDeliver
	evTag
	evReturn
	evPlace
	evThrow
	evWhistle
	evOffers // x trade step, y first offer, n[0] offers
	evTrades // as evOffers
	evBought // seat, x kind, y param, av 1 when dropped
	evCard   // seat, x card
	evEffect // seat, x card, n resources, y hoop, seat2 victim
	evEnd    // x reason
)

// event is one entry of the compact log; Events builds the typed messages lazily per viewer.
type event struct {
	kind       uint8
	seat, av   int8
	seat2, av2 int8
	res        int8
	round      int16
	tick       int32
	x, y       int32
	n          [numRes]int8
}

func (s *State) log(e event) {
	e.round, e.tick = s.round, s.tick
	s.events = append(s.events, e)
}

// EventCount is the number of events so far.
func (s *State) EventCount() int { return len(s.events) }

// Events appends events from..EventCount()-1 as seat sees them: trade offers only to the two
// teams involved.
func (s *State) Events(seat engine.Seat, from int, buf []proto.Message) []proto.Message {
	for i := max(from, 0); i < len(s.events); i++ {
		buf = append(buf, s.eventProto(seat, s.events[i]))
	}
	return buf
}

func pbRes(r int8) fccatanv1.Resource {
	if r < 0 || r >= numRes {
		return fccatanv1.Resource_RESOURCE_UNSPECIFIED
	}
	return fccatanv1.Resource(r + 1)
}

func pbRef(seat, av int8) *fccatanv1.AvatarRef {
	return &fccatanv1.AvatarRef{Seat: int32(seat), Avatar: int32(av)}
}

func pbCounts[T int8 | int16 | int](n [numRes]T) *fccatanv1.Resources {
	return &fccatanv1.Resources{Wood: int32(n[Wood]), Brick: int32(n[Brick]), Ore: int32(n[Ore]), Sheep: int32(n[Sheep])}
}

func (o *offer) proto() *fccatanv1.TradeOffer {
	return &fccatanv1.TradeOffer{FromSeat: int32(o.from), ToSeat: int32(o.to), Give: pbCounts(o.give), Want: pbCounts(o.want)}
}

func (o *offer) seenBy(seat engine.Seat) bool {
	return seat >= 0 && (int(o.from) == int(seat) || int(o.to) == int(seat))
}

func (s *State) eventProto(seat engine.Seat, e event) *fccatanv1.Event {
	m := &fccatanv1.Event{Round: int32(e.round), Tick: e.tick}
	switch e.kind {
	case evSetup:
		var knights []int32
		for i := 0; i < maxAvatars; i++ {
			if e.y&(1<<i) != 0 {
				knights = append(knights, int32(i))
			}
		}
		m.Kind = &fccatanv1.Event_Setup{Setup: &fccatanv1.SetupChosen{Seat: int32(e.seat), Hoop: e.x, Knights: knights}}
	case evRound:
		m.Kind = &fccatanv1.Event_RoundStarted{RoundStarted: &fccatanv1.RoundStarted{Round: e.x}}
	case evPickup:
		m.Kind = &fccatanv1.Event_PickedUp{PickedUp: &fccatanv1.PickedUp{Player: pbRef(e.seat, e.av), Pile: e.x, Resource: pbRes(e.res)}}
	case evDeliver:
		m.Kind = &fccatanv1.Event_Delivered{Delivered: &fccatanv1.Delivered{Player: pbRef(e.seat, e.av), Hoop: e.x, Resource: pbRes(e.res)}}
	case evTag:
		m.Kind = &fccatanv1.Event_Tagged{Tagged: &fccatanv1.Tagged{Knight: pbRef(e.seat, e.av), Player: pbRef(e.seat2, e.av2), Taken: pbRes(e.res)}}
	case evReturn:
		m.Kind = &fccatanv1.Event_BallReturned{BallReturned: &fccatanv1.BallReturned{Resource: pbRes(e.res), Pile: e.x}}
	case evPlace:
		m.Kind = &fccatanv1.Event_Placed{Placed: &fccatanv1.Placed{Player: pbRef(e.seat, e.av), Hoop: e.x}}
	case evThrow:
		m.Kind = &fccatanv1.Event_Thrown{Thrown: &fccatanv1.Thrown{From: pbRef(e.seat, e.av), To: pbRef(e.seat2, e.av2), Resource: pbRes(e.res)}}
	case evWhistle:
		m.Kind = &fccatanv1.Event_Whistle{Whistle: &fccatanv1.Whistle{Round: e.x}}
	case evOffers:
		om := &fccatanv1.OffersMade{TradeStep: e.x}
		for i := e.y; i < e.y+int32(e.n[0]); i++ {
			if o := &s.offers[i]; o.seenBy(seat) {
				om.Offers = append(om.Offers, o.proto())
			}
		}
		m.Kind = &fccatanv1.Event_OffersMade{OffersMade: om}
	case evTrades:
		ts := &fccatanv1.TradesSettled{TradeStep: e.x}
		for i := e.y; i < e.y+int32(e.n[0]); i++ {
			o := &s.offers[i]
			switch {
			case o.status == offerAccepted:
				ts.Accepted = append(ts.Accepted, o.proto())
			case !o.seenBy(seat):
			case o.status == offerDeclined:
				ts.Declined = append(ts.Declined, o.proto())
			case o.status == offerFailed:
				ts.Failed = append(ts.Failed, o.proto())
			}
		}
		m.Kind = &fccatanv1.Event_TradesSettled{TradesSettled: ts}
	case evBought:
		m.Kind = &fccatanv1.Event_Bought{Bought: &fccatanv1.Bought{Seat: int32(e.seat), Purchase: itemProto(Item{int8(e.x), int16(e.y)}), Dropped: e.av == 1}}
	case evCard:
		m.Kind = &fccatanv1.Event_CardDrawn{CardDrawn: &fccatanv1.CardDrawn{Seat: int32(e.seat), Card: fccatanv1.Card(e.x)}}
	case evEffect:
		if e.x != int32(cardBarbarians) {
			e.y, e.seat2 = -1, -1
		}
		m.Kind = &fccatanv1.Event_CardEffect{CardEffect: &fccatanv1.CardEffect{Seat: int32(e.seat), Card: fccatanv1.Card(e.x), Resources: pbCounts(e.n), Hoop: e.y, Victim: int32(e.seat2)}}
	case evEnd:
		r := s.Result()
		ge := &fccatanv1.GameEnded{Reason: engine.EndReason(e.x).String()}
		for t := 0; t < s.c.teams; t++ {
			ge.Vp = append(ge.Vp, int32(s.teams[t].vp))
			if r.Ranks[t] == 1 {
				ge.Winners = append(ge.Winners, int32(t))
			}
		}
		m.Kind = &fccatanv1.Event_GameEnded{GameEnded: ge}
	}
	return m
}
