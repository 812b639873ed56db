package tournament

import (
	"math"
	"slices"
	"testing"
)

func TestRoundRobin(t *testing.T) {
	tests := []struct {
		name             string
		k, seats, n      int
		duplicate        bool
		wantMatches      int
		wantPerEntrant   int // appearances of each entrant
		wantSeatPerEntry int // appearances of each entrant in each seat; 0: not checked
	}{
		{"5 entrants at 3 seats, two cycles", 5, 3, 20, false, 20, 12, 0},
		{"3 entrants at 3 seats rotate every match", 3, 3, 9, false, 9, 9, 3},
		{"2 entrants head to head", 2, 2, 10, false, 10, 10, 5},
		{"duplicate sets of 4 rotations", 4, 4, 8, true, 8, 8, 2},
		{"duplicate rounds up to whole sets", 3, 3, 7, true, 9, 9, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RoundRobin(tt.k, tt.seats, tt.n, tt.duplicate, 42)
			if len(got) != tt.wantMatches {
				t.Fatalf("%d matches, want %d", len(got), tt.wantMatches)
			}
			per := make([]int, tt.k)
			seat := make([][]int, tt.k)
			for e := range seat {
				seat[e] = make([]int, tt.seats)
			}
			for _, l := range got {
				if len(l.Entrants) != tt.seats {
					t.Fatalf("lineup %v: want %d seats", l, tt.seats)
				}
				seen := map[int]bool{}
				for s, e := range l.Entrants {
					if seen[e] {
						t.Errorf("lineup %v seats an entrant twice", l.Entrants)
					}
					seen[e] = true
					per[e]++
					seat[e][s]++
				}
			}
			for e := range per {
				if per[e] != tt.wantPerEntrant {
					t.Errorf("entrant %d plays %d matches, want %d", e, per[e], tt.wantPerEntrant)
				}
				for s, n := range seat[e] {
					if tt.wantSeatPerEntry > 0 && n != tt.wantSeatPerEntry {
						t.Errorf("entrant %d sits in seat %d %d times, want %d", e, s, n, tt.wantSeatPerEntry)
					}
				}
			}
			if tt.duplicate {
				for i := 0; i < len(got); i += tt.seats {
					set := got[i : i+tt.seats]
					for r, l := range set {
						if l.Seed != set[0].Seed || l.Set != set[0].Set || !slices.Equal(l.Entrants, rotate(set[0].Entrants, r)) {
							t.Errorf("set %d match %d: %v, want seed %d and rotation %d of %v", set[0].Set, r, l, set[0].Seed, r, set[0].Entrants)
						}
					}
					if i > 0 && set[0].Seed == got[i-1].Seed {
						t.Errorf("sets %d and %d share a seed", set[0].Set, got[i-1].Set)
					}
				}
			}
			if again := RoundRobin(tt.k, tt.seats, tt.n, tt.duplicate, 42); !slices.EqualFunc(got, again, func(a, b Lineup) bool {
				return a.Seed == b.Seed && slices.Equal(a.Entrants, b.Entrants)
			}) {
				t.Error("the same seed drew a different schedule")
			}
		})
	}
	// The seat after entrant 0 (its neighbour in turn order) is not always the same entrant.
	next := map[int]int{}
	for _, l := range RoundRobin(4, 4, 48, false, 42) {
		i := slices.Index(l.Entrants, 0)
		next[l.Entrants[(i+1)%4]]++
	}
	if len(next) != 3 {
		t.Errorf("entrant 0 is followed by %v: want every other entrant in turn", next)
	}
	// Every combination of 5 choose 3 appears exactly twice in 20 matches.
	combos := map[[3]int]int{}
	for _, l := range RoundRobin(5, 3, 20, false, 1) {
		c := slices.Clone(l.Entrants)
		slices.Sort(c)
		combos[[3]int(c)]++
	}
	if len(combos) != 10 {
		t.Errorf("%d distinct tables, want all 10", len(combos))
	}
	for c, n := range combos {
		if n != 2 {
			t.Errorf("table %v played %d times, want 2", c, n)
		}
	}
}

func TestSwissRound(t *testing.T) {
	t.Run("similar points share a table", func(t *testing.T) {
		points := []float64{0, 5, 1, 4, 2, 3}
		got := SwissRound(0, points, make([]int, 6), map[[2]int]int{}, 2, 0, false, 7)
		want := [][]int{{1, 3}, {5, 4}, {2, 0}}
		if len(got) != 3 {
			t.Fatalf("%v", got)
		}
		for i, l := range got {
			c := slices.Clone(l.Entrants)
			w := slices.Clone(want[i])
			slices.Sort(c)
			slices.Sort(w)
			if !slices.Equal(c, w) {
				t.Errorf("table %d: %v, want %v", i, l.Entrants, want[i])
			}
		}
	})
	t.Run("no rematch while another opponent is near", func(t *testing.T) {
		points := []float64{3, 3, 2, 2}
		met := map[[2]int]int{{0, 1}: 1}
		got := SwissRound(1, points, make([]int, 4), met, 2, 0, false, 7)
		for _, l := range got {
			if slices.Contains(l.Entrants, 0) && slices.Contains(l.Entrants, 1) {
				t.Errorf("0 and 1 meet again: %v", got)
			}
		}
	})
	t.Run("byes go to the fewest byes, lowest placed first", func(t *testing.T) {
		points := []float64{5, 4, 3, 2, 1}
		byes := []int{0, 0, 0, 0, 1}
		got := SwissRound(0, points, byes, map[[2]int]int{}, 2, 0, false, 7)
		for _, l := range got {
			if slices.Contains(l.Entrants, 3) {
				t.Errorf("entrant 3 should sit out: %v", got)
			}
		}
		if byes[3] != 1 || len(got) != 2 {
			t.Errorf("byes %v, tables %v", byes, got)
		}
	})
	t.Run("a table limit and duplicate sets", func(t *testing.T) {
		got := SwissRound(2, make([]float64, 9), make([]int, 9), map[[2]int]int{}, 3, 2, true, 7)
		if len(got) != 6 || got[0].Seed != got[2].Seed || got[0].Seed == got[3].Seed {
			t.Errorf("%v: want 2 tables of 3 rotations each", got)
		}
	})
}

