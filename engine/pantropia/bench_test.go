package pantropia

import (
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
)

// playRandom plays one whole game with uniform random choices and returns its action count.
func playRandom(b testing.TB, seats int, seed uint64, opts map[string]string) (engine.State, int) {
	st, err := engine.New("pantropia", engine.Config{Seats: seats, Seed: seed, Options: opts})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	var toAct []engine.Seat
	var legal []engine.Action
	n := 0
	for !st.Terminal() {
		toAct = st.ToAct(toAct[:0])
		legal = st.Legal(toAct[0], legal[:0])
		if err := st.Apply(toAct[0], legal[r.IntN(len(legal))]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return st, n
}

// BenchmarkRandomPlayout plays whole 4-seat random games at the default options.
func BenchmarkRandomPlayout(b *testing.B) {
	b.ReportAllocs()
	actions := 0
	for i := 0; b.Loop(); i++ {
		_, n := playRandom(b, 4, uint64(i), nil)
		actions += n
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
	b.ReportMetric(float64(testing.AllocsPerRun(1, func() {})), "_")
}
