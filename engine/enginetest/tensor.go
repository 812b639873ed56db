package enginetest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orrery/orrery/engine"
)

// runTensor is the subtest Tensor: seeded random playouts in which, at every decision, the
// game's tensors hold their shape, every element is written and finite, hidden information of
// others never changes a seat's tensor by a bit (the perturbation test, on tensors), every
// legal action's ids map back to it, and the mask holds exactly the legal ids.
func (s *Suite) runTensor(t *testing.T) {
	for _, n := range s.Seats {
		t.Run(fmt.Sprintf("seats=%d", n), func(t *testing.T) {
			cfg := s.config(n, 1)
			tz, ok, err := engine.TensorsOf(s.Game, cfg)
			if err != nil || !ok {
				t.Fatalf("TensorsOf(%s, seats=%d): ok=%v, %v: every game has tensors", s.Game, n, ok, err)
			}
			shape := slices.Clone(tz.ObservationShape())
			heads := slices.Clone(tz.Heads())
			if engine.ObservationSize(tz) <= 0 || len(heads) == 0 {
				t.Fatalf("empty layout: shape %v, heads %v", shape, heads)
			}
			seeds := max(1, s.Seeds/4)
			for seed := uint64(1); seed <= uint64(seeds) && !t.Failed(); seed++ {
				s.tensorPlayout(t, tz, n, seed, shape, heads)
			}
		})
	}
}

// tensorCheck holds one playout's buffers.
type tensorCheck struct {
	tz        engine.Tensors
	a, b      []float32
	mask      []bool
	ids, back []int32
	legal     []engine.Action
}

func (s *Suite) tensorPlayout(t *testing.T, tz engine.Tensors, seats int, seed uint64, shape, heads []int) {
	t.Helper()
	st, err := engine.New(s.Game, s.config(seats, seed))
	if err != nil {
		t.Fatal(err)
	}
	size := engine.ObservationSize(tz)
	c := &tensorCheck{
		tz: tz, a: make([]float32, size), b: make([]float32, size),
		mask: make([]bool, engine.NumDistinctActions(tz)),
		ids:  make([]int32, len(heads)), back: make([]int32, len(heads)),
	}
	r := rand.New(rand.NewPCG(seed, 31))
	var toAct []engine.Seat
	for step := 0; !st.Terminal() && step < s.MaxActions; step++ {
		if !slices.Equal(tz.ObservationShape(), shape) || !slices.Equal(tz.Heads(), heads) {
			t.Fatalf("seed %d step %d: shape %v heads %v became %v %v", seed, step, shape, heads, tz.ObservationShape(), tz.Heads())
		}
		for seat := engine.Spectator; seat < engine.Seat(seats); seat++ {
			c.encode(t, st, seat, c.a)
		}
		if step%3 == 0 {
			for seat := engine.Spectator; seat < engine.Seat(seats); seat++ {
				p := s.Perturb(st.Clone(), seat, r)
				if p == nil {
					continue
				}
				c.encode(t, st, seat, c.a)
				c.encode(t, p, seat, c.b)
				for i := range c.a {
					if math.Float32bits(c.a[i]) != math.Float32bits(c.b[i]) {
						t.Fatalf("seed %d step %d: seat %d's tensor element %d is %v, %v under perturbation: hidden information leaks", seed, step, seat, i, c.a[i], c.b[i])
					}
				}
			}
		}
		toAct = st.ToAct(toAct[:0])
		for _, seat := range toAct {
			c.checkActions(t, st, seat, heads)
		}
		seat := toAct[r.IntN(len(toAct))]
		c.legal = st.Legal(seat, c.legal[:0])
		if err := st.Apply(seat, c.legal[r.IntN(len(c.legal))]); err != nil {
			t.Fatalf("seed %d step %d: %v", seed, step, err)
		}
	}
	for seat := engine.Spectator; seat < engine.Seat(seats); seat++ {
		c.encode(t, st, seat, c.a) // a finished match encodes too
	}
}

// encode writes seat's tensor into dst, first poisoned, so that an element Encode skips shows.
func (c *tensorCheck) encode(t *testing.T, st engine.State, seat engine.Seat, dst []float32) {
	t.Helper()
	for i := range dst {
		dst[i] = float32(math.NaN())
	}
	if err := c.tz.Encode(st.Observe(seat), dst); err != nil {
		t.Fatalf("seat %d: Encode: %v", seat, err)
	}
	for i, v := range dst {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("seat %d: tensor element %d is %v: Encode must write every element, finite", seat, i, v)
		}
	}
}

// checkActions checks seat's legal actions against their ids and the mask.
func (c *tensorCheck) checkActions(t *testing.T, st engine.State, seat engine.Seat, heads []int) {
	t.Helper()
	obs := st.Observe(seat)
	c.legal = st.Legal(seat, c.legal[:0])
	c.ids = slices.Grow(c.ids[:0], len(c.legal)*len(heads))[:len(c.legal)*len(heads)]
	if err := engine.LegalMask(c.tz, obs, c.legal, c.mask, c.ids); err != nil {
		t.Fatalf("seat %d: %v", seat, err)
	}
	want := make([]bool, len(c.mask))
	one := make([]int32, len(heads))
	for i, a := range c.legal {
		ids := c.ids[i*len(heads) : (i+1)*len(heads)]
		if !c.tz.ActionIDs(obs, c.legal[i:i+1], one) || !slices.Equal(one, ids) {
			t.Fatalf("seat %d: %s has ids %v alone and %v in its legal list", seat, st.FormatAction(a), one, ids)
		}
		off := 0
		for h, n := range heads {
			want[off+int(ids[h])] = true
			off += n
		}
		b, ok := c.tz.Action(obs, c.legal, ids)
		if !ok {
			t.Fatalf("seat %d: ids %v of %s name no action", seat, ids, st.FormatAction(a))
		}
		if b != a && !c.sameOutcome(t, st, seat, a, b) {
			t.Fatalf("seat %d: ids %v of %s map back to %s", seat, ids, st.FormatAction(a), st.FormatAction(b))
		}
	}
	if !slices.Equal(want, c.mask) {
		t.Fatalf("seat %d: the mask is not exactly the legal ids", seat)
	}
	// Every id the mask allows names a legal action (for several heads, each head's id with
	// the others of a legal action).
	if len(heads) == 1 {
		for id, on := range c.mask {
			if !on {
				continue
			}
			c.back[0] = int32(id)
			if a, ok := c.tz.Action(obs, c.legal, c.back); !ok || !slices.Contains(c.legal, a) {
				t.Fatalf("seat %d: masked id %d names no legal action", seat, id)
			}
		}
	}
}

// sameOutcome reports whether a and b, two legal actions with one id, lead to states that the
// seat's tensor cannot tell apart: an id may name interchangeable actions (two of one's
// identical pieces in one place) only.
func (c *tensorCheck) sameOutcome(t *testing.T, st engine.State, seat engine.Seat, a, b engine.Action) bool {
	t.Helper()
	if !slices.Contains(c.legal, b) {
		return false
	}
	sa, sb := st.Clone(), st.Clone()
	if sa.Apply(seat, a) != nil || sb.Apply(seat, b) != nil {
		return false
	}
	for v := engine.Spectator; v < engine.Seat(st.Seats()); v++ {
		c.encode(t, sa, v, c.a)
		c.encode(t, sb, v, c.b)
		for i := range c.a {
			if math.Float32bits(c.a[i]) != math.Float32bits(c.b[i]) {
				return false
			}
		}
	}
	return true
}
