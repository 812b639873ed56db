package pantropia

import (
	"fmt"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
)

func pbColor(c Color) pb.Color { return pb.Color(c + 1) }

func pbChips16(c [NumColors]int16) *pb.Chips {
	return &pb.Chips{Red: int32(c[Red]), Orange: int32(c[Orange]), Yellow: int32(c[Yellow]), Green: int32(c[Green]), Blue: int32(c[Blue]), Purple: int32(c[Purple])}
}

func pbChips32(c [NumColors]int32) *pb.Chips {
	return &pb.Chips{Red: c[Red], Orange: c[Orange], Yellow: c[Yellow], Green: c[Green], Blue: c[Blue], Purple: c[Purple]}
}

func chipsOf(m *pb.Chips) ([NumColors]int16, bool) {
	v := [NumColors]int32{m.GetRed(), m.GetOrange(), m.GetYellow(), m.GetGreen(), m.GetBlue(), m.GetPurple()}
	var c [NumColors]int16
	for i, n := range v {
		if n < 0 || n > 9999 {
			return c, false
		}
		c[i] = int16(n)
	}
	return c, true
}

// ChipsOf reads a proto chip count (for bots).
func ChipsOf(m *pb.Chips) [NumColors]int32 {
	return [NumColors]int32{m.GetRed(), m.GetOrange(), m.GetYellow(), m.GetGreen(), m.GetBlue(), m.GetPurple()}
}

func (s *state) ActionProto(a engine.Action) proto.Message {
	x0, x1, x2 := int32(a.Arg[0]), int32(a.Arg[1]), int32(a.Arg[2])
	m := &pb.Action{}
	switch a.Kind {
	case KindSettle:
		m.Kind = &pb.Action_Settle{Settle: &pb.Settle{Intersection: x0, Strut: x1}}
	case KindReact:
		m.Kind = &pb.Action_React{React: &pb.React{PlayLuddite: x0 == 1}}
	case KindTerraform:
		m.Kind = &pb.Action_Terraform{Terraform: &pb.Terraform{DieA: pb.Die(x0 + 1), DieB: pb.Die(x1 + 1)}}
	case KindPantropy:
		if x0 == -1 && x1 == -1 {
			m.Kind = &pb.Action_Pantropy{Pantropy: &pb.Pantropy{None: true}}
		} else {
			m.Kind = &pb.Action_Pantropy{Pantropy: &pb.Pantropy{SlotFrom: x0, SlotTo: x1}}
		}
	case KindEarth:
		m.Kind = &pb.Action_EarthTrade{EarthTrade: &pb.EarthTrade{Give: pbColor(Color(x0)), Take: pbColor(Color(x1))}}
	case KindOffer:
		to, give, take := OfferParts(a)
		m.Kind = &pb.Action_Offer{Offer: &pb.Offer{To: int32(to), Give: pbChips16(give), Take: pbChips16(take)}}
	case KindReply:
		m.Kind = &pb.Action_Reply{Reply: &pb.Reply{Accept: x0 == 1}}
	case KindRing:
		m.Kind = &pb.Action_Ring{Ring: &pb.BuildRing{Joint: x0}}
	case KindHabitat:
		m.Kind = &pb.Action_Habitat{Habitat: &pb.BuildHabitat{Intersection: x0}}
	case KindArcology:
		m.Kind = &pb.Action_Arcology{Arcology: &pb.BuildArcology{Intersection: x0}}
	case KindShuttle:
		m.Kind = &pb.Action_Shuttle{Shuttle: &pb.BuildShuttle{Intersection: x0}}
	case KindBuy:
		m.Kind = &pb.Action_BuyCard{BuyCard: &pb.BuyCard{}}
	case KindPlay:
		pc := &pb.PlayCard{Card: pb.CardKind(x0)}
		switch Card(x0) {
		case ShuttleCard:
			pc.ShuttleOwner, pc.Intersection = x1, x2
		case Aquifer:
			pc.Color = pbColor(Color(x1))
		case GuidedComet:
			pc.Slot, pc.Color = x1, pbColor(Color(x2))
		}
		m.Kind = &pb.Action_PlayCard{PlayCard: pc}
	case KindRemove:
		if x0 == -1 {
			m.Kind = &pb.Action_RemoveRing{RemoveRing: &pb.RemoveRing{Skip: true}}
		} else {
			m.Kind = &pb.Action_RemoveRing{RemoveRing: &pb.RemoveRing{Joint: x0}}
		}
	case KindAbandon:
		m.Kind = &pb.Action_AbandonSite{AbandonSite: &pb.AbandonSite{Intersection: x0}}
	case KindDiscard:
		m.Kind = &pb.Action_Discard{Discard: &pb.Discard{Color: pbColor(Color(x0)), Count: x1}}
	case KindEnd:
		m.Kind = &pb.Action_EndTurn{EndTurn: &pb.EndTurn{}}
	}
	return m
}

