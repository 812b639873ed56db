package mcts

import (
	"math"
	"time"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/proto/wire"
)

// search runs iterations from a fresh tree until the iteration budget or stop.
func (b *Bot) search(det Determinizer, me engine.Seat, start, stop time.Time) {
	b.nodes = append(b.nodes[:0], node{seat: me})
	clear(b.kids)
	for k := range b.trials {
		b.trials[k] = b.trials[k][:0]
	}
	b.stats = Stats{}
	if b.favour >= 0 {
		// The prior's choice is in the tree from the start, so it is sure to be tried.
		a := b.roots[b.favour]
		b.nodes = append(b.nodes, node{action: a, seat: me})
		b.kids[kidKey{0, me, a}] = 1
	}
	var slowest time.Duration // the longest iteration so far: the next may take as long
	last := time.Now()
	for i := 0; b.cfg.Iterations <= 0 || i < b.cfg.Iterations; i++ {
		if i > 0 && !stop.IsZero() {
			now := time.Now()
			slowest = max(slowest, now.Sub(last))
			if last = now; !now.Add(slowest).Before(stop) {
				break
			}
		}
		if i > 0 && i%settleEvery == 0 && !b.cfg.Exhaustive && b.settled(me, b.left(i, start, stop)) {
			break
		}
		if b.game.Paired {
			if !b.pairedIterate(det, me) {
				b.stats.Failed++
			}
		} else if b.scratch = det.Sample(b.scratch, b.r); !b.iterate(b.scratch, me, -1) {
			b.stats.Failed++
		}
		b.stats.Iterations++
	}
	b.stats.Nodes = len(b.nodes)
	b.stats.Elapsed = time.Since(start)
}

// settleEvery is how many iterations pass between checks that the answer is settled.
const settleEvery = 64

// left is how many iterations the search has left after i: the rest of the iteration budget,
// or as many as the time left allows at the pace so far.
func (b *Bot) left(i int, start, stop time.Time) float64 {
	if b.cfg.Iterations > 0 {
		return float64(b.cfg.Iterations - i)
	}
	spent := time.Since(start)
	if spent <= 0 {
		return math.Inf(1)
	}
	return float64(i) * float64(stop.Sub(start)-spent) / float64(spent)
}

// settled reports whether the root's most visited candidate stays most visited whatever the
// iterations left do: the runner-up could not catch up even if it took them all. The answer
// is then what it would be at the end of the budget, bar the overruling test of best, whose
// means the extra iterations would refine only for the one action already ahead.
func (b *Bot) settled(me engine.Seat, left float64) bool {
	first, second := -1.0, -1.0
	for _, a := range b.cands {
		v := 0.0
		if k, ok := b.kids[kidKey{0, me, a}]; ok {
			v = b.nodes[k].visits
		}
		switch {
		case v > first:
			first, second = v, first
		case v > second:
			second = v
		}
	}
	return second >= 0 && first-second > left
}

// pairedIterate is one trial of a root candidate chosen as iterate chooses, on the sample
// its trial count names, drawn with the rest of the trial's randomness from a source seeded
// by that count alone.
func (b *Bot) pairedIterate(det Determinizer, me engine.Seat) bool {
	_, k, _ := b.choose(0, me, b.cands)
	if k < 0 { // a full tree: unpaired
		b.scratch = det.Sample(b.scratch, b.r)
		return b.iterate(b.scratch, me, -1)
	}
	for int(k) >= len(b.trials) {
		b.trials = append(b.trials, nil)
	}
	j := len(b.trials[k])
	saved := b.pcg
	b.pcg.Seed(b.pairs, uint64(j))
	b.scratch = det.Sample(b.scratch, b.r)
	ok := b.iterate(b.scratch, me, k)
	b.pcg = saved
	v := math.NaN()
	if ok {
		v = b.rewards[me]
	}
	b.trials[k] = append(b.trials[k], v)
	return ok
}

