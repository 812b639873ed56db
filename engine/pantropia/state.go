// Package pantropia is the PanTropia engine: Settlers of Catan on a Hoberman sphere, with
// swappable dice, Pantropy and Terraforming, and a deck of reactions.
package pantropia

import (
	"math/rand/v2"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
)

func init() { engine.Register(game{}) }

type game struct{}

func (game) Info() engine.Info {
	return engine.Info{
		Name:     "pantropia",
		Title:    "PanTropia",
		MinSeats: 3,
		MaxSeats: 4,
		Options:  options,
	}
}

func (game) New(cfg engine.Config) (engine.State, error) {
	c, err := newConfig(cfg)
	if err != nil {
		return nil, err
	}
	return newState(c, cfg.Seed), nil
}

func (game) Catalog() proto.Message { return catalog() }

// Phase is what kind of decision the game waits for; the numbers match the proto Phase.
type Phase int8

const (
	phaseNone Phase = iota
	PhaseSetup
	PhaseWindow
	PhaseBlack
	PhaseMain
	PhaseOffer
	PhaseMirror
	PhaseShade
	PhaseTechno
	PhaseOver
)

var phaseNames = [...]string{"none", "setup", "luddite window", "black roll", "main", "offer", "orbital mirror", "solar shade", "technocalypse", "over"}

// player is one seat's pieces, chips, hand and menu chart.
type player struct {
	chips      [NumColors]int32
	rings      int16 // on the sphere
	habitats   int8  // on the sphere
	arcologies int8  // on the sphere
	shuttle    int8  // the intersection it hangs from, -1 in supply
	hand       [numCards]int8
	menu       [maxSlots]Color
}

func (p *player) handSize() int {
	n := 0
	for _, k := range p.hand {
		n += int(k)
	}
	return n
}

func (p *player) total() int32 {
	var n int32
	for _, c := range p.chips {
		n += c
	}
	return n
}

// offer is an open trade offer from the active seat.
type offer struct {
	to   int8
	give [NumColors]int16
	take [NumColors]int16
}

type roll struct {
	seat      int8
	permanent Color // Black on a black face
	die       int8
	swappable Color
	valid     bool
}

// state is a game in progress. Everything but the event log is a fixed-size value, so Clone is
// a copy; the log is append-only and shared between clones up to their common length.
type state struct {
	cfg   *config
	rng   rand.PCG
	phase Phase
	seats int8

	active     int8  // whose turn it is
	turn       int32 // turns completed
	lastFill   int32 // the turn in which an empty joint was last filled, -1 before the first
	setupStep  int8
	cardPlayed bool
	offersMade int8

	joints [NumJoints]int8        // ring owner, -1 empty
	ringOf [maxSeats]jointSet     // each seat's rings as a set, kept with joints by setJoint
	site   [NumIntersections]int8 // structure owner, -1 empty
	arco   [NumIntersections]bool
	pl     [maxSeats]player

	dieHolder [NumDice]int8 // seat, or -1 in reserve
	deck      [maxDeck]Card // deck[0] is the top
	deckN     int8
	reserve   int8 // Technocalypse cards in reserve
	countdown int8
	lost      int8
	elevator  int8 // the seat with the face-up Space Elevator, -1 none
	lastRoll  roll

	offer offer

	// A Luddite window: the pending card play (zero for a black roll), who triggered it and
	// who is asked now.
	pending   engine.Action
	pendBlack bool
	windowBy  int8
	windowAt  int8

	cur        int8 // the seat deciding in the mirror, shade and technocalypse phases
	mirrorLeft int8
	shadeDone  int8
	abandon    [maxSeats]int8
	discard    [maxSeats]int16

	reason engine.EndReason
	detail string

	// reachMemo is each seat's last reach, derived from the fields above and kept with the
	// inputs it came from (see reach); not part of the state's identity (MarshalBinary).
	reachMemo [maxSeats]reachMemo
	// priceMemo is the item prices of the last menu asked (see prices), and siteSets who
	// holds each intersection as sets (see sites), kept likewise.
	priceMemo priceMemo
	siteSets  siteSets

	events eventLog
}

var _ engine.State = (*state)(nil)

