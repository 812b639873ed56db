package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orrery/orrery/service/store/pgtest"
)

// count is the one number a query returns.
func count(t *testing.T, db *DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.SQL().QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A match's log reads whole wherever its steps lie: in the step log, in runs after a
// compaction, or both; a compaction moves every step once, each match's in order.
func TestStepLog_StepsReadTheLogAndTheTable(t *testing.T) {
	eachBackend(t, testStepsReadTheLogAndTheTable)
}

func testStepsReadTheLogAndTheTable(t *testing.T, target string) {
	ctx := context.Background()
	db := leaseStore(t, target, "a", "b", "c")
	db.compactAfter = 10
	want := map[string][]Step{}
	seq := map[string]int64{}
	for i := range 5 {
		var batch []MatchStep
		for j, m := range []string{"a", "b", "a", "c"} {
			s := Step{Seq: seq[m], Seat: j%2 - 1, Notation: fmt.Sprintf("%s %d", m, seq[m]), TimedOut: int32(j % 2), Bank: time.Duration(i) * time.Second}
			seq[m]++
			want[m] = append(want[m], s)
			batch = append(batch, MatchStep{Match: m, Step: s})
		}
		if err := db.AppendStepBatch(ctx, batch); err != nil {
			t.Fatal(err)
		}
		wantSteps(t, db, want, fmt.Sprintf("after batch %d", i))
	}
	// Batches of 4 with a compaction every 10 steps: the third batch moved the first three
	// into a run per match, the last two wait in the log.
	if runs, log := count(t, db, `SELECT COUNT(*) FROM step_runs`), count(t, db, `SELECT COUNT(*) FROM step_log`); runs != 3 || log != 2 {
		t.Errorf("%d runs and %d rows in the log; want 3 and 2", runs, log)
	}
	if err := db.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	if runs, log := count(t, db, `SELECT COUNT(*) FROM step_runs`), count(t, db, `SELECT COUNT(*) FROM step_log`); runs != 6 || log != 0 {
		t.Errorf("after Compact, %d runs and %d rows in the log; want 6 and 0", runs, log)
	}
	wantSteps(t, db, want, "after Compact")
}

// wantSteps checks that each match's log reads back as want says, when.
func wantSteps(t *testing.T, db *DB, want map[string][]Step, when string) {
	t.Helper()
	for m, w := range want {
		got, err := db.Steps(context.Background(), m)
		if err != nil {
			t.Errorf("%s, Steps(%s): %v", when, m, err)
		} else if !slices.Equal(got, w) {
			t.Errorf("%s, Steps(%s) = %d steps, want %d; the first that differs is step %d", when, m, len(got), len(w),
				firstDifference(got, w))
		}
	}
}

// firstDifference is the first index at which a and b differ.
func firstDifference(a, b []Step) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A server killed with steps in the log loses none of them: the next open reads them and
// empties the log into runs.
func TestStepLog_AKilledServersLogIsCompactedAtOpen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "orrery.db")
	db := leaseStore(t, path, "m")
	steps := []Step{{Seq: 0, Seat: 1, Notation: "pass", Bank: time.Second}, {Seq: 1, Seat: 0, Notation: "build road 1-2", TimedOut: 1}}
	if err := db.AppendSteps(ctx, "m", steps); err != nil {
		t.Fatal(err)
	}
	db.db.Close() // as a kill leaves it: no compaction at Close
	if n := countIn(t, path, `SELECT COUNT(*) FROM step_log`); n != 1 {
		t.Fatalf("%d rows in the log of the killed server; want 1", n)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got, err := again.Steps(ctx, "m"); err != nil || !slices.Equal(got, steps) {
		t.Errorf("Steps after the restart = %v, %v; want %v", got, err, steps)
	}
	if runs, log := count(t, again, `SELECT COUNT(*) FROM step_runs`), count(t, again, `SELECT COUNT(*) FROM step_log`); runs != 1 || log != 0 {
		t.Errorf("after the open, %d runs and %d rows in the log; want 1 and 0", runs, log)
	}
}