// iterate is one descent, playout and backup on the sample st; root, when not negative, is
// the root's child already chosen.
func (b *Bot) iterate(st engine.State, me engine.Seat, root int32) bool {
	b.path = append(b.path[:0], 0)
	cur, own := int32(0), 0
	for !st.Terminal() {
		var seat engine.Seat
		var legal []engine.Action
		if cur == 0 {
			seat, legal = me, b.cands
		} else {
			b.toAct = st.ToAct(b.toAct[:0])
			seat = b.toAct[0]
			b.legal = st.Legal(seat, b.legal[:0])
			legal = b.legal
		}
		if len(legal) == 0 {
			return false
		}
		if cur != 0 && b.reply != nil {
			if seat != me {
				if st.Apply(seat, b.reply(st, seat, legal, b.r)) != nil {
					return false
				}
				continue
			}
			if b.game.TreeDepth > 0 && own >= b.game.TreeDepth {
				break
			}
		}
		var a engine.Action
		var next int32
		var expanded bool
		if cur == 0 && root >= 0 {
			a, next, expanded = b.nodes[root].action, root, true
		} else {
			a, next, expanded = b.choose(cur, seat, legal)
		}
		if st.Apply(seat, a) != nil {
			return false
		}
		if seat == me {
			own++
		}
		if next < 0 {
			break // a full tree plays the new action without keeping it
		}
		b.path = append(b.path, next)
		cur = next
		if expanded {
			break
		}
	}
	if !b.replies(st, me) {
		return false
	}
	b.playout(st)
	b.score(st)
	for _, n := range b.path {
		nd := &b.nodes[n]
		nd.visits++
		nd.reward += b.rewards[nd.seat]
		nd.square += b.rewards[nd.seat] * b.rewards[nd.seat]
	}
	return true
}

// choose is the action to take at cur and its child: an untried legal action when there is
// one (added to the tree unless it is full: child -1), else the best child by UCB1 over the
// times each was available.
func (b *Bot) choose(cur int32, seat engine.Seat, legal []engine.Action) (engine.Action, int32, bool) {
	best, bestScore := int32(-1), math.Inf(-1)
	untried, pick := 0, engine.Action{}
	for _, a := range legal {
		k, ok := b.kids[kidKey{cur, seat, a}]
		if !ok {
			untried++
			if b.r.IntN(untried) == 0 {
				pick = a
			}
			continue
		}
		nd := &b.nodes[k]
		nd.avail++
		if untried > 0 {
			continue
		}
		score := math.Inf(1) // a child whose only sample failed
		if nd.visits > 0 {
			score = nd.reward/nd.visits + b.cfg.Explore*math.Sqrt(math.Log(nd.avail)/nd.visits)
		}
		if best < 0 || score > bestScore {
			best, bestScore = k, score
		}
	}
	if untried == 0 {
		return b.nodes[best].action, best, false
	}
	if len(b.nodes) >= b.cfg.MaxNodes {
		return pick, -1, true
	}
	k := int32(len(b.nodes))
	b.nodes = append(b.nodes, node{action: pick, seat: seat, avail: 1})
	b.kids[kidKey{cur, seat, pick}] = k
	return pick, k, true
}

// replies plays the other seats' modeled replies, when the game models them, until the
// searching seat is to act again: a new move is judged by how they answer it.
func (b *Bot) replies(st engine.State, me engine.Seat) bool {
	if b.reply == nil {
		return true
	}
	for !st.Terminal() {
		b.toAct = st.ToAct(b.toAct[:0])
		seat := b.toAct[0]
		if seat == me {
			return true
		}
		b.legal = st.Legal(seat, b.legal[:0])
		if len(b.legal) == 0 || st.Apply(seat, b.reply(st, seat, b.legal, b.r)) != nil {
			return false
		}
	}
	return true
}

// playout plays up to the game's depth of actions by its playout policy.
func (b *Bot) playout(st engine.State) {
	for i := 0; i < b.game.Depth && !st.Terminal(); i++ {
		b.toAct = st.ToAct(b.toAct[:0])
		seat := b.toAct[0]
		b.legal = st.Legal(seat, b.legal[:0])
		if len(b.legal) == 0 {
			return
		}
		var a engine.Action
		switch {
		case b.playoutBot != nil:
			// The bot answers the decision it would get in this sampled state; its answer
			// is read back like any seat's.
			d := wire.Decision(st, seat, b.legal, 0)
			var err error
			if a, _, err = wire.Answer(st, b.legal, b.playoutBot.Act(d)); err != nil {
				a = b.legal[b.r.IntN(len(b.legal))]
			}
		case b.game.Playout != nil:
			a = b.game.Playout(st, seat, b.legal, b.r)
		default:
			a = b.legal[b.r.IntN(len(b.legal))]
		}
		if st.Apply(seat, a) != nil {
			return
		}
	}
}

