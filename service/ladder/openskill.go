package ladder

import "math"

// Rating is a bot's skill belief in one game: a normal distribution N(Mu, Sigma²).
type Rating struct {
	Mu, Sigma float64
}

// Score is the conservative rating mu - 3 sigma that ranks the leaderboard: a bot's skill
// very likely exceeds it, so a newcomer (mu 25, sigma 25/3) starts at 0 and climbs by playing.
func (r Rating) Score() float64 { return r.Mu - 3*r.Sigma }

// ProvisionalSigma is the uncertainty above which a rating is marked provisional, as Lichess
// marks a rating whose deviation is still high: a newcomer's 25/3 falls below it after 12
// two-seat, 14 three-seat or 18 four-seat matches of even results
// (TestRating_ProvisionalUntilSigmaFallsBelowSix).
const ProvisionalSigma = 6.0

// Provisional reports whether r is still too uncertain to read much into.
func (r Rating) Provisional() bool { return r.Sigma > ProvisionalSigma }

// Model is OpenSkill's Plackett-Luce model (Weng and Lin, "A Bayesian Approximation Method
// for Online Ranking", JMLR 2011, Algorithm 4) for free-for-all matches: every seat is a team
// of one. Rate is a pure function of its arguments, so rating a history twice gives equal
// bits.
type Model struct {
	Mu    float64 // a newcomer's mean (25)
	Sigma float64 // a newcomer's uncertainty (25/3)
	Beta  float64 // the performance noise of one match (25/6)
	Kappa float64 // the floor of the variance's shrink factor, keeping sigma positive (0.0001)
	// Tau is added in quadrature to every sigma before a match (the paper's dynamics factor),
	// so ratings keep moving as bots improve. 0 is the paper's static model.
	Tau float64
}

// DefaultModel is the paper's model with OpenSkill's defaults and no dynamics.
func DefaultModel() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001}
}

// New is a newcomer's rating.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Rate returns the ratings after a match in which seat i, rated before[i], finished with
// ranks[i] (1 best; tied seats share a rank).
//
// With c² = Σ (σ_q² + β²), C_q = {i : r(i) ≥ r(q)} the seats ranked no better than q,
// A_q = |{i : r(i) = r(q)}| the seats tied with q and p_{i,q} = e^{μ_i/c} / Σ_{s∈C_q} e^{μ_s/c}:
//
//	Ω_i = σ_i²/c · Σ_{q: r(q) ≤ r(i)} (δ_{qi} − p_{i,q}) / A_q
//	Δ_i = γ_i · σ_i²/c² · Σ_{q: r(q) ≤ r(i)} p_{i,q} (1 − p_{i,q}) / A_q,   γ_i = σ_i/c
//	μ_i ← μ_i + Ω_i,   σ_i² ← σ_i² · max(1 − Δ_i, κ)
func (m Model) Rate(before []Rating, ranks []int) []Rating {
	n := len(before)
	out := make([]Rating, n)
	if n != len(ranks) || n < 2 {
		copy(out, before)
		return out
	}
	var c2 float64
	for i, r := range before {
		s2 := r.Sigma*r.Sigma + m.Tau*m.Tau
		out[i].Sigma = s2 // the prior variance, for now
		c2 += s2 + m.Beta*m.Beta
	}
	c := math.Sqrt(c2)
	// Shift the exponents by the largest mean: p_{i,q} is unchanged and nothing overflows.
	maxMu := before[0].Mu
	for _, r := range before[1:] {
		maxMu = max(maxMu, r.Mu)
	}
	// exps, sumQ and tied are per seat; with the n ≤ 6 seats of our games the O(n²) loops
	// below cost less than sorting by rank would.
	scratch := make([]float64, 3*n)
	exps, sumQ, tied := scratch[:n], scratch[n:2*n], scratch[2*n:]
	for i, r := range before {
		exps[i] = math.Exp((r.Mu - maxMu) / c)
	}
	for q := range n {
		for i := range n {
			if ranks[i] >= ranks[q] {
				sumQ[q] += exps[i]
			}
			if ranks[i] == ranks[q] {
				tied[q]++
			}
		}
	}
	for i, r := range before {
		var omega, delta float64
		for q := range n {
			if ranks[q] > ranks[i] {
				continue
			}
			p := exps[i] / sumQ[q]
			delta += p * (1 - p) / tied[q]
			if q == i {
				omega += (1 - p) / tied[q]
			} else {
				omega -= p / tied[q]
			}
		}
		s2 := out[i].Sigma
		gamma := math.Sqrt(s2) / c
		omega *= s2 / c
		delta *= gamma * s2 / c2
		out[i] = Rating{Mu: r.Mu + omega, Sigma: math.Sqrt(s2 * max(1-delta, m.Kappa))}
	}
	return out
}
