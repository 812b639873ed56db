package planet

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
	rules "github.com/orrery/orrery/engine/planet"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
	"github.com/orrery/orrery/proto/wire"
)

// TestReply_PlacesAsGreedy: the search's model of another seat (rules.Reply), asked in the
// true state, places a tile that greedy's own evaluation of the seat's observation scores
// best, at every decision of seeded games of each variant and seat count: it plays as this
// bot plays, only faster.
func TestReply_PlacesAsGreedy(t *testing.T) {
	var reply rules.Reply
	r := rand.New(rand.NewPCG(4, 4))
	checked := 0
	for i, opts := range []map[string]string{nil, nil, {"mystery": "true"}, {"beginners": "true"}} {
		seats := 2 + i%3
		st, err := engine.New("planet", engine.Config{Seats: seats, Seed: uint64(70 + i), Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		var legal []engine.Action
		for ply := 0; !st.Terminal(); ply++ {
			seat := st.ToAct(nil)[0]
			legal = st.Legal(seat, legal[:0])
			d := wire.Decision(st, seat, legal, int64(ply))
			o := wire.GameObservation(d.GetObservation()).(*planetv1.Observation)
			e := newEvaluator(o, int(seat))
			score := func(k int) float64 {
				p := wire.GameAction(d.GetLegal()[k]).(*planetv1.Action).GetPlace()
				sf := e.mine
				sf.Place(int(p.GetFace()), *tileOf(o, p.GetTile()), int(p.GetRotation()))
				return e.score(&sf)
			}
			best := math.Inf(-1)
			for k := range legal {
				best = max(best, score(k))
			}
			a := reply.Choose(st, seat, legal, r)
			k := -1
			for j := range legal {
				if legal[j] == a {
					k = j
				}
			}
			if k < 0 {
				t.Fatalf("game %d ply %d: the reply %v is not a legal placement", i, ply, a)
			}
			if got := score(k); math.Abs(got-best) > 1e-9 {
				t.Errorf("game %d ply %d: the reply scores %v by greedy's evaluation, greedy's best %v", i, ply, got, best)
			}
			checked++
			if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d decisions checked", checked)
	}
}
