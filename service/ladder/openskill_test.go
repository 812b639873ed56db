package ladder

import (
	"math"
	"testing"
)

// The worked examples below follow Weng and Lin 2011, Algorithm 4 (Plackett-Luce), by hand,
// with the defaults μ = 25, σ = 25/3, β = 25/6, κ = 0.0001 and every seat a team of one.
//
// Three newcomers: σ² = 625/9 = 69.444…, β² = 625/36 = 17.361…,
// c² = 3(σ² + β²) = 260.41666…, c = 16.137430609197573, σ²/c = 4.303314829119352,
// γ = σ/c = 0.5163977794943222, σ²/c² = 0.26666… (= 4/15).
// All means are equal, so every e^{μ/c} is the same number e and p_{i,q} = 1/|C_q|.
//
// Ranks 1, 2, 3: |C_1| = 3, |C_2| = 2, |C_3| = 1 and every A_q = 1.
//
//	winner: q ∈ {1}:       Ω = σ²/c·(1 − 1/3)               = σ²/c·2/3  = +2.868876552746235
//	                        Δ = γσ²/c²·(1/3·2/3)             = γσ²/c²·2/9 = 0.030601349895960
//	second: q ∈ {1, 2}:    Ω = σ²/c·(−1/3 + 1 − 1/2)        = σ²/c·1/6  = +0.717219138186559
//	                        Δ = γσ²/c²·(2/9 + 1/2·1/2)       = γσ²/c²·17/36 = 0.065027868528915
//	third:  q ∈ {1, 2, 3}: Ω = σ²/c·(−1/3 − 1/2 + 1 − 1)    = σ²/c·(−5/6) = −3.586095690932794
//	                        Δ = γσ²/c²·(2/9 + 1/4 + 1·0)     = γσ²/c²·17/36
//
// so μ' = 27.868876552746237, 25.717219138186557, 21.413904309067206 and
// σ' = σ·√(1 − Δ) = 8.204837030780652, 8.057829747583876, 8.057829747583876.
//
// Ranks 1, 2, 2 (a tie for second): |C_1| = 3, |C_2| = |C_3| = 2, A_1 = 1, A_2 = A_3 = 2.
//
//	winner: as above.
//	tied:   q ∈ {1, 2, 3}: Ω = σ²/c·(−1/3 + (1 − 1/2)/2 − (1/2)/2) = σ²/c·(−1/3) = −1.434438276373118
//	                        Δ = γσ²/c²·(2/9 + (1/4)/2 + (1/4)/2) = γσ²/c²·17/36
//
// so μ' = 27.868876552746237, 23.56556172362688, 23.56556172362688 (Ω sums to zero).
//
// Two newcomers, c² = 2(σ² + β²): the winner's Ω = σ²/c·1/2, the loser's −σ²/c·1/2, and
// both Δ = γσ²/c²·1/4: μ' = 27.63523138347365 and 22.36476861652635, σ' = 8.065506316323548.
// A two-way draw: A = 2 and |C| = 2 for both, so Ω = σ²/c·((1 − 1/2)/2 − (1/2)/2) = 0 and
// Δ = γσ²/c²·(1/8 + 1/8), the same σ' as a decided match.
func TestRate_WorkedByHand(t *testing.T) {
	m := DefaultModel()
	n := m.New()
	tests := []struct {
		name   string
		before []Rating
		ranks  []int
		want   []Rating
	}{
		{"three newcomers, distinct ranks", []Rating{n, n, n}, []int{1, 2, 3}, []Rating{
			{27.868876552746237, 8.204837030780652}, {25.717219138186557, 8.057829747583876}, {21.413904309067206, 8.057829747583876}}},
		{"three newcomers, rank order need not follow seats", []Rating{n, n, n}, []int{3, 1, 2}, []Rating{
			{21.413904309067206, 8.057829747583876}, {27.868876552746237, 8.204837030780652}, {25.717219138186557, 8.057829747583876}}},
		{"three newcomers, a tie for second", []Rating{n, n, n}, []int{1, 2, 2}, []Rating{
			{27.868876552746237, 8.204837030780652}, {23.56556172362688, 8.057829747583876}, {23.56556172362688, 8.057829747583876}}},
		{"two newcomers", []Rating{n, n}, []int{1, 2}, []Rating{
			{27.63523138347365, 8.065506316323548}, {22.36476861652635, 8.065506316323548}}},
		{"two newcomers draw", []Rating{n, n}, []int{1, 1}, []Rating{
			{25, 8.065506316323548}, {25, 8.065506316323548}}},
		// Unequal ratings are not done by hand: these values come from a line-by-line Python
		// transcription of Algorithm 4, independent of this code.
		{"four unequal with a tie", []Rating{{30, 7}, {25, 25.0 / 3}, {20, 6}, {27, 5}}, []int{2, 1, 2, 4}, []Rating{
			{29.22887659257944, 6.856886007142891}, {28.362803994520313, 8.221848363205465},
			{20.23506753829134, 5.947492158723226}, {26.019579525845487, 4.966150493192967}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := m.Rate(tt.before, tt.ranks)
			for i := range tt.want {
				if math.Abs(got[i].Mu-tt.want[i].Mu) > 1e-9 || math.Abs(got[i].Sigma-tt.want[i].Sigma) > 1e-9 {
					t.Errorf("seat %d: got %.15g ± %.15g, want %.15g ± %.15g", i, got[i].Mu, got[i].Sigma, tt.want[i].Mu, tt.want[i].Sigma)
				}
			}
		})
	}
}

