package fccatan

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
)

func init() { engine.Register(game{}) }

var gameInfo = engine.Info{
	Name:         "fccatan",
	Title:        "Full-Contact Catan",
	MinSeats:     3,
	MaxSeats:     4,
	Simultaneous: true,
	RealTime:     true,
	Options:      options,
}

type game struct{}

func (game) Info() engine.Info      { return gameInfo }
func (game) Catalog() proto.Message { return catalog() }

// RenamedOptions lets engine.New refuse an option's former name with a message naming the new.
func (game) RenamedOptions() map[string]string { return renamed }
func (game) New(cfg engine.Config) (engine.State, error) {
	c, err := newConfig(cfg)
	if err != nil {
		return nil, err
	}
	return newState(c, cfg.Seed), nil
}

var (
	_ engine.State     = (*State)(nil)
	_ engine.Ticker    = (*State)(nil)
	_ engine.Defaulter = (*State)(nil)
	_ engine.Renamer   = game{}
)

// Phase is what the match waits for.
type Phase uint8

const (
	PhaseSetup Phase = iota + 1
	PhaseDeploy
	PhaseTick
	PhaseOffer
	PhaseReply
	PhaseBuy
	PhaseCardChoice
	PhaseDiscard
	PhaseOver
)

var phaseNames = [...]string{"", "setup", "deploy", "tick", "offer", "reply", "buy", "card choice", "discard", "over"}

func (p Phase) String() string { return phaseNames[p] }

// Development cards.
const (
	cardVP int8 = iota + 1
	cardPlenty
	cardMonopoly
	cardRobber
	cardBarbarians
)

var cardNames = [...]string{"", "victory point", "year of plenty", "monopoly", "robber", "barbarians"}

// deckSpec is the seed's development deck: 4 VP, and one of each other card.
var deckSpec = [...]struct {
	card  int8
	count int
}{{cardVP, 4}, {cardPlenty, 1}, {cardMonopoly, 1}, {cardRobber, 1}, {cardBarbarians, 1}}

const deckSize = 8

// Buildings in a hoop.
const (
	noBuilding int8 = iota
	settlement
	city
)

// Offer statuses.
const (
	offerPending int8 = iota
	offerAccepted
	offerDeclined
	offerFailed
)

// avatar is one player on the field.
type avatar struct {
	pos, vel  Vec
	order     Intent // the standing intent
	carry     Resource
	collected bool // has collected a ball this round: one resource per round
	frozen    bool // tagged: frozen until the whistle
	knight    bool
	markers   int8 // unplaced settlement markers carried
}

// team is one seat.
type team struct {
	size    int8
	av      [maxAvatars]avatar
	res     [numRes]int16
	vp      int16
	start   int8 // start hoop, -1 before setup
	cards   [deckSize]int8
	ncards  int8
	done    bool          // has answered the current simultaneous step
	pending engine.Action // the answer, hidden from the others until the step resolves
	decl    engine.Action // the market's purchase declaration
	bought  [maxItems]int8
	nbought int8
	discard int8 // balls owed to the Robber
}

// offer is a trade offer; every offer ever made is kept, for the events.
type offer struct {
	step       int16
	from, to   int8
	give, want [numRes]int8
	status     int8
}

// State is a Full-Contact Catan match.
type State struct {
	c           *config
	phase       Phase
	round       int16
	tick        int32
	setupSeat   int8
	tradeStep   int8
	teams       [maxTeams]team
	piles       [maxPiles]int8
	owner       [maxHoops]int8 // seat, -1 when empty
	building    [maxHoops]int8
	deck        [deckSize]int8
	deckTop     int8
	offers      []offer
	stepOffers  int32 // index of the current step's first offer
	cardK       int8  // card resolution cursor: the k-th card of cardSeat is next
	cardSeat    int8
	pendingCard int8
	pendingSeat int8
	idle        int16
	boughtAny   bool
	reason      engine.EndReason
	rng         rand.PCG
	events      []event
}

func newState(c *config, seed uint64) *State {
	s := &State{c: c, phase: PhaseSetup, rng: *engine.NewRand(seed)}
	for t := 0; t < c.teams; t++ {
		tm := &s.teams[t]
		tm.size, tm.start, tm.vp = c.teamSize[t], -1, int16(c.bonusVP[t])
		for i := range tm.av {
			tm.av[i].carry = noRes
		}
	}
	for i := range s.owner {
		s.owner[i] = -1
	}
	for i, p := range c.field.Piles {
		s.piles[i] = int8(p.Balls)
	}
	n := 0
	for _, d := range deckSpec {
		for k := 0; k < d.count; k++ {
			s.deck[n] = d.card
			n++
		}
	}
	// The deck is shuffled from the match seed (Fisher-Yates).
	for i := deckSize - 1; i > 0; i-- {
		j := s.draw(i + 1)
		s.deck[i], s.deck[j] = s.deck[j], s.deck[i]
	}
	return s
}

