package pantropia

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orrery/orrery/engine"
)

// offersByRule lists the offer family of offerLegal one offer at a time, as the rule says:
// for each other seat q, each color x p holds and each other color y q holds, 1 x for 1 y; 2 x
// for 1 y when p holds two x; 1 x for 2 y when q holds two y.
func offersByRule(s *state, p int8) []engine.Action {
	var out []engine.Action
	for q := int8(0); q < s.seats; q++ {
		if q == p {
			continue
		}
		for x := Color(0); x < NumColors; x++ {
			if s.pl[p].chips[x] < 1 {
				continue
			}
			for y := Color(0); y < NumColors; y++ {
				if y == x || s.pl[q].chips[y] < 1 {
					continue
				}
				out = append(out, Offer(int(q), one16(x, 1), one16(y, 1)))
				if s.pl[p].chips[x] >= 2 {
					out = append(out, Offer(int(q), one16(x, 2), one16(y, 1)))
				}
				if s.pl[q].chips[y] >= 2 {
					out = append(out, Offer(int(q), one16(x, 1), one16(y, 2)))
				}
			}
		}
	}
	return out
}

// reachByRule is reach as a search, one ring at a time: from the rings at p's own structures
// (own), along p's adjacent rings, not through the intersections in closed.
func reachByRule(s *state, p int8, own, closed uint32) jointSet {
	var home jointSet
	mine := &s.ringOf[p]
	for m := own; m != 0; m &= m - 1 {
		home.or(&endsAt[bits.TrailingZeros32(m)])
	}
	var conn jointSet
	out := home
	var queue [NumJoints]int16
	n := 0
	for w := range home {
		for m := home[w] & mine[w]; m != 0; m &= m - 1 {
			j := int16(w<<6 + bits.TrailingZeros64(m))
			conn.add(j)
			queue[n] = j
			n++
		}
	}
	for i := 0; i < n; i++ {
		j := queue[i]
		nb := &aroundSet[j]
		if at := jointAt[j]; at >= 0 && closed&(1<<at) != 0 {
			nb = &alongSet[j]
		}
		for w := range nb {
			out[w] |= nb[w]
			for m := nb[w] & mine[w] &^ conn[w]; m != 0; m &= m - 1 {
				conn[w] |= m & -m
				queue[n] = int16(w<<6 + bits.TrailingZeros64(m))
				n++
			}
		}
	}
	for w := range out {
		out[w] &^= mine[w]
	}
	return out
}