// countIn counts in a SQLite file opened without the store, which would compact it.
func countIn(t *testing.T, path, query string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Two writers of one match (which the leases' fence prevents) log two steps with one
// number: the first stored is read and kept by the compaction, which does not fail on the
// second (it would then fail at every write and every start).
func TestStepLog_OfTwoStepsWithOneNumberTheFirstIsKept(t *testing.T) {
	eachBackend(t, testTheFirstIsKept)
}

func testTheFirstIsKept(t *testing.T, target string) {
	ctx := context.Background()
	first := leaseStore(t, target, "m")
	second, err := Open(target)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if err := first.AppendSteps(ctx, "m", []Step{{Seq: 0, Notation: "first"}}); err != nil {
		t.Fatal(err)
	}
	if err := second.AppendSteps(ctx, "m", []Step{{Seq: 0, Notation: "second"}, {Seq: 1, Notation: "next"}}); err != nil {
		t.Fatal(err)
	}
	want := []Step{{Seq: 0, Notation: "first"}, {Seq: 1, Notation: "next"}}
	if got, err := first.Steps(ctx, "m"); err != nil || !slices.Equal(got, want) {
		t.Errorf("Steps = %v, %v; want %v", got, err, want)
	}
	if err := second.Compact(ctx); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	if got, err := first.Steps(ctx, "m"); err != nil || !slices.Equal(got, want) {
		t.Errorf("after Compact, Steps = %v, %v; want %v", got, err, want)
	}
	// A store refuses a step numbered below one it wrote itself, the whole batch with it.
	if err := second.AppendSteps(ctx, "m", []Step{{Seq: 2, Notation: "lost"}, {Seq: 1, Notation: "again"}}); err == nil {
		t.Error("a step numbered below the next was accepted")
	}
	if got, err := first.Steps(ctx, "m"); err != nil || !slices.Equal(got, want) {
		t.Errorf("after a refused batch, Steps = %v, %v; want %v", got, err, want)
	}
}

// Retention removes the steps of the matches it removes from the step log too, and keeps
// the others'.
func TestStepLog_RetentionRemovesLoggedSteps(t *testing.T) {
	eachBackend(t, testRetentionRemovesLoggedSteps)
}

func testRetentionRemovesLoggedSteps(t *testing.T, target string) {
	ctx := context.Background()
	db := leaseStore(t, target, "old", "running")
	if err := db.WriteBatch(ctx, Batch{
		Steps: []MatchStep{
			{Match: "old", Step: Step{Seq: 0, Notation: "o0"}},
			{Match: "running", Step: Step{Seq: 0, Notation: "r0"}},
			{Match: "old", Step: Step{Seq: 1, Notation: "o1"}},
		},
		Results: []Finish{{Match: "old", Ended: time.Unix(10, 0), Result: &Result{Ranks: []int{1, 2}, Reason: 1, Plies: 2}}},
	}); err != nil {
		t.Fatal(err)
	}
	if m, err := db.Match(ctx, "old"); err != nil || m.Result == nil || m.Result.Plies != 2 {
		t.Fatalf("Match(old) = %+v, %v; want its result, written with its steps", m, err)
	}
	if n, err := db.DeleteFinishedBefore(ctx, time.Unix(20, 0)); n != 1 || err != nil {
		t.Fatalf("DeleteFinishedBefore = %d, %v; want 1", n, err)
	}
	if got, err := db.Steps(ctx, "old"); err != nil || len(got) != 0 {
		t.Errorf("Steps(old) = %v, %v; want none", got, err)
	}
	if got, err := db.Steps(ctx, "running"); err != nil || !slices.Equal(got, []Step{{Seq: 0, Notation: "r0"}}) {
		t.Errorf("Steps(running) = %v, %v; want its one step", got, err)
	}
	if runs, log := count(t, db, `SELECT COUNT(*) FROM step_runs`), count(t, db, `SELECT COUNT(*) FROM step_log`); runs != 1 || log != 0 {
		t.Errorf("%d runs and %d rows in the log; want 1 and 0", runs, log)
	}
}

// A database made by main before the step log (f16ea79, schema version 4: one finished
// match with three steps, one running with two) upgrades in place: its steps read as they
// were, new steps go to the log and read after them, and a restart keeps them all.
func TestMigrate_UpgradesADatabaseOfMainBeforeTheStepLog(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	b, err := os.ReadFile("testdata/main-f16ea79.db")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ended := []Step{{Seq: 0, Seat: 0, Notation: "ended zero", Bank: time.Second}, {Seq: 1, Seat: 1, Notation: "ended one", Bank: 3 * time.Second},
		{Seq: 2, Seat: -1}}
	running := []Step{{Seq: 0, Seat: 1, Notation: "running zero", TimedOut: 2, Bank: 2 * time.Second}, {Seq: 1, Seat: 0, Notation: "running one", Bank: 4 * time.Second}}
	for i := range 2 {
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if v := count(t, db, `SELECT MAX(version_id) FROM goose_db_version`); v != latestSchema {
			t.Errorf("schema version %d; want %d", v, latestSchema)
		}
		if got, err := db.Steps(ctx, "mEnded"); err != nil || !slices.Equal(got, ended) {
			t.Errorf("open %d: Steps(mEnded) = %v, %v; want %v", i, got, err, ended)
		}
		if got, err := db.Steps(ctx, "mRunning"); err != nil || !slices.Equal(got, running) {
			t.Errorf("open %d: Steps(mRunning) = %v, %v; want %v", i, got, err, running)
		}
		if un, err := db.Unfinished(ctx); err != nil || len(un) != 1 || un[0].ID != "mRunning" || !slices.Equal(un[0].Bots, []int64{0, 3}) {
			t.Errorf("open %d: Unfinished = %+v, %v; want mRunning", i, un, err)
		}
		if m, err := db.MatchByToken(ctx, "", "t-ended-1"); err != nil || m.ID != "mEnded" || m.Result == nil || m.Result.Plies != 3 {
			t.Errorf("open %d: MatchByToken = %+v, %v; want mEnded with its result", i, m, err)
		}
		next := Step{Seq: int64(len(running)), Seat: 1, Notation: fmt.Sprint("after upgrade ", i)}
		if err := db.AppendSteps(ctx, "mRunning", []Step{next}); err != nil {
			t.Fatal(err)
		}
		running = append(running, next)
		if got, err := db.Steps(ctx, "mRunning"); err != nil || !slices.Equal(got, running) {
			t.Errorf("open %d: Steps(mRunning) after a new step = %v, %v; want %v", i, got, err, running)
		}
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	}
}

// Nodes on one PostgreSQL compact one at a time: a node that finds another compacting
// leaves the log to it (two DELETEs of the same rows could deadlock), and the rows logged
// meanwhile stay for the next compaction.
func TestStepLog_NodesCompactOneAtATime(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	ctx := context.Background()
	first := leaseStore(t, target, "m")
	second, err := Open(target)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	want := []Step{{Seq: 0, Notation: "a"}, {Seq: 1, Notation: "b"}, {Seq: 2, Notation: "c"}}
	if err := first.AppendSteps(ctx, "m", want[:2]); err != nil {
		t.Fatal(err)
	}
	tx, err := first.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if compacted, err := first.compactTx(ctx, tx, nil, false); !compacted || err != nil {
		t.Fatalf("the first node's compaction = %v, %v; want it done", compacted, err)
	}
	if err := second.Compact(ctx); err != nil {
		t.Errorf("the second node's compaction while the first compacts: %v; want it left to the first", err)
	}
	if err := second.AppendSteps(ctx, "m", want[2:]); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if runs, log := count(t, first, `SELECT COUNT(*) FROM step_runs`), count(t, first, `SELECT COUNT(*) FROM step_log`); runs != 1 || log != 1 {
		t.Errorf("%d runs and %d rows in the log; want the first node's run and the row logged meanwhile", runs, log)
	}
	if got, err := second.Steps(ctx, "m"); err != nil || !slices.Equal(got, want) {
		t.Errorf("Steps = %v, %v; want %v", got, err, want)
	}
}

// A step's packed length takes one byte or more: notations either side of that line read
// back whole from the log and from runs, over several compactions, the later ones placing
// steps more than 64 KiB into the log they read.
func TestStepLog_LongNotationsReadBackWhole(t *testing.T) {
	eachBackend(t, func(t *testing.T, target string) {
		ctx := context.Background()
		db := leaseStore(t, target, "a", "b")
		db.compactAfter = 7
		want := map[string][]Step{}
		lengths := []int{0, 1, 100, 115, 116, 117, 127, 128, 200, 16383, 16384, 70000}
		for i, n := range lengths {
			var batch []MatchStep
			for _, m := range []string{"a", "b"} {
				s := Step{Seq: int64(i), Seat: i % 3, Notation: strings.Repeat(m, n), TimedOut: int32(i % 2),
					Bank: time.Duration(i) * time.Hour}
				want[m] = append(want[m], s)
				batch = append(batch, MatchStep{Match: m, Step: s})
			}
			if err := db.AppendStepBatch(ctx, batch); err != nil {
				t.Fatal(err)
			}
			wantSteps(t, db, want, fmt.Sprintf("after step %d (notation %d bytes)", i, n))
			if t.Failed() {
				t.FailNow()
			}
		}
		if runs := count(t, db, `SELECT COUNT(*) FROM step_runs`); runs < 4 {
			t.Errorf("%d runs; want the log compacted more than once", runs)
		}
	})
}

// A compaction reuses the buffers of the one before it: one over fewer matches than the
// last reads back only its own, and the runs of either are whole.
func TestStepLog_CompactionsReuseTheirBuffers(t *testing.T) {
	eachBackend(t, testCompactionsReuseTheirBuffers)
}

func testCompactionsReuseTheirBuffers(t *testing.T, target string) {
	ctx := context.Background()
	ids := make([]string, 300) // more than two INSERTs of runs
	for i := range ids {
		ids[i] = fmt.Sprintf("m%03d", i)
	}
	db := leaseStore(t, target, ids...)
	want := map[string][]Step{}
	play := func(matches []string, steps int) {
		t.Helper()
		for range steps {
			var batch []MatchStep
			for _, m := range matches {
				s := Step{Seq: int64(len(want[m])), Notation: strings.Repeat("x", len(want[m])+len(m)%7)}
				want[m] = append(want[m], s)
				batch = append(batch, MatchStep{Match: m, Step: s})
			}
			if err := db.AppendStepBatch(ctx, batch); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Compact(ctx); err != nil {
			t.Fatal(err)
		}
	}
	play(ids, 3)
	play(ids[:50], 2)
	if runs := count(t, db, `SELECT COUNT(*) FROM step_runs`); runs != 350 {
		t.Errorf("%d runs, want 350 (300, then 50)", runs)
	}
	wantSteps(t, db, want, "after two compactions")
}

// A compaction of more matches than one statement may bind (SQLite's 32,766 variables, at
// three a run) inserts their runs in several.
func TestStepLog_ACompactionOfTwentyThousandMatches(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 20,000 matches")
	}
	ctx := context.Background()
	db, err := Open("sqlite:" + filepath.Join(t.TempDir(), "orrery.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var batch []MatchStep
	for i := range 20000 {
		id := fmt.Sprintf("m%05d", i)
		if err := db.CreateMatch(ctx, &Match{ID: id, Game: "g", Seats: 2, Options: map[string]string{},
			Names: []string{"a", "b"}, TokenHashes: []string{"", ""}, Created: time.Unix(1, 0)}); err != nil {
			t.Fatal(err)
		}
		batch = append(batch, MatchStep{Match: id, Step: Step{Notation: id}})
	}
	if err := db.AppendStepBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	if runs, log := count(t, db, `SELECT COUNT(*) FROM step_runs`), count(t, db, `SELECT COUNT(*) FROM step_log`); runs != 20000 || log != 0 {
		t.Errorf("%d runs and %d rows in the log; want 20000 and 0", runs, log)
	}
	got, err := db.Steps(ctx, "m19999")
	if err != nil || len(got) != 1 || got[0].Notation != "m19999" {
		t.Errorf("Steps(m19999) = %v, %v; want its one step", got, err)
	}
}
