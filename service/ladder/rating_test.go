package ladder

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/store/pgtest"
)

// history is a fixed run of finished ladder matches between four bots, ties included.
var history = []struct {
	bots  []string
	ranks []int
}{
	{[]string{"a", "b", "c"}, []int{1, 2, 3}},
	{[]string{"b", "c", "d", "a"}, []int{1, 1, 3, 4}},
	{[]string{"d", "a"}, []int{2, 1}},
	{[]string{"c", "d", "b"}, []int{2, 2, 2}},
	{[]string{"a", "b", "c", "d"}, []int{4, 3, 2, 1}},
	{[]string{"b", "a"}, []int{1, 2}},
}

// seedHistory writes the bots and the finished matches of history into a fresh store at path,
// as the arena and ladder would have.
func seedHistory(t testing.TB, path string) {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d, err := openDB(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ids := map[string]int64{}
	for _, name := range []string{"a", "b", "c", "d"} {
		b := &botRow{name: name, keyHash: hashKey("key-" + name), created: t0}
		if err := d.insertBot(ctx, b); err != nil {
			t.Fatal(err)
		}
		ids[name] = b.id
	}
	for i, h := range history {
		writeMatch(t, db, d, fmt.Sprintf("m%d", i), h.bots, h.ranks, ids, t0.Add(time.Duration(i)*time.Minute))
	}
}

func writeMatch(t testing.TB, db *store.DB, d *db, id string, names []string, ranks []int, ids map[string]int64, ended time.Time) {
	t.Helper()
	ctx := context.Background()
	hashes := make([]string, len(names))
	bots := make([]int64, len(names))
	for i, n := range names {
		hashes[i] = strings.Repeat("0", 64)
		bots[i] = ids[n]
	}
	if err := db.CreateMatch(ctx, &store.Match{ID: id, Game: testGame, Seats: len(names), Options: map[string]string{},
		SeedHash: "x", Names: names, TokenHashes: hashes, PerMove: time.Second, Created: ended.Add(-time.Second)}); err != nil {
		t.Fatal(err)
	}
	if err := d.insertLadderMatch(ctx, id, testGame, bots, ended); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishMatch(ctx, id, ended, &store.Result{Ranks: ranks, Scores: make([]float64, len(ranks)), Reason: 1}); err != nil {
		t.Fatal(err)
	}
}

// storedRatings reads every rating row, in order, as text: equal text is equal bits.
func storedRatings(t *testing.T, d *db) string {
	t.Helper()
	rows, err := d.Query(`SELECT b.name, r.mu, r.sigma, r.games, r.wins, r.last_match_id FROM ladder_ratings r
		JOIN ladder_bots b ON b.id = r.bot_id ORDER BY b.name, r.game`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var sb strings.Builder
	for rows.Next() {
		var name, last string
		var mu, sigma float64
		var games, wins int
		if err := rows.Scan(&name, &mu, &sigma, &games, &wins, &last); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "%s %b %b %d %d %s\n", name, mu, sigma, games, wins, last)
	}
	return sb.String()
}

func count(t *testing.T, d *db, table string) int {
	t.Helper()
	var n int
	if err := d.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRating_CrashBeforeCommitLosesNothing kills a rating write midway (a hook fails after the
// rating rows are written, before the commit), restarts on the same database, and finds the
// ratings equal, bit for bit, to a clean run's: nothing lost, nothing counted twice.
func TestRating_CrashBeforeCommitLosesNothing(t *testing.T) {
	eachBackend(t, testCrashBeforeCommitLosesNothing)
}

func testCrashBeforeCommitLosesNothing(t *testing.T, newDB func(name string) string) {
	ctx := context.Background()
	model := DefaultModel()

	// The clean run.
	cleanPath := newDB("clean")
	seedHistory(t, cleanPath)
	cleanDB, err := store.Open(cleanPath)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanDB.Close()
	clean, err := New(Config{DB: cleanDB, Model: model})
	if err != nil {
		t.Fatal(err)
	}
	if err := clean.ratePending(ctx); err != nil {
		t.Fatal(err)
	}
	want := storedRatings(t, clean.db)
	clean.Close()

	for _, failAt := range []string{"m0", "m2", "m5"} {
		t.Run("fail at "+failAt, func(t *testing.T) {
			path := newDB("crash-" + failAt)
			seedHistory(t, path)
			db, err := store.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			l, err := New(Config{DB: db, Model: model})
			if err != nil {
				t.Fatal(err)
			}
			crash := errors.New("killed between the rating update and the commit")
			l.db.afterRatingUpdate = func(id string) error {
				if id == failAt {
					return crash
				}
				return nil
			}
			if err := l.ratePending(ctx); !errors.Is(err, crash) {
				t.Fatalf("ratePending: %v, want the crash", err)
			}
			var before int
			fmt.Sscan(strings.TrimPrefix(failAt, "m"), &before)
			if got := count(t, l.db, "rated_matches"); got != before {
				t.Errorf("%d matches rated before the crash, want %d", got, before)
			}
			if got := count(t, l.db, "ladder_rating_changes"); got != changesBefore(before) {
				t.Errorf("%d rating changes survive the crash, want %d (the failed match's rolled back)", got, changesBefore(before))
			}
			l.Close()
			db.Close()

			// Restart: the ladder rates what is left on Start.
			db, err = store.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			arena, err := service.New(service.Config{Store: db})
			if err != nil {
				t.Fatal(err)
			}
			defer arena.Close()
			l, err = New(Config{DB: db, Model: model, RateEvery: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Start(arena); err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if got := storedRatings(t, l.db); got != want {
				t.Errorf("after the restart:\n%s\nclean run:\n%s", got, want)
			}
			if err := l.ratePending(ctx); err != nil {
				t.Fatal(err)
			}
			if got := storedRatings(t, l.db); got != want || count(t, l.db, "rated_matches") != len(history) {
				t.Errorf("rating again changed the ratings or the count")
			}
			// Rating a match a second time is refused and writes nothing.
			p := pendingMatch{id: "m1", game: testGame, bots: []int64{1, 2}, result: store.Result{Ranks: []int{1, 2}}}
			if _, err := l.db.rateMatch(ctx, model, p, t0); !errors.Is(err, errRated) {
				t.Errorf("second rating of m1: %v, want errRated", err)
			}
			if got := storedRatings(t, l.db); got != want {
				t.Error("a refused second rating changed the ratings")
			}
		})
	}
}

// eachBackend runs f on SQLite and on PostgreSQL; newDB gives a fresh database's --db value,
// the same name for the same database within one run.
func eachBackend(t *testing.T, f func(t *testing.T, newDB func(name string) string)) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		f(t, func(name string) string { return filepath.Join(dir, name+".db") })
	})
	t.Run("postgres", func(t *testing.T) {
		c := pgtest.Shared(t)
		f(t, func(string) string { return c.NewDB(t) })
	})
}

func changesBefore(n int) int {
	c := 0
	for _, h := range history[:n] {
		c += len(h.bots)
	}
	return c
}

// TestRating_MatchesTheModel: the stored ratings after a history are the model's, applied
// match by match in the order the matches were created.
func TestRating_MatchesTheModel(t *testing.T) { eachBackend(t, testMatchesTheModel) }

func testMatchesTheModel(t *testing.T, newDB func(name string) string) {
	path := newDB("r")
	seedHistory(t, path)
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := DefaultModel()
	l, err := New(Config{DB: db, Model: m})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.ratePending(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := map[string]Rating{}
	games, wins := map[string]int{}, map[string]int{}
	for _, h := range history {
		before := make([]Rating, len(h.bots))
		for i, b := range h.bots {
			if r, ok := want[b]; ok {
				before[i] = r
			} else {
				before[i] = m.New()
			}
		}
		for i, r := range m.Rate(before, h.ranks) {
			want[h.bots[i]] = r
			games[h.bots[i]]++
			if h.ranks[i] == 1 {
				wins[h.bots[i]]++
			}
		}
	}
	for name, r := range want {
		b := l.byName[name]
		got := b.ratings[testGame]
		if got.Rating != r || got.games != games[name] || got.wins != wins[name] {
			t.Errorf("%s: got %v, want %v, %d games, %d wins", name, got, r, games[name], wins[name])
		}
	}
}

// TestRating_InCreationOrder: a game's matches are rated in the order they were created,
// whatever the order they end in, and none is rated while one of its game created before it
// runs: the ratings are a function of the schedule and its results, equal on a cluster (where
// the matches end on different nodes and any node may be the rater) and on one server.
func TestRating_InCreationOrder(t *testing.T) { eachBackend(t, testInCreationOrder) }

func testInCreationOrder(t *testing.T, newDB func(name string) string) {
	ctx := context.Background()
	path := newDB("order")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := DefaultModel()
	l, err := New(Config{DB: db, Model: m})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ids := map[string]int64{}
	for _, name := range []string{"a", "b", "c"} {
		b := &botRow{name: name, created: t0}
		if err := l.db.insertBot(ctx, b); err != nil {
			t.Fatal(err)
		}
		ids[name] = b.id
	}
	// Created first, second, third; the first ends last.
	create := func(id string, game ...string) {
		g := testGame
		if len(game) > 0 {
			g = game[0]
		}
		if err := db.CreateMatch(ctx, &store.Match{ID: id, Game: g, Seats: 3, Options: map[string]string{}, SeedHash: "x",
			Names: []string{"a", "b", "c"}, TokenHashes: []string{"0", "0", "0"}, PerMove: time.Second, Created: t0}); err != nil {
			t.Fatal(err)
		}
		if err := l.db.insertLadderMatch(ctx, id, g, []int64{ids["a"], ids["b"], ids["c"]}, t0); err != nil {
			t.Fatal(err)
		}
	}
	finish := func(id string, ranks []int, at time.Duration) {
		if err := db.FinishMatch(ctx, id, t0.Add(at), &store.Result{Ranks: ranks, Scores: make([]float64, 3), Reason: 1}); err != nil {
			t.Fatal(err)
		}
	}
	create("first")
	create("second")
	create("other", "another-game") // rated apart: ratings are per game
	create("third")
	finish("second", []int{1, 2, 3}, time.Minute)
	finish("other", []int{1, 2, 3}, time.Minute)
	finish("third", []int{3, 1, 2}, 2*time.Minute)
	if err := l.ratePending(ctx); err != nil {
		t.Fatal(err)
	}
	if got := count(t, l.db, "rated_matches"); got != 1 {
		t.Fatalf("%d matches rated while the first one created runs, want 1 (the other game's)", got)
	}
	finish("first", []int{2, 3, 1}, 3*time.Minute)
	if err := l.ratePending(ctx); err != nil {
		t.Fatal(err)
	}
	want := []Rating{m.New(), m.New(), m.New()}
	for _, ranks := range [][]int{{2, 3, 1}, {1, 2, 3}, {3, 1, 2}} { // creation order
		want = m.Rate(want, ranks)
	}
	stored, err := l.db.ratings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"a", "b", "c"} {
		if got := stored[ids[name]][testGame].Rating; got != want[i] {
			t.Errorf("%s: %v, want %v (rated in creation order)", name, got, want[i])
		}
	}
}

// BenchmarkRatingUpdateStored is one match rated in its SQLite transaction: reading four
// ratings, writing them, their history rows and the rated mark.
func BenchmarkRatingUpdateStored(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	db, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	d, err := openDB(db)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	ids := map[string]int64{}
	names := []string{"a", "b", "c", "d"}
	for _, name := range names {
		r := &botRow{name: name, created: t0}
		if err := d.insertBot(ctx, r); err != nil {
			b.Fatal(err)
		}
		ids[name] = r.id
	}
	bots := []int64{ids["a"], ids["b"], ids["c"], ids["d"]}
	m := DefaultModel()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := pendingMatch{id: fmt.Sprintf("m%d", i), game: testGame, bots: bots, result: store.Result{Ranks: []int{1 + i%4, 1 + (i+1)%4, 1 + (i+2)%4, 1 + (i+3)%4}}}
		if _, err := d.rateMatch(ctx, m, p, t0); err != nil {
			b.Fatal(err)
		}
	}
}
