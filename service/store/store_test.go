package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orrery/orrery/service/store/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m)) }

// eachBackend runs f on a fresh SQLite file and on a fresh PostgreSQL database: the store
// must behave the same on both.
func eachBackend(t *testing.T, f func(t *testing.T, target string)) {
	t.Run("sqlite", func(t *testing.T) { f(t, "sqlite:"+filepath.Join(t.TempDir(), "orrery.db")) })
	t.Run("postgres", func(t *testing.T) { f(t, pgtest.Shared(t).NewDB(t)) })
}

func TestStore_RoundTripAndResume(t *testing.T) { eachBackend(t, testRoundTripAndResume) }

func testRoundTripAndResume(t *testing.T, path string) {
	ctx := context.Background()
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

func TestStore_ListPagesNewestFirst(t *testing.T) { eachBackend(t, testListPagesNewestFirst) }

func testListPagesNewestFirst(t *testing.T, target string) {
	ctx := context.Background()
	db, err := Open(target)
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

// A database made by the release before versioned migrations (main of 2026-11-30: one
// finished match, one running with one step) upgrades in place and keeps every match.
func TestMigrate_UpgradesADatabaseOfTheFirstRelease(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	b, err := os.ReadFile("testdata/main-2026-11-30.db")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // the second open finds nothing to do
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		all, _, err := db.List(ctx, Filter{})
		if err != nil || len(all) != 2+i {
			t.Fatalf("List = %d, %v; want the fixture's 2 matches and %d new", len(all), err, i)
		}
		un, err := db.Unfinished(ctx)
		if err != nil || len(un) != 1+i || un[0].SeedSalt != "" || un[0].Seed != 12 {
			t.Fatalf("Unfinished = %+v, %v", un, err)
		}
		steps, err := db.Steps(ctx, un[0].ID)
		if err != nil || len(steps) != 1 {
			t.Errorf("Steps = %v, %v", steps, err)
		}
		for _, m := range all { // the index of tokens holds the seats of matches stored before it
			for _, h := range m.TokenHashes {
				if got, err := db.MatchByToken(ctx, "", h); h != "" && (err != nil || got.ID != m.ID) {
					t.Errorf("MatchByToken(%s) = %v, %v; want %s", h, got, err, m.ID)
				}
			}
		}
		if err := db.CreateMatch(ctx, &Match{ID: "new" + fmt.Sprint(len(all)), Game: "g", Seats: 2, SeedSalt: "ab", Options: map[string]string{},
			Names: []string{"", ""}, TokenHashes: []string{"", ""}, Created: time.Now()}); err != nil {
			t.Errorf("a new match in the upgraded database: %v", err)
		}
		db.Close()
	}
}

// A damaged database is refused at start, and the message says how to repair it.
func TestOpen_RefusesADamagedDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orrery.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		db.CreateMatch(context.Background(), &Match{ID: fmt.Sprint("m", i), Game: "g", Options: map[string]string{},
			Names: []string{strings.Repeat("n", 200)}, TokenHashes: []string{}, Created: time.Now()})
	}
	db.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Scribble over the middle pages, leaving the header readable.
	for i := 8192; i < len(b)-4096 && i < 40000; i++ {
		b[i] = 0xA5
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open(path)
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), ".recover") {
		t.Errorf("Open of a damaged database: %v", err)
	}
}

func TestBackupAndRetention(t *testing.T) { eachBackend(t, testBackupAndRetention) }