// draw is a seeded uniform pick in 0..n-1.
func (s *State) draw(n int) int { return int(s.rng.Uint64() % uint64(n)) }

// Seats is the number of teams.
func (s *State) Seats() int { return s.c.teams }

// Phase is the current phase.
func (s *State) Phase() Phase { return s.phase }

// TickInterval is the wall-clock length of one tick.
func (s *State) TickInterval() time.Duration { return time.Duration(s.c.tickMS) * time.Millisecond }

// AdvanceAfter is how long a real-time server waits in the current decision before it calls
// Advance: a tick during a round, a share of the market's minute during a market, and the
// choice time for setup, deployment and card decisions.
func (s *State) AdvanceAfter() time.Duration {
	switch s.phase {
	case PhaseTick:
		return s.TickInterval()
	case PhaseOffer, PhaseReply, PhaseBuy:
		return time.Duration(s.c.marketMS/(2*s.c.tradeSteps+1)) * time.Millisecond
	case PhaseOver:
		return 0
	}
	return time.Duration(s.c.choiceMS) * time.Millisecond
}

// Step identifies the current wall-clock step (see engine.Ticker): it changes with the
// phase, round, tick, trade step, setup turn and card cursor.
func (s *State) Step() int64 {
	h := int64(s.phase)
	for _, v := range [...]int64{int64(s.round), int64(s.tick), int64(s.tradeStep), int64(s.setupSeat),
		int64(s.cardSeat), int64(s.cardK), int64(s.pendingSeat)} {
		h = h*1000003 + v
	}
	return h
}

// Terminal reports whether the match is over.
func (s *State) Terminal() bool { return s.phase == PhaseOver }

func (s *State) simultaneous() bool {
	switch s.phase {
	case PhaseDeploy, PhaseTick, PhaseOffer, PhaseReply, PhaseBuy, PhaseDiscard:
		return true
	}
	return false
}

// wallTick reports whether the match waits for the wall clock: a tick under clock=wall, where
// every team may (re)send its intents until Advance resolves the tick.
func (s *State) wallTick() bool { return s.c.wall && s.phase == PhaseTick }

// ToAct lists the teams that owe an answer: in a lockstep tick, every team that has not yet
// sent its intents; in a wall-clock tick, every team (each may update its intents until the
// tick resolves).
func (s *State) ToAct(buf []engine.Seat) []engine.Seat {
	switch {
	case s.phase == PhaseSetup:
		return append(buf, engine.Seat(s.setupSeat))
	case s.phase == PhaseCardChoice:
		return append(buf, engine.Seat(s.pendingSeat))
	case s.wallTick():
		for t := range s.teams[:s.c.teams] {
			buf = append(buf, engine.Seat(t))
		}
	case s.simultaneous():
		for t := range s.teams[:s.c.teams] {
			if !s.teams[t].done {
				buf = append(buf, engine.Seat(t))
			}
		}
	}
	return buf
}

func (s *State) owes(seat engine.Seat) bool {
	if seat < 0 || int(seat) >= s.c.teams {
		return false
	}
	switch {
	case s.phase == PhaseSetup:
		return int(seat) == int(s.setupSeat)
	case s.phase == PhaseCardChoice:
		return int(seat) == int(s.pendingSeat)
	case s.wallTick():
		return true
	case s.simultaneous():
		return !s.teams[seat].done
	}
	return false
}

func illegal(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{engine.ErrIllegalAction}, args...)...)
}

// Apply plays a for team seat. It validates everything first and changes nothing on error.
func (s *State) Apply(seat engine.Seat, a engine.Action) error {
	if s.phase == PhaseOver {
		return fmt.Errorf("%w: the match is over", engine.ErrGameOver)
	}
	if !s.owes(seat) {
		if seat >= 0 && int(seat) < s.c.teams && s.simultaneous() {
			return fmt.Errorf("%w: team %d has already answered this %s", engine.ErrNotYourTurn, seat, s.phase)
		}
		return fmt.Errorf("%w: team %d owes no decision in the %s phase", engine.ErrNotYourTurn, seat, s.phase)
	}
	if err := s.validate(int(seat), a); err != nil {
		return err
	}
	s.apply(int(seat), a)
	return nil
}

