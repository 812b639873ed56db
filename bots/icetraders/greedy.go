// Package icetraders holds IceTraders bots. Greedy simulates each legal action one ply ahead
// on a state rebuilt from its own observation (hidden alignments guessed Good) and scores the
// result: winning or being eliminated first, then threats to its own last critical ships,
// chances to eliminate someone next turn, and its fleet.
package icetraders

import (
	"math/rand/v2"
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
	best, bestScore, ties := 0, -1e18, 0
	for i, text := range legal {
		a, err := it.ParseAction(text)
		if err != nil {
			continue
		}
		c := st.Clone()
		if c.Apply(engine.Seat(me), a) != nil {
			continue
		}
		v := value(c.(*it.State), me, 3)
		switch {
		case v > bestScore:
			best, bestScore, ties = i, v, 1
		case v == bestScore:
			ties++
			if g.r.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return bots.Index(d, best)
}

// value scores st for me; while the action is still me's (a sacrifice's uses, a choice), it
// follows its own best continuation greedily, depth steps at most.
func value(st *it.State, me int, depth int) float64 {
	if depth > 0 && !st.Terminal() {
		if to := st.ToAct(nil); len(to) == 1 && int(to[0]) == me {
			o := st.Observe(engine.Seat(me)).(*pb.Observation)
			if o.GetPendingSacrifice() != nil || o.GetPendingConcentration() != nil {
				best := -1e18
				for _, a := range st.Legal(engine.Seat(me), nil) {
					c := st.Clone()
					if c.Apply(engine.Seat(me), a) != nil {
						continue
					}
					if v := value(c.(*it.State), me, depth-1); v > best {
						best = v
					}
				}
				return best - 1 // the same outcome sooner is better
			}
		}
	}
	return Evaluate(st.Observe(engine.Seat(me)).(*pb.Observation), me)
}

// Evaluate scores an observation for seat me.
func Evaluate(o *pb.Observation, me int) float64 {
	if g := o.GetGameOver(); g != nil {
		won := false
		for _, w := range g.GetWinners() {
			won = won || int(w) == me
		}
		switch {
		case won && len(g.GetWinners()) == 1:
			return scoreWin
		case won:
			return scoreShared - float64(len(g.GetWinners()))
		}
		return -scoreWin
	}
	players := o.GetPlayers()
	if players[me].GetEliminated() {
		return -scoreWin
	}
	b := newBoardView(o)
	score := 0.0
	for _, x := range b.ships {
		if x.owner >= 0 && int(x.owner) != me {
			score += scoreEnemy * float64(1+x.size)
		}
		if int(x.owner) != me {
			continue
		}
		score += scoreShip + scorePip*float64(x.size)
		if x.size == 3 {
			score += scoreLarge
		}
		if b.power(x, 1) { // yellow
			score += scoreMobility
		}
		if b.power(x, 0) { // red
			score += scoreMobility
		}
		if b.power(x, 2) { // green
			score += scoreGrowth
		}
	}
	// Threats: an opponent ship that could, next turn, remove my last critical ship.
	if crit := b.critical(me, players[me].GetEverLarge()); len(crit) == 1 {
		for _, p := range players {
			q := int(p.GetSeat())
			if q == me || p.GetEliminated() {
				continue
			}
			if b.canEliminate(q, crit[0], players[me].GetEverLarge()) {
				score += scoreThreat
			}
		}
	}
	// Chances: an opponent whose last critical ship I could remove next turn, or reach.
	for _, p := range players {
		q := int(p.GetSeat())
		if q == me || p.GetEliminated() || !p.GetPlacedFirstShip() {
			continue
		}
		crit := b.critical(q, p.GetEverLarge())
		if len(crit) != 1 {
			continue
		}
		if b.canEliminate(me, crit[0], p.GetEverLarge()) {
			score += scoreChance
		} else if b.canReach(me, crit[0]) {
			score += scoreReach
		}
	}
	return score
}

// boardView is an observation's ships and places, indexed for the scoring.
type boardView struct {
	ships []shipView
	locs  map[int32]locView
	stash [4][4]int32 // [color][size]
}

type shipView struct {
	id, loc int32
	owner   int32
	color   int // 0 red, 1 yellow, 2 green, 3 blue
	size    int
}

type locView struct {
	hyper     bool
	colors    [4]bool // system powers
	connected []int32
}

func newBoardView(o *pb.Observation) *boardView {
	b := &boardView{locs: map[int32]locView{}}
	for _, sc := range o.GetStash() {
		b.stash[sc.GetPiece().GetColor()-1][sc.GetPiece().GetSize()] = sc.GetCount()
	}
	add := func(loc int32, ships []*pb.Ship) {
		for _, x := range ships {
			b.ships = append(b.ships, shipView{id: x.GetId(), loc: loc, owner: x.GetOwner(),
				color: int(x.GetPiece().GetColor()) - 1, size: int(x.GetPiece().GetSize())})
		}
	}
	for _, s := range o.GetSystems() {
		lv := locView{connected: s.GetConnectedIds()}
		lv.colors[s.GetMarker().GetColor()-1] = true
		if m := s.GetSecondMarker(); m != nil {
			lv.colors[m.GetColor()-1] = true
		}
		b.locs[s.GetId()] = lv
		add(s.GetId(), s.GetShips())
	}
	for _, h := range o.GetHyperspaces() {
		b.locs[h.GetId()] = locView{hyper: true}
		add(h.GetId(), h.GetShips())
	}
	return b
}

// power reports whether ship x has color c's power where it is.
func (b *boardView) power(x shipView, c int) bool {
	return x.color == c || b.locs[x.loc].colors[c]
}

// critical lists the ships whose loss would eliminate seat: its large ships once it has had
// one, else all its ships.
func (b *boardView) critical(seat int, everLarge bool) []shipView {
	var out []shipView
	for _, x := range b.ships {
		if int(x.owner) == seat && (!everLarge || x.size == 3) {
			out = append(out, x)
		}
	}
	return out
}

// canEliminate reports whether a red attack by one of seat's ships would remove target, the
// last critical ship of its owner (a reduction counts only against a large critical ship).
func (b *boardView) canEliminate(seat int, target shipView, everLarge bool) bool {
	for _, x := range b.ships {
		if int(x.owner) != seat || x.loc != target.loc || x.id == target.id || !b.power(x, 0) {
			continue
		}
		if target.size <= x.size {
			return true
		}
		if everLarge && target.size == 3 && b.stash[target.color][2] > 0 {
			return true
		}
	}
	return false
}

// canReach reports whether one of seat's ships with red power could move next to target.
func (b *boardView) canReach(seat int, target shipView) bool {
	for _, x := range b.ships {
		if int(x.owner) != seat || x.loc == target.loc || !b.power(x, 1) || (x.color != 0 && !b.locs[target.loc].colors[0]) {
			continue
		}
		l := b.locs[x.loc]
		if l.hyper {
			return true
		}
		for _, c := range l.connected {
			if c == target.loc {
				return true
			}
		}
	}
	return false
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
