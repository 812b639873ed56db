package mcts

import (
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
