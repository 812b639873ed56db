package episodes

import (
	"context"
	"fmt"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Filter chooses the finished matches of an export.
type Filter struct {
	Game string
	// Since keeps the matches that ended at or after it; zero keeps all.
	Since time.Time
	// Bots keeps the matches in which a seat has one of these names, and of those only the
	// named seats' decisions; empty keeps every match and seat.
	Bots []string
	// Limit stops after this many matches; 0 is no limit.
	Limit int
}

// Writer takes rows in order: JSON lines or Parquet.
type Writer interface {
	Write(rows []Row) error
	Close() error
}

// Stats is what an export wrote.
type Stats struct{ Matches, Rows int }

// Export writes the rows of every finished match f chooses, newest first, to w (which it does
// not close).
func Export(ctx context.Context, src Source, f Filter, w Writer) (Stats, error) {
	var st Stats
	if f.Game == "" {
		return st, fmt.Errorf("episodes: a game is required: one export holds one game's tensors")
	}
	req := &orreryv1.ListMatchesRequest{Game: f.Game, Status: orreryv1.MatchStatus_MATCH_STATUS_FINISHED, PageSize: 500}
	var rows []Row
	for {
		page, err := src.ListMatches(ctx, req)
		if err != nil {
			return st, err
		}
		for _, m := range page.GetMatches() {
			if !f.Since.IsZero() && m.GetEnded().AsTime().Before(f.Since) {
				continue
			}
			keep, any := seatsNamed(m, f.Bots)
			if !any {
				continue
			}
			rep, err := src.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: m.GetMatchId()})
			if err != nil {
				return st, fmt.Errorf("replay of %s: %w", m.GetMatchId(), err)
			}
			if rows, err = Rows(rep, keep, rows[:0]); err != nil {
				return st, err
			}
			if err := w.Write(rows); err != nil {
				return st, err
			}
			st.Matches++
			st.Rows += len(rows)
			if f.Limit > 0 && st.Matches >= f.Limit {
				return st, nil
			}
		}
		if page.GetNextPageToken() == "" {
			return st, nil
		}
		req.PageToken = page.GetNextPageToken()
	}
}
