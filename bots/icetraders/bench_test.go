package icetraders

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	it "github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// lateGame replays testdata/late_game.txt, a recorded greedy-vs-greedy position deep in a
// long match, and returns the decision of the seat to act next.
func lateGame(tb testing.TB) *orreryv1.Decision {
	tb.Helper()
	data, err := os.ReadFile("testdata/late_game.txt")
	if err != nil {
		tb.Fatal(err)
	}
	st, err := engine.New(it.Name, engine.Config{Seats: 4, Seed: 15991477614341983858})
	if err != nil {
		tb.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		seat, text, _ := strings.Cut(line, "|")
		sn, err := strconv.Atoi(seat)
		if err != nil {
			tb.Fatalf("line %d: %q", i+1, line)
		}
		a, err := it.ParseAction(text)
		if err == nil {
			err = st.Apply(engine.Seat(sn), a)
		}
		if err != nil {
			tb.Fatalf("line %d: %v", i+1, err)
		}
	}
	seat := st.ToAct(nil)[0]
	return wire.Decision(st, seat, st.Legal(seat, nil), 140)
}

// BenchmarkGreedyDecision is one decision on the recorded late-game position (798 legal
// actions).
func BenchmarkGreedyDecision(b *testing.B) {
	d := lateGame(b)
	g := NewGreedy(1)
	b.ReportMetric(float64(len(d.GetLegalNotation())), "legal")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Act(d)
	}
}
