package sprt

import (
	"math"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestPoints_TiedSeatsShareTheirPlaces(t *testing.T) {
	tests := []struct {
		name  string
		ranks []int
		want  []float64
	}{
		{"four distinct places", []int{2, 1, 4, 3}, []float64{2.0 / 3, 1, 0, 1.0 / 3}},
		{"a lone winner, three losers tied", []int{1, 2, 2, 2}, []float64{1, 1.0 / 3, 1.0 / 3, 1.0 / 3}},
		{"two winners, two losers", []int{3, 1, 1, 3}, []float64{1.0 / 6, 5.0 / 6, 5.0 / 6, 1.0 / 6}},
		{"nobody wins: all last together", []int{4, 4, 4, 4}, []float64{0.5, 0.5, 0.5, 0.5}},
		{"two seats", []int{2, 1}, []float64{0, 1}},
		{"two seats drawn", []int{1, 1}, []float64{0.5, 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum := 0.0
			for s, want := range tt.want {
				got := Points(tt.ranks, s)
				if math.Abs(got-want) > 1e-12 {
					t.Errorf("Points(%v, %d) = %g, want %g", tt.ranks, s, got, want)
				}
				sum += got
			}
			if half := float64(len(tt.ranks)) / 2; math.Abs(sum-half) > 1e-12 {
				t.Errorf("points add up to %g, want %g", sum, half)
			}
		})
	}
}

func TestTally_TwoSeatPairsAreThePentanomial(t *testing.T) {
	tally := NewTally(2)
	// A win against B's loss, both draws, and so on: the pair scores of fishtest.
	for _, p := range [][2]float64{{1, 0}, {1, 0.5}, {0.5, 0.5}, {0, 0.5}, {0, 1}, {1, 1}} {
		if err := tally.Add(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	want := []int{1, 1, 2, 1, 1}
	if len(tally.Counts) != len(want) {
		t.Fatalf("%d categories, want %d", len(tally.Counts), len(want))
	}
	for j := range want {
		if tally.Counts[j] != want[j] {
			t.Errorf("Counts = %v, want %v", tally.Counts, want)
			break
		}
	}
	if err := tally.Add(1.5, 0); err == nil {
		t.Error("points of 1.5 were counted")
	}
}

func TestBounds_AreWaldsLimits(t *testing.T) {
	b := Bounds{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if got, want := b.Upper(), math.Log(0.95/0.05); math.Abs(got-want) > 1e-12 {
		t.Errorf("Upper = %g, want %g", got, want)
	}
	if got, want := b.Lower(), math.Log(0.05/0.95); math.Abs(got-want) > 1e-12 {
		t.Errorf("Lower = %g, want %g", got, want)
	}
	for _, bad := range []Bounds{
		{Elo0: 10, Elo1: 10, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 900, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 10, Alpha: 0, Beta: 0.05},
		{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.5},
		{Elo0: 0, Elo1: math.NaN(), Alpha: 0.05, Beta: 0.05},
	} {
		if bad.Check() == nil {
			t.Errorf("Check(%+v) accepted it", bad)
		}
	}
}

func TestScore_EloRoundTrips(t *testing.T) {
	for _, e := range []float64{-400, -10, 0, 5, 10, 400} {
		if got := Elo(Score(e)); math.Abs(got-e) > 1e-9 {
			t.Errorf("Elo(Score(%g)) = %g", e, got)
		}
	}
	if got := Score(400); math.Abs(got-10.0/11) > 1e-12 {
		t.Errorf("Score(400) = %g, want 10/11", got)
	}
}

// tallyOf counts n pairs of each score j/Steps in counts.
func tallyOf(seats int, counts ...int) Tally {
	t := NewTally(seats)
	copy(t.Counts, counts)
	return t
}

func TestLagrange_GivesTheDistributionOfTheWantedMean(t *testing.T) {
	tally := tallyOf(4, 0, 0, 25, 6, 0, 7, 124, 7, 0, 4, 27, 0, 0)
	freq := make([]float64, len(tally.Counts))
	total := 0.0
	for j, c := range tally.Counts {
		freq[j] = math.Max(float64(c), regularise)
		total += freq[j]
	}
	for _, s := range []float64{0.3, Score(0), Score(10), 0.7} {
		l := tally.lagrange(freq, s)
		var sum, mean float64
		for j, p := range freq {
			q := p / total / (1 + l*(tally.value(j)-s))
			if q < 0 {
				t.Fatalf("s %g: category %d gets %g", s, j, q)
			}
			sum += q
			mean += q * tally.value(j)
		}
		if math.Abs(sum-1) > 1e-9 || math.Abs(mean-s) > 1e-9 {
			t.Errorf("s %g: λ %g gives a distribution of mass %g and mean %g", s, l, sum, mean)
		}
	}
}

// TestLLR_NearTheNormalApproximation: for bounds a few Elo apart the GSPRT's LLR is close
// to the normal approximation N (s1 - s0)(2 mean - s0 - s1) / (2 variance).
func TestLLR_NearTheNormalApproximation(t *testing.T) {
	b := Bounds{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	for _, tally := range []Tally{
		tallyOf(2, 40, 210, 500, 220, 30),
		tallyOf(4, 10, 3, 25, 6, 40, 7, 124, 7, 50, 4, 27, 5, 20),
		tallyOf(4, 0, 0, 30, 0, 0, 0, 300, 0, 0, 0, 50, 0, 0),
	} {
		n := float64(tally.Pairs())
		mean, variance := tally.Mean()
		s0, s1 := Score(b.Elo0), Score(b.Elo1)
		want := n * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)
		if got := tally.LLR(b); math.Abs(got-want) > 0.02*math.Abs(want)+0.02 {
			t.Errorf("%v: LLR %g, normal approximation %g", tally.Counts, got, want)
		}
	}
}

func TestAssess_DecidesAtTheBounds(t *testing.T) {
	b := Bounds{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	strong := tallyOf(2, 0, 100, 300, 200, 0) // mean 0.5417: about +29 Elo
	st := strong.Assess(b, 0)
	if st.Decision != AcceptH1 || st.LLR < st.Upper {
		t.Errorf("mean 0.5417 over 600 pairs: %s, LLR %g [%g, %g]", st.Decision, st.LLR, st.Lower, st.Upper)
	}
	if st.EloLow > st.Elo || st.Elo > st.EloHi || st.EloLow <= 0 {
		t.Errorf("Elo %g [%g, %g]: want a positive interval around the estimate", st.Elo, st.EloLow, st.EloHi)
	}
	if st.LOS < 0.99 || st.Games != 1200 || st.Pairs != 600 {
		t.Errorf("LOS %g, %d games, %d pairs", st.LOS, st.Games, st.Pairs)
	}
	weak := tallyOf(2, 0, 200, 300, 100, 0)
	if st := weak.Assess(b, 0); st.Decision != AcceptH0 || st.LOS > 0.01 {
		t.Errorf("mean 0.4583 over 600 pairs: %s, LOS %g", st.Decision, st.LOS)
	}
	even := tallyOf(2, 0, 10, 30, 10, 0)
	if st := even.Assess(b, 50); st.Decision != MaxGames {
		t.Errorf("50 even pairs with a budget of 50: %s, LLR %g", st.Decision, st.LLR)
	}
	if st := even.Assess(b, 0); st.Decision != Undecided {
		t.Errorf("50 even pairs without a budget: %s", st.Decision)
	}
	// Data far from both hypotheses moves the LLR only by log(s1/s0) a pair: 104 sweeps decide.
	sweep := tallyOf(2, 0, 0, 0, 0, 120)
	if st := sweep.Assess(b, 0); st.Elo != MaxElo || st.LOS != 1 || st.Decision != AcceptH1 {
		t.Errorf("120 sweeps: Elo %g, LOS %g, %s", st.Elo, st.LOS, st.Decision)
	}
}
