package mcts

import (
	"math"
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestBest_OverrulesThePriorOnlyWhenSure: the most visited root action replaces the prior's
// choice only when its mean is better by the margin and by two standard errors; a mean better
// by luck (few samples, noisy rewards) leaves the prior's choice.
func TestBest_OverrulesThePriorOnlyWhenSure(t *testing.T) {
	// stats is a root child with n rewards, half at m-d and half at m+d.
	stats := func(n, m, d float64) node {
		return node{visits: n, reward: n * m, square: n/2*(m-d)*(m-d) + n/2*(m+d)*(m+d)}
	}
	for _, tc := range []struct {
		name         string
		prior, other node
		want         int
	}{
		{"clearly better and steady", stats(100, 0.5, 0.01), stats(300, 0.6, 0.01), 1},
		{"better by less than the margin", stats(100, 0.5, 0.01), stats(300, 0.53, 0.01), 0},
		{"better, but as noisy as a coin", stats(10, 0.5, 0.5), stats(12, 0.6, 0.5), 0},
		{"the prior's choice most visited", stats(300, 0.5, 0.01), stats(100, 0.6, 0.01), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New(Game{}, Config{})
			me := engine.Seat(0)
			b.roots = []engine.Action{{Kind: 1}, {Kind: 2}}
			b.favour = 0
			b.nodes = []node{{seat: me}, tc.prior, tc.other}
			b.nodes[1].action, b.nodes[1].seat = b.roots[0], me
			b.nodes[2].action, b.nodes[2].seat = b.roots[1], me
			clear(b.kids)
			b.kids[kidKey{0, me, b.roots[0]}] = 1
			b.kids[kidKey{0, me, b.roots[1]}] = 2
			if got := b.best(); got != tc.want {
				t.Errorf("best is %d, want %d", got, tc.want)
			}
		})
	}
}

// TestBest_PairedOverrulesByTheDifferences: where a game pairs its trials, the prior's
// choice is overruled by the trials' differences sample by sample, so luck both share (here
// rewards that swing by 0.3 from sample to sample) hides no steady lead, while a lead that
// swings as much as the luck does is left alone; a sample one of the two could not play
// (NaN) is left out of the pairs. Unpaired, the same shared luck hides the same lead.
func TestBest_PairedOverrulesByTheDifferences(t *testing.T) {
	nan := math.NaN()
	// trials are n rewards that swing by 0.3 around 0.5, each plus lead[j%len(lead)].
	trials := func(n int, lead ...float64) []float64 {
		out := make([]float64, n)
		for j := range out {
			out[j] = 0.5 + 0.3*math.Sin(float64(j)) + lead[j%len(lead)]
		}
		return out
	}
	for _, tc := range []struct {
		name         string
		unpaired     bool
		prior, other []float64
		want         int
	}{
		{"a steady lead under shared luck", false, trials(200, 0), trials(300, 0.02), 1},
		{"the same lead unpaired", true, trials(200, 0), trials(300, 0.02), 0},
		{"a lead under the margin", false, trials(200, 0), trials(300, 0.005), 0},
		{"a lead that swings like the luck", false, trials(200, 0), trials(300, 0.3, -0.26), 0},
		{"unplayable samples left out", false, append(trials(200, 0), nan, nan), append(trials(200, 0.02), nan, 0.9, 0.9), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New(Game{Paired: !tc.unpaired, Overrule: 0.01}, Config{})
			if b.cfg.Overrule != 0.01 {
				t.Errorf("the game's margin %v was not taken", b.cfg.Overrule)
			}
			me := engine.Seat(0)
			b.roots = []engine.Action{{Kind: 1}, {Kind: 2}}
			b.favour = 0
			b.nodes = []node{{seat: me}, {action: b.roots[0], seat: me}, {action: b.roots[1], seat: me}}
			b.trials = [][]float64{nil, tc.prior, tc.other}
			for k := 1; k <= 2; k++ {
				for _, v := range b.trials[k] {
					if !math.IsNaN(v) {
						b.nodes[k].visits++
						b.nodes[k].reward += v
						b.nodes[k].square += v * v
					}
				}
			}
			clear(b.kids)
			b.kids[kidKey{0, me, b.roots[0]}] = 1
			b.kids[kidKey{0, me, b.roots[1]}] = 2
			if got := b.best(); got != tc.want {
				d, se := b.pairedDiff(2, 1)
				t.Errorf("best is %d, want %d (paired lead %.4f, standard error %.4f)", got, tc.want, d, se)
			}
		})
	}
}
