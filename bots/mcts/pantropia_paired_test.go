package mcts

import (
	"math"
	"testing"

	"github.com/orrery/orrery/bots"
	pantropiabot "github.com/orrery/orrery/bots/pantropia"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// greedySetup plays a seeded four-seat PanTropia match by greedy bots to its ply-th action
// and returns the state and the decision there.
func greedySetup(t *testing.T, seed uint64, ply int) (engine.State, *orreryv1.Decision) {
	t.Helper()
	st, err := engine.New("pantropia", engine.Config{Seats: 4, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	players := make([]bots.Bot, 4)
	for s := range players {
		players[s] = pantropiabot.NewGreedy(uint64(s + 5))
	}
	for i := 0; ; i++ {
		seat := st.ToAct(nil)[0]
		legal := st.Legal(seat, nil)
		d := wire.Decision(st, seat, legal, int64(i))
		if i == ply {
			return st, d
		}
		a, _, err := wire.Answer(st, legal, players[seat].Act(d))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSearch_PanTropiaPairsItsCandidatesTrials: each candidate's j-th trial is played on
// the j-th sample, so at a late settlement of a greedy setup, where the search scores another
// site above greedy's, the lead of the search's choice over greedy's is known to a standard
// error under half of what the candidates' own means give, and is big and sure enough to
// overrule greedy's choice.
func TestSearch_PanTropiaPairsItsCandidatesTrials(t *testing.T) {
	_, d := greedySetup(t, 21, 6)
	b := New(pantropiaGame(), Config{Iterations: 5000, Seed: 1, Exhaustive: true})
	b.Act(d)
	me := engine.Seat(d.GetSeat())
	top := b.roots[b.mostVisited()]
	k, f := b.kids[kidKey{0, me, top}], b.kids[kidKey{0, me, b.roots[b.favour]}]
	if k == f {
		t.Fatalf("greedy's choice %s was the most visited", d.GetLegalNotation()[b.favour])
	}
	lead, se := b.pairedDiff(k, f)
	unpaired := math.Sqrt(meanVariance(&b.nodes[k]) + meanVariance(&b.nodes[f]))
	t.Logf("%s over greedy's %s by %+.4f, standard error %.4f paired, %.4f unpaired; overruled %v",
		b.scratch.FormatAction(top), d.GetLegalNotation()[b.favour], lead, se, unpaired, b.LastStats().Overruled)
	if se > unpaired/2 {
		t.Errorf("paired standard error %.4f, want under half the unpaired %.4f", se, unpaired)
	}
	if lead < b.cfg.Overrule || lead < b.cfg.Sure*se || !b.LastStats().Overruled {
		t.Errorf("lead %+.4f (standard error %.4f) did not overrule greedy", lead, se)
	}
}

// mostVisited is the index of the root's most visited action.
func (b *Bot) mostVisited() int {
	bestI, bestV := 0, -1.0
	for i, a := range b.roots {
		if k, ok := b.kids[kidKey{0, b.nodes[0].seat, a}]; ok && b.nodes[k].visits > bestV {
			bestI, bestV = i, b.nodes[k].visits
		}
	}
	return bestI
}
