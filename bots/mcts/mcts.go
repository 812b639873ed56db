// Package mcts is Orrery's search bot: Monte Carlo tree search over determinizations
// (single-observer information-set MCTS). Each iteration samples a full state consistent with
// the seat's own observation, where everything the seat cannot see is drawn anew, and walks
// one shared tree with it: UCT among the actions legal in that sample, a short playout, and a
// heuristic score of where the playout stopped. Each node keeps the statistics of the seat
// that acted into it, so several players each pursue their own ends.
//
// The bot reads only its Decision. A game plugs in with a Determinizer built from that
// decision's observation; it never sees the match's true state. A game may also name a prior
// bot (its greedy bot): the search starts from that bot's choice and plays another action
// only when it scores clearly better, and the prior answers where the determinizer cannot
// read the phase. In Full-Contact Catan the same search is a planner of the team's intents for
// a tick: the candidates are the listed changes of intent and greedy's plan, the other teams'
// intents are drawn in the tree, and short playouts run the next ticks of the simulation.
package mcts

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// A Determinizer draws full states consistent with one seat's observation.
type Determinizer interface {
	// Sample writes into dst (nil, or an earlier sample) a state the observation allows,
	// drawing what the seat cannot see, and the random source of chance to come, from r.
	Sample(dst engine.State, r *rand.Rand) engine.State
}

