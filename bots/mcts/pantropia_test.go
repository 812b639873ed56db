package mcts_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/bots/mcts"
	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// decisionKind names a PanTropia decision by its phase and the kinds of action it lists.
func decisionKind(d *orreryv1.Decision) string {
	o, _ := wire.GameObservation(d.GetObservation()).(*pb.Observation)
	kinds := map[string]bool{}
	for _, la := range d.GetLegal() {
		if a, ok := wire.GameAction(la).(*pb.Action); ok {
			k := fmt.Sprintf("%T", a.GetKind())
			kinds[strings.TrimPrefix(k, "*pantropiav1.Action_")] = true
		}
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	slices.Sort(names)
	return strings.TrimPrefix(o.GetPhase().String(), "PHASE_") + " " + strings.Join(names, ",")
}

// tally is what the search spent on one kind of decision.
type tally struct {
	n, searched, iterations, overruled int
	cpu                                time.Duration
}

// profiled wraps a search bot to tally its decisions by kind.
type profiled struct {
	b  *mcts.Bot
	by map[string]*tally
}

func (p *profiled) Act(d *orreryv1.Decision) *orreryv1.Answer {
	k := decisionKind(d)
	t := p.by[k]
	if t == nil {
		t = &tally{}
		p.by[k] = t
	}
	cpu := cpuTime()
	a := p.b.Act(d)
	t.cpu += cpuTime() - cpu
	t.n++
	st := p.b.LastStats()
	if st.Iterations > 0 {
		t.searched++
		t.iterations += st.Iterations
	}
	if st.Overruled {
		t.overruled++
	}
	return a
}

// BenchmarkDecisions_PanTropia plays PanTropia games, mcts in one seat against greedy, and
// prints where the search's CPU went: for each kind of decision (phase and listed kinds),
// how many there were, how many were searched, their iterations and CPU.
//
//	ORRERY_MCTS_ITERATIONS=2200 go test ./bots/mcts -run '^$' -bench Decisions_PanTropia -benchtime 1x
func BenchmarkDecisions_PanTropia(b *testing.B) {
	cfg := mcts.Config{Iterations: envInt("ORRERY_MCTS_ITERATIONS", 200)}
	games := envInt("ORRERY_MCTS_GAMES", 1)
	for b.Loop() {
		p := &profiled{by: map[string]*tally{}}
		for g := 0; g < games; g++ {
			seed := uint64(1000 + g)
			at := g % 4
			c := cfg
			c.Seed = seed*7 + uint64(at)
			p.b = mcts.MustNew("pantropia", c)
			players := againstGreedy(b, "pantropia", seed, at, p)
			st, _, err := local.Play("pantropia", engine.Config{Seats: 4, Seed: seed}, players)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Printf("game %d: mcts at %d, ranks %v\n", g, at, st.Result().Ranks)
		}
		keys := make([]string, 0, len(p.by))
		var total time.Duration
		for k, t := range p.by {
			keys = append(keys, k)
			total += t.cpu
		}
		slices.SortFunc(keys, func(x, y string) int { return int(p.by[y].cpu - p.by[x].cpu) })
		fmt.Printf("%-60s %6s %6s %8s %5s %8s %5s\n", "decision", "n", "search", "iter/s", "over", "cpu-s", "share")
		for _, k := range keys {
			t := p.by[k]
			fmt.Printf("%-60s %6d %6d %8.0f %5d %8.2f %5.1f\n", k, t.n, t.searched, float64(t.iterations)/float64(max(t.searched, 1)), t.overruled, t.cpu.Seconds(), 100*t.cpu.Seconds()/total.Seconds())
		}
		fmt.Printf("total CPU %.1f s\n", total.Seconds())
	}
}

// tradeKind reports whether a is a PanTropia trade offer or a reply to one.
func tradeKind(d *orreryv1.Decision, a *orreryv1.Answer) (offer, reply bool) {
	var act *pb.Action
	switch c := a.GetChoice().(type) {
	case *orreryv1.Answer_LegalIndex:
		act, _ = wire.GameAction(d.GetLegal()[c.LegalIndex]).(*pb.Action)
	case *orreryv1.Answer_Action:
		act, _ = wire.GameAction(c.Action).(*pb.Action)
	}
	return act.GetOffer() != nil, act.GetReply() != nil
}

// tradeWatch plays a search bot and notes, for its trade answers, whether it searched.
type tradeWatch struct {
	b                         *mcts.Bot
	offers, replies, searched int
	tradesSearched            int
}

func (w *tradeWatch) Act(d *orreryv1.Decision) *orreryv1.Answer {
	a := w.b.Act(d)
	offer, reply := tradeKind(d, a)
	searched := w.b.LastStats().Iterations > 0
	switch {
	case offer || reply:
		if offer {
			w.offers++
		} else {
			w.replies++
		}
		if searched {
			w.tradesSearched++
		}
	case searched:
		w.searched++
	}
	return a
}

// TestAct_PanTropiaLeavesTradingToThePrior: when greedy offers a trade or answers one, the
// search plays its choice without searching; other decisions are still searched.
func TestAct_PanTropiaLeavesTradingToThePrior(t *testing.T) {
	w := &tradeWatch{b: mcts.MustNew("pantropia", mcts.Config{Iterations: 40, Seed: 5})}
	players := []bots.Bot{w, nil, nil, nil}
	for s := 1; s < 4; s++ {
		g, err := builtin.New("pantropia", "greedy", uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		players[s] = g
	}
	cfg := engine.Config{Seats: 4, Seed: 8, Options: map[string]string{"turn_cap": "40"}}
	if _, _, err := local.Play("pantropia", cfg, players); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d offers, %d replies, %d other decisions searched", w.offers, w.replies, w.searched)
	if w.tradesSearched > 0 {
		t.Errorf("%d trade answers were searched, want none", w.tradesSearched)
	}
	if w.offers == 0 || w.replies == 0 || w.searched == 0 {
		t.Errorf("want offers, replies and searched decisions in the game: %d, %d, %d", w.offers, w.replies, w.searched)
	}
}