func testBackupAndRetention(t *testing.T, target string) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := Open(target)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i, ended := range []int64{0, 100, 200} {
		id := fmt.Sprint("m", i)
		if err := db.CreateMatch(ctx, &Match{ID: id, Game: "g", Options: map[string]string{}, Names: []string{}, TokenHashes: []string{}, Created: time.Unix(1, 0)}); err != nil {
			t.Fatal(err)
		}
		db.AppendSteps(ctx, id, []Step{{Seq: 0, Notation: "pass"}})
		if ended != 0 {
			db.FinishMatch(ctx, id, time.Unix(ended, 0), &Result{Reason: 1})
		}
	}
	backup := db.Backup(ctx, filepath.Join(dir, "copy.db"))
	if db.Dialect() == Postgres {
		if backup == nil || !strings.Contains(backup.Error(), "pg_dump") {
			t.Errorf("Backup of a PostgreSQL store = %v, want a pointer to pg_dump", backup)
		}
	} else if backup != nil {
		t.Fatal(backup)
	}
	n, err := db.DeleteFinishedBefore(ctx, time.Unix(150, 0))
	if err != nil || n != 1 {
		t.Errorf("DeleteFinishedBefore = %d, %v; want 1", n, err)
	}
	left, _, _ := db.List(ctx, Filter{})
	if len(left) != 2 {
		t.Errorf("%d matches left, want the running one and the recent one", len(left))
	}
	if steps, _ := db.Steps(ctx, "m1"); len(steps) != 0 {
		t.Errorf("the removed match's log stayed: %v", steps)
	}
	if db.Dialect() == Postgres {
		return
	}
	cp, err := Open(filepath.Join(dir, "copy.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if all, _, _ := cp.List(ctx, Filter{}); len(all) != 3 {
		t.Errorf("backup holds %d matches, want 3", len(all))
	}
}

// Any stored match (failed, finished or running) is found by any of its seats' tokens, and a
// failed one is listed as failed, not finished.
func TestStore_FailedMatchFoundByToken(t *testing.T) { eachBackend(t, testFailedMatchFoundByToken) }