// validate checks a for team t in the current phase.
func (s *State) validate(t int, a engine.Action) error {
	switch s.phase {
	case PhaseSetup:
		return s.validSetup(t, a)
	case PhaseDeploy:
		return s.validDeploy(t, a)
	case PhaseTick:
		return s.validIntents(t, a)
	case PhaseOffer:
		if a.Kind == kindPass && argsZeroFrom(a, 0) {
			return nil
		}
		return s.validOffer(t, a)
	case PhaseReply:
		if a.Kind == kindPass && argsZeroFrom(a, 0) {
			return nil
		}
		return s.validReply(t, a)
	case PhaseBuy:
		if a.Kind == kindPass && argsZeroFrom(a, 0) {
			return nil
		}
		return s.validBuy(t, a)
	case PhaseCardChoice:
		return s.validCardChoice(t, a)
	case PhaseDiscard:
		return s.validDiscard(t, a)
	}
	return illegal("nothing to decide")
}

// apply plays a validated action.
func (s *State) apply(t int, a engine.Action) {
	switch s.phase {
	case PhaseSetup:
		s.applySetup(t, a)
		return
	case PhaseCardChoice:
		s.applyCardChoice(t, a)
		return
	}
	tm := &s.teams[t]
	tm.pending, tm.done = a, true
	if s.wallTick() {
		return // recorded for this tick; only Advance resolves it
	}
	for u := range s.teams[:s.c.teams] {
		if !s.teams[u].done {
			return
		}
	}
	s.resolveStep()
}

// resolveStep resolves a simultaneous step once every team has answered or the clock ran out
// (Advance): a team that has not answered a tick keeps its last intents.
func (s *State) resolveStep() {
	switch s.phase {
	case PhaseDeploy:
		s.resolveDeploy()
	case PhaseTick:
		s.resolveTick()
	case PhaseOffer:
		s.resolveOffers()
	case PhaseReply:
		s.resolveReplies()
	case PhaseBuy:
		s.resolveBuys()
	case PhaseDiscard:
		s.resolveDiscards()
	}
}

// Advance resolves the current decision at once, for the wall clock: in a tick, teams that sent
// nothing keep their last intents (under clock=wall this is the only way a tick resolves, and a
// team that sent several times this tick is held to its latest intents); elsewhere they take their default action (no offer, no
// purchase, the first free start hoop, and so on).
func (s *State) Advance() error {
	if s.phase == PhaseOver {
		return fmt.Errorf("%w: the match is over", engine.ErrGameOver)
	}
	if s.phase == PhaseTick {
		s.resolveStep()
		return nil
	}
	var buf [maxTeams]engine.Seat
	for _, seat := range s.ToAct(buf[:0]) {
		if s.phase == PhaseOver {
			break
		}
		a, _ := s.DefaultAction(seat)
		if !s.owes(seat) {
			continue // the phase moved on (a card choice resolved the market)
		}
		if err := s.validate(int(seat), a); err != nil {
			return fmt.Errorf("fccatan: default action %s: %v", s.FormatAction(a), err)
		}
		s.apply(int(seat), a)
	}
	return nil
}

// resetStep makes every team owe an answer to a new simultaneous step.
func (s *State) resetStep() {
	for t := range s.teams[:s.c.teams] {
		s.teams[t].done, s.teams[t].pending = false, engine.Action{}
	}
}

// Clone is a deep copy. Events are append-only and never changed in place, so the copy shares
// their backing array up to its length and reallocates on its first append.
func (s *State) Clone() engine.State {
	c := *s
	c.events = slices.Clip(s.events)
	c.offers = slices.Clone(s.offers) // replies change the statuses in place
	return &c
}

// Result ranks the teams by VP, tied teams sharing a rank.
func (s *State) Result() engine.Result {
	scores := make([]float64, s.c.teams)
	for t := range scores {
		scores[t] = float64(s.teams[t].vp)
	}
	r := engine.Result{Ranks: engine.RanksByScore(scores), Scores: scores, Reason: s.reason}
	r.Detail = s.resultDetail(r)
	return r
}

func (s *State) resultDetail(r engine.Result) string {
	if s.reason == engine.EndNone {
		return "the match is still running"
	}
	w := r.Winners()
	who := fmt.Sprintf("team %d wins", w[0])
	if len(w) > 1 {
		who = fmt.Sprintf("teams %v share the win", w)
	}
	best := s.teams[w[0]].vp
	switch {
	case s.reason == engine.EndNormal:
		return fmt.Sprintf("%s with %d VP after round %d", who, best, s.round)
	case int(s.idle) >= s.c.idleMarkets:
		return fmt.Sprintf("%d markets in a row without a purchase: %s with %d VP", s.idle, who, best)
	}
	return fmt.Sprintf("round cap %d reached: %s with %d VP", s.c.roundCap, who, best)
}
