package icetraders

import (
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
	it "github.com/orrery/orrery/engine/icetraders"
)

// Policy is the greedy bot's choice for any seat of a full state, made as Act makes it from
// that seat's observation: the state is read with the alignments the seat cannot see guessed
// Good, every legal action is scored one ply ahead with the same continuations, and ties are
// broken at random. A search models greedy opponents with it; it reuses its buffers, so once
// warm it allocates nothing.
type Policy struct {
	view it.State // the state as the seat to choose sees it
	s    search
}

// Choose is greedy's action for seat among legal (st's legal actions for seat, in order) in
// st, which it leaves as it was; r breaks ties.
func (p *Policy) Choose(st *it.State, seat int, legal []engine.Action, r *rand.Rand) engine.Action {
	switch legal[0].Kind {
	case it.KindAlign, it.KindPicks, it.KindRepick:
		return opening(legal, r)
	}
	p.view.CopyFrom(st)
	p.view.GuessHidden(seat)
	p.s.reset(&p.view, seat)
	return legal[pick(p.s.scoreAll(legal), r)]
}

// opening is greedy's secret choice before play, as Act makes it: Evil; two opening picks of
// one color and different sizes; a repick of yellow, else red, else the first offered.
func opening(legal []engine.Action, r *rand.Rand) engine.Action {
	var want engine.Action
	switch legal[0].Kind {
	case it.KindAlign:
		want = it.ChooseAlignment(it.Evil)
	case it.KindPicks:
		c, z1 := it.Color(r.IntN(4)), r.IntN(3)
		z2 := (z1 + 1 + r.IntN(2)) % 3
		want = it.ChoosePicks(it.Piece{Color: c, Size: it.Size(z1 + 1)}, it.Piece{Color: c, Size: it.Size(z2 + 1)})
	case it.KindRepick:
		for _, c := range [...]it.Color{it.Yellow, it.Red} {
			for _, a := range legal {
				if it.Color(a.Arg[0]) == c {
					return a
				}
			}
		}
	}
	for _, a := range legal {
		if a == want {
			return a
		}
	}
	return legal[0]
}
