package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/orrery/orrery/service/store/pgtest"
)

// The steps of testdata/main-2d3fa88.db, a database of schema 5 (runs keyed by match) whose
// server was killed: mEnded's in two runs, mRunning's first in a run and the next two in
// the step log.
var (
	fiveEnded = []Step{{Seq: 0, Seat: 0, Notation: "ended zero", Bank: time.Second}, {Seq: 1, Seat: 1, Notation: "ended one", Bank: 3 * time.Second},
		{Seq: 2, Seat: -1}}
	fiveRunning = []Step{{Seq: 0, Seat: 1, Notation: "running zero", TimedOut: 2, Bank: 2 * time.Second},
		{Seq: 1, Seat: 0, Notation: "running one", Bank: 4 * time.Second}, {Seq: 2, Seat: 1, Notation: "running two", Bank: 5 * time.Second}}
)

// A database of schema 5 upgrades to runs appended (migration 00006): every step reads back
// in order, the log a killed server left is emptied into the new table at open, and new
// steps are compacted after the old runs.
func TestMigrate_UpgradesRunsKeyedByMatchToRunsAppended(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "old.db")
		b, err := os.ReadFile("testdata/main-2d3fa88.db") // made by main at 2d3fa88
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		testUpgradesToRunsAppended(t, path)
	})
	t.Run("postgres", func(t *testing.T) {
		target := pgtest.Shared(t).NewDB(t)
		schemaFive(t, target)
		testUpgradesToRunsAppended(t, target)
	})
}

func testUpgradesToRunsAppended(t *testing.T, target string) {
	ctx := context.Background()
	running := slices.Clone(fiveRunning)
	for i := range 2 { // the second open finds nothing to do
		db, err := Open(target)
		if err != nil {
			t.Fatal(err)
		}
		if v := count(t, db, `SELECT MAX(version_id) FROM goose_db_version`); v != latestSchema {
			t.Errorf("schema version %d; want %d", v, latestSchema)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM step_log`); n != 0 {
			t.Errorf("open %d: %d rows in the step log; want it emptied at open", i, n)
		}
		if got, err := db.Steps(ctx, "mEnded"); err != nil || !slices.Equal(got, fiveEnded) {
			t.Errorf("open %d: Steps(mEnded) = %v, %v; want %v", i, got, err, fiveEnded)
		}
		if got, err := db.Steps(ctx, "mRunning"); err != nil || !slices.Equal(got, running) {
			t.Errorf("open %d: Steps(mRunning) = %v, %v; want %v", i, got, err, running)
		}
		next := Step{Seq: int64(len(running)), Seat: i, Notation: "after the upgrade"}
		if err := db.AppendSteps(ctx, "mRunning", []Step{next}); err != nil {
			t.Fatal(err)
		}
		running = append(running, next)
		if err := db.Compact(ctx); err != nil {
			t.Fatal(err)
		}
		if got, err := db.Steps(ctx, "mRunning"); err != nil || !slices.Equal(got, running) {
			t.Errorf("open %d: Steps(mRunning) after a new step compacted = %v, %v; want %v", i, got, err, running)
		}
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	}
}

// schemaFive brings the PostgreSQL database at target to schema 5 and stores in it what
// testdata/main-2d3fa88.db holds of the steps, as main at 2d3fa88 wrote them.
func schemaFive(t *testing.T, target string) {
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(target)
	if err != nil {
		t.Fatal(err)
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	fsys, err := migrationsFor(Postgres)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 5); err != nil {
		t.Fatal(err)
	}
	run := func(steps []Step) []byte { // a run: its steps packed without their match's id
		return appendPacked(nil, toMatch("", steps))
	}
	for _, r := range []struct {
		match string
		steps []Step
	}{{"mEnded", fiveEnded[:2]}, {"mEnded", fiveEnded[2:]}, {"mRunning", fiveRunning[:1]}} {
		if _, err := db.ExecContext(ctx, `INSERT INTO step_runs (match_id, seq, steps) VALUES ($1, $2, $3)`, r.match, r.steps[0].Seq, run(r.steps)); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range fiveRunning[1:] {
		if _, err := db.ExecContext(ctx, `INSERT INTO step_log (steps) VALUES ($1)`, appendPacked(nil, toMatch("mRunning", []Step{s}))); err != nil {
			t.Fatal(err)
		}
	}
}

func toMatch(match string, steps []Step) []MatchStep {
	out := make([]MatchStep, len(steps))
	for i, s := range steps {
		out[i] = MatchStep{Match: match, Step: s}
	}
	return out
}