func newState(c *config, seed uint64) *state {
	s := &state{cfg: c, seats: int8(c.seats), rng: *engine.NewRand(seed), elevator: -1}
	for i := range s.joints {
		s.joints[i] = -1
	}
	for i := range s.site {
		s.site[i] = -1
	}
	for i := range s.pl {
		s.pl[i].shuttle = -1
		s.pl[i].menu = c.menu
	}
	for d := range s.dieHolder {
		s.dieHolder[d] = -1
		if d < c.seats {
			s.dieHolder[d] = int8(d)
		}
	}
	for k := OrbitalMirror; k < Technocalypse; k++ {
		for i := int8(0); i < c.deck[k]; i++ {
			s.deck[s.deckN] = k
			s.deckN++
		}
	}
	s.reserve = c.deck[Technocalypse]
	s.shuffleDeck()
	s.phase = PhaseSetup
	return s
}

func (s *state) intN(n int) int { return int(s.rng.Uint64() % uint64(n)) }

func (s *state) shuffleDeck() {
	for i := int(s.deckN) - 1; i > 0; i-- {
		j := s.intN(i + 1)
		s.deck[i], s.deck[j] = s.deck[j], s.deck[i]
	}
}

func (s *state) Seats() int { return int(s.seats) }

func (s *state) next(seat int8) int8 { return (seat + 1) % s.seats }

// setupSeat is who places at the current setup step: seat order, then back (the snake).
func (s *state) setupSeat() int8 {
	if s.setupStep < s.seats {
		return s.setupStep
	}
	return 2*s.seats - 1 - s.setupStep
}

// decider is the one seat that owes the decision now, -1 when the game is over.
func (s *state) decider() int8 {
	switch s.phase {
	case PhaseSetup:
		return s.setupSeat()
	case PhaseWindow:
		return s.windowAt
	case PhaseBlack, PhaseMain:
		return s.active
	case PhaseOffer:
		return s.offer.to
	case PhaseMirror, PhaseShade, PhaseTechno:
		return s.cur
	}
	return -1
}

func (s *state) ToAct(buf []engine.Seat) []engine.Seat {
	if d := s.decider(); d >= 0 {
		buf = append(buf, engine.Seat(d))
	}
	return buf
}

func (s *state) Terminal() bool { return s.phase == PhaseOver }

func (s *state) Result() engine.Result {
	r := engine.Result{Scores: make([]float64, s.seats), Reason: s.reason, Detail: s.detail}
	for i := 0; i < int(s.seats); i++ {
		r.Scores[i] = float64(s.pl[i].rings)
	}
	r.Ranks = engine.RanksByScore(r.Scores)
	if s.phase == PhaseOver {
		var win []string
		best := 0.0
		for i, rank := range r.Ranks {
			if rank == 1 {
				win = append(win, "seat "+itoa(i)) // as every game's result names seats
				best = r.Scores[i]
			}
		}
		verb := " wins"
		if len(win) > 1 {
			verb = " share the win"
		}
		r.Detail = s.detail + "; " + strings.Join(win, " and ") + verb + " with " + itoa(int(best)) + " rings"
	}
	return r
}

func (s *state) Clone() engine.State {
	c := *s
	c.events = s.events.clone()
	return &c
}

func (s *state) EventCount() int { return s.events.n }

// dieOf is the swappable die seat holds, -1 if none.
func (s *state) dieOf(seat int8) int8 {
	for d, h := range s.dieHolder {
		if h == seat {
			return int8(d)
		}
	}
	return -1
}

// setJoint puts owner's ring (-1: none) on joint j, keeping the ring sets in step.
func (s *state) setJoint(j int, owner int8) {
	if old := s.joints[j]; old >= 0 {
		s.ringOf[old][j>>6] &^= 1 << (uint(j) & 63)
	}
	if owner >= 0 {
		s.ringOf[owner].add(int16(j))
	}
	s.joints[j] = owner
}

func (s *state) emptyJoints() int {
	n := 0
	for _, o := range s.joints {
		if o < 0 {
			n++
		}
	}
	return n
}

// cost is what item costs seat at its menu chart.
func (s *state) cost(seat int8, item int) (c [NumColors]int32) {
	p := &s.pl[seat]
	f := int(s.cfg.itemFirst[item])
	for k := f; k < f+int(s.cfg.itemSlots[item]); k++ {
		c[p.menu[k]]++
	}
	return c
}

