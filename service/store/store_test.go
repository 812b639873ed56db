package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

func TestStore_RoundTripAndResume(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "orrery.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m := &Match{ID: "m1", Game: "icetraders", Seats: 2, Options: map[string]string{"a": "b"}, Seed: 1<<63 + 5,
		SeedHash: "h", Names: []string{"x", "y"}, TokenHashes: []string{"t0", "t1"}, PerMove: time.Second,
		TimeBank: time.Minute, TimeoutPolicy: 1, Created: time.Unix(100, 0)}
	if err := db.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendSteps(ctx, "m1", []Step{{Seq: 0, Seat: 1, Notation: "pass"}, {Seq: 1, Seat: 0, Notation: "pass", TimedOut: 1}}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Open(path) // reopen: as after a restart
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	un, err := db.Unfinished(ctx)
	if err != nil || len(un) != 1 || un[0].Seed != m.Seed || un[0].Options["a"] != "b" || un[0].Names[1] != "y" {
		t.Fatalf("Unfinished = %+v, %v", un, err)
	}
	steps, err := db.Steps(ctx, "m1")
	if err != nil || len(steps) != 2 || steps[1].TimedOut != 1 || steps[0].Seat != 1 {
		t.Fatalf("Steps = %+v, %v", steps, err)
	}
	if err := db.FinishMatch(ctx, "m1", time.Unix(200, 0), &Result{Ranks: []int{1, 2}, Reason: 1}); err != nil {
		t.Fatal(err)
	}
	if un, _ := db.Unfinished(ctx); len(un) != 0 {
		t.Errorf("finished match still unfinished")
	}
	got, err := db.Match(ctx, "m1")
	if err != nil || got.Result == nil || got.Result.Ranks[0] != 1 || got.Ended.Unix() != 200 {
		t.Errorf("Match = %+v, %v", got, err)
	}
	if _, err := db.Match(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown match: %v", err)
	}
	if err := db.FinishMatch(ctx, "nope", time.Now(), &Result{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("finish unknown: %v", err)
	}
}

func TestStore_ListPagesNewestFirst(t *testing.T) {
	ctx := context.Background()
	db, err := Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i, id := range []string{"a", "b", "c", "d", "e"} {
		game := "g1"
		if i%2 == 1 {
			game = "g2"
		}
		if err := db.CreateMatch(ctx, &Match{ID: id, Game: game, Seats: 2, Names: []string{"bot-" + id, "x"}, Created: time.Unix(int64(i), 0)}); err != nil {
			t.Fatal(err)
		}
	}
	page, next, err := db.List(ctx, Filter{Limit: 2})
	if err != nil || len(page) != 2 || page[0].ID != "e" || page[1].ID != "d" || next != "d" {
		t.Fatalf("page 1 = %v %q %v", ids(page), next, err)
	}
	page, next, _ = db.List(ctx, Filter{Limit: 2, Before: next})
	if len(page) != 2 || page[0].ID != "c" || next != "b" {
		t.Fatalf("page 2 = %v %q", ids(page), next)
	}
	page, next, _ = db.List(ctx, Filter{Limit: 2, Before: next})
	if len(page) != 1 || page[0].ID != "a" || next != "" {
		t.Fatalf("page 3 = %v %q", ids(page), next)
	}
	page, _, _ = db.List(ctx, Filter{Game: "g2"})
	if len(page) != 2 {
		t.Errorf("game filter: %v", ids(page))
	}
	page, _, _ = db.List(ctx, Filter{SeatName: "bot-c"})
	if len(page) != 1 || page[0].ID != "c" {
		t.Errorf("seat filter: %v", ids(page))
	}
}

func ids(ms []*Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}
