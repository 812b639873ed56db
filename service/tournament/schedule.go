package tournament

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// Lineup is one match of a tournament: the entrant (by index) in each seat, and its seed.
type Lineup struct {
	Entrants []int
	Seed     uint64
	Round    int // the Swiss round; 0 in a round robin
	Set      int // the duplicate set: matches of one set share a seed and rotate its seats
}

// mix is SplitMix64, a fast invertible mixer: a built-in entrant's dice per decision
// (reseeded), and the seeds of tournaments drawn before seeds.go's one-way derivation.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// rotate returns the table seated r places round: seat i takes the entrant of seat i+r.
func rotate(table []int, r int) []int {
	out := make([]int, len(table))
	for i := range table {
		out[i] = table[(i+r)%len(table)]
	}
	return out
}

// combinations lists the ways to choose seats of k entrants, in a seeded random order when
// there are more than a round robin will play, so no entrant is favoured.
func combinations(k, seats int, needed int, r *rand.Rand) [][]int {
	total := 1.0
	for i := range seats {
		total = total * float64(k-i) / float64(i+1)
	}
	if total > 200000 { // too many to list: draw them
		out := make([][]int, needed)
		for i := range out {
			out[i] = r.Perm(k)[:seats]
			slices.Sort(out[i])
		}
		return out
	}
	var out [][]int
	c := make([]int, seats)
	var rec func(start, depth int)
	rec = func(start, depth int) {
		if depth == seats {
			out = append(out, slices.Clone(c))
			return
		}
		for i := start; i <= k-(seats-depth); i++ {
			c[depth] = i
			rec(i+1, depth+1)
		}
	}
	rec(0, 0)
	if len(out) > needed {
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}

// RoundRobin draws a round robin of n matches at tables of seats among k entrants: every
// combination of entrants in turn, cycled. A table's seats rotate one place each cycle, so
// that over seats cycles every entrant sits in every seat once; each such group of cycles
// seats the table in a fresh shuffled order, so that nobody always sits next to the same
// neighbour. With duplicate, each table is a set of seats matches on one seed, one per
// rotation of its seats, which cancels seat and dice luck; n is then rounded up to whole sets.
func RoundRobin(k, seats, n int, duplicate bool, seed uint64) []Lineup {
	return roundRobin(k, seats, n, duplicate, seeds{tournament: seed})
}

func roundRobin(k, seats, n int, duplicate bool, seed seeds) []Lineup {
	if k < seats || seats < 1 || n < 1 {
		return nil
	}
	per := 1
	if duplicate {
		per = seats
	}
	sets := (n + per - 1) / per
	r := seed.draw(labelCombinations, 0, 0x70)
	combos := combinations(k, seats, sets, r)
	// order seats combination c for its group g of seats cycles (or set g of duplicates).
	order := func(c, g int) []int {
		t := slices.Clone(combos[c])
		seed.draw(labelOrder, uint64(c), uint64(g)).Shuffle(len(t), func(i, j int) { t[i], t[j] = t[j], t[i] })
		return t
	}
	out := make([]Lineup, 0, sets*per)
	for s := range sets {
		c, cycle := s%len(combos), s/len(combos)
		s0 := seed.match(0, s)
		if duplicate {
			base := order(c, cycle)
			for rot := range seats {
				out = append(out, Lineup{Entrants: rotate(base, rot), Seed: s0, Set: s})
			}
			continue
		}
		out = append(out, Lineup{Entrants: rotate(order(c, cycle/seats), cycle%seats), Seed: s0, Set: s})
	}
	return out
}

// SwissRound draws round number round of a Swiss tournament at tables of seats: entrants with
// the most points (ties in a seeded random order) share a table, each table filled from the
// next few by the fewest earlier meetings (met counts them by pair). When the entrants do not
// fill whole tables, those with the fewest byes so far sit out, the lowest placed first. The
// seats rotate one place each round. At most tables tables are drawn (0: all). With duplicate
// each table is a set of seats matches, one per rotation.
func SwissRound(round int, points []float64, byes []int, met map[[2]int]int, seats, tables int, duplicate bool, seed uint64) []Lineup {
	return swissRound(round, points, byes, met, seats, tables, duplicate, seeds{tournament: seed})
}

func swissRound(round int, points []float64, byes []int, met map[[2]int]int, seats, tables int, duplicate bool, seed seeds) []Lineup {
	k := len(points)
	if k < seats || seats < 1 {
		return nil
	}
	r := seed.draw(labelSwiss, 0, uint64(round)+0x5715)
	order := r.Perm(k)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(points[b], points[a]) })
	if sitOut := k % seats; sitOut > 0 {
		// Lowest placed first among the fewest byes.
		cands := slices.Clone(order)
		slices.Reverse(cands)
		slices.SortStableFunc(cands, func(a, b int) int { return cmp.Compare(byes[a], byes[b]) })
		out := cands[:sitOut]
		for _, e := range out {
			byes[e]++
		}
		order = slices.DeleteFunc(order, func(e int) bool { return slices.Contains(out, e) })
	}
	meets := func(a, b int) int {
		if a > b {
			a, b = b, a
		}
		return met[[2]int{a, b}]
	}
	var lineups []Lineup
	for t := 0; len(order) >= seats && (tables == 0 || t < tables); t++ {
		table := []int{order[0]}
		order = order[1:]
		for len(table) < seats {
			best, bestMet := 0, math.MaxInt
			for i := 0; i < len(order) && i < 2*seats; i++ {
				m := 0
				for _, e := range table {
					m += meets(e, order[i])
				}
				if m < bestMet {
					best, bestMet = i, m
				}
			}
			table = append(table, order[best])
			order = slices.Delete(order, best, best+1)
		}
		for i, a := range table {
			for _, b := range table[i+1:] {
				met[[2]int{min(a, b), max(a, b)}]++
			}
		}
		s0 := seed.match(round, t)
		if duplicate {
			for rot := range seats {
				lineups = append(lineups, Lineup{Entrants: rotate(table, rot), Seed: s0, Round: round, Set: t})
			}
			continue
		}
		lineups = append(lineups, Lineup{Entrants: rotate(table, round%seats), Seed: s0, Round: round, Set: t})
	}
	return lineups
}

