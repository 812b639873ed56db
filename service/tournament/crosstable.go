package tournament

// Meeting is one entrant's record against another over the matches they shared a table in.
type Meeting struct {
	Against string  `json:"against"`
	Matches int     `json:"matches"`
	Share   float64 `json:"share"`          // finishing ahead 1, level 1/2, behind 0: the mean
	RankGap float64 `json:"mean_rank_diff"` // the other's rank minus this one's, on average
}

// CrossRow is an entrant's row of the cross-table: its meetings with every other entrant, in
// the entrants' order (a pair that never met has Matches 0).
type CrossRow struct {
	Entrant  string    `json:"entrant"`
	Meetings []Meeting `json:"meetings"`
}

// CrossTable is the tournament's head-to-head record: for each pair of entrants seated in
// the same match, who finished ahead of whom. In a game of several seats a match counts once
// for every pair at its table.
func CrossTable(entrants []string, outcomes []Outcome) []CrossRow {
	index := make(map[string]int, len(entrants))
	for i, e := range entrants {
		index[e] = i
	}
	n := len(entrants)
	cells := make([][]Meeting, n)
	for i := range cells {
		cells[i] = make([]Meeting, n)
		for j := range cells[i] {
			cells[i][j].Against = entrants[j]
		}
	}
	for _, o := range outcomes {
		for a, na := range o.Names {
			for b, nb := range o.Names {
				i, ok1 := index[na]
				j, ok2 := index[nb]
				if a == b || !ok1 || !ok2 || i == j {
					continue
				}
				c := &cells[i][j]
				c.Matches++
				c.RankGap += float64(o.Ranks[b] - o.Ranks[a])
				switch {
				case o.Ranks[a] < o.Ranks[b]:
					c.Share++
				case o.Ranks[a] == o.Ranks[b]:
					c.Share += 0.5
				}
			}
		}
	}
	rows := make([]CrossRow, n)
	for i, e := range entrants {
		rows[i] = CrossRow{Entrant: e}
		for j := range cells[i] {
			if j == i {
				continue
			}
			c := cells[i][j]
			if c.Matches > 0 {
				c.Share /= float64(c.Matches)
				c.RankGap /= float64(c.Matches)
			}
			rows[i].Meetings = append(rows[i].Meetings, c)
		}
	}
	return rows
}