func TestRate_Properties(t *testing.T) {
	m := DefaultModel()
	tests := []struct {
		name   string
		before []Rating
		ranks  []int
	}{
		{"six seats", []Rating{{25, 8}, {30, 3}, {10, 2}, {40, 1}, {25, 8.3}, {0, 9}}, []int{6, 5, 4, 3, 2, 1}},
		{"all tied", []Rating{{25, 8}, {30, 3}, {10, 2}}, []int{1, 1, 1}},
		{"huge means", []Rating{{5000, 8}, {-4000, 3}}, []int{2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := m.Rate(tt.before, tt.ranks)
			again := m.Rate(tt.before, tt.ranks)
			var sumOmega float64
			for i := range got {
				if got[i] != again[i] {
					t.Errorf("seat %d: not deterministic: %v then %v", i, got[i], again[i])
				}
				if math.IsNaN(got[i].Mu) || math.IsNaN(got[i].Sigma) || got[i].Sigma <= 0 || got[i].Sigma > tt.before[i].Sigma {
					t.Errorf("seat %d: %v from %v", i, got[i], tt.before[i])
				}
				sumOmega += (got[i].Mu - tt.before[i].Mu) / (tt.before[i].Sigma * tt.before[i].Sigma)
			}
			// Ω_i/σ_i² is a sum of terms that cancel over all seats: the update is zero-sum
			// in that weighting.
			if math.Abs(sumOmega) > 1e-9 {
				t.Errorf("Σ Ω_i/σ_i² = %g, want 0", sumOmega)
			}
		})
	}
}

func TestRate_TauWidensFirst(t *testing.T) {
	m := DefaultModel()
	m.Tau = 25.0 / 300
	n := Rating{25, 1}
	got := m.Rate([]Rating{n, n}, []int{1, 2})
	still := DefaultModel().Rate([]Rating{n, n}, []int{1, 2})
	if got[0].Mu-25 <= still[0].Mu-25 {
		t.Errorf("with tau the winner gains %g, without %g: want more", got[0].Mu-25, still[0].Mu-25)
	}
}

func BenchmarkRatingUpdate(b *testing.B) {
	m := DefaultModel()
	before := []Rating{{25, 8}, {30, 3}, {10, 2}, {40, 1}}
	ranks := []int{2, 1, 4, 2}
	b.ReportAllocs()
	for b.Loop() {
		m.Rate(before, ranks)
	}
}

// TestRating_ProvisionalUntilSigmaFallsBelowSix: a newcomer is provisional, and stays so
// until its sigma falls to ProvisionalSigma: after 12 two-seat, 14 three-seat or 18
// four-seat matches in which every seat takes every place in turn (with the ladder's
// dynamics, tau 25/300).
func TestRating_ProvisionalUntilSigmaFallsBelowSix(t *testing.T) {
	m := DefaultModel()
	m.Tau = 25.0 / 300
	if !m.New().Provisional() {
		t.Fatal("a newcomer is not provisional")
	}
	for seats, want := range map[int]int{2: 12, 3: 14, 4: 18} {
		rs := make([]Rating, seats)
		for i := range rs {
			rs[i] = m.New()
		}
		n := 0
		for rs[0].Provisional() {
			n++
			ranks := make([]int, seats)
			for i := range ranks {
				ranks[i] = (i+n)%seats + 1
			}
			rs = m.Rate(rs, ranks)
		}
		if n != want {
			t.Errorf("%d seats: provisional for %d matches, want %d", seats, n, want)
		}
	}
}
