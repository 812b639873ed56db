// Package sprt decides whether one bot is stronger than another with a generalised
// sequential probability ratio test (GSPRT) on paired games, as fishtest does for chess
// engines: the test stops as soon as the evidence decides between two Elo hypotheses.
//
// A pair is one deal played twice, once with the candidate and once with the baseline in the
// same seat, against the same opponents on the same dice. Its score is
// (1 + points(candidate) - points(baseline)) / 2 in [0, 1], where a seat's points are
// (seats - place) / (seats - 1), tied seats sharing their places: in a two-seat game
// without ties this is fishtest's pentanomial. docs/strength.md has the math.
package sprt

import (
	"errors"
	"fmt"
	"math"
)

// Decision is a test's outcome so far.
type Decision string

// The decisions: H1 (the candidate is stronger by elo1), H0 (it is not stronger than elo0),
// max games (the budget ran out first), or none yet.
const (
	Undecided Decision = ""
	AcceptH1  Decision = "H1"
	AcceptH0  Decision = "H0"
	MaxGames  Decision = "max_games"
)

// Bounds are a test's hypotheses and error rates.
type Bounds struct {
	Elo0, Elo1  float64 // H0: elo <= Elo0, H1: elo >= Elo1 (logistic Elo of the pair score)
	Alpha, Beta float64 // the chance of accepting H1 when H0 holds, and H0 when H1 holds
}

// Check says what is wrong with b, if anything.
func (b Bounds) Check() error {
	switch {
	case !(b.Elo1 > b.Elo0):
		return fmt.Errorf("elo1 (%g) must be above elo0 (%g)", b.Elo1, b.Elo0)
	case math.Abs(b.Elo0) >= 800 || math.Abs(b.Elo1) >= 800:
		return errors.New("elo0 and elo1 must lie within ±800")
	case !(b.Alpha > 0 && b.Alpha < 0.5) || !(b.Beta > 0 && b.Beta < 0.5):
		return fmt.Errorf("alpha (%g) and beta (%g) must lie strictly between 0 and 0.5", b.Alpha, b.Beta)
	}
	return nil
}

// Lower is the LLR at or below which the test accepts H0: log(β / (1 - α)).
func (b Bounds) Lower() float64 { return math.Log(b.Beta / (1 - b.Alpha)) }

// Upper is the LLR at or above which the test accepts H1: log((1 - β) / α).
func (b Bounds) Upper() float64 { return math.Log((1 - b.Beta) / b.Alpha) }

