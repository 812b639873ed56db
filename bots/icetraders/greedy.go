// Package icetraders holds IceTraders bots. Greedy simulates each legal action one ply ahead
// on a state rebuilt from its own observation (hidden alignments guessed Good) and scores the
// result: winning or being eliminated first, then threats to its own last critical ships,
// chances to eliminate someone next turn, and its fleet.
//
// The cost of a decision is bounded: the state is rebuilt once and copied into one scratch
// state per candidate, scoring reads the simulated board directly (no observation message),
// and the continuations of a sacrifice or a concentration choice are followed greedily, one
// use at a time, for the most promising few of those actions only.
package icetraders

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/engine"
	it "github.com/orrery/orrery/engine/icetraders"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// Greedy is the one-ply IceTraders bot.
type Greedy struct {
	r *rand.Rand
}

// NewGreedy returns a greedy bot whose tie-breaks follow from seed.
func NewGreedy(seed uint64) bots.Bot { return &Greedy{r: rand.New(rand.NewPCG(seed, 0x1ce))} }

// The scores. A win or a loss dwarfs everything; a threat to the bot's last critical ship
// outweighs a chance to eliminate, since the opponents move first.
const (
	scoreWin      = 1e6
	scoreShared   = 1e4 // a win shared with others (Good's collective win, a capped draw)
	scoreThreat   = -2000
	scoreChance   = 300
	scoreReach    = 40
	scoreShip     = 12
	scoreLarge    = 20
	scorePip      = 3
	scoreMobility = 4  // per ship with red (attack) or yellow (move) power where it is
	scoreGrowth   = 6  // per ship with green power: it can grow or add ships
	scoreEnemy    = -4 // per opponent ship, and per pip of it: attacks that win material pay
	// scoreHunt is for a red ship of mine that could strike an opponent's critical ship now or
	// within a few moves, divided among that opponent's critical ships: a board where the
	// hunters close in is worth more, so the match moves towards an elimination instead of a
	// capped draw.
	scoreHunt = 60
	scorePass = 5 // a pass, against any move that loses less
	// scoreCappedDraw is a match the turn or pass cap ends: nobody's win, so worth less than
	// any board still in play, if more than a loss or a threat to the bot's last ship.
	scoreCappedDraw = -1000
	// scoreGreenStart is for a green first ship.
	scoreGreenStart = 100
)

var passAction = it.Pass()

// The search's bounds. Every legal action is simulated one step. An action that leaves the
// bot mid-action (a sacrifice with uses left, an Enterprise or a Revolt to take) is worth its
// best continuation: first each such action is scored by its best next step, then the
// maxChains best of them are followed to the end, up to maxDepth steps, each step taking the
// best-scoring use. The next steps, and then the chains, have a budget of maxSteps simulated
// steps each per decision; past it, an action is worth the state it leaves.
const (
	maxDepth  = 3
	maxChains = 8
	maxSteps  = 3000
)

// Act chooses among d's legal actions.
func (g *Greedy) Act(d *orreryv1.Decision) *orreryv1.Answer {
	o, _ := wire.GameObservation(d.GetObservation()).(*pb.Observation)
	legal := d.GetLegalNotation()
	if o == nil || len(legal) == 0 {
		return bots.Index(d, 0)
	}
	switch o.GetPhase() {
	case pb.Phase_PHASE_ALIGNMENT:
		// Evil wins alone by eliminating anyone; Good must share its win. Against players
		// who do not hunt, Evil is the better bet.
		return bots.Index(d, find(legal, "align evil", 0))
	case pb.Phase_PHASE_OPENING_PICKS:
		// Two pieces of one color and different sizes: the bot's own systems connect, so
		// its ships can travel; the color and sizes vary so that the map does too.
		colors := []string{"red", "yellow", "green", "blue"}
		sizes := []string{"small", "medium", "large"}
		c, z1 := colors[g.r.IntN(4)], g.r.IntN(3)
		z2 := (z1 + 1 + g.r.IntN(2)) % 3
		return bots.Index(d, find(legal, "pick "+c+" "+sizes[z1]+", "+c+" "+sizes[z2], 0))
	case pb.Phase_PHASE_REPICKS:
		for _, want := range []string{"repick yellow", "repick red", "repick"} {
			if i := findPrefix(legal, want); i >= 0 {
				return bots.Index(d, i)
			}
		}
	}
	me := int(d.GetSeat())
	st, err := it.FromObservation(o, nil)
	if err != nil {
		return bots.Index(d, g.r.IntN(len(legal)))
	}
	s := newSearch(st, me)
	// The rebuilt state lists the same actions in the same order as the server's (ids and the
	// board are as observed). Should it not, the notation is read instead.
	acts := st.Legal(engine.Seat(me), nil)
	parsed := false
	if !sameActions(acts, legal) {
		acts, parsed = parseAll(acts[:0], legal), true
	}
	best := pick(s.scoreAll(acts), g.r)
	if !parsed && it.FormatAction(acts[best]) != legal[best] {
		best = pick(s.scoreAll(parseAll(acts[:0], legal)), g.r)
	}
	return bots.Index(d, best)
}

