package store

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Match ids sort by when they were made, as bytes and as text of any collation (digits and
// small letters only), and ids made in one millisecond differ.
func TestMatchID_SortsByTheTimeItWasMade(t *testing.T) {
	start := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	var ids []string
	for i := range 2000 {
		ids = append(ids, MatchID(start.Add(time.Duration(i/4)*time.Millisecond))) // four a millisecond
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if len(id) != 18 || id[0] != 'm' || strings.Trim(id[1:], "0123456789abcdefghijklmnopqrstuv") != "" {
			t.Fatalf("id %q: want m and 17 of [0-9a-v]", id)
		}
		if seen[id] {
			t.Fatalf("id %q made twice", id)
		}
		seen[id] = true
		if i > 0 && i/4 != (i-1)/4 && ids[i-1] >= id {
			t.Errorf("id %d %q made a millisecond after %q sorts before it", i, id, ids[i-1])
		}
	}
	if early, late := MatchID(start), MatchID(start.AddDate(100, 0, 0)); early >= late {
		t.Errorf("%q, a century later than %q, sorts before it", late, early)
	}
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	for i := range ids {
		if made, least := ids[i][:10], sorted[i][:10]; made != least { // the time: one millisecond's four in any order
			t.Fatalf("id %d made is of %s, the %dth least of %s", i, made, i, least)
		}
	}
}