// TestLegal_FastPathsAgreeWithRules: the offers listed from bit sets, the kept answers of
// reach and the habitat sites found from site sets are what the plain rule gives, at every
// decision of seeded random games, with chip counts varied so that every mix of "none, one,
// two or more" comes up.
func TestLegal_FastPathsAgreeWithRules(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		st, err := engine.New("pantropia", engine.Config{Seats: 3 + int(seed%2), Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		r := rand.New(rand.NewPCG(seed, 5))
		var legal []engine.Action
		for i := 0; !s.Terminal() && i < 3000; i++ {
			for p := int8(0); p < s.seats; p++ {
				var own, closed uint32
				for x, o := range s.site {
					if o == p {
						own |= 1 << x
					} else if o >= 0 && s.arco[x] {
						closed |= 1 << x
					}
				}
				if got, want := s.reach(p), reachByRule(s, p, own, closed); got != want {
					t.Fatalf("seed %d step %d: seat %d's kept reach %x, computed %x", seed, i, p, got, want)
				}
				var sites uint32
				for x := 0; x < NumIntersections; x++ {
					if s.habitatSite(p, x) {
						sites |= 1 << x
					}
				}
				if got := s.habitatSites(p); got != sites {
					t.Fatalf("seed %d step %d: seat %d's habitat sites %x, habitatSite gives %x", seed, i, p, got, sites)
				}
			}
			p := s.decider()
			if s.phase == PhaseMain {
				keep := s.pl
				for q := range s.pl {
					for c := range s.pl[q].chips {
						s.pl[q].chips[c] = int32(r.IntN(4))
					}
				}
				got := s.offerLegal(p, chipBytes(&s.pl[p].chips), nil)
				if want := offersByRule(s, p); !slices.Equal(got, want) {
					t.Fatalf("seed %d step %d: %d offers listed, the rule gives %d", seed, i, len(got), len(want))
				}
				s.pl = keep
			}
			legal = s.Legal(engine.Seat(p), legal[:0])
			if err := s.Apply(engine.Seat(p), legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestReach_FollowsDirectChanges: the kept answer is not given once its inputs change, even
// when a position is edited directly as the rule tests do.
func TestReach_FollowsDirectChanges(t *testing.T) {
	s := blank(t, 3)
	x := site(0, 1)
	s.build(0, x, false)
	st := Geo.Intersections[x].Struts[0]
	s.rings(0, strutJoints(int(st), x)[0])
	before := s.reach(0)
	if before.isEmpty() {
		t.Fatal("no reach from a habitat with a ring")
	}
	s.site[x] = -1 // the habitat removed directly
	if got := s.reach(0); got == before || !got.isEmpty() {
		t.Errorf("reach %x after the habitat went, want empty (was %x)", got, before)
	}
}

// TestPrices_AgreeWithCost: an item is listed as payable by its price a byte a color (prices,
// chipBytes, covers) just when canPay says it is, and Earth trades are listed for just the
// colors whose earthRate the seat holds, over random menus, chips, elevators and shuttles;
// the kept prices follow a menu edited directly.
func TestPrices_AgreeWithCost(t *testing.T) {
	s := blank(t, 4)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		p := int8(r.IntN(4))
		me := &s.pl[p]
		if r.IntN(3) == 0 { // edited directly, as the rule tests do
			me.menu[r.IntN(s.cfg.slots)] = Color(r.IntN(NumColors))
		}
		for c := range me.chips {
			me.chips[c] = int32(r.IntN(8))
			switch r.IntN(20) {
			case 0:
				me.chips[c] = int32(r.IntN(1000))
			case 1:
				me.chips[c] = -int32(r.IntN(3)) // never in play, but canPay has an answer
			}
		}
		s.elevator = int8(r.IntN(6) - 2)
		me.shuttle = int8(r.IntN(NumIntersections+1) - 1)
		chips := chipBytes(&me.chips)
		for it := 0; it < numItems; it++ {
			if got, want := covers(chips, s.prices(p)[it]), s.canPay(p, s.cost(p, it)); got != want {
				t.Fatalf("step %d: %s payable %v by price, %v by cost (chips %v, cost %v)", i, itemNames[it], got, want, me.chips, s.cost(p, it))
			}
		}
		var got, want []Color
		for m := ((chips | byteTops) - s.earthRates(p)) & byteTops; m != 0; m &= m - 1 {
			got = append(got, Color(bits.TrailingZeros64(m)>>3))
		}
		for c := Color(0); c < NumColors; c++ {
			if me.chips[c] >= s.earthRate(p, c) {
				want = append(want, c)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: Earth trades giving %v listed, the rates allow %v", i, got, want)
		}
	}
}

// TestOfferFits_AgreesWithTheChecks: offerFits passes just the offers that validateOffer's
// loop of checks passes, over random counts (negative ones too) and holdings.
func TestOfferFits_AgreesWithTheChecks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100000; i++ {
		var give, take [NumColors]int16
		var mine, theirs [NumColors]int32
		for c := 0; c < NumColors; c++ {
			give[c], take[c] = int16(r.IntN(5)-1)*int16(r.IntN(2)), int16(r.IntN(5)-1)*int16(r.IntN(2))
			mine[c], theirs[c] = int32(r.IntN(5)), int32(r.IntN(5))
			if r.IntN(50) == 0 {
				mine[c] = -int32(r.Uint32() >> 1)
			}
		}
		a := Offer(1, give, take)
		want, gave, took := true, false, false
		for c := 0; c < NumColors; c++ {
			want = want && give[c] >= 0 && take[c] >= 0 && !(give[c] > 0 && take[c] > 0) &&
				int32(give[c]) <= mine[c] && int32(take[c]) <= theirs[c]
			gave, took = gave || give[c] > 0, took || take[c] > 0
		}
		if got := offerFits(&a, &mine, &theirs); got != (want && gave && took) {
			t.Fatalf("give %v take %v, holding %v and %v: offerFits %v, the checks %v", give, take, mine, theirs, got, want && gave && took)
		}
	}
}

// TestArgsZeroFrom_AgreesWithALoop: argsZeroFrom finds a nonzero argument at or past n
// wherever a plain loop does, for every n and each argument set alone.
func TestArgsZeroFrom_AgreesWithALoop(t *testing.T) {
	for n := 0; n <= 15; n++ {
		for set := -1; set < 15; set++ {
			var a engine.Action
			if set >= 0 {
				a.Arg[set] = -7
			}
			want := true
			for i := n; i < len(a.Arg); i++ {
				want = want && a.Arg[i] == 0
			}
			if got := argsZeroFrom(&a, n); got != want {
				t.Errorf("argument %d set, from %d: argsZeroFrom %v, the loop %v", set, n, got, want)
			}
		}
	}
}