// pick is the index of the best score, ties broken at random by r.
func pick(scores []float64, r *rand.Rand) int {
	best, bestScore, ties := 0, unscored, 0
	for i, v := range scores {
		switch {
		case v == unscored:
			continue
		case v > bestScore:
			best, bestScore, ties = i, v, 1
		case v == bestScore:
			ties++
			if r.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return best
}

// parseAll reads legal's notation into buf; what does not parse becomes an action Apply
// refuses.
func parseAll(buf []engine.Action, legal []string) []engine.Action {
	for _, text := range legal {
		a, err := it.ParseAction(text)
		if err != nil {
			a = engine.Action{}
		}
		buf = append(buf, a)
	}
	return buf
}

// sameActions reports whether acts are legal's actions: the same count, and spot checks of
// the first, middle and last notation.
func sameActions(acts []engine.Action, legal []string) bool {
	if len(acts) != len(legal) {
		return false
	}
	for _, i := range [...]int{0, len(acts) / 2, len(acts) - 1} {
		if it.FormatAction(acts[i]) != legal[i] {
			return false
		}
	}
	return true
}

// unscored marks an action the search could not apply.
const unscored = -1e18

// search scores the actions of one decision. It owns the scratch states and buffers, so that
// scoring a candidate allocates nothing, and once used, neither does a search reset for the
// next decision.
type search struct {
	root    *it.State
	me      int
	b       board
	scratch [maxDepth + 1]*it.State
	legal   [maxDepth + 1][]engine.Action
	toAct   []engine.Seat
	scores  []float64
	chains  []int
	steps   int     // continuation steps simulated so far
	late    float64 // how far the bot is through the turn cap, 0 to 1
}

func newSearch(root *it.State, me int) *search {
	s := new(search)
	s.reset(root, me)
	return s
}

// reset readies s to score me's actions in root.
func (s *search) reset(root *it.State, me int) {
	s.root, s.me, s.late = root, me, 0
	if taken, turnCap := root.Turns(me); turnCap > 0 {
		s.late = min(1, float64(taken)/float64(turnCap))
	}
	for i := range s.scratch {
		if s.scratch[i] == nil {
			s.scratch[i] = new(it.State)
		}
		s.scratch[i].CopyFrom(root)
	}
}

// scoreAll scores every action: the state after it, or, if the bot is still mid-action
// there, its best continuation (for the maxChains most promising such actions; the rest
// keep the score of their first step).
func (s *search) scoreAll(acts []engine.Action) []float64 {
	scores := slices.Grow(s.scores[:0], len(acts))[:len(acts)]
	s.scores = scores
	s.steps = 0
	chains := s.chains[:0]
	defer func() { s.chains = chains }()
	c := s.scratch[0]
	for i, a := range acts {
		c.CopyFrom(s.root)
		if c.Apply(engine.Seat(s.me), a) != nil {
			scores[i] = unscored
			continue
		}
		if s.continues(c) {
			// Score it by its best single next step for now.
			scores[i] = s.step(c, 1) - 1
			chains = append(chains, i)
			continue
		}
		scores[i] = s.static(c)
		if a.Kind == it.KindPlace && it.Color(a.Arg[0]) == it.Green {
			// A green first ship can always act (grow, or add ships beside it), so the fleet
			// builds instead of stalling into two rounds of passes.
			scores[i] += scoreGreenStart
		}
		if a == passAction {
			// Passing keeps a stalemate; the further into the match, the less it is worth.
			scores[i] -= scorePass * (1 + 4*s.late)
		}
	}
	if len(chains) > maxChains {
		sort.SliceStable(chains, func(x, y int) bool { return scores[chains[x]] > scores[chains[y]] })
		chains = chains[:maxChains]
	}
	s.steps = 0 // the chains have a budget of their own
	for _, i := range chains {
		c.CopyFrom(s.root)
		_ = c.Apply(engine.Seat(s.me), acts[i])
		scores[i] = s.value(c, maxDepth)
	}
	return scores
}

// continues reports whether the bot still owes a step of the same action in st.
func (s *search) continues(st *it.State) bool {
	if st.Terminal() || !st.MidAction() {
		return false
	}
	s.toAct = st.ToAct(s.toAct[:0])
	return len(s.toAct) == 1 && int(s.toAct[0]) == s.me
}

// value scores st; while the action is still the bot's, it follows the best-scoring next
// step, depth steps at most.
func (s *search) value(st *it.State, depth int) float64 {
	if depth == 0 || !s.continues(st) {
		return s.static(st)
	}
	next := s.scratch[depth]
	acts := st.Legal(engine.Seat(s.me), s.legal[depth][:0])
	s.legal[depth] = acts
	if s.steps+len(acts) > maxSteps {
		return s.static(st)
	}
	s.steps += len(acts)
	best, bestScore := -1, unscored
	for i, a := range acts {
		next.CopyFrom(st)
		if next.Apply(engine.Seat(s.me), a) != nil {
			continue
		}
		if v := s.static(next); v > bestScore {
			best, bestScore = i, v
		}
	}
	if best < 0 {
		return s.static(st)
	}
	next.CopyFrom(st)
	_ = next.Apply(engine.Seat(s.me), acts[best])
	return s.value(next, depth-1) - 1 // the same outcome sooner is better
}

// step is the best static score one step on from st (which continues), using scratch depth.
func (s *search) step(st *it.State, depth int) float64 {
	next := s.scratch[depth]
	acts := st.Legal(engine.Seat(s.me), s.legal[depth][:0])
	s.legal[depth] = acts
	if s.steps+len(acts) > maxSteps {
		return s.static(st)
	}
	s.steps += len(acts)
	bestScore := unscored
	for _, a := range acts {
		next.CopyFrom(st)
		if next.Apply(engine.Seat(s.me), a) != nil {
			continue
		}
		if v := s.static(next); v > bestScore {
			bestScore = v
		}
	}
	if bestScore == unscored {
		return s.static(st)
	}
	return bestScore
}

// static scores st for the bot as it stands.
func (s *search) static(st *it.State) float64 {
	if st.Terminal() {
		if st.Capped() { // not Result, which builds the ranks and the detail text
			return scoreCappedDraw
		}
		w := st.Winners()
		return overScore(w&(1<<s.me) != 0, bits.OnesCount8(w))
	}
	s.b.fromState(st)
	return s.b.score(s.me)
}

func overScore(won bool, winners int) float64 {
	switch {
	case won && winners == 1:
		return scoreWin
	case won:
		return scoreShared - float64(winners)
	}
	return -scoreWin
}

// Evaluate scores an observation for seat me.
func Evaluate(o *pb.Observation, me int) float64 {
	if g := o.GetGameOver(); g != nil {
		if k := g.GetKind(); k == pb.EndKind_END_KIND_TURN_CAP || k == pb.EndKind_END_KIND_PASS_CAP {
			return scoreCappedDraw
		}
		won := false
		for _, w := range g.GetWinners() {
			won = won || int(w) == me
		}
		return overScore(won, len(g.GetWinners()))
	}
	var b board
	b.fromObservation(o)
	return b.score(me)
}

// StateEvaluator scores a full state for seat me as Evaluate scores that seat's observation,
// reusing its buffers: a search scores thousands of states a decision, and rebuilding an
// observation for each costs hundreds of allocations. It reads only what the scoring reads
// from an observation (no alignment, no hidden pick), so it sees nothing more.
type StateEvaluator struct {
	b board
}

// Evaluate is st's score for me.
func (e *StateEvaluator) Evaluate(st *it.State, me int) float64 {
	if st.Terminal() {
		if st.Capped() {
			return scoreCappedDraw
		}
		w := st.Winners()
		return overScore(w&(1<<me) != 0, bits.OnesCount8(w))
	}
	e.b.fromState(st)
	return e.b.score(me)
}

func find(legal []string, want string, fallback int) int {
	for i, s := range legal {
		if s == want {
			return i
		}
	}
	return fallback
}

func findPrefix(legal []string, prefix string) int {
	for i, s := range legal {
		if strings.HasPrefix(s, prefix) {
			return i
		}
	}
	return -1
}