var errBadProto = fmt.Errorf("%w: malformed typed action", engine.ErrIllegalAction)

// small reads an int32 proto field into an action argument, rejecting values out of [lo, hi].
func small(v int32, lo, hi int) (int, bool) { return int(v), int(v) >= lo && int(v) <= hi }

func colorOf(c pb.Color) (Color, bool) {
	if c < pb.Color_COLOR_RED || c > pb.Color_COLOR_PURPLE {
		return 0, false
	}
	return Color(c - 1), true
}

func (s *state) ActionFromProto(msg proto.Message) (engine.Action, error) {
	m, ok := msg.(*pb.Action)
	if !ok || m == nil {
		return engine.Action{}, errBadProto
	}
	fail := func() (engine.Action, error) { return engine.Action{}, errBadProto }
	switch k := m.Kind.(type) {
	case *pb.Action_Settle:
		x, ok1 := small(k.Settle.GetIntersection(), 0, NumIntersections-1)
		st, ok2 := small(k.Settle.GetStrut(), 0, NumStruts-1)
		if ok1 && ok2 {
			return Settle(x, st), nil
		}
	case *pb.Action_React:
		return React(k.React.GetPlayLuddite()), nil
	case *pb.Action_Terraform:
		a, b := int(k.Terraform.GetDieA())-1, int(k.Terraform.GetDieB())-1
		if a >= 0 && b >= 0 && a < NumDice && b < NumDice && a < b {
			return Terraform(a, b), nil
		}
	case *pb.Action_Pantropy:
		p := k.Pantropy
		if p.GetNone() {
			if p.GetSlotFrom() == 0 && p.GetSlotTo() == 0 {
				return PantropyNone(), nil
			}
			return fail()
		}
		a, ok1 := small(p.GetSlotFrom(), 0, s.cfg.slots-1)
		b, ok2 := small(p.GetSlotTo(), 0, s.cfg.slots-1)
		if ok1 && ok2 {
			return Pantropy(a, b), nil
		}
	case *pb.Action_EarthTrade:
		a, ok1 := colorOf(k.EarthTrade.GetGive())
		b, ok2 := colorOf(k.EarthTrade.GetTake())
		if ok1 && ok2 {
			return Earth(a, b), nil
		}
	case *pb.Action_Offer:
		to, ok0 := small(k.Offer.GetTo(), 0, maxSeats-1)
		give, ok1 := chipsOf(k.Offer.GetGive())
		take, ok2 := chipsOf(k.Offer.GetTake())
		if ok0 && ok1 && ok2 {
			return Offer(to, give, take), nil
		}
	case *pb.Action_Reply:
		return Reply(k.Reply.GetAccept()), nil
	case *pb.Action_Ring:
		if j, ok := small(k.Ring.GetJoint(), 0, NumJoints-1); ok {
			return Ring(j), nil
		}
	case *pb.Action_Habitat:
		if x, ok := small(k.Habitat.GetIntersection(), 0, NumIntersections-1); ok {
			return Habitat(x), nil
		}
	case *pb.Action_Arcology:
		if x, ok := small(k.Arcology.GetIntersection(), 0, NumIntersections-1); ok {
			return Arcology(x), nil
		}
	case *pb.Action_Shuttle:
		if x, ok := small(k.Shuttle.GetIntersection(), 0, NumIntersections-1); ok {
			return BuildShuttle(x), nil
		}
	case *pb.Action_BuyCard:
		if k.BuyCard != nil {
			return Buy(), nil
		}
	case *pb.Action_EndTurn:
		if k.EndTurn != nil {
			return End(), nil
		}
	case *pb.Action_PlayCard:
		return s.playFromProto(k.PlayCard)
	case *pb.Action_RemoveRing:
		if k.RemoveRing.GetSkip() {
			if k.RemoveRing.GetJoint() == 0 {
				return Remove(-1), nil
			}
			return fail()
		}
		if j, ok := small(k.RemoveRing.GetJoint(), 0, NumJoints-1); ok {
			return Remove(j), nil
		}
	case *pb.Action_AbandonSite:
		if x, ok := small(k.AbandonSite.GetIntersection(), 0, NumIntersections-1); ok {
			return Abandon(x), nil
		}
	case *pb.Action_Discard:
		c, ok1 := colorOf(k.Discard.GetColor())
		n, ok2 := small(k.Discard.GetCount(), 1, 9999)
		if ok1 && ok2 {
			return Discard(c, n), nil
		}
	}
	return fail()
}

