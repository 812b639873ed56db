package fccatan

import (
	"fmt"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

func vecProto(v Vec) *fccatanv1.Vec { return &fccatanv1.Vec{X: v.X, Y: v.Y} }

func (c *config) costsProto() *fccatanv1.Costs {
	return &fccatanv1.Costs{
		Settlement:     pbCounts(c.costs[buySettlement]),
		City:           pbCounts(c.costs[buyCity]),
		Knight:         pbCounts(c.costs[buyKnight]),
		Card:           pbCounts(c.costs[buyCard]),
		CitySheepOrOre: c.citySheepOrOre,
	}
}

func (c *config) rulesProto() *fccatanv1.Rules {
	return &fccatanv1.Rules{
		Ruleset: c.ruleset, WinVp: int32(c.winVP), TicksPerRound: int32(c.ticksPerRound), TickMs: int32(c.tickMS),
		TopSpeedCmS: c.speed, ReachCm: c.reach, MaxRounds: int32(c.roundCap), IdleMarkets: int32(c.idleMarkets),
		TradeSteps: int32(c.tradeSteps), Throwing: c.throwing, ThrowRangeCm: c.throwRange, Costs: c.costsProto(), Map: c.field.Name,
		Knights: c.knightsOption(),
	}
}

// knightsOption is the knights option as a match names it.
func (c *config) knightsOption() string {
	if c.knights < 0 {
		return "any"
	}
	return strconv.Itoa(c.knights)
}

// Observe is seat's view: the whole field, every team's resources and cards, the clock; the
// intents of seat's own players only, and only the trade offers seat is part of.
func (s *State) Observe(seat engine.Seat) proto.Message {
	o := &fccatanv1.Observation{
		Seat:        int32(seat),
		Phase:       fccatanv1.Phase(s.phase),
		Rules:       s.c.rulesProto(),
		Round:       int32(s.round),
		Tick:        s.tick,
		DeckLeft:    int32(s.deckLeft()),
		IdleMarkets: int32(s.idle),
		SetupSeat:   -1,
		PendingSeat: -1,
	}
	if seat < 0 || int(seat) >= s.c.teams {
		seat = engine.Spectator
		o.Seat = -1
	}
	if s.phase == PhaseTick {
		o.TimeLeftMs = (int32(s.c.ticksPerRound) - s.tick) * int32(s.c.tickMS)
	}
	if s.phase == PhaseOffer || s.phase == PhaseReply {
		o.TradeStep = int32(s.tradeStep)
	}
	if s.phase == PhaseSetup {
		o.SetupSeat = int32(s.setupSeat)
	}
	if s.phase == PhaseCardChoice || s.phase == PhaseDiscard {
		o.PendingCard, o.PendingSeat = fccatanv1.Card(s.pendingCard), int32(s.pendingSeat)
	}
	if seat >= 0 && s.simultaneous() {
		o.Submitted = s.teams[seat].done
	}
	// The messages of a view are allocated in a few slabs, not one by one: bots in process
	// get a view every tick.
	nav := 0
	for t := 0; t < s.c.teams; t++ {
		nav += int(s.teams[t].size)
	}
	teams := make([]fccatanv1.Team, s.c.teams)
	counts := make([]fccatanv1.Resources, s.c.teams)
	avs := make([]fccatanv1.Avatar, nav)
	vecs := make([]fccatanv1.Vec, 2*nav)
	avPtrs := make([]*fccatanv1.Avatar, nav)
	o.Teams = make([]*fccatanv1.Team, s.c.teams)
	k := 0
	for t := 0; t < s.c.teams; t++ {
		tm := &s.teams[t]
		pt := &teams[t]
		pt.Seat, pt.Vp, pt.StartHoop = int32(t), int32(tm.vp), int32(tm.start)
		counts[t] = fccatanv1.Resources{Wood: int32(tm.res[Wood]), Brick: int32(tm.res[Brick]), Ore: int32(tm.res[Ore]), Sheep: int32(tm.res[Sheep])}
		pt.Resources = &counts[t]
		for c := 0; c < int(tm.ncards); c++ {
			pt.Cards = append(pt.Cards, fccatanv1.Card(tm.cards[c]))
		}
		for c := 0; c < int(tm.nbought); c++ {
			pt.LastPurchases = append(pt.LastPurchases, fccatanv1.PurchaseKind(tm.bought[c]))
		}
		pt.Avatars = avPtrs[k : k : k+int(tm.size)]
		for i := 0; i < int(tm.size); i++ {
			av := &tm.av[i]
			pa := &avs[k]
			vecs[2*k] = fccatanv1.Vec{X: av.pos.X, Y: av.pos.Y}
			vecs[2*k+1] = fccatanv1.Vec{X: av.vel.X, Y: av.vel.Y}
			pa.Index, pa.Knight, pa.Position, pa.Velocity = int32(i), av.knight, &vecs[2*k], &vecs[2*k+1]
			pa.Carrying, pa.Collected, pa.Frozen, pa.Markers = pbRes(int8(av.carry)), av.collected, av.frozen, int32(av.markers)
			if int(seat) == t {
				pa.Intent = intentProto(s.order(t, i))
			}
			pt.Avatars = append(pt.Avatars, pa)
			k++
		}
		if s.phase == PhaseDiscard {
			o.Discards = append(o.Discards, int32(tm.discard))
		}
		o.Teams[t] = pt
	}
	np, nh := len(s.c.field.Piles), len(s.c.field.Hoops)
	piles := make([]fccatanv1.Pile, np)
	o.Piles = make([]*fccatanv1.Pile, np)
	for p, spot := range s.c.field.Piles {
		piles[p] = fccatanv1.Pile{Id: int32(p), Resource: pbRes(int8(spot.Resource)), Balls: int32(s.piles[p])}
		o.Piles[p] = &piles[p]
	}
	hoops := make([]fccatanv1.HoopState, nh)
	o.Hoops = make([]*fccatanv1.HoopState, nh)
	for h := range s.c.field.Hoops {
		hoops[h] = fccatanv1.HoopState{Id: int32(h), Owner: int32(s.owner[h]), Building: fccatanv1.Building(s.building[h])}
		o.Hoops[h] = &hoops[h]
	}
	if s.phase == PhaseReply {
		for i := int(s.stepOffers); i < len(s.offers); i++ {
			if of := &s.offers[i]; of.seenBy(seat) {
				o.Offers = append(o.Offers, of.proto())
			}
		}
	}
	return o
}

// intentSlab holds one avatar intent's messages in one allocation.
type intentSlab struct {
	m      fccatanv1.AvatarIntent
	target fccatanv1.AvatarIntent_Target
	vel    fccatanv1.AvatarIntent_Velocity
	stay   fccatanv1.AvatarIntent_Stay
	vec    fccatanv1.Vec
	st     fccatanv1.Stay
	ref    fccatanv1.AvatarRef
}

func intentProto(in Intent) *fccatanv1.AvatarIntent { return new(intentSlab).fill(in) }

func (sl *intentSlab) fill(in Intent) *fccatanv1.AvatarIntent {
	m := &sl.m
	m.PickUp, m.Place, m.Tag, m.Throw = in.has(flagPick), in.has(flagPlace), in.has(flagTag), in.has(flagThrow)
	sl.vec.X, sl.vec.Y = int32(in.X), int32(in.Y)
	switch {
	case in.has(flagTo):
		sl.target.Target = &sl.vec
		m.Motion = &sl.target
	case in.has(flagVel):
		sl.vel.Velocity = &sl.vec
		m.Motion = &sl.vel
	default:
		sl.vec = fccatanv1.Vec{}
		sl.stay.Stay = &sl.st
		m.Motion = &sl.stay
	}
	if ts, ta, ok := in.tagTarget(); ok {
		sl.ref.Seat, sl.ref.Avatar = int32(ts), int32(ta)
		m.TagTarget = &sl.ref
	}
	if in.has(flagThrow) {
		m.ThrowTo = int32(in.throwTo())
	}
	return m
}

// intentsSlab holds a whole Intents action's messages in one allocation.
type intentsSlab struct {
	act  fccatanv1.Action
	kind fccatanv1.Action_Intents
	in   fccatanv1.Intents
	ptrs [maxAvatars]*fccatanv1.AvatarIntent
	av   [maxAvatars]intentSlab
}

func itemProto(it Item) *fccatanv1.Purchase {
	p := &fccatanv1.Purchase{Kind: fccatanv1.PurchaseKind(it.Kind)}
	switch it.Kind {
	case buySettlement, buyKnight:
		p.Avatar = int32(it.Param)
	case buyCity:
		p.Hoop = int32(it.Param & 0xff)
		if it.Param>>8 == 1 {
			p.PayWith = fccatanv1.Resource_RESOURCE_ORE
		}
	case buyHandover:
		p.Avatar, p.ToAvatar = int32(it.Param)/maxAvatars, int32(it.Param)%maxAvatars
	}
	return p
}

func countsOf(a engine.Action) [numRes]int {
	var n [numRes]int
	for r := range n {
		n[r] = int(a.Arg[r])
	}
	return n
}

// ActionProto is a as a typed message.
func (s *State) ActionProto(a engine.Action) proto.Message { return ActionToProto(a) }

// ActionToProto is a as a typed message; it needs no state.
func ActionToProto(a engine.Action) *fccatanv1.Action {
	m := &fccatanv1.Action{}
	switch a.Kind {
	case kindPass:
		m.Kind = &fccatanv1.Action_Pass{Pass: &fccatanv1.Pass{}}
	case kindSetup:
		st := &fccatanv1.Setup{Hoop: int32(a.Arg[0])}
		for i := 0; i < maxAvatars; i++ {
			if a.Arg[1]&(1<<i) != 0 {
				st.Knights = append(st.Knights, int32(i))
			}
		}
		m.Kind = &fccatanv1.Action_Setup{Setup: st}
	case kindDeploy:
		d := &fccatanv1.Deploy{}
		for i := 0; i < maxAvatars; i++ {
			d.Hoops = append(d.Hoops, int32(a.Arg[i]))
		}
		m.Kind = &fccatanv1.Action_Deploy{Deploy: d}
	case kindIntents:
		sl := new(intentsSlab)
		for i := 0; i < maxAvatars; i++ {
			sl.ptrs[i] = sl.av[i].fill(intentOf(&a, i))
		}
		sl.in.Avatars = sl.ptrs[:]
		sl.kind.Intents = &sl.in
		sl.act.Kind = &sl.kind
		return &sl.act
	case kindOffer:
		var g, w [numRes]int16
		copy(g[:], a.Arg[1:5])
		copy(w[:], a.Arg[5:9])
		m.Kind = &fccatanv1.Action_Offer{Offer: &fccatanv1.Offer{ToSeat: int32(a.Arg[0]), Give: pbCounts(g), Want: pbCounts(w)}}
	case kindReply:
		r := &fccatanv1.Reply{}
		for t := 0; t < maxTeams; t++ {
			if a.Arg[0]&(1<<t) != 0 {
				r.AcceptFrom = append(r.AcceptFrom, int32(t))
			}
		}
		m.Kind = &fccatanv1.Action_Reply{Reply: r}
	case kindBuy:
		b := &fccatanv1.Buy{}
		for k := 0; k < int(a.Arg[0]) && k < maxItems; k++ {
			b.Purchases = append(b.Purchases, itemProto(itemOf(a, k)))
		}
		m.Kind = &fccatanv1.Action_Buy{Buy: b}
	case kindPlenty:
		m.Kind = &fccatanv1.Action_YearOfPlenty{YearOfPlenty: &fccatanv1.YearOfPlenty{Take: pbCounts(countsOf(a))}}
	case kindMonopoly:
		m.Kind = &fccatanv1.Action_Monopoly{Monopoly: &fccatanv1.Monopoly{Resource: pbRes(int8(a.Arg[0]))}}
	case kindDiscard:
		m.Kind = &fccatanv1.Action_Discard{Discard: &fccatanv1.Discard{Discard: pbCounts(countsOf(a))}}
	case kindBarbarians:
		m.Kind = &fccatanv1.Action_Barbarians{Barbarians: &fccatanv1.Barbarians{Hoop: int32(a.Arg[0])}}
	}
	return m
}

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: malformed fccatan action: "+format, append([]any{engine.ErrIllegalAction}, args...)...)
}

