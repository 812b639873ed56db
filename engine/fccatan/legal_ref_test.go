package fccatan

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orrery/orrery/engine"
)

// The lists of intents as they were drawn up before the team's view (listView): kept as the
// reference the fast lists are checked against.

// avatarOptions lists the useful orders for one free player: stand, run to the nearest pile of
// each resource and pick up, run home to a city with a ball (and in the published ruleset,
// throw it to the teammate nearest a city who may catch it), run to a free hoop to place a
// marker, and for a knight chase the nearest carrier (or opponent) to tag it. Knights keep
// tagging whatever they do. Each order is listed once: only two piles on one spot, or an
// opponent standing on the home hoop's centre, could give the same order twice, and only
// those are compared. sets and rivals are what the team's list reads once, at the first player
// who needs them: which piles have balls, and the opponents carrying one.
func (s *State) refAvatarOptions(t, i int, av *avatar, sets *[numRes]int, rivals *carriers, o *refOrders) {
	tag := int16(0)
	if av.knight {
		tag = flagTag
	}
	o.in[0] = Intent{Flags: tag} // stay
	n := 1
	if av.carry == noRes && !av.collected {
		f := s.c.field
		if sets[0] < 0 {
			*sets = s.pileSets()
		}
		for _, p := range s.nearestPiles(av.pos, sets) {
			if p < 0 {
				continue
			}
			in := to(f.Piles[p].Pos).PickUp()
			in.Flags |= tag
			if f.stacked && slices.Contains(o.in[1:n], in) {
				continue
			}
			o.in[n] = in
			n++
		}
	}
	home := -1 // where the run home is listed
	if av.carry != noRes {
		if h := s.nearestHoop(av.pos, t, city); h >= 0 {
			in := to(s.c.field.Hoops[h].Center)
			in.Flags |= tag
			o.in[n], home = in, n
			n++
			if j := s.catcher(t, i); j >= 0 {
				o.in[n] = in.Throw(j)
				n++
			}
		}
	}
	if av.markers > 0 {
		if h := s.nearestHoop(av.pos, -1, noBuilding); h >= 0 {
			in := to(s.c.field.Hoops[h].Center).Place()
			in.Flags |= tag
			o.in[n] = in
			n++
		}
	}
	if av.knight {
		if !rivals.gathered {
			rivals.gather(s, t)
		}
		target := rivals.nearest(av.pos)
		if target < 0 {
			target = s.nearestOpponent(av.pos, t, false)
		}
		if target >= 0 {
			in := to(s.at(target).pos)
			in.Flags |= tag
			if home < 0 || o.in[home] != in {
				o.in[n] = in
				n++
			}
		}
	}
	o.n = n
}

// orders is a player's distinct options, kept in an array rather than a slice grown by a
// closure: a list is drawn up for every free player on every tick.
type refOrders struct {
	in [8]Intent // at most stay, a pile of each resource, a hoop and an opponent
	n  int
}

// legalIntents lists "keep every standing intent" first, then every change of one free player's
// intent to one of its useful orders, the others keeping theirs: at most 1 + 4*8 team plans.
func (s *State) refLegalIntents(t int, buf []engine.Action) []engine.Action {
	keep := s.packOrders(t)
	var opts refOrders
	tm := &s.teams[t]
	// The list is written in place: buf grows once to the most it can take.
	n := len(buf)
	out := slices.Grow(buf, 1+int(tm.size)*len(opts.in))
	out = out[:cap(out)]
	out[n] = keep
	n++
	sets := [numRes]int{-1} // the piles with a ball, read at the first player who fetches
	var rivals carriers     // the opposing carriers, gathered at the first free knight
	for i := range tm.av[:tm.size] {
		if tm.av[i].frozen {
			continue
		}
		cur := s.order(t, i)
		s.refAvatarOptions(t, i, &tm.av[i], &sets, &rivals, &opts)
		for _, in := range opts.in[:opts.n] {
			if in == cur {
				continue
			}
			out[n] = keep
			slot := (*[3]int16)(out[n].Arg[3*i:])
			slot[0], slot[1], slot[2] = in.X, in.Y, in.Flags
			n++
		}
	}
	return out[:n]
}

// TestLegalIntents_AsTheReference: in random games of every digest run, at every tick, every
// team's list of intents is the reference's, action for action.
func TestLegalIntents_AsTheReference(t *testing.T) {
	var got, want []engine.Action
	lists := 0
	for k, opts := range digestRuns {
		seats := 3 + k%2
		if opts["team_size"] == "4,3,3" {
			seats = 3
		}
		st, err := engine.New("fccatan", engine.Config{Seats: seats, Seed: uint64(100 + k), Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := rand.New(rand.NewPCG(uint64(k), 7))
		for n := 0; !s.Terminal() && n < 40000; n++ {
			if s.phase == PhaseTick {
				for u := 0; u < s.c.teams; u++ {
					if !s.owes(engine.Seat(u)) {
						continue
					}
					got, want = s.Legal(engine.Seat(u), got[:0]), s.refLegalIntents(u, want[:0])
					if !slices.Equal(got, want) {
						t.Fatalf("run %d, round %d tick %d, team %d: listed\n%v\nthe reference lists\n%v", k, s.round, s.tick, u, got, want)
					}
					lists++
				}
			}
			toAct := s.ToAct(nil)
			if len(toAct) == 0 || s.wallTick() && r.IntN(3) == 0 {
				if err := s.Advance(); err != nil {
					t.Fatal(err)
				}
				continue
			}
			seat := toAct[r.IntN(len(toAct))]
			legal := s.Legal(seat, nil)
			if err := s.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d lists", lists)
	if lists < 1000 {
		t.Errorf("only %d lists compared", lists)
	}
}