func testFailedMatchFoundByToken(t *testing.T, target string) {
	ctx := context.Background()
	db, err := Open(target)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, id := range []string{"ok", "bad", "running"} {
		m := &Match{ID: id, Game: "g", Seats: 2, Options: map[string]string{}, Names: []string{"a", "b"},
			TokenHashes: []string{id + "-t0", id + "-t1"}, WallClock: id == "bad", Created: time.Unix(1, 0)}
		if err := db.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	db.FinishMatch(ctx, "ok", time.Unix(2, 0), &Result{Ranks: []int{1, 2}, Reason: 1})
	db.FinishMatch(ctx, "bad", time.Unix(3, 0), &Result{Reason: ReasonFailed, Detail: "engine gone"})
	got, err := db.MatchByToken(ctx, "bad", "bad-t1")
	if err != nil || got.ID != "bad" || !got.Failed() || !got.WallClock || got.Result.Detail != "engine gone" {
		t.Errorf("MatchByToken(bad-t1) = %+v, %v", got, err)
	}
	for token, id := range map[string]string{"ok-t0": "ok", "running-t1": "running"} {
		if got, err := db.MatchByToken(ctx, id, token); err != nil || got.ID != id {
			t.Errorf("MatchByToken(%s) = %+v, %v; want %s", token, got, err, id)
		}
	}
	if _, err := db.MatchByToken(ctx, "", "nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("MatchByToken of no seat: %v, want ErrNotFound", err)
	}
	// A token names its match, but only a hash of one of that match's seats admits it.
	for _, c := range []struct{ match, hash string }{{"ok", "bad-t1"}, {"nomatch", "ok-t0"}, {"", "ok-t0"}} {
		if got, err := db.MatchByToken(ctx, c.match, c.hash); !errors.Is(err, ErrNotFound) {
			t.Errorf("MatchByToken(%q, %q) = %+v, %v; want ErrNotFound", c.match, c.hash, got, err)
		}
	}
	wantOneOfEach(t, db, "running", "ok", "bad")
}

// wantOneOfEach checks that db lists one running match, one finished and one failed, by id.
func wantOneOfEach(t *testing.T, db *DB, running, finished, failed string) {
	t.Helper()
	for _, c := range []struct {
		status Status
		want   string
	}{{Running, running}, {Finished, finished}, {Failed, failed}} {
		ms, _, err := db.List(context.Background(), Filter{Status: c.status})
		if err != nil || len(ms) != 1 || ms[0].ID != c.want {
			t.Errorf("List(status %d) = %v, %v; want [%s]", c.status, ids(ms), err, c.want)
		}
	}
}

// Nodes of a cluster start together on one empty PostgreSQL database: the migrations run once
// (goose's advisory lock), and every node opens the same schema.
func TestOpen_PostgresNodesMigrateTogether(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	const nodes = 3
	dbs := make([]*DB, nodes)
	errs := make([]error, nodes)
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Go(func() { dbs[i], errs[i] = Open(target) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		defer dbs[i].Close()
	}
	ctx := context.Background()
	if err := dbs[0].CreateMatch(ctx, &Match{ID: "m", Game: "g", Seats: 2, Options: map[string]string{}, Names: []string{"a", "b"},
		TokenHashes: []string{"", ""}, Created: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	if m, err := dbs[2].Match(ctx, "m"); err != nil || m.Names[1] != "b" {
		t.Errorf("another node reads %+v, %v", m, err)
	}
}

// A PostgreSQL URL that cannot be reached is a clear error at start, without the password.
func TestOpen_PostgresUnreachableIsAClearError(t *testing.T) {
	_, err := Open("postgres://orrery:s3cret@127.0.0.1:1/arena?connect_timeout=5")
	if err == nil || !strings.Contains(err.Error(), "postgres://orrery@127.0.0.1:1/arena") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("Open of an unreachable PostgreSQL: %v", err)
	}
}

// The writer's batch of several matches' steps (more than one INSERT's worth, so the
// prepared many-row statement runs too) commits together or not at all on both backends: a
// step that collides (a seq already stored) rolls back the others.
func TestStore_AppendStepBatchIsOneTransaction(t *testing.T) {
	eachBackend(t, testAppendStepBatchIsOneTransaction)
}

func testAppendStepBatchIsOneTransaction(t *testing.T, target string) {
	ctx := context.Background()
	db := leaseStore(t, target, "a", "b")
	var batch []MatchStep
	for seq := range 150 {
		for _, m := range []string{"a", "b"} {
			batch = append(batch, MatchStep{Match: m, Step: Step{Seq: int64(seq), Notation: fmt.Sprint(m, seq)}})
		}
	}
	if err := db.AppendStepBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	err := db.AppendStepBatch(ctx, []MatchStep{{Match: "b", Step: Step{Seq: 150, Notation: "lost"}}, {Match: "a", Step: Step{Seq: 3, Notation: "again"}}})
	if err == nil {
		t.Error("a colliding step was accepted")
	}
	for _, m := range []string{"a", "b"} {
		steps, err := db.Steps(ctx, m)
		if err != nil || len(steps) != 150 || steps[149].Notation != fmt.Sprint(m, 149) || steps[3].Notation != fmt.Sprint(m, 3) {
			t.Errorf("Steps(%s): %d steps, %v; want the 150 of the first batch only", m, len(steps), err)
		}
	}
}

// Each seat's bot is stored with the match and read back, and List by bot finds only the
// matches with a seat that bot played, never one whose seat has its name.
func TestStore_ListByBot(t *testing.T) { eachBackend(t, testListByBot) }

func testListByBot(t *testing.T, target string) {
	ctx := context.Background()
	db, err := Open(target)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, m := range []*Match{
		{ID: "played", Names: []string{"alice", "house-greedy"}, Bots: []int64{7, 12}},
		{ID: "impostor", Names: []string{"alice", "bob"}},
		{ID: "other", Names: []string{"carol", "dave"}, Bots: []int64{0, 70}},
	} {
		m.Game, m.Seats, m.Options, m.TokenHashes, m.Created = "g", 2, map[string]string{}, []string{m.ID + "0", m.ID + "1"}, time.Unix(1, 0)
		if err := db.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		bot  int64
		want []string
	}{{7, []string{"played"}}, {12, []string{"played"}}, {70, []string{"other"}}, {1, nil}} {
		got, _, err := db.List(ctx, Filter{Bot: c.bot})
		var ids []string
		for _, m := range got {
			ids = append(ids, m.ID)
		}
		if err != nil || !slices.Equal(ids, c.want) {
			t.Errorf("List(bot %d) = %v, %v; want %v", c.bot, ids, err, c.want)
		}
	}
	for id, want := range map[string][]int64{"played": {7, 12}, "impostor": nil, "other": {0, 70}} {
		if m, err := db.Match(ctx, id); err != nil || !slices.Equal(m.Bots, want) {
			t.Errorf("Match(%s).Bots = %v, %v; want %v", id, m.Bots, err, want)
		}
	}
}

// A batch that gives a match two results stores the last, on either database (one INSERT
// may not give a row two results in PostgreSQL).
func TestStore_TwoResultsOfAMatchInABatchKeepTheLast(t *testing.T) {
	eachBackend(t, func(t *testing.T, target string) {
		ctx := context.Background()
		db := leaseStore(t, target, "a", "b", "c")
		err := db.WriteBatch(ctx, Batch{Results: []Finish{ // four: one INSERT
			{Match: "a", Ended: time.Unix(10, 0), Result: &Result{Plies: 1}},
			{Match: "b", Ended: time.Unix(11, 0), Result: &Result{Plies: 2}},
			{Match: "a", Ended: time.Unix(12, 0), Result: &Result{Plies: 3}},
			{Match: "c", Ended: time.Unix(13, 0), Result: &Result{Plies: 4}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		for id, plies := range map[string]int64{"a": 3, "b": 2, "c": 4} {
			m, err := db.Match(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if m.Result == nil || m.Result.Plies != plies {
				t.Errorf("match %s: result %+v, want %d plies", id, m.Result, plies)
			}
		}
	})
}

// A match's creator hash and the built-in bots of its seats are stored with it and read back
// by every query that reads matches (Match, Unfinished): a restarted server seats the bots
// again and still knows the creator.
func TestStore_CreatorAndHouseBotsKept(t *testing.T) {
	eachBackend(t, func(t *testing.T, target string) {
		ctx := context.Background()
		db, err := Open(target)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, m := range []*Match{
			{ID: "form", Seats: 3, HouseBots: []string{"", "greedy", "random"}, CreatorHash: "c0ffee"},
			{ID: "ladder", Seats: 2},
		} {
			m.Game, m.Options, m.Created = "g", map[string]string{}, time.Unix(1, 0)
			m.TokenHashes = make([]string, m.Seats)
			for i := range m.TokenHashes {
				m.TokenHashes[i] = fmt.Sprint(m.ID, i)
			}
			if err := db.CreateMatch(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		check := func(how string, m *Match) {
			switch m.ID {
			case "form":
				if !slices.Equal(m.HouseBots, []string{"", "greedy", "random"}) || m.CreatorHash != "c0ffee" {
					t.Errorf("%s(form): house bots %q, creator %q", how, m.HouseBots, m.CreatorHash)
				}
			case "ladder":
				if m.HouseBots != nil || m.CreatorHash != "" {
					t.Errorf("%s(ladder): house bots %q, creator %q; want none", how, m.HouseBots, m.CreatorHash)
				}
			}
		}
		for _, id := range []string{"form", "ladder"} {
			m, err := db.Match(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			check("Match", m)
		}
		un, err := db.Unfinished(ctx)
		if err != nil || len(un) != 2 {
			t.Fatalf("Unfinished: %d matches, %v", len(un), err)
		}
		for _, m := range un {
			check("Unfinished", m)
		}
	})
}