// small converts a proto number to an Arg, rejecting what does not fit lo..hi.
func small(v int32, lo, hi int32, what string) (int16, error) {
	if v < lo || v > hi {
		return 0, malformed("%s %d out of %d..%d", what, v, lo, hi)
	}
	return int16(v), nil
}

func countsFrom(r *fccatanv1.Resources, a *engine.Action, at int) error {
	if r == nil {
		return nil
	}
	for i, v := range [numRes]int32{r.GetWood(), r.GetBrick(), r.GetOre(), r.GetSheep()} {
		n, err := small(v, 0, 1000, "count")
		if err != nil {
			return err
		}
		a.Arg[at+i] = n
	}
	return nil
}

func resFrom(r fccatanv1.Resource) (int16, error) {
	if r < fccatanv1.Resource_RESOURCE_WOOD || r > fccatanv1.Resource_RESOURCE_SHEEP {
		return 0, malformed("no resource %v", r)
	}
	return int16(r) - 1, nil
}

// ActionFromProto reads a typed action back; malformed messages are ErrIllegalAction.
func (s *State) ActionFromProto(m proto.Message) (engine.Action, error) { return ActionFromProto(m) }

// ActionFromProto reads a typed action back; it needs no state.
func ActionFromProto(m proto.Message) (engine.Action, error) {
	pm, ok := m.(*fccatanv1.Action)
	if !ok || pm == nil {
		return engine.Action{}, malformed("want an orrery.fccatan.v1.Action, got %T", m)
	}
	var a engine.Action
	var err error
	switch k := pm.GetKind().(type) {
	case *fccatanv1.Action_Pass:
		a.Kind = kindPass
	case *fccatanv1.Action_Setup:
		a.Kind = kindSetup
		if a.Arg[0], err = small(k.Setup.GetHoop(), 0, maxHoops-1, "hoop"); err != nil {
			return engine.Action{}, err
		}
		for _, i := range k.Setup.GetKnights() {
			if i < 0 || i >= maxAvatars || a.Arg[1]&(1<<i) != 0 {
				return engine.Action{}, malformed("knight %d", i)
			}
			a.Arg[1] |= 1 << i
		}
	case *fccatanv1.Action_Deploy:
		a.Kind = kindDeploy
		if len(k.Deploy.GetHoops()) > maxAvatars {
			return engine.Action{}, malformed("%d hoops for at most %d players", len(k.Deploy.GetHoops()), maxAvatars)
		}
		for i, h := range k.Deploy.GetHoops() {
			if a.Arg[i], err = small(h, 0, maxHoops-1, "hoop"); err != nil {
				return engine.Action{}, err
			}
		}
	case *fccatanv1.Action_Intents:
		a.Kind = kindIntents
		if len(k.Intents.GetAvatars()) > maxAvatars {
			return engine.Action{}, malformed("%d intents for at most %d players", len(k.Intents.GetAvatars()), maxAvatars)
		}
		for i, pi := range k.Intents.GetAvatars() {
			in, err := intentFrom(pi)
			if err != nil {
				return engine.Action{}, err
			}
			a.Arg[3*i], a.Arg[3*i+1], a.Arg[3*i+2] = in.X, in.Y, in.Flags
		}
	case *fccatanv1.Action_Offer:
		a.Kind = kindOffer
		if a.Arg[0], err = small(k.Offer.GetToSeat(), 0, maxTeams-1, "seat"); err != nil {
			return engine.Action{}, err
		}
		if err := countsFrom(k.Offer.GetGive(), &a, 1); err != nil {
			return engine.Action{}, err
		}
		if err := countsFrom(k.Offer.GetWant(), &a, 5); err != nil {
			return engine.Action{}, err
		}
	case *fccatanv1.Action_Reply:
		a.Kind = kindReply
		for _, t := range k.Reply.GetAcceptFrom() {
			if t < 0 || t >= maxTeams || a.Arg[0]&(1<<t) != 0 {
				return engine.Action{}, malformed("accept_from %d", t)
			}
			a.Arg[0] |= 1 << t
		}
	case *fccatanv1.Action_Buy:
		a.Kind = kindBuy
		ps := k.Buy.GetPurchases()
		if len(ps) > maxItems {
			return engine.Action{}, malformed("%d purchases, at most %d", len(ps), maxItems)
		}
		a.Arg[0] = int16(len(ps))
		for i, p := range ps {
			it, err := itemFrom(p)
			if err != nil {
				return engine.Action{}, err
			}
			a.Arg[1+2*i], a.Arg[2+2*i] = int16(it.Kind), it.Param
		}
	case *fccatanv1.Action_YearOfPlenty:
		a.Kind = kindPlenty
		if err := countsFrom(k.YearOfPlenty.GetTake(), &a, 0); err != nil {
			return engine.Action{}, err
		}
	case *fccatanv1.Action_Monopoly:
		a.Kind = kindMonopoly
		if a.Arg[0], err = resFrom(k.Monopoly.GetResource()); err != nil {
			return engine.Action{}, err
		}
	case *fccatanv1.Action_Discard:
		a.Kind = kindDiscard
		if err := countsFrom(k.Discard.GetDiscard(), &a, 0); err != nil {
			return engine.Action{}, err
		}
	case *fccatanv1.Action_Barbarians:
		a.Kind = kindBarbarians
		if a.Arg[0], err = small(k.Barbarians.GetHoop(), 0, maxHoops-1, "hoop"); err != nil {
			return engine.Action{}, err
		}
	default:
		return engine.Action{}, malformed("no action kind set")
	}
	return a, nil
}