// Outcome is a finished tournament match: the entrant in each seat and its rank.
type Outcome struct {
	Names []string
	Ranks []int
}

// Standing is one entrant's record with 95% confidence intervals.
type Standing struct {
	Place   int     `json:"place"`
	Entrant string  `json:"entrant"`
	Matches int     `json:"matches"`
	Wins    int     `json:"wins"` // matches ranked first, ties included
	WinRate float64 `json:"win_rate"`
	WinLow  float64 `json:"win_rate_low"` // Wilson score interval
	WinHigh float64 `json:"win_rate_high"`
	// Share is the win rate with shared first places split: a first place shared by k
	// seats (a capped draw that ranks everyone first, say) counts 1/k of a win, so the
	// seats' shares of a match add up to one and an even field's fair share is 1/seats.
	Share      float64 `json:"win_share"`
	ShareLow   float64 `json:"win_share_low"` // Wilson score interval
	ShareHigh  float64 `json:"win_share_high"`
	MeanRank   float64 `json:"mean_rank"`
	MeanRankCI float64 `json:"mean_rank_ci"` // half-width, normal approximation
	Points     float64 `json:"points"`       // mean of (seats - rank) / (seats - 1)
}

// z95 is the standard normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// Wilson is the Wilson score interval of wins successes in n trials at quantile z.
func Wilson(wins, n int, z float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	return wilson(float64(wins), n, z)
}

// wilson is Wilson's interval for wins that may be fractional (shared first places split).
func wilson(wins float64, n int, z float64) (lo, hi float64) {
	nf := float64(n)
	p := wins / nf
	den := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	lo, hi = max(centre-half, 0), min(centre+half, 1)
	if wins == 0 { // exact at the ends, where rounding leaves crumbs
		lo = 0
	}
	if wins == nf {
		hi = 1
	}
	return lo, hi
}

// Standings is the table of entrants after outcomes, best first: by mean rank, then win
// rate, then name.
func Standings(entrants []string, outcomes []Outcome) []Standing {
	type acc struct {
		n, wins                  int
		share, sum, sumSq, point float64
	}
	by := make(map[string]*acc, len(entrants))
	for _, e := range entrants {
		by[e] = &acc{}
	}
	for _, o := range outcomes {
		seats, firsts := len(o.Ranks), 0
		for _, r := range o.Ranks {
			if r == 1 {
				firsts++
			}
		}
		for i, name := range o.Names {
			a := by[name]
			if a == nil || i >= seats {
				continue
			}
			rank := float64(o.Ranks[i])
			a.n++
			a.sum += rank
			a.sumSq += rank * rank
			if o.Ranks[i] == 1 {
				a.wins++
				a.share += 1 / float64(firsts)
			}
			if seats > 1 {
				a.point += (float64(seats) - rank) / float64(seats-1)
			}
		}
	}
	out := make([]Standing, 0, len(entrants))
	for _, e := range entrants {
		a := by[e]
		s := Standing{Entrant: e, Matches: a.n, Wins: a.wins}
		s.WinLow, s.WinHigh = Wilson(a.wins, a.n, z95)
		s.ShareLow, s.ShareHigh = 0, 1
		if a.n > 0 {
			nf := float64(a.n)
			s.WinRate = float64(a.wins) / nf
			s.Share = a.share / nf
			s.ShareLow, s.ShareHigh = wilson(a.share, a.n, z95)
			s.MeanRank = a.sum / nf
			s.Points = a.point / nf
			if a.n > 1 {
				variance := max((a.sumSq-nf*s.MeanRank*s.MeanRank)/(nf-1), 0)
				s.MeanRankCI = z95 * math.Sqrt(variance/nf)
			}
		}
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		if a.Matches == 0 || b.Matches == 0 {
			return cmp.Compare(b.Matches, a.Matches)
		}
		if c := cmp.Compare(a.MeanRank, b.MeanRank); c != 0 {
			return c
		}
		if c := cmp.Compare(b.WinRate, a.WinRate); c != 0 {
			return c
		}
		return cmp.Compare(a.Entrant, b.Entrant)
	})
	for i := range out {
		out[i].Place = i + 1
	}
	return out
}
