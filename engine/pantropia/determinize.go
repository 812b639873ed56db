package pantropia

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strconv"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
)

// Determinizer draws full states consistent with one seat's observation, for search bots:
// the cards the seat has not seen (the other hands, the cancelled cards and the deck) are
// dealt anew from the deck's make-up less the cards in sight, the deck's Technocalypses
// placed at random, and the dice reseeded. It reads the observation once.
//
// The rules (dice, deck, menu, caps) are the match's options, which the observation carries.
type Determinizer struct {
	base     *state
	viewer   int8
	pool     []Card // the unseen cards other than Technocalypses
	handSize [maxSeats]int8
	deal     []Card // scratch
}

var _ engine.Evaluator = (*state)(nil)

// NewDeterminizer reads o, the observation of seat.
func NewDeterminizer(o *pb.Observation, seat int) (*Determinizer, error) {
	n := len(o.GetPlayers())
	opts := maps.Clone(o.GetOptions())
	if opts == nil {
		opts = make(map[string]string, 2)
	}
	opts["turn_cap"] = strconv.Itoa(int(o.GetTurnCap()))
	opts["offers_per_turn"] = strconv.Itoa(int(o.GetOffersPerTurn()))
	cfg, err := newConfig(engine.Config{Seats: n, Options: opts})
	if err != nil {
		return nil, fmt.Errorf("pantropia: observation: %w", err)
	}
	cfg.options = maps.Clone(o.GetOptions()) // what the samples show the seat, as the match does
	if len(o.GetJoints()) != NumJoints || len(o.GetAbandonLeft()) != n || len(o.GetDiscardLeft()) != n || seat < 0 || seat >= n {
		return nil, fmt.Errorf("pantropia: observation is not a seat's whole view")
	}
	s := newState(cfg, 0)
	s.events = eventLog{}
	s.phase = Phase(o.GetPhase())
	if s.phase <= phaseNone || s.phase >= PhaseOver {
		return nil, fmt.Errorf("pantropia: observation has no running phase")
	}
	s.active = int8(o.GetActive())
	s.turn = o.GetTurn()
	s.lastFill = o.GetTurn() - o.GetStallTurns() - 1 // the latest fill the view allows
	s.cardPlayed = o.GetCardPlayed()
	s.offersMade = int8(o.GetOffersMade())
	for j, owner := range o.GetJoints() {
		if owner < -1 || int(owner) >= n {
			return nil, fmt.Errorf("pantropia: joint %d has owner %d", j, owner)
		}
		s.setJoint(j, int8(owner))
	}
	for i := range s.site {
		s.site[i], s.arco[i] = -1, false
	}
	structures := 0
	for _, st := range o.GetStructures() {
		x, owner := st.GetIntersection(), st.GetOwner()
		if x < 0 || x >= NumIntersections || owner < 0 || int(owner) >= n {
			return nil, fmt.Errorf("pantropia: structure at %d of %d is off the sphere", x, owner)
		}
		s.site[x], s.arco[x] = int8(owner), st.GetArcology()
		structures++
	}
	for i := range s.dieHolder {
		s.dieHolder[i] = -1
	}
	hidden := 0
	var hands [maxSeats]int8
	for p, pp := range o.GetPlayers() {
		pl := &s.pl[p]
		pl.chips = ChipsOf(pp.GetChips())
		pl.rings = int16(pp.GetRings())
		pl.habitats = int8(supplyHabitats - pp.GetHabitatsLeft())
		pl.arcologies = int8(supplyArcologies - pp.GetArcologiesLeft())
		pl.shuttle = int8(pp.GetShuttleAt())
		if len(pp.GetMenu()) != cfg.slots {
			return nil, fmt.Errorf("pantropia: seat %d's menu has %d slots, want %d", p, len(pp.GetMenu()), cfg.slots)
		}
		for i, c := range pp.GetMenu() {
			pl.menu[i] = Color(c - 1)
		}
		if d := int(pp.GetDie()) - 1; d >= 0 && d < NumDice {
			s.dieHolder[d] = int8(p)
		}
		if pp.GetSpaceElevator() {
			s.elevator = int8(p)
		}
		if p != seat {
			hidden += int(pp.GetHandSize())
			hands[p] = int8(pp.GetHandSize())
		}
	}
	pl := &s.pl[seat]
	for _, k := range o.GetHand() {
		if k <= pb.CardKind(cardNone) || k >= pb.CardKind(Technocalypse) {
			return nil, fmt.Errorf("pantropia: hand holds card %d", k)
		}
		pl.hand[k]++
	}
	if pl.handSize() != int(o.GetPlayers()[seat].GetHandSize()) {
		return nil, fmt.Errorf("pantropia: hand of %d cards, hand size %d", pl.handSize(), o.GetPlayers()[seat].GetHandSize())
	}
	s.deckN = int8(o.GetDeckSize())
	s.reserve = int8(o.GetTechnocalypseReserve())
	s.countdown = int8(o.GetCountdown())
	s.lost = int8(o.GetLostCards())
	if r := o.GetLastRoll(); r != nil {
		s.lastRoll = roll{seat: int8(r.GetSeat()), permanent: Color(r.GetPermanent() - 1), die: int8(r.GetDie() - 1), swappable: Color(r.GetSwappable() - 1), valid: true}
		if r.GetPermanent() == pb.Color_COLOR_BLACK {
			s.lastRoll.permanent = Black
		}
	}
	if of := o.GetOffer(); of != nil {
		give, ok1 := chipsOf(of.GetGive())
		take, ok2 := chipsOf(of.GetTake())
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("pantropia: the open offer is malformed")
		}
		s.offer = offer{to: int8(of.GetTo()), give: give, take: take}
	}
	awaiting := int8(-1)
	if a := o.GetAwaiting(); len(a) > 0 {
		awaiting = int8(a[0])
	}
	seen := [numCards]int{}
	for k := range pl.hand {
		seen[k] += int(pl.hand[k])
	}
	if s.elevator >= 0 {
		seen[SpaceElevator]++
	}
	switch s.phase {
	case PhaseSetup:
		s.setupStep = int8(structures)
		for s.setupStep < 2*s.seats && s.setupSeat() != awaiting {
			s.setupStep++
		}
	case PhaseWindow:
		s.windowBy, s.windowAt, s.pendBlack = int8(o.GetPendingBy()), awaiting, o.GetPendingBlack()
		if !s.pendBlack {
			a, err := s.ActionFromProto(o.GetPendingCard())
			if err != nil {
				return nil, fmt.Errorf("pantropia: the pending card: %w", err)
			}
			s.pending = a
			seen[a.Arg[0]]++
		}
	case PhaseMirror:
		s.cur, s.mirrorLeft = awaiting, int8(o.GetMirrorLeft())
	case PhaseShade:
		s.cur = awaiting
		s.shadeDone = (awaiting - s.active + s.seats) % s.seats
	case PhaseTechno:
		s.cur = awaiting
	}
	for p := range n {
		s.abandon[p] = int8(o.GetAbandonLeft()[p])
		s.discard[p] = int16(o.GetDiscardLeft()[p])
	}
	d := &Determinizer{base: s, viewer: int8(seat), handSize: hands}
	for k := OrbitalMirror; k < Technocalypse; k++ {
		for i := seen[k]; i < int(cfg.deck[k]); i++ {
			d.pool = append(d.pool, k)
		}
	}
	technos := int(o.GetTechnocalypsesInDeck())
	want := hidden + int(s.lost) + int(s.deckN) - technos
	if len(d.pool) != want || technos > int(s.deckN) {
		return nil, fmt.Errorf("pantropia: %d unseen cards for %d places (a deck unlike the options?)", len(d.pool), want)
	}
	for i := range s.deckN {
		s.deck[i] = Technocalypse // the places Sample fills
	}
	d.deal = make([]Card, 0, s.deckN)
	return d, nil
}

// Sample writes a draw into dst (nil, or an earlier sample) and returns it.
func (d *Determinizer) Sample(dst engine.State, r *rand.Rand) engine.State {
	s := d.base.CloneInto(dst).(*state)
	r.Shuffle(len(d.pool), func(i, j int) { d.pool[i], d.pool[j] = d.pool[j], d.pool[i] })
	k := 0
	for p := int8(0); p < s.seats; p++ {
		if p == d.viewer {
			continue
		}
		s.pl[p].hand = [numCards]int8{}
		for i := int8(0); i < d.handSize[p]; i++ {
			s.pl[p].hand[d.pool[k]]++
			k++
		}
	}
	k += int(s.lost) // the cancelled cards are out of the game
	d.deal = append(d.deal[:0], d.pool[k:]...)
	for len(d.deal) < int(s.deckN) {
		d.deal = append(d.deal, Technocalypse)
	}
	r.Shuffle(len(d.deal), func(i, j int) { d.deal[i], d.deal[j] = d.deal[j], d.deal[i] })
	copy(s.deck[:s.deckN], d.deal)
	s.rng.Seed(r.Uint64(), r.Uint64())
	return s
}