func intentFrom(pi *fccatanv1.AvatarIntent) (Intent, error) {
	var in Intent
	var err error
	switch mo := pi.GetMotion().(type) {
	case *fccatanv1.AvatarIntent_Stay, nil:
	case *fccatanv1.AvatarIntent_Target:
		in.Flags |= flagTo
		if in.X, err = small(mo.Target.GetX(), 0, 32767, "x"); err != nil {
			return in, err
		}
		if in.Y, err = small(mo.Target.GetY(), 0, 32767, "y"); err != nil {
			return in, err
		}
	case *fccatanv1.AvatarIntent_Velocity:
		in.Flags |= flagVel
		if in.X, err = small(mo.Velocity.GetX(), -32768, 32767, "vx"); err != nil {
			return in, err
		}
		if in.Y, err = small(mo.Velocity.GetY(), -32768, 32767, "vy"); err != nil {
			return in, err
		}
	}
	if pi.GetPickUp() {
		in = in.PickUp()
	}
	if pi.GetPlace() {
		in = in.Place()
	}
	if pi.GetTag() {
		in = in.Tag()
		if tt := pi.GetTagTarget(); tt != nil {
			if tt.GetSeat() < 0 || tt.GetSeat() >= maxTeams || tt.GetAvatar() < 0 || tt.GetAvatar() >= maxAvatars {
				return in, malformed("tag target s%da%d", tt.GetSeat(), tt.GetAvatar())
			}
			in = in.TagPlayer(int(tt.GetSeat()), int(tt.GetAvatar()))
		}
	} else if pi.GetTagTarget() != nil {
		return in, malformed("a tag target without a tag")
	}
	if pi.GetThrow() {
		if pi.GetThrowTo() < 0 || pi.GetThrowTo() >= maxAvatars {
			return in, malformed("throw_to %d", pi.GetThrowTo())
		}
		in = in.Throw(int(pi.GetThrowTo()))
	} else if pi.GetThrowTo() != 0 {
		return in, malformed("throw_to without a throw")
	}
	return in, nil
}