// Game is what the search needs from one game.
type Game struct {
	Name string
	// Determinizer reads d's observation; it fails on an observation it cannot rebuild.
	Determinizer func(d *orreryv1.Decision) (Determinizer, error)
	// Playout picks seat's action among legal during a playout; nil picks uniformly.
	Playout func(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action
	// Depth is how many actions a playout plays before its state is scored.
	Depth int
	// Evaluate, if set, scores a state for seat in [0, 1] in place of the state's own
	// engine.Evaluator.
	Evaluate func(st engine.State, seat engine.Seat) float64
	// EvaluateAll, if set, scores a state for every seat at once into rewards (one per
	// seat), in place of Evaluate: a game whose score of one seat measures every planet
	// against the others does that work once, not once per seat.
	EvaluateAll func(st engine.State, rewards []float64) []float64
	// Searchable, if set, says which root actions the search may choose besides the prior's
	// choice: actions whose worth hangs on how other players answer (a trade offer), which
	// sampled opponents judge badly, are left to the prior.
	Searchable func(a engine.Action) bool
	// LeftToPrior, if set, names the prior's choices the search does not question: when the
	// prior chooses one of them, it is played without a search (in PanTropia, a trade offer
	// or a reply to one, which no sampled opponent judges as a real player does and which the
	// search never overruled: a third of a game's search time for nothing).
	LeftToPrior func(a engine.Action) bool
	// Widen, if positive, keeps only this many root actions, the best by the evaluation one
	// action ahead on one sample, and the prior's choice: a game with hundreds of actions
	// spends its iterations on the plausible ones.
	Widen int
	// PlayoutBot, if set, makes the bot that plays every seat in playouts (from the decision
	// it would get in the sampled state), in place of Playout: slower, and truer to players
	// who play like it.
	PlayoutBot func(seed uint64) bots.Bot
	// Prior, if set, makes the heuristic bot whose choice the search starts from and keeps
	// unless another action scores clearly better (by Config.Margin of mean reward).
	Prior func(seed uint64) bots.Bot
	// Replan, if set, makes a bot's planner for a real-time game, which need not search every
	// tick: it keeps its standing plan until the situation changes.
	Replan func() Planner
	// Reply, if set, makes how the other seats answer inside the tree (each call of Games
	// makes one, with buffers of its own). Without it the tree branches over their legal
	// actions too, and an untried reply is drawn uniformly: with hundreds of replies each
	// tried once, the searching seat's moves are judged against random answers, blind to the
	// obvious one that punishes them. With it the tree holds the searching seat's own moves
	// only; between them the others play Reply's choice in the sample, and so do they after
	// a new node, until the searching seat is to act again, before the playout.
	Reply func() Policy
	// TreeDepth, when positive, bounds how many of the searching seat's own moves a descent
	// keeps in the tree, the root's included: deeper, the playout takes over.
	TreeDepth int
	// Paired plays every root candidate's j-th trial on the same j-th sample, with the same
	// random draws after it (common random numbers): the same hidden cards, the same dice,
	// the same ties broken alike. Two candidates' trials then differ by what the candidates
	// do, not by the luck of the draw, and the prior's choice is overruled by the mean of
	// the differences over the samples both were tried on and by that mean's standard error,
	// which the luck the two share no longer swells. For a game whose search keeps the root
	// only (TreeDepth 1).
	Paired bool
	// Overrule, if positive, is the game's default for Config.Overrule.
	Overrule float64
}

// A Policy picks seat's action among legal in a sampled state.
type Policy func(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action

// GreedyReply is a Reply that plays, for any seat, the action after which evaluate scores
// the state best for that seat (ties drawn at random): a one-ply greedy player by the
// search's own evaluation, as the opponents it most often meets play.
func GreedyReply(evaluate func(st engine.State, seat engine.Seat) float64) func() Policy {
	return func() Policy {
		var ahead engine.State
		return func(st engine.State, seat engine.Seat, legal []engine.Action, r *rand.Rand) engine.Action {
			best, bestV, ties := legal[0], math.Inf(-1), 0
			for _, a := range legal {
				ahead = engine.CloneInto(ahead, st)
				if ahead.Apply(seat, a) != nil {
					continue
				}
				switch v := evaluate(ahead, seat); {
				case v > bestV:
					best, bestV, ties = a, v, 1
				case v == bestV:
					if ties++; r.IntN(ties) == 0 {
						best = a
					}
				}
			}
			return best
		}
	}
}

// Planner decides when a real-time game's search bot searches again.
type Planner interface {
	// Standing is the answer to d without a search (the standing plan, given the prior's
	// answer), or nil when d is worth a search.
	Standing(d *orreryv1.Decision, prior *orreryv1.Answer) *orreryv1.Answer
	// Planned is told the answer a search gave to d, and the prior's.
	Planned(d *orreryv1.Decision, prior, answer *orreryv1.Answer)
}

// Config is a bot's budget and search constants.
type Config struct {
	// Budget is the thinking time per decision (default 100 ms), cut short by the
	// decision's deadline less Margin.
	Budget time.Duration
	// Iterations, when positive, is the exact number of iterations per decision instead of
	// Budget: with a seed the bot is then deterministic. Only a deadline cuts it short.
	Iterations int
	// Margin is kept back from the decision's deadline for the answer's trip (default 30 ms;
	// a tenth of the time left when that is more).
	Margin time.Duration
	// Explore is the UCT exploration constant (default 0.7; rewards lie in [0, 1]).
	Explore float64
	// Overrule is how much better in mean reward an action must score than the prior bot's
	// choice to be played instead (default the game's own, or 0.05), and by at least Sure
	// standard errors of the difference (default 2): the best of many noisy means is often
	// better by luck alone.
	Overrule float64
	Sure     float64
	// MaxNodes bounds the tree (default 1<<18); past it, iterations stop expanding.
	MaxNodes int
	// Widen, when positive, overrides the game's root widening.
	Widen int
	// GreedyPlayouts plays the playouts with the game's prior bot (Game.Prior) for every
	// seat, when the game does not already name a PlayoutBot.
	GreedyPlayouts bool
	// Depth, when positive, overrides the game's playout depth; when negative, the search
	// plays no playouts and scores each new node's state as it stands.
	Depth int
	// UniformPlayouts plays the playouts uniformly at random even where the game has a
	// playout policy: for measuring the policy.
	UniformPlayouts bool
	// BranchReplies has the tree branch over the other seats' replies even where the game
	// models them (Game.Reply): for measuring the model.
	BranchReplies bool
	// TreeDepth, when positive, overrides the game's bound on own moves in the tree.
	TreeDepth int
	// Exhaustive spends the whole budget even when the answer is already settled (the most
	// visited root action cannot be overtaken in the iterations left, or only one action is
	// a candidate), and searches every decision a game's Planner would answer from its
	// standing plan; benchmarks of the loop's speed set it.
	Exhaustive bool
	Seed       uint64
}

// DefaultBudget is the thinking time per decision when Config.Budget is zero.
const DefaultBudget = 100 * time.Millisecond

func (c *Config) defaults() {
	if c.Budget <= 0 {
		c.Budget = DefaultBudget
	}
	if c.Margin <= 0 {
		c.Margin = 30 * time.Millisecond
	}
	if c.Explore <= 0 {
		c.Explore = 0.7
	}
	if c.Overrule <= 0 {
		c.Overrule = 0.05
	}
	if c.Sure <= 0 {
		c.Sure = 2
	}
	if c.MaxNodes <= 0 {
		c.MaxNodes = 1 << 18
	}
}

// node is one action taken by one seat after its parent's actions; Bot.kids finds a node's
// child by the action.
type node struct {
	action engine.Action
	seat   engine.Seat // who took action; its statistics are that seat's
	visits float64
	avail  float64 // iterations in which action was legal here
	reward float64 // sum of seat's rewards
	square float64 // sum of their squares: how noisy the mean is
}

type kidKey struct {
	parent int32
	seat   engine.Seat
	action engine.Action
}

// Bot is the search bot for one game. A Bot is not safe for concurrent use; its buffers are
// reused from decision to decision, so the search loop does not allocate once warm.
type Bot struct {
	game Game
	cfg  Config
	pcg  rand.PCG
	r    *rand.Rand

	nodes   []node
	kids    map[kidKey]int32
	path    []int32
	toAct   []engine.Seat
	legal   []engine.Action
	roots   []engine.Action
	cands   []engine.Action // the root actions searched: roots, or the widened few
	order   []int
	values  []float64
	ahead   engine.State
	rewards []float64
	scratch engine.State
	favour  int // the prior bot's choice for this decision, or -1
	// seen counts the distinct decisions given (by id), the last of them lastID.
	seen   uint64
	lastID string
	// playoutBot plays the playouts when the game or the config asks for a bot's playouts.
	playoutBot bots.Bot
	planner    Planner // the game's, when it re-plans only now and then
	reply      Policy  // how the other seats answer in the tree, when the game models it
	// trials holds, when the game pairs its trials, each root child's rewards by sample
	// (NaN: that sample was not playable), indexed by node; pairs seeds the samples.
	trials [][]float64
	pairs  uint64

	stats Stats
}

// Stats describes the last decision's search.
type Stats struct {
	Iterations int
	Nodes      int
	Failed     int  // samples in which the chosen path was not playable
	Overruled  bool // the search chose other than the prior bot
	Elapsed    time.Duration
}

// New returns a search bot for g.
func New(g Game, cfg Config) *Bot {
	if cfg.Overrule <= 0 {
		cfg.Overrule = g.Overrule // the game's margin, or the default
	}
	cfg.defaults()
	switch {
	case cfg.Depth > 0:
		g.Depth = cfg.Depth
	case cfg.Depth < 0:
		g.Depth = 0
	}
	if cfg.Widen > 0 {
		g.Widen = cfg.Widen
	}
	if cfg.UniformPlayouts {
		g.Playout = nil
	}
	if cfg.GreedyPlayouts && g.PlayoutBot == nil {
		g.PlayoutBot = g.Prior
	}
	if cfg.TreeDepth > 0 {
		g.TreeDepth = cfg.TreeDepth
	}
	b := &Bot{game: g, cfg: cfg, kids: make(map[kidKey]int32)}
	b.r = rand.New(&b.pcg)
	if g.Replan != nil {
		b.planner = g.Replan()
	}
	if g.Reply != nil && !cfg.BranchReplies {
		b.reply = g.Reply()
	}
	return b
}

// LastStats is what the last decision's search did.
func (b *Bot) LastStats() Stats { return b.stats }

// Act searches d and answers with the most visited of its legal actions, or the prior's
// choice when nothing scored clearly better.
func (b *Bot) Act(d *orreryv1.Decision) *orreryv1.Answer {
	start := time.Now()
	b.stats = Stats{}
	stop := b.stopTime(d, start)
	legal := d.GetLegal()
	if len(legal) == 0 {
		return bots.Index(d, 0)
	}
	stream := b.stream(d)
	b.pcg.Seed(b.cfg.Seed, stream)
	var prior *orreryv1.Answer
	if b.game.Prior != nil {
		// A fresh prior per decision, seeded alike, breaks its ties the same way each time.
		prior = b.game.Prior(b.cfg.Seed ^ stream).Act(d)
	}
	if _, typed := prior.GetChoice().(*orreryv1.Answer_Action); len(legal) == 1 && !typed {
		return bots.Index(d, 0)
	}
	if prior != nil && !stop.IsZero() && !time.Now().Before(stop) {
		return prior // the prior took the time there was
	}
	if b.planner != nil && !b.cfg.Exhaustive {
		if a := b.planner.Standing(d, prior); a != nil {
			return a
		}
	}
	det, err := b.game.Determinizer(d)
	if err == nil {
		b.scratch = det.Sample(b.scratch, b.r)
	}
	if err != nil || !b.readRoots(d, b.scratch) {
		// Nothing to search from (a phase the game's determinizer leaves to the prior).
		if prior != nil {
			return prior
		}
		return bots.Index(d, b.r.IntN(len(legal)))
	}
	b.favour = -1
	switch c := prior.GetChoice().(type) {
	case *orreryv1.Answer_LegalIndex:
		if i := int(c.LegalIndex); i >= 0 && i < len(legal) {
			b.favour = i
		}
	case *orreryv1.Answer_Action:
		// A typed answer beyond the listed actions (an open-ended game) joins the candidates.
		if a, err := b.scratch.ActionFromProto(wire.GameAction(c.Action)); err == nil {
			b.favour = len(b.roots)
			b.roots = append(b.roots, a)
		}
	}
	if b.favour >= 0 && b.game.LeftToPrior != nil && b.game.LeftToPrior(b.roots[b.favour]) && !b.cfg.Exhaustive {
		return prior
	}
	b.widen(engine.Seat(d.GetSeat()))
	if len(b.cands) == 1 && b.favour >= 0 && !b.cfg.Exhaustive {
		if b.planner != nil {
			b.planner.Planned(d, prior, prior)
		}
		return prior // the prior's choice is the only one the search may make
	}
	if b.game.PlayoutBot != nil {
		b.playoutBot = b.game.PlayoutBot(b.cfg.Seed ^ stream ^ 0x9147)
	}
	b.pairs = b.cfg.Seed ^ stream ^ 0x5eed
	b.search(det, engine.Seat(d.GetSeat()), start, stop)
	i := b.best()
	b.stats.Overruled = b.favour >= 0 && i != b.favour
	answer := prior
	if i < len(legal) {
		answer = bots.Index(d, i)
	}
	if b.planner != nil {
		b.planner.Planned(d, prior, answer)
	}
	return answer
}

// stream is the random stream of decision d. Each decision draws from its own: the choice
// depends on the seed and the decision alone, not on what the bot searched before. A decision
// is told by the match's order of its seat's decisions (how many distinct decision ids the
// bot was given), its seat and its legal actions, not by its ply: the server numbers the plies
// of simultaneous choices by the order the answers arrive in, so a tournament would not
// replay from its seed.
func (b *Bot) stream(d *orreryv1.Decision) uint64 {
	if id := d.GetDecisionId(); id != "" && id != b.lastID {
		b.lastID = id
		b.seen++
	}
	h := uint64(14695981039346656037) // FNV-1a
	mix := func(x uint64) {
		h ^= x
		h *= 1099511628211
	}
	mix(b.seen)
	mix(uint64(d.GetSeat()))
	mix(uint64(len(d.GetLegal())))
	for _, n := range d.GetLegalNotation() {
		for i := 0; i < len(n); i++ {
			mix(uint64(n[i]))
		}
	}
	return h
}

// widen sets the root's candidates: the searchable root actions, or when the game widens, the
// best few of them by the evaluation of the sample in b.scratch one action ahead; and the
// prior's choice.
func (b *Bot) widen(me engine.Seat) {
	b.cands = b.cands[:0]
	for i, a := range b.roots {
		if i == b.favour || b.game.Searchable == nil || b.game.Searchable(a) {
			b.cands = append(b.cands, a)
		}
	}
	if b.game.Widen <= 0 || len(b.cands) <= b.game.Widen {
		return
	}
	b.order, b.values = b.order[:0], b.values[:0]
	for i, a := range b.roots {
		if i != b.favour && b.game.Searchable != nil && !b.game.Searchable(a) {
			continue
		}
		b.ahead = engine.CloneInto(b.ahead, b.scratch)
		v := -1.0
		if b.ahead.Apply(me, a) == nil {
			b.score(b.ahead)
			v = b.rewards[me]
		}
		b.order, b.values = append(b.order, i), append(b.values, v)
	}
	slices.SortStableFunc(b.order, func(x, y int) int { return cmp.Compare(b.values[y], b.values[x]) })
	b.cands = b.cands[:0]
	for k, i := range b.order {
		if k < b.game.Widen || i == b.favour {
			b.cands = append(b.cands, b.roots[i])
		}
	}
}

// stopTime is when the search must end: the budget, or the decision's deadline less the
// margin, whichever is first. An iteration budget has no time limit but the deadline.
func (b *Bot) stopTime(d *orreryv1.Decision, start time.Time) time.Time {
	var stop time.Time
	if b.cfg.Iterations <= 0 {
		stop = start.Add(b.cfg.Budget)
	}
	if dl := d.GetDeadline(); dl != nil {
		deadline := dl.AsTime()
		margin := max(b.cfg.Margin, deadline.Sub(start)/10)
		if cut := deadline.Add(-margin); stop.IsZero() || cut.Before(stop) {
			stop = cut
		}
	}
	return stop
}

// readRoots reads d's legal actions in the game's encoding, index for index.
func (b *Bot) readRoots(d *orreryv1.Decision, st engine.State) bool {
	b.roots = b.roots[:0]
	for i, la := range d.GetLegal() {
		a, err := st.ActionFromProto(wire.GameAction(la))
		if err != nil && i < len(d.GetLegalNotation()) {
			a, err = st.ParseAction(d.GetLegalNotation()[i])
		}
		if err != nil {
			return false
		}
		b.roots = append(b.roots, a)
	}
	return true
}
