package tournament

import (
	"math"
	"testing"
)

func TestCrossTable_CountsWhoFinishedAheadOfWhomAtEachTable(t *testing.T) {
	entrants := []string{"a", "b", "c"}
	outcomes := []Outcome{
		{Names: []string{"a", "b", "c"}, Ranks: []int{1, 2, 3}},
		{Names: []string{"b", "a", "c"}, Ranks: []int{1, 1, 3}}, // a and b share first
		{Names: []string{"c", "a"}, Ranks: []int{1, 2}},
	}
	rows := CrossTable(entrants, outcomes)
	get := func(x, y string) Meeting {
		for _, r := range rows {
			if r.Entrant != x {
				continue
			}
			for _, m := range r.Meetings {
				if m.Against == y {
					return m
				}
			}
		}
		t.Fatalf("no cell %s against %s", x, y)
		return Meeting{}
	}
	for _, tc := range []struct {
		x, y    string
		matches int
		share   float64
		gap     float64
	}{
		{"a", "b", 2, 0.75, 0.5},
		{"b", "a", 2, 0.25, -0.5},
		{"a", "c", 3, 2.0 / 3, 1},
		{"c", "a", 3, 1.0 / 3, -1},
		{"b", "c", 2, 1, 1.5},
	} {
		m := get(tc.x, tc.y)
		if m.Matches != tc.matches || math.Abs(m.Share-tc.share) > 1e-12 || math.Abs(m.RankGap-tc.gap) > 1e-12 {
			t.Errorf("%s against %s: %+v, want %d matches, share %g, rank gap %g", tc.x, tc.y, m, tc.matches, tc.share, tc.gap)
		}
	}
	if len(rows[0].Meetings) != 2 {
		t.Errorf("row a has %d cells, want one per other entrant", len(rows[0].Meetings))
	}
}
