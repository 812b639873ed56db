package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
)

// latestSchema is the version of the newest migration.
const latestSchema = 11

// atSchema opens the database at target (a SQLite file, sqlite:-prefixed, or a PostgreSQL
// URL) as the migrations up to version left it, with the dialect's own placeholders.
func atSchema(t *testing.T, target string, version int64) *sql.DB {
	t.Helper()
	dialect, gooseDialect := SQLite, goose.DialectSQLite3
	var db *sql.DB
	var err error
	if IsPostgresURL(target) {
		dialect, gooseDialect = Postgres, goose.DialectPostgres
		cfg, perr := pgx.ParseConfig(target)
		if perr != nil {
			t.Fatal(perr)
		}
		db = stdlib.OpenDB(*cfg)
	} else {
		db, err = sql.Open("sqlite", "file:"+strings.TrimPrefix(target, "sqlite:"))
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { db.Close() })
	fsys, err := migrationsFor(dialect)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(gooseDialect, db, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(context.Background(), version); err != nil {
		t.Fatal(err)
	}
	return db
}

// Results stored in the matches' rows before the results table (migration 00008) read back
// whole after it, and are listed by the reason their JSON holds: a failed match stays
// failed, a finished one finished, and a running one running.
func TestMigrate_ResultsStoredInTheMatchesRowsReadBack(t *testing.T) {
	eachBackend(t, func(t *testing.T, target string) {
		ctx := context.Background()
		old := atSchema(t, target, 6)
		bind := func(q string) string { return q }
		if IsPostgresURL(target) {
			bind = rebind
		}
		for i, r := range []struct{ id, result string }{
			{"ok", `{"ranks":[1,2],"scores":[1,0],"reason":1,"detail":"","plies":9}`},
			{"bad", `{"ranks":null,"scores":null,"reason":5,"detail":"engine gone","plies":0}`},
			{"running", ""},
		} {
			ended, result := int64(0), sql.NullString{}
			if r.result != "" {
				ended, result = int64(10+i), sql.NullString{String: r.result, Valid: true}
			}
			if _, err := old.ExecContext(ctx, bind(`INSERT INTO matches (id, game, seats, options, seed, seed_hash, names,
				token_hashes, per_move_ns, increment_ns, time_bank_ns, timeout_policy, created_ns, ended_ns, result)
				VALUES (?, 'g', 2, '{}', '1', 'h', '["a","b"]', '["t0","t1"]', 0, 0, 0, 0, ?, ?, ?)`),
				r.id, i+1, ended, result); err != nil {
				t.Fatal(err)
			}
		}
		db, err := Open(target)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if v := count(t, db, `SELECT MAX(version_id) FROM goose_db_version`); v != latestSchema {
			t.Errorf("schema version %d; want %d", v, latestSchema)
		}
		wantOneOfEach(t, db, "running", "ok", "bad")
		ok, err := db.Match(ctx, "ok")
		if err != nil || ok.Ended.UnixNano() != 10 || ok.Result == nil || ok.Result.Plies != 9 || !slices.Equal(ok.Result.Ranks, []int{1, 2}) {
			t.Errorf("Match(ok) = %+v, %v; want ended at 10 ns with its result", ok, err)
		}
		bad, err := db.Match(ctx, "bad")
		if err != nil || !bad.Failed() || bad.Result.Detail != "engine gone" {
			t.Errorf("Match(bad) = %+v, %v; want failed: engine gone", bad, err)
		}
		if ms, err := db.Unfinished(ctx); err != nil || len(ms) != 1 || ms[0].ID != "running" || ms[0].Result != nil || !ms[0].Ended.IsZero() {
			t.Errorf("Unfinished = %v, %v; want [running], without a result", ids(ms), err)
		}
		// The running match ends as any does after the upgrade.
		if err := db.FinishMatch(ctx, "running", time.Unix(0, 40), &Result{Ranks: []int{2, 1}, Reason: 1, Plies: 3}); err != nil {
			t.Fatal(err)
		}
		if ms, _, err := db.List(ctx, Filter{Status: Finished}); err != nil || len(ms) != 2 || ms[0].ID != "running" {
			t.Errorf("finished after the upgrade: %v, %v; want [running ok]", ids(ms), err)
		}
		if ms, err := db.Unfinished(ctx); err != nil || len(ms) != 0 {
			t.Errorf("Unfinished = %v, %v; want none", ids(ms), err)
		}
	})
}

// The step log loses AUTOINCREMENT in SQLite (migration 00007), so that no commit writes
// sqlite_sequence; steps logged before the upgrade read back after it, and ids given again
// once a compaction has emptied the log keep each match's steps in order.
func TestMigrate_StepLogWithoutAutoincrement(t *testing.T) {
	eachBackend(t, func(t *testing.T, target string) {
		ctx := context.Background()
		old := atSchema(t, target, 6)
		logged := []Step{{Seq: 0, Seat: 1, Notation: "before the upgrade"}}
		q := `INSERT INTO step_log (steps) VALUES (?)`
		if IsPostgresURL(target) {
			q = rebind(q)
		}
		if _, err := old.ExecContext(ctx, q, appendPacked(nil, toMatch("m", logged))); err != nil {
			t.Fatal(err)
		}
		db, err := Open(target)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if db.Dialect() == SQLite {
			var schema string
			if err := db.SQL().QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'step_log'`).Scan(&schema); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(schema, "AUTOINCREMENT") {
				t.Errorf("step_log after the upgrade: %s", schema)
			}
			if n := count(t, db, `SELECT COUNT(*) FROM sqlite_sequence WHERE name = 'step_log'`); n != 0 {
				t.Errorf("sqlite_sequence keeps the step log's ids after the upgrade")
			}
		}
		db.compactAfter = 4
		want := slices.Clone(logged)
		for seq := int64(1); seq < 12; seq++ {
			s := Step{Seq: seq, Seat: int(seq % 2), Notation: "after"}
			if err := db.WriteBatch(ctx, Batch{Steps: toMatch("m", []Step{s})}); err != nil {
				t.Fatal(err)
			}
			want = append(want, s)
			wantSteps(t, db, map[string][]Step{"m": want}, fmt.Sprintf("after step %d", seq))
		}
		if db.Dialect() == SQLite {
			if n := count(t, db, `SELECT COUNT(*) FROM sqlite_sequence WHERE name = 'step_log'`); n != 0 {
				t.Errorf("sqlite_sequence holds the step log's ids after writes")
			}
		}
	})
}

// A match that ends is no longer running at once, though it leaves the running table only
// at the next compaction, with every match that ended since.
func TestStore_EndedMatchesLeaveRunningAtCompaction(t *testing.T) {
	eachBackend(t, func(t *testing.T, target string) {
		ctx := context.Background()
		db := leaseStore(t, target, "a", "b", "c") // each seat's token hash its match's id and seat
		for _, id := range []string{"a", "c"} {
			if err := db.FinishMatch(ctx, id, time.Unix(2, 0), &Result{Ranks: []int{1, 2}, Reason: 1}); err != nil {
				t.Fatal(err)
			}
		}
		running := func(when string, rows int) {
			t.Helper()
			if ms, err := db.Unfinished(ctx); err != nil || len(ms) != 1 || ms[0].ID != "b" {
				t.Errorf("%s: Unfinished = %v, %v; want [b]", when, ids(ms), err)
			}
			if ms, _, err := db.List(ctx, Filter{Status: Running}); err != nil || len(ms) != 1 || ms[0].ID != "b" {
				t.Errorf("%s: List(running) = %v, %v; want [b]", when, ids(ms), err)
			}
			if id, err := db.RunningByToken(ctx, "c1"); !errors.Is(err, ErrNotFound) {
				t.Errorf("%s: RunningByToken of an ended match = %q, %v; want ErrNotFound", when, id, err)
			}
			if n := count(t, db, `SELECT COUNT(*) FROM running`); n != rows {
				t.Errorf("%s: %d rows in running, want %d", when, n, rows)
			}
		}
		running("before a compaction", 3)
		if err := db.Compact(ctx); err != nil {
			t.Fatal(err)
		}
		running("after a compaction", 1)
	})
}
