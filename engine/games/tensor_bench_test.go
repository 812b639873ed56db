package games_test

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/games"
)

// tensorGames are the configurations the tensor benchmarks encode: each game's default
// options at a common seat count.
var tensorGames = []struct {
	game  string
	seats int
	opts  map[string]string
}{
	{"icetraders", 4, nil},
	{"planet", 4, nil},
	{"pantropia", 4, map[string]string{"turn_cap": "60"}},
	{"fccatan", 4, map[string]string{"round_seconds": "2", "tick_rate": "5", "top_speed_cm_s": "5000", "round_cap": "4"}},
}

// decisionView is one seat's view at a decision, with its legal list.
type decisionView struct {
	obs   proto.Message
	legal []engine.Action
}

// views plays one seeded random match and keeps every acting seat's view.
func views(b *testing.B, game string, cfg engine.Config) []decisionView {
	st, err := engine.New(game, cfg)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 5))
	var out []decisionView
	var toAct []engine.Seat
	for !st.Terminal() && len(out) < 2000 {
		toAct = st.ToAct(toAct[:0])
		seat := toAct[r.IntN(len(toAct))]
		legal := st.Legal(seat, nil)
		out = append(out, decisionView{st.Observe(seat), legal})
		if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// BenchmarkTensorEncode is the cost of one observation's tensor, per game.
func BenchmarkTensorEncode(b *testing.B) {
	for _, g := range tensorGames {
		b.Run(g.game, func(b *testing.B) {
			cfg := engine.Config{Seats: g.seats, Seed: 1, Options: g.opts}
			tz, _, err := engine.TensorsOf(g.game, cfg)
			if err != nil {
				b.Fatal(err)
			}
			vs := views(b, g.game, cfg)
			dst := make([]float32, engine.ObservationSize(tz))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := tz.Encode(vs[i%len(vs)].obs, dst); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(dst)), "floats")
		})
	}
}

// BenchmarkTensorMask is the cost of one decision's legal ids and mask, per game.
func BenchmarkTensorMask(b *testing.B) {
	for _, g := range tensorGames {
		b.Run(g.game, func(b *testing.B) {
			cfg := engine.Config{Seats: g.seats, Seed: 1, Options: g.opts}
			tz, _, err := engine.TensorsOf(g.game, cfg)
			if err != nil {
				b.Fatal(err)
			}
			vs := views(b, g.game, cfg)
			mask := make([]bool, engine.NumDistinctActions(tz))
			var ids []int32
			legal := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				v := vs[i%len(vs)]
				if need := len(v.legal) * len(tz.Heads()); cap(ids) < need {
					ids = make([]int32, need)
				}
				if err := engine.LegalMask(tz, v.obs, v.legal, mask, ids[:len(v.legal)*len(tz.Heads())]); err != nil {
					b.Fatal(err)
				}
				legal += len(v.legal)
			}
			b.ReportMetric(float64(len(mask)), "ids")
			b.ReportMetric(float64(legal)/float64(b.N), "legal/op")
		})
	}
}