func TestWilson(t *testing.T) {
	tests := []struct {
		wins, n int
		lo, hi  float64
	}{
		{5, 10, 0.236593090512564, 0.7634069094874361},
		{0, 10, 0, 0.2775327998628892},
		{10, 10, 0.7224672001371107, 1},
		{1, 3, 0.06149194472039615, 0.7923403991979523},
		{0, 0, 0, 1},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.wins, tt.n, z95)
		if math.Abs(lo-tt.lo) > 1e-12 || math.Abs(hi-tt.hi) > 1e-12 {
			t.Errorf("Wilson(%d, %d) = [%g, %g], want [%g, %g]", tt.wins, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestStandings(t *testing.T) {
	outcomes := []Outcome{
		{[]string{"x", "y", "z"}, []int{1, 2, 3}},
		{[]string{"y", "z", "x"}, []int{1, 3, 2}},
		{[]string{"z", "x", "y"}, []int{2, 1, 2}},
	}
	got := Standings([]string{"z", "y", "x", "idle"}, outcomes)
	// x: ranks 1, 2, 1: mean 4/3, sd √(1/3), 2 wins, points (1 + 0.5 + 1)/3.
	// y: ranks 2, 1, 2: mean 5/3, 1 win. z: ranks 3, 3, 2: mean 8/3.
	want := []Standing{
		{Place: 1, Entrant: "x", Matches: 3, Wins: 2, WinRate: 2.0 / 3, MeanRank: 4.0 / 3, MeanRankCI: z95 * math.Sqrt(1.0/3/3), Points: 2.5 / 3},
		{Place: 2, Entrant: "y", Matches: 3, Wins: 1, WinRate: 1.0 / 3, MeanRank: 5.0 / 3, MeanRankCI: z95 * math.Sqrt(1.0/3/3), Points: 2.0 / 3},
		{Place: 3, Entrant: "z", Matches: 3, Wins: 0, WinRate: 0, MeanRank: 8.0 / 3, MeanRankCI: z95 * math.Sqrt(1.0/3/3), Points: 0.5 / 3},
		{Place: 4, Entrant: "idle"},
	}
	for i := range want {
		want[i].WinLow, want[i].WinHigh = Wilson(want[i].Wins, want[i].Matches, z95)
		g, w := got[i], want[i]
		if g.Entrant != w.Entrant || g.Place != w.Place || g.Matches != w.Matches || g.Wins != w.Wins ||
			!near(g.WinRate, w.WinRate) || !near(g.MeanRank, w.MeanRank) || !near(g.MeanRankCI, w.MeanRankCI) ||
			!near(g.Points, w.Points) || !near(g.WinLow, w.WinLow) || !near(g.WinHigh, w.WinHigh) {
			t.Errorf("place %d: got %+v\nwant %+v", i+1, g, w)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// TestStandings_SharedFirstPlacesSplitTheWinShare: a first place shared by k seats is a win for
// each in the win rate but 1/k of one in the win share, so the shares of a match add up to one.
func TestStandings_SharedFirstPlacesSplitTheWinShare(t *testing.T) {
	outcomes := []Outcome{
		{[]string{"a", "b", "c", "d"}, []int{1, 1, 1, 1}}, // a capped draw: everyone first
		{[]string{"b", "c", "d", "a"}, []int{1, 1, 3, 4}},
		{[]string{"c", "d", "a", "b"}, []int{2, 3, 1, 4}},
		{[]string{"d", "a", "b", "c"}, []int{4, 3, 2, 1}},
	}
	got := Standings([]string{"a", "b", "c", "d"}, outcomes)
	share := map[string]float64{"a": 0.25 + 1, "b": 0.25 + 0.5, "c": 0.25 + 0.5 + 1, "d": 0.25}
	wins := map[string]int{"a": 2, "b": 2, "c": 3, "d": 1}
	total := 0.0
	for _, s := range got {
		if s.Wins != wins[s.Entrant] || !near(s.Share, share[s.Entrant]/4) {
			t.Errorf("%s: %d wins, share %v; want %d, %v", s.Entrant, s.Wins, s.Share, wins[s.Entrant], share[s.Entrant]/4)
		}
		if lo, hi := wilson(share[s.Entrant], 4, z95); !near(s.ShareLow, lo) || !near(s.ShareHigh, hi) || lo > s.Share || hi < s.Share {
			t.Errorf("%s: share interval [%v, %v], want [%v, %v] around %v", s.Entrant, s.ShareLow, s.ShareHigh, lo, hi, s.Share)
		}
		total += s.Share
	}
	if !near(total, 1) {
		t.Errorf("the shares add up to %v, want 1", total)
	}
}
