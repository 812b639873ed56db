package icetraders

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
	it "github.com/orrery/orrery/engine/icetraders"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
	"github.com/orrery/orrery/proto/wire"
)

// greedyPosition is a seeded four-seat match played by greedy bots to ply (or its end), with the
// seat to act next.
func greedyPosition(t testing.TB, seed uint64, ply int) (*it.State, engine.Seat) {
	t.Helper()
	st0, err := engine.New(it.Name, engine.Config{Seats: 4, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	st := st0.(*it.State)
	var p Policy
	r := rand.New(rand.NewPCG(seed, 3))
	for i := 0; !st.Terminal(); i++ {
		seat := st.ToAct(nil)[0]
		legal := st.Legal(seat, nil)
		if i >= ply && len(legal) > 1 {
			return st, seat
		}
		if err := st.Apply(seat, p.Choose(st, int(seat), legal, r)); err != nil {
			t.Fatal(err)
		}
	}
	return st, -1
}

// TestPolicy_ChoosesAsGreedyActs: on a full state, the policy plays for the seat to act an
// action greedy's Act scores best from that seat's observation, whatever the other seats'
// hidden alignments are, and leaves the state as it was.
func TestPolicy_ChoosesAsGreedyActs(t *testing.T) {
	cases := []struct {
		seed uint64
		ply  int
	}{{1, 4}, {1, 12}, {2, 20}, {3, 30}, {4, 45}, {5, 60}, {6, 90}}
	for _, c := range cases {
		st, seat := greedyPosition(t, c.seed, c.ply)
		if seat < 0 {
			t.Fatalf("seed %d: over before ply %d", c.seed, c.ply)
		}
		legal := st.Legal(seat, nil)
		o := wire.GameObservation(wire.Decision(st, seat, legal, int64(c.ply)).GetObservation()).(*pb.Observation)
		view, err := it.FromObservation(o, nil)
		if err != nil {
			t.Fatal(err)
		}
		scores := newSearch(view, int(seat)).scoreAll(legal)
		best := unscored
		for _, v := range scores {
			best = max(best, v)
		}
		before, _ := st.MarshalBinary()
		var p Policy
		for k := uint64(0); k < 3; k++ {
			a := p.Choose(st, int(seat), legal, rand.New(rand.NewPCG(k, 1)))
			i := index(legal, a)
			if i < 0 || scores[i] != best {
				t.Errorf("seed %d ply %d: chose %v (%g), greedy's best scores %g", c.seed, c.ply, a, scores[max(i, 0)], best)
			}
		}
		if after, _ := st.MarshalBinary(); !bytes.Equal(before, after) {
			t.Errorf("seed %d ply %d: choosing changed the state", c.seed, c.ply)
		}
	}
}

// TestPolicy_OpensAsGreedyActs: before play, the policy chooses Evil and two opening picks of
// one color and different sizes, as Act does.
func TestPolicy_OpensAsGreedyActs(t *testing.T) {
	st, seat := greedyPosition(t, 7, 0)
	var p Policy
	r := rand.New(rand.NewPCG(7, 1))
	if a := p.Choose(st, int(seat), st.Legal(seat, nil), r); a != it.ChooseAlignment(it.Evil) {
		t.Errorf("alignment: chose %v, want Evil", a)
	}
	for !st.Terminal() && st.Legal(st.ToAct(nil)[0], nil)[0].Kind == it.KindAlign {
		seat := st.ToAct(nil)[0]
		if err := st.Apply(seat, it.ChooseAlignment(it.Evil)); err != nil {
			t.Fatal(err)
		}
	}
	seat = st.ToAct(nil)[0]
	for k := 0; k < 8; k++ {
		a := p.Choose(st, int(seat), st.Legal(seat, nil), r)
		if a.Kind != it.KindPicks || a.Arg[0] != a.Arg[2] || a.Arg[1] == a.Arg[3] {
			t.Errorf("picks: chose %v, want two of one color and different sizes", it.FormatAction(a))
		}
	}
}

// TestPolicy_AllocatesNothingOnceWarm: a search asks the policy thousands of times a
// decision.
func TestPolicy_AllocatesNothingOnceWarm(t *testing.T) {
	st, seat := greedyPosition(t, 4, 45)
	legal := st.Legal(seat, nil)
	var p Policy
	r := rand.New(rand.NewPCG(1, 1))
	p.Choose(st, int(seat), legal, r)
	if n := testing.AllocsPerRun(20, func() { p.Choose(st, int(seat), legal, r) }); n != 0 {
		t.Errorf("%v allocations a choice", n)
	}
}

// BenchmarkPolicy is one greedy choice on a full state, mid-match.
func BenchmarkPolicy(b *testing.B) {
	st, seat := greedyPosition(b, 4, 45)
	legal := st.Legal(seat, nil)
	var p Policy
	r := rand.New(rand.NewPCG(1, 1))
	b.ReportMetric(float64(len(legal)), "legal")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.Choose(st, int(seat), legal, r)
	}
}

func index(legal []engine.Action, a engine.Action) int {
	for i, x := range legal {
		if x == a {
			return i
		}
	}
	return -1
}
