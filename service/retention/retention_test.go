package retention

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/orrery/orrery/service/store"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestParseAge(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"90d", 90 * 24 * time.Hour, true}, {"36h", 36 * time.Hour, true}, {"0", 0, true}, {"", 0, true},
		{"-1d", 0, false}, {"xd", 0, false}, {"ninety", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseAge(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseAge(%q) = %v, %v", tt.in, got, err)
		}
	}
}

// Finished matches older than the retention age go, with their logs; running ones stay.
func TestRun_RemovesOnlyOldFinishedMatches(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Unix(1_000_000, 0)
	for _, m := range []struct {
		id    string
		ended time.Time
	}{{"old", now.Add(-100 * 24 * time.Hour)}, {"recent", now.Add(-time.Hour)}, {"running", time.Time{}}} {
		if err := db.CreateMatch(ctx, &store.Match{ID: m.id, Game: "g", Options: map[string]string{}, Names: []string{}, TokenHashes: []string{}, Created: now.Add(-200 * 24 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if !m.ended.IsZero() {
			db.FinishMatch(ctx, m.id, m.ended, &store.Result{Reason: 1})
		}
	}
	rctx, cancel := context.WithCancel(ctx)
	Run(rctx, onePass{db, cancel}, Config{Keep: 90 * 24 * time.Hour, Now: func() time.Time { return now }})
	left, _, _ := db.List(ctx, store.Filter{})
	var ids []string
	for _, m := range left {
		ids = append(ids, m.ID)
	}
	if len(ids) != 2 || ids[0] != "running" || ids[1] != "recent" {
		t.Errorf("left %v, want running and recent", ids)
	}
}

// onePass stops Run after its first pass.
type onePass struct {
	db     *store.DB
	cancel func()
}

func (o onePass) DeleteFinishedBefore(ctx context.Context, t time.Time) (int64, error) {
	defer o.cancel()
	return o.db.DeleteFinishedBefore(ctx, t)
}
