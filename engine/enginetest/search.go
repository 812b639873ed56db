package enginetest

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
)

// Sampler draws full states consistent with one seat's observation (a game's Determinizer).
type Sampler interface {
	Sample(dst engine.State, r *rand.Rand) engine.State
}

// positions plays seeded random playouts of game and calls visit at about every stride-th
// action with the state (which visit must not change).
func positions(t *testing.T, game string, cfg engine.Config, games, stride int, visit func(st engine.State, ply int)) {
	t.Helper()
	for g := 0; g < games; g++ {
		c := cfg
		c.Seed = cfg.Seed + uint64(g)
		st, err := engine.New(game, c)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(c.Seed, 7))
		var toAct []engine.Seat
		var legal []engine.Action
		for ply := 0; !st.Terminal() && ply < 20000; ply++ {
			if r.IntN(stride) == 0 {
				visit(st, ply)
				if t.Failed() {
					return
				}
			}
			toAct = st.ToAct(toAct[:0])
			seat := toAct[r.IntN(len(toAct))]
			legal = st.Legal(seat, legal[:0])
			if len(legal) == 0 {
				t.Fatalf("seed %d ply %d: seat %d to act has no legal action", c.Seed, ply, seat)
			}
			if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatalf("seed %d ply %d: %v", c.Seed, ply, err)
			}
		}
	}
}

// CheckCopier checks a game's CloneInto at positions of random playouts: into a fresh state
// and into a used one, the copy equals Clone byte for byte (MarshalBinary) and its
// observations, and playing on either leaves the other as it was.
func CheckCopier(t *testing.T, game string, cfg engine.Config, games int) {
	t.Helper()
	var used engine.State
	positions(t, game, cfg, games, 5, func(st engine.State, ply int) {
		c, ok := st.(engine.Copier)
		if !ok {
			t.Fatalf("%s states do not implement engine.Copier", game)
		}
		want := mustBytes(t, st.Clone())
		for _, dst := range []engine.State{nil, used} {
			cp := c.CloneInto(dst)
			if cp == st {
				t.Fatalf("ply %d: CloneInto returned its receiver", ply)
			}
			if got := mustBytes(t, cp); !bytes.Equal(got, want) {
				t.Fatalf("ply %d: CloneInto differs from Clone", ply)
			}
			for seat := engine.Spectator; seat < engine.Seat(st.Seats()); seat++ {
				if !proto.Equal(cp.Observe(seat), st.Observe(seat)) {
					t.Fatalf("ply %d: the copy's view for seat %d differs", ply, seat)
				}
			}
			if cp.EventCount() != st.EventCount() {
				t.Fatalf("ply %d: the copy has %d events, want %d", ply, cp.EventCount(), st.EventCount())
			}
			// Play on the copy: the original must not change, and then the other way round.
			if playOne(cp) {
				if got := mustBytes(t, st); !bytes.Equal(got, want) {
					t.Fatalf("ply %d: playing on the copy changed the original", ply)
				}
			}
			cp = c.CloneInto(cp)
			before := mustBytes(t, cp)
			orig := st.Clone()
			if playOne(orig) {
				if got := mustBytes(t, cp); !bytes.Equal(got, before) {
					t.Fatalf("ply %d: playing on the original changed the copy", ply)
				}
			}
			used = cp
		}
	})
}

// playOne plays the first legal action of the first seat to act, reporting whether it did.
func playOne(st engine.State) bool {
	if st.Terminal() {
		return false
	}
	seat := st.ToAct(nil)[0]
	legal := st.Legal(seat, nil)
	return len(legal) > 0 && st.Apply(seat, legal[0]) == nil
}

// CheckDeterminizer checks a game's determinizer at positions of random playouts: for each
// seat to act, every sample built from its observation shows that seat exactly the same
// observation and legal actions as the true state, and successive samples differ. A game
// whose determinizer reads only some phases returns a nil Sampler and no error elsewhere.
func CheckDeterminizer(t *testing.T, game string, cfg engine.Config, games int, newSampler func(obs proto.Message, seat engine.Seat) (Sampler, error)) {
	t.Helper()
	r := rand.New(rand.NewPCG(cfg.Seed, 99))
	varied := 0
	positions(t, game, cfg, games, 7, func(st engine.State, ply int) {
		for _, seat := range st.ToAct(nil) {
			obs := st.Observe(seat)
			want := marshal(t, obs)
			legal := st.Legal(seat, nil)
			d, err := newSampler(obs, seat)
			if err != nil {
				t.Fatalf("ply %d seat %d: %v\n%s", ply, seat, err, st.Render(seat))
			}
			if d == nil {
				continue
			}
			var dst engine.State
			var first []byte
			for i := 0; i < 3; i++ {
				dst = d.Sample(dst, r)
				if got := marshal(t, dst.Observe(seat)); !bytes.Equal(got, want) {
					t.Fatalf("ply %d seat %d sample %d: the view differs\nwant:\n%s\ngot:\n%s", ply, seat, i, st.Render(seat), dst.Render(seat))
				}
				if got := dst.Legal(seat, nil); !slices.Equal(got, legal) {
					t.Fatalf("ply %d seat %d sample %d: legal actions differ: %d, want %d", ply, seat, i, len(got), len(legal))
				}
				b := mustBytes(t, dst)
				if i == 0 {
					first = b
				} else if !bytes.Equal(b, first) {
					varied++
				}
			}
		}
	})
	if varied == 0 {
		t.Errorf("%s: samples never differed: nothing drawn", game)
	}
}

// CheckDeterminizerBlind checks that a game's determinizer reads nothing a seat may not know:
// at positions of random playouts, for each seat to act, perturbing what that seat may not know
// (the conformance suite's perturb) changes no sample drawn from its observation with the same
// generator, so a search built on it chooses the same with the same seed and budget.
func CheckDeterminizerBlind(t *testing.T, game string, cfg engine.Config, games int,
	perturb func(st engine.State, seat engine.Seat, r *rand.Rand) engine.State,
	newSampler func(obs proto.Message, seat engine.Seat) (Sampler, error)) {
	t.Helper()
	r := rand.New(rand.NewPCG(cfg.Seed, 5))
	checked := 0
	positions(t, game, cfg, games, 9, func(st engine.State, ply int) {
		for _, seat := range st.ToAct(nil) {
			p := perturb(st.Clone(), seat, r)
			if p == nil {
				continue // nothing hidden from this seat here
			}
			a, errA := newSampler(st.Observe(seat), seat)
			b, errB := newSampler(p.Observe(seat), seat)
			if errA != nil || errB != nil {
				t.Fatalf("ply %d seat %d: %v, %v", ply, seat, errA, errB)
			}
			if a == nil || b == nil {
				continue // a phase the determinizer does not read
			}
			for i := uint64(0); i < 3; i++ {
				x := mustBytes(t, a.Sample(nil, rand.New(rand.NewPCG(i, 1))))
				y := mustBytes(t, b.Sample(nil, rand.New(rand.NewPCG(i, 1))))
				if !bytes.Equal(x, y) {
					t.Fatalf("ply %d seat %d: a perturbed state gives another sample", ply, seat)
				}
			}
			checked++
		}
	})
	if checked == 0 {
		t.Errorf("%s: no position had anything hidden", game)
	}
	t.Logf("%s: %d perturbed positions drew the same samples", game, checked)
}