func itemFrom(p *fccatanv1.Purchase) (Item, error) {
	it := Item{Kind: int8(p.GetKind())}
	var err error
	switch p.GetKind() {
	case fccatanv1.PurchaseKind_PURCHASE_KIND_SETTLEMENT, fccatanv1.PurchaseKind_PURCHASE_KIND_KNIGHT:
		it.Param, err = small(p.GetAvatar(), 0, maxAvatars-1, "avatar")
	case fccatanv1.PurchaseKind_PURCHASE_KIND_CITY:
		it.Param, err = small(p.GetHoop(), 0, maxHoops-1, "hoop")
		switch p.GetPayWith() {
		case fccatanv1.Resource_RESOURCE_ORE:
			it.Param |= 1 << 8
		case fccatanv1.Resource_RESOURCE_UNSPECIFIED, fccatanv1.Resource_RESOURCE_SHEEP:
		default:
			return it, malformed("a city is paid with sheep or ore")
		}
	case fccatanv1.PurchaseKind_PURCHASE_KIND_CARD:
	case fccatanv1.PurchaseKind_PURCHASE_KIND_HANDOVER:
		var from, to int16
		if from, err = small(p.GetAvatar(), 0, maxAvatars-1, "avatar"); err != nil {
			return it, err
		}
		if to, err = small(p.GetToAvatar(), 0, maxAvatars-1, "to_avatar"); err != nil {
			return it, err
		}
		it.Param = from*maxAvatars + to
	default:
		return it, malformed("purchase kind %v", p.GetKind())
	}
	return it, err
}