// Score is the expected score of a side elo Elo stronger: 1 / (1 + 10^(-elo/400)).
func Score(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Elo is the inverse of Score; ±Inf at 1 and 0.
func Elo(score float64) float64 { return -400 * math.Log10(1/score-1) }

// Points is the share of the game seat earned from ranks (1 is first): (seats - place) /
// (seats - 1), where seats tied for a rank share the places they cover (their mean), so a
// game's points always add up to seats / 2. A group's places follow the seats ranked before
// it, whatever number it carries: three losers tied behind one winner share the last three
// places, and IceTraders' "all last together" (every rank n) shares all of them.
func Points(ranks []int, seat int) float64 {
	k := len(ranks)
	better, tied := 0, 0
	for _, r := range ranks {
		switch {
		case r < ranks[seat]:
			better++
		case r == ranks[seat]:
			tied++
		}
	}
	place := float64(better) + float64(tied+1)/2 // the places better+1 .. better+tied, on average
	return (float64(k) - place) / float64(k-1)
}

// Tally counts pairs by score: Counts[j] pairs scored j / Steps.
type Tally struct {
	Steps  int // 4(seats - 1): points are in halves of 1/(seats - 1), pair scores half that
	Counts []int
}

// NewTally is an empty tally for games of seats seats.
func NewTally(seats int) Tally {
	steps := 4 * (seats - 1)
	return Tally{Steps: steps, Counts: make([]int, steps+1)}
}

// Add counts one pair from the tested seat's points with the candidate and with the
// baseline.
func (t *Tally) Add(candidate, baseline float64) error {
	if !(candidate >= 0 && candidate <= 1 && baseline >= 0 && baseline <= 1) {
		return fmt.Errorf("points %g and %g: want 0 to 1", candidate, baseline)
	}
	t.Counts[int(math.Round((1+candidate-baseline)/2*float64(t.Steps)))]++
	return nil
}

// Pairs is the number of pairs counted.
func (t Tally) Pairs() int {
	n := 0
	for _, c := range t.Counts {
		n += c
	}
	return n
}

// value is the score of category j.
func (t Tally) value(j int) float64 { return float64(j) / float64(t.Steps) }

// Mean is the mean pair score and its variance per pair (0.5 and 0 with no pairs).
func (t Tally) Mean() (mean, variance float64) {
	n := float64(t.Pairs())
	if n == 0 {
		return 0.5, 0
	}
	for j, c := range t.Counts {
		mean += float64(c) * t.value(j)
	}
	mean /= n
	for j, c := range t.Counts {
		d := t.value(j) - mean
		variance += float64(c) * d * d
	}
	return mean, variance / n
}

// regularise is fishtest's guard for empty categories: a category never seen counts 1e-3
// of a pair, so the most likely distribution under either hypothesis exists from the first
// pair on (an all-draw start otherwise has no distribution with another mean).
const regularise = 1e-3

// LLR is the generalised log-likelihood ratio of H1 against H0: the log of how much likelier
// the pairs are under the most likely distribution of pair scores with mean Score(elo1) than
// under the most likely one with mean Score(elo0) (Van den Bergh's GSPRT, as fishtest).
func (t Tally) LLR(b Bounds) float64 {
	if t.Pairs() == 0 {
		return 0
	}
	freq := make([]float64, len(t.Counts))
	var total float64
	for j, c := range t.Counts {
		freq[j] = float64(c)
		if c == 0 {
			freq[j] = regularise
		}
		total += freq[j]
	}
	for j := range freq {
		freq[j] /= total
	}
	s0, s1 := Score(b.Elo0), Score(b.Elo1)
	l0, l1 := t.lagrange(freq, s0), t.lagrange(freq, s1)
	var llr float64
	for j, p := range freq {
		a := t.value(j)
		// The constrained maximum is p_j / (1 + λ(a_j - s)); the ratio of two such.
		llr += p * (math.Log1p(l0*(a-s0)) - math.Log1p(l1*(a-s1)))
	}
	return float64(t.Pairs()) * llr
}

// lagrange finds the multiplier λ with Σ p_j (a_j - s) / (1 + λ(a_j - s)) = 0: the
// distribution p_j / (1 + λ(a_j - s)) is then the one of mean s nearest p in the likelihood's
// sense. The sum falls as λ grows, from +Inf at the pole -1/(1 - s) to -Inf at 1/s (every
// category being present), so Newton's steps from 0, kept inside a shrinking bracket, find
// it in a few rounds.
func (t Tally) lagrange(freq []float64, s float64) float64 {
	lo, hi := -1/(1-s), 1/s
	l := 0.0
	for range 100 {
		var f, df float64
		for j, p := range freq {
			d := t.value(j) - s
			q := d / (1 + l*d)
			f += p * q
			df -= p * q * q
		}
		if f > 0 {
			lo = l
		} else {
			hi = l
		}
		next := l - f/df
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		if math.Abs(next-l) < 1e-13 {
			return next
		}
		l = next
	}
	return l
}

// Status is a test's state after some pairs.
type Status struct {
	Pairs, Games  int
	LLR           float64
	Lower, Upper  float64
	Elo           float64 // the estimate from the mean pair score
	EloLow, EloHi float64 // its 95% confidence interval
	LOS           float64 // likelihood of superiority: P(elo > 0) on a normal approximation
	Decision      Decision
	Counts        []int // pairs by score, j / (2(seats - 1)) for j = 0, 1, ...
}

// Assess reads the test's state from t; maxPairs (0: none) is the budget of pairs.
func (t Tally) Assess(b Bounds, maxPairs int) Status {
	n := t.Pairs()
	st := Status{Pairs: n, Games: 2 * n, LLR: t.LLR(b), Lower: b.Lower(), Upper: b.Upper()}
	st.Counts = append([]int(nil), t.Counts...)
	mean, variance := t.Mean()
	se := math.Sqrt(variance / math.Max(float64(n), 1))
	st.Elo = finiteElo(mean)
	st.EloLow, st.EloHi = finiteElo(mean-z95*se), finiteElo(mean+z95*se)
	switch {
	case n == 0:
		st.LOS = 0.5
	case se == 0:
		st.LOS = 0.5 + 0.5*sign(mean-0.5)
	default:
		st.LOS = 0.5 * math.Erfc(-(mean-0.5)/se/math.Sqrt2)
	}
	st.Decision = decide(st.LLR, b, n, maxPairs)
	return st
}

// decide is the test's rule: H1 once the LLR reaches the upper bound, H0 once it reaches
// the lower, max games once the budget of pairs is spent.
func decide(llr float64, b Bounds, pairs, maxPairs int) Decision {
	switch {
	case pairs == 0:
		return Undecided
	case llr >= b.Upper():
		return AcceptH1
	case llr <= b.Lower():
		return AcceptH0
	case maxPairs > 0 && pairs >= maxPairs:
		return MaxGames
	}
	return Undecided
}

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// MaxElo bounds the estimates: a mean score of 0 or 1 (or an interval past them) has an
// infinite Elo, which JSON cannot carry.
const MaxElo = 2000

// finiteElo is Elo(score) within ±MaxElo.
func finiteElo(score float64) float64 {
	switch {
	case score <= Score(-MaxElo):
		return -MaxElo
	case score >= Score(MaxElo):
		return MaxElo
	}
	return Elo(score)
}

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