// score fills b.rewards with the state's own evaluation, which at the end is 1 for each seat
// ranked first and 0 for the others; a game without one scores the end by its result and
// anything before it one half.
func (b *Bot) score(st engine.State) {
	n := st.Seats()
	b.rewards = b.rewards[:0]
	if b.game.EvaluateAll != nil {
		b.rewards = b.game.EvaluateAll(st, b.rewards)
		return
	}
	if b.game.Evaluate != nil {
		for s := 0; s < n; s++ {
			b.rewards = append(b.rewards, b.game.Evaluate(st, engine.Seat(s)))
		}
		return
	}
	if ev, ok := st.(engine.Evaluator); ok {
		for s := 0; s < n; s++ {
			b.rewards = append(b.rewards, ev.Evaluate(engine.Seat(s)))
		}
		return
	}
	var ranks []int
	if st.Terminal() {
		ranks = st.Result().Ranks
	}
	for s := 0; s < n; s++ {
		v := 0.5
		switch {
		case s < len(ranks) && ranks[s] == 1:
			v = 1
		case s < len(ranks):
			v = 0
		}
		b.rewards = append(b.rewards, v)
	}
}

// best is the index of the root's most visited action, ties to the better mean, then to
// the earlier action; the prior's choice stands unless that action's mean beats its own by
// Config.Overrule and by Config.Sure standard errors of the difference.
func (b *Bot) best() int {
	bestI, bestV, bestM := 0, -1.0, -1.0
	for i, a := range b.roots {
		k, ok := b.kids[kidKey{0, b.nodes[0].seat, a}]
		if !ok || b.nodes[k].visits == 0 {
			continue
		}
		nd := &b.nodes[k]
		m := nd.reward / nd.visits
		if nd.visits > bestV || nd.visits == bestV && m > bestM {
			bestI, bestV, bestM = i, nd.visits, m
		}
	}
	if f := b.favour; f >= 0 && f != bestI {
		fav := &b.nodes[b.kids[kidKey{0, b.nodes[0].seat, b.roots[f]}]]
		if fav.visits == 0 {
			return f
		}
		topK := b.kids[kidKey{0, b.nodes[0].seat, b.roots[bestI]}]
		favK := b.kids[kidKey{0, b.nodes[0].seat, b.roots[f]}]
		top := &b.nodes[topK]
		diff, se := bestM-fav.reward/fav.visits, math.Sqrt(meanVariance(top)+meanVariance(fav))
		if b.game.Paired {
			diff, se = b.pairedDiff(topK, favK)
		}
		if diff < b.cfg.Overrule || diff < b.cfg.Sure*se {
			return f
		}
	}
	return bestI
}

// pairedDiff is the mean by which root child x's trials beat y's on the samples both were
// played on, and its standard error; no lead (0, +Inf) with fewer than two such samples.
func (b *Bot) pairedDiff(x, y int32) (mean, se float64) {
	if int(max(x, y)) >= len(b.trials) {
		return 0, math.Inf(1)
	}
	tx, ty := b.trials[x], b.trials[y]
	n, sum, square := 0.0, 0.0, 0.0
	for j := range min(len(tx), len(ty)) {
		d := tx[j] - ty[j]
		if math.IsNaN(d) {
			continue
		}
		n, sum, square = n+1, sum+d, square+d*d
	}
	if n < 2 {
		return 0, math.Inf(1)
	}
	mean = sum / n
	v := max(0, square/n-mean*mean) * n / (n - 1)
	return mean, math.Sqrt(v / n)
}

// meanVariance is the variance of nd's mean reward: its rewards' variance over its visits.
func meanVariance(nd *node) float64 {
	if nd.visits < 2 {
		return 0.25 // the most a reward in [0, 1] can vary
	}
	m := nd.reward / nd.visits
	v := max(0, nd.square/nd.visits-m*m) * nd.visits / (nd.visits - 1)
	return v / nd.visits
}