func (s *state) playFromProto(pc *pb.PlayCard) (engine.Action, error) {
	if pc == nil {
		return engine.Action{}, errBadProto
	}
	k := Card(pc.GetCard())
	if pc.GetCard() < pb.CardKind_CARD_KIND_ORBITAL_MIRROR || pc.GetCard() > pb.CardKind_CARD_KIND_TECHNOCALYPSE {
		return engine.Action{}, errBadProto
	}
	switch k {
	case ShuttleCard:
		q, ok1 := small(pc.GetShuttleOwner(), 0, maxSeats-1)
		x, ok2 := small(pc.GetIntersection(), 0, NumIntersections-1)
		if ok1 && ok2 {
			return PlayShuttle(q, x), nil
		}
	case Aquifer:
		if c, ok := colorOf(pc.GetColor()); ok {
			return PlayAquifer(c), nil
		}
	case GuidedComet:
		slot, ok1 := small(pc.GetSlot(), 0, s.cfg.slots-1)
		c, ok2 := colorOf(pc.GetColor())
		if ok1 && ok2 {
			return PlayComet(slot, c), nil
		}
	default:
		return Play(k), nil
	}
	return engine.Action{}, errBadProto
}

// Observe is seat's view: the whole public table, and the seat's own hand.
func (s *state) Observe(seat engine.Seat) proto.Message {
	o := &pb.Observation{
		Seat:                 int32(seat),
		Phase:                pb.Phase(s.phase),
		Active:               int32(s.active),
		Turn:                 s.turn,
		TurnCap:              int32(s.cfg.turnCap),
		Joints:               make([]int32, NumJoints),
		DeckSize:             int32(s.deckN),
		Countdown:            int32(s.countdown),
		TechnocalypseReserve: int32(s.reserve),
		LostCards:            int32(s.lost),
		CardPlayed:           s.cardPlayed,
		OffersMade:           int32(s.offersMade),
		OffersPerTurn:        int32(s.cfg.offersPerTurn),
		MirrorLeft:           int32(s.mirrorLeft),
		EmptyJoints:          int32(s.emptyJoints()),
		StallTurns:           s.stallTurns(),
		Options:              s.cfg.options, // read only, shared by every observation
	}
	if s.phase != PhaseMirror {
		o.MirrorLeft = 0
	}
	if d := s.decider(); d >= 0 {
		o.Awaiting = []int32{int32(d)}
	}
	for j, owner := range s.joints {
		o.Joints[j] = int32(owner)
	}
	for x, owner := range s.site {
		if owner >= 0 {
			o.Structures = append(o.Structures, &pb.Structure{Intersection: int32(x), Owner: int32(owner), Arcology: s.arco[x]})
		}
	}
	for i := 0; i < s.cfg.slots; i++ {
		o.MenuItems = append(o.MenuItems, pb.Item(s.cfg.slotItem[i]+1))
	}
	for p := int8(0); p < s.seats; p++ {
		pl := &s.pl[p]
		pp := &pb.Player{
			Seat:           int32(p),
			Chips:          pbChips32(pl.chips),
			Rings:          int32(pl.rings),
			HabitatsLeft:   int32(supplyHabitats - pl.habitats),
			ArcologiesLeft: int32(supplyArcologies - pl.arcologies),
			RingsLeft:      int32(supplyRings - pl.rings),
			ShuttleAt:      int32(pl.shuttle),
			HandSize:       int32(pl.handSize()),
			Die:            pb.Die(s.dieOf(p) + 1),
			SpaceElevator:  s.elevator == p,
		}
		for i := 0; i < s.cfg.slots; i++ {
			pp.Menu = append(pp.Menu, pbColor(pl.menu[i]))
		}
		for c := Color(0); c < NumColors; c++ {
			pp.EarthRates = append(pp.EarthRates, s.earthRate(p, c))
		}
		o.Players = append(o.Players, pp)
		o.AbandonLeft = append(o.AbandonLeft, int32(s.abandon[p]))
		o.DiscardLeft = append(o.DiscardLeft, int32(s.discard[p]))
	}
	if seat >= 0 && int(seat) < int(s.seats) {
		for k := OrbitalMirror; k < numCards; k++ {
			for i := int8(0); i < s.pl[seat].hand[k]; i++ {
				o.Hand = append(o.Hand, pb.CardKind(k))
			}
		}
	}
	for d, h := range s.dieHolder {
		if h < 0 {
			o.Reserve = append(o.Reserve, pb.Die(d+1))
		}
	}
	if r := s.lastRoll; r.valid {
		perm := pb.Color_COLOR_BLACK
		if r.permanent != Black {
			perm = pbColor(r.permanent)
		}
		o.LastRoll = &pb.Roll{Seat: int32(r.seat), Permanent: perm, Die: pb.Die(r.die + 1), Swappable: pbColor(r.swappable)}
	}
	for i := int8(0); i < s.deckN; i++ {
		if s.deck[i] == Technocalypse {
			o.TechnocalypsesInDeck++
		}
	}
	if s.phase == PhaseOffer {
		o.Offer = &pb.OpenOffer{From: int32(s.active), To: int32(s.offer.to), Give: pbChips16(s.offer.give), Take: pbChips16(s.offer.take)}
	}
	if s.phase == PhaseWindow {
		o.PendingBy = int32(s.windowBy)
		o.PendingBlack = s.pendBlack
		if !s.pendBlack {
			o.PendingCard = s.ActionProto(s.pending).(*pb.Action)
		}
	}
	return o
}