// prices is what each item costs seat, as cost, one color a byte (red the lowest): an item
// has at most maxItemSlots slots, so a byte holds any color's count. With chipBytes and
// covers it answers "can seat pay for it?" in a few instructions, as a list asks of every
// item. Menus change seldom, so the last answer is kept with the menu it came from.
func (s *state) prices(seat int8) *[numItems]uint64 {
	m, menu := &s.priceMemo, &s.pl[seat].menu
	if !m.known || m.menu != *menu {
		*m = priceMemo{known: true, menu: *menu}
		for it := range m.price {
			m.price[it] = s.price(seat, it)
		}
	}
	return &m.price
}

// priceMemo is the last answer of prices and the menu it came from.
type priceMemo struct {
	known bool
	menu  [maxSlots]Color
	price [numItems]uint64
}

// price is what item costs seat, as prices gives it.
func (s *state) price(seat int8, item int) uint64 {
	f, n := int(s.cfg.itemFirst[item]), int(s.cfg.itemSlots[item])
	var c uint64
	for _, col := range s.pl[seat].menu[f : f+n] {
		c += 1 << (8 * (uint(col) & 7))
	}
	return c
}

// chipBytes is chips one color a byte, as price is, each count held to 0..127: more than
// any price asks. A count below zero, which pays for nothing (canPay), sets the top bit.
func chipBytes(chips *[NumColors]int32) uint64 {
	_ = [1]struct{}{}[NumColors-6] // written out for six colors
	c := chips
	if uint32(c[0]|c[1]|c[2]|c[3]|c[4]|c[5]) < 128 { // as in play: each fits its byte
		return uint64(c[0]) | uint64(c[1])<<8 | uint64(c[2])<<16 | uint64(c[3])<<24 | uint64(c[4])<<32 | uint64(c[5])<<40
	}
	b := func(n int32) uint64 { return uint64(min(max(n, 0), 127)) }
	owes := uint64(uint32(c[0]|c[1]|c[2]|c[3]|c[4]|c[5])>>31) << 63
	return b(c[0]) | b(c[1])<<8 | b(c[2])<<16 | b(c[3])<<24 | b(c[4])<<32 | b(c[5])<<40 | owes
}

// byteTops has the top bit of each color's byte.
const byteTops = 0x808080808080

// covers reports whether chips pays price (both one color a byte, each byte below 128):
// with every byte's top bit set, subtracting price leaves it set where chips holds enough,
// and no byte borrows from the next. Chips below zero (the top bit of chips) pay nothing.
func covers(chips, price uint64) bool {
	return ((chips|byteTops)-price)&(byteTops|1<<63) == byteTops
}

func (s *state) canPay(seat int8, c [NumColors]int32) bool {
	for i, n := range c {
		if s.pl[seat].chips[i] < n {
			return false
		}
	}
	return true
}

func (s *state) pay(seat int8, c [NumColors]int32) {
	for i, n := range c {
		s.pl[seat].chips[i] -= n
	}
}

// earthRate is seat's best rate for giving color c to Earth: 5, or 3 with the Space Elevator
// or with its shuttle hanging at an intersection of color c.
func (s *state) earthRate(seat int8, c Color) int32 {
	if s.elevator == seat {
		return betterRate
	}
	if at := s.pl[seat].shuttle; at >= 0 && Geo.Touches(int(at), c) {
		return betterRate
	}
	return earthRate
}

// earthRates is seat's earthRate for each color, one color a byte, as chipBytes.
func (s *state) earthRates(seat int8) uint64 {
	const each = 0x010101010101
	if s.elevator == seat {
		return betterRate * each
	}
	r := uint64(earthRate * each)
	if at := s.pl[seat].shuttle; at >= 0 {
		cs := Geo.Intersections[at].Colors
		r -= (earthRate - betterRate) * (1<<(8*(uint(cs[0])&7)) | 1<<(8*(uint(cs[1])&7)))
	}
	return r
}

// Budget gives a seat asked in a Luddite window the window's short deadline (rule: "asked in
// seat order whether to react, with a short deadline"); other decisions keep the match clock.
func (s *state) Budget(seat engine.Seat) time.Duration {
	if s.phase != PhaseWindow || s.cfg.reactMS == 0 {
		return 0
	}
	return time.Duration(s.cfg.reactMS) * time.Millisecond
}

var _ engine.Budgeter = (*state)(nil)
