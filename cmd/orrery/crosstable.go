package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	tour "github.com/orrery/orrery/service/tournament"
)

// printCrossTable prints the head-to-head table: row entrant's share against the column
// entrant over the matches they sat at together (ahead 1, level 1/2, behind 0), and how many.
func printCrossTable(w io.Writer, rows []tour.CrossRow) {
	if len(rows) < 2 {
		return
	}
	fmt.Fprintln(w, "\nhead to head: the row's share against the column (ahead 1, level 1/2, behind 0), over matches together")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t", r.Entrant)
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t", r.Entrant)
		cells := map[string]tour.Meeting{}
		for _, m := range r.Meetings {
			cells[m.Against] = m
		}
		for _, c := range rows {
			m, ok := cells[c.Entrant]
			switch {
			case c.Entrant == r.Entrant:
				fmt.Fprint(tw, "-\t")
			case !ok || m.Matches == 0:
				fmt.Fprint(tw, "\t")
			default:
				fmt.Fprintf(tw, "%.0f%% of %d\t", 100*m.Share, m.Matches)
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// roundCross rounds the table's means to the four decimals they mean something to.
func roundCross(rows []tour.CrossRow) []tour.CrossRow {
	for i := range rows {
		for j := range rows[i].Meetings {
			m := &rows[i].Meetings[j]
			m.Share, m.RankGap = round(m.Share, 4), round(m.RankGap, 4)
		}
	}
	return rows
}