// ObserveAll is the omniscient view for finished matches: the public table plus every hand.
func (s *state) ObserveAll() proto.Message {
	o := s.Observe(engine.Spectator).(*pb.Observation)
	for p := int8(0); p < s.seats; p++ {
		for k := OrbitalMirror; k < numCards; k++ {
			for i := int8(0); i < s.pl[p].hand[k]; i++ {
				o.Players[p].Hand = append(o.Players[p].Hand, pb.CardKind(k))
			}
		}
	}
	return o
}

var catalogOnce = sync.OnceValue(buildCatalog)

func catalog() *pb.Catalog { return proto.Clone(catalogOnce()).(*pb.Catalog) }

func buildCatalog() *pb.Catalog {
	c := &pb.Catalog{}
	for i, x := range Geo.Intersections {
		in := &pb.Intersection{Id: int32(i), X: x.Pos.X, Y: x.Pos.Y, Z: x.Pos.Z, ColorA: pbColor(x.Colors[0]), ColorB: pbColor(x.Colors[1]), Antipode: int32(x.Antipode)}
		for k := range x.Struts {
			in.Struts = append(in.Struts, int32(x.Struts[k]))
			in.Neighbors = append(in.Neighbors, int32(x.Neighbors[k]))
		}
		c.Intersections = append(c.Intersections, in)
	}
	for i, st := range Geo.Struts {
		c.Struts = append(c.Struts, &pb.Strut{Id: int32(i), Color: pbColor(st.Color), A: int32(st.A), B: int32(st.B)})
	}
	for i, j := range Geo.Joints {
		pj := &pb.Joint{Id: int32(i), Strut: int32(j.Strut), X: j.Pos.X, Y: j.Pos.Y, Z: j.Pos.Z}
		for _, n := range j.Along {
			pj.Neighbors = append(pj.Neighbors, int32(n))
		}
		for _, n := range j.Through {
			pj.Neighbors = append(pj.Neighbors, int32(n))
		}
		c.Joints = append(c.Joints, pj)
	}
	def, err := newConfig(engine.Config{Seats: 4})
	if err != nil {
		panic(err) // the embedded defaults are part of the build
	}
	for i := 0; i < def.slots; i++ {
		c.Slots = append(c.Slots, &pb.Slot{Id: int32(i), Item: pb.Item(def.slotItem[i] + 1), Name: def.slotName[i]})
		c.DefaultMenu = append(c.DefaultMenu, pbColor(def.menu[i]))
	}
	for d := 0; d < NumDice; d++ {
		var f [NumColors]int16
		for k, n := range def.dice[d] {
			f[k] = int16(n)
		}
		c.DefaultDice = append(c.DefaultDice, &pb.DieFaces{Die: pb.Die(d + 1), Faces: pbChips16(f)})
	}
	for k := OrbitalMirror; k < numCards; k++ {
		c.DefaultDeck = append(c.DefaultDeck, &pb.DeckEntry{Card: pb.CardKind(k), Count: int32(def.deck[k])})
	}
	return c
}

// FormatChipsProto writes a proto chip count in the notation's form ("2red+1blue").
func FormatChipsProto(m *pb.Chips) string {
	c, _ := chipsOf(m)
	return formatChips(c)
}