var catalogMsg = buildCatalog()

func catalog() proto.Message { return proto.Clone(catalogMsg) }

func buildCatalog() *fccatanv1.Catalog {
	c := &fccatanv1.Catalog{}
	for _, name := range []string{"default", "published"} {
		f := fields[name]
		fm := &fccatanv1.FieldMap{Name: f.Name, WidthCm: f.Width, HeightCm: f.Height, PileCapacity: int32(f.PileCapacity), BallsPerResource: int32(f.BallsPerResource)}
		for h, hp := range f.Hoops {
			fm.Hoops = append(fm.Hoops, &fccatanv1.Hoop{Id: int32(h), Center: vecProto(hp.Center), RadiusCm: hp.Radius, Start: hp.Start})
		}
		for p, ps := range f.Piles {
			fm.Piles = append(fm.Piles, &fccatanv1.PileSpot{Id: int32(p), Resource: pbRes(int8(ps.Resource)), Position: vecProto(ps.Pos), InitialBalls: int32(ps.Balls)})
		}
		c.Maps = append(c.Maps, fm)
	}
	for _, rs := range []string{RulesetSeed, RulesetPublished} {
		cfg, err := newConfig(engine.Config{Seats: 4, Options: map[string]string{"ruleset": rs}})
		if err != nil {
			panic(err)
		}
		c.Rulesets = append(c.Rulesets, &fccatanv1.RulesetInfo{Name: rs, WinVp: int32(cfg.winVP), RoundSeconds: int32(cfg.ticksPerRound * cfg.tickMS / 1000), Throwing: cfg.throwing, Costs: cfg.costsProto(), Map: cfg.field.Name})
	}
	for _, d := range deckSpec {
		c.Deck = append(c.Deck, &fccatanv1.DeckEntry{Card: fccatanv1.Card(d.card), Count: int32(d.count)})
	}
	return c
}
