package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// leaseStore opens target holding a two-seat match of each id, its seats' token hashes the
// id and the seat ("a0", "a1"), closed when the test ends.
func leaseStore(t *testing.T, target string, matches ...string) *DB {
	t.Helper()
	db, err := Open(target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, id := range matches {
		if err := db.CreateMatch(context.Background(), &Match{ID: id, Game: "g", Seats: 2, Options: map[string]string{},
			Names: []string{"a", "b"}, TokenHashes: []string{id + "0", id + "1"}, Created: time.Unix(1, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// A match has one owner at a time: a second node cannot take a valid lease, the owner can
// take its own again, and anyone can take it once it expired.
func TestLease_OneOwnerAtATime(t *testing.T) { eachBackend(t, testLeaseOneOwnerAtATime) }

func testLeaseOneOwnerAtATime(t *testing.T, target string) {
	ctx := context.Background()
	db := leaseStore(t, target, "m1")
	t0, ttl := time.Unix(1000, 0), 10*time.Second
	for _, c := range []struct {
		node string
		at   time.Duration
		want bool
	}{
		{"n1", 0, true},
		{"n2", 5 * time.Second, false}, // n1's lease runs to 10s
		{"n1", 6 * time.Second, true},  // the owner again: now to 16s
		{"n2", 15 * time.Second, false},
		{"n2", 17 * time.Second, true}, // expired: taken over
		{"n1", 18 * time.Second, false},
	} {
		got, err := db.Acquire(ctx, "m1", c.node, t0.Add(c.at), ttl)
		if err != nil || got != c.want {
			t.Errorf("Acquire(m1, %s, +%v) = %v, %v; want %v", c.node, c.at, got, err, c.want)
		}
	}
	if _, err := db.Heartbeat(ctx, "n2", "10.0.0.2:7070", t0.Add(18*time.Second), ttl); err != nil {
		t.Fatal(err)
	}
	l, err := db.Owner(ctx, "m1")
	if err != nil || l.Node.ID != "n2" || l.Node.Addr != "10.0.0.2:7070" || !l.Expires.Equal(t0.Add(28*time.Second)) {
		t.Errorf("Owner(m1) = %+v, %v; want n2 at 10.0.0.2:7070 until +28s", l, err)
	}
	if err := db.Release(ctx, "m1", "n1"); err != nil { // not n1's: nothing happens
		t.Fatal(err)
	}
	if l, _ := db.Owner(ctx, "m1"); l == nil || l.Node.ID != "n2" {
		t.Errorf("a release by another node removed n2's lease: %+v", l)
	}
	if err := db.Release(ctx, "m1", "n2"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Owner(ctx, "m1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Owner after release: %v, want ErrNotFound", err)
	}
}

// A heartbeat renews the node's valid leases only: one that expired may be another node's
// already, and a dead node coming back must not steal it back.
func TestLease_HeartbeatRenewsOnlyValidLeases(t *testing.T) {
	eachBackend(t, testLeaseHeartbeatRenewsOnlyValidLeases)
}

func testLeaseHeartbeatRenewsOnlyValidLeases(t *testing.T, target string) {
	ctx := context.Background()
	db := leaseStore(t, target, "m1", "m2", "m3")
	t0, ttl := time.Unix(1000, 0), 10*time.Second
	for _, id := range []string{"m1", "m2"} {
		if ok, err := db.Acquire(ctx, id, "n1", t0, ttl); !ok || err != nil {
			t.Fatalf("Acquire(%s) = %v, %v", id, ok, err)
		}
	}
	if ok, _ := db.Acquire(ctx, "m3", "n1", t0.Add(-20*time.Second), ttl); !ok { // long expired
		t.Fatal("Acquire(m3) failed")
	}
	n, err := db.Heartbeat(ctx, "n1", "a:1", t0.Add(5*time.Second), ttl)
	if err != nil || n != 2 {
		t.Errorf("Heartbeat renewed %d, %v; want m1 and m2", n, err)
	}
	if l, _ := db.Owner(ctx, "m3"); l == nil || !l.Expires.Equal(t0.Add(-10*time.Second)) {
		t.Errorf("the expired lease of m3 was renewed: %+v", l)
	}
}

// The matches to take over are the running ones without a valid lease: never leased (their
// node died before taking one) or expired; not the finished ones.
func TestLease_OrphansAreRunningMatchesWithoutAValidLease(t *testing.T) {
	eachBackend(t, testLeaseOrphans)
}

func testLeaseOrphans(t *testing.T, target string) {
	ctx := context.Background()
	db := leaseStore(t, target, "held", "expired", "never", "ended")
	t0, ttl := time.Unix(1000, 0), 10*time.Second
	db.Acquire(ctx, "held", "n1", t0, ttl)
	db.Acquire(ctx, "expired", "n2", t0.Add(-time.Minute), ttl)
	db.Acquire(ctx, "ended", "n2", t0.Add(-time.Minute), ttl)
	db.FinishMatch(ctx, "ended", t0, &Result{Reason: 1})
	got, err := db.Orphans(ctx, t0.Add(time.Second))
	if err != nil || fmt.Sprint(ids(got)) != "[expired never]" {
		t.Errorf("Orphans = %v, %v; want [expired never]", ids(got), err)
	}
}

// Live lists the nodes heard from lately, least loaded first, counting valid leases only;
// RunningByToken finds a running match by one of its seats' token hashes.
func TestLease_LiveNodesByLoadAndRunningByToken(t *testing.T) {
	eachBackend(t, testLeaseLiveNodesByLoadAndRunningByToken)
}

func testLeaseLiveNodesByLoadAndRunningByToken(t *testing.T, target string) {
	ctx := context.Background()
	db := leaseStore(t, target, "m1", "m2", "m3")
	t0, ttl := time.Unix(1000, 0), 10*time.Second
	for _, b := range []struct {
		node string
		at   time.Duration
	}{{"busy", 0}, {"idle", 0}, {"dead", -time.Minute}} {
		if _, err := db.Heartbeat(ctx, b.node, b.node+":7070", t0.Add(b.at), ttl); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []struct {
		match, node string
		at          time.Duration
	}{{"m1", "busy", 0}, {"m2", "busy", 0}, {"m3", "idle", -time.Minute}} { // idle's lease expired
		if _, err := db.Acquire(ctx, a.match, a.node, t0.Add(a.at), ttl); err != nil {
			t.Fatal(err)
		}
	}
	live, err := db.Live(ctx, t0.Add(-ttl), t0)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(live)
	if len(live) != 2 || live[0].ID != "idle" || live[0].Matches != 0 || live[1].ID != "busy" || live[1].Matches != 2 {
		t.Errorf("Live = %s; want idle with 0 then busy with 2, not dead", got)
	}

	if err := db.CreateMatch(ctx, &Match{ID: "m4", Game: "g", Seats: 2, Options: map[string]string{}, Names: []string{"a", "b"},
		TokenHashes: []string{"aa", "bb"}, Created: time.Unix(2, 0)}); err != nil {
		t.Fatal(err)
	}
	if id, err := db.RunningByToken(ctx, "bb"); err != nil || id != "m4" {
		t.Errorf("RunningByToken(bb) = %q, %v; want m4", id, err)
	}
	if err := db.FinishMatch(ctx, "m4", time.Unix(3, 0), &Result{Ranks: []int{1, 2}, Scores: []float64{1, 0}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RunningByToken(ctx, "bb"); !errors.Is(err, ErrNotFound) {
		t.Errorf("RunningByToken of an ended match: %v, want ErrNotFound", err)
	}
}

// A node writes steps and results only for the matches it holds a valid lease on: the
// steps of a match whose lease lapsed or moved are left out and reported, the rest of the
// batch is written.
func TestLease_WritesNeedTheLease(t *testing.T) { eachBackend(t, testLeaseWritesNeedTheLease) }

func testLeaseWritesNeedTheLease(t *testing.T, target string) {
	ctx := context.Background()
	db := leaseStore(t, target, "held", "lapsed", "moved")
	t0, ttl := time.Unix(1000, 0), 10*time.Second
	for _, a := range []struct {
		match, node string
		at          time.Duration
	}{{"held", "n1", 0}, {"lapsed", "n1", -time.Minute}, {"moved", "n2", 0}} {
		if won, err := db.Acquire(ctx, a.match, a.node, t0.Add(a.at), ttl); err != nil || !won {
			t.Fatal(a, won, err)
		}
	}
	batch := []MatchStep{
		{Match: "held", Step: Step{Seq: 0, Seat: 0, Notation: "a"}},
		{Match: "lapsed", Step: Step{Seq: 0, Seat: 0, Notation: "b"}},
		{Match: "moved", Step: Step{Seq: 0, Seat: 0, Notation: "c"}},
		{Match: "held", Step: Step{Seq: 1, Seat: 1, Notation: "d"}},
	}
	lost, err := db.AppendLeasedSteps(ctx, "n1", t0, batch)
	if err != nil || fmt.Sprint(lost) != "[lapsed moved]" {
		t.Errorf("AppendLeasedSteps lost %v, %v; want [lapsed moved]", lost, err)
	}
	for match, want := range map[string]int{"held": 2, "lapsed": 0, "moved": 0} {
		if steps, err := db.Steps(ctx, match); err != nil || len(steps) != want {
			t.Errorf("%s has %d steps (%v); want %d", match, len(steps), err, want)
		}
	}
	res := &Result{Ranks: []int{1, 2}, Scores: []float64{1, 0}}
	for _, c := range []struct {
		match string
		want  bool
	}{{"moved", false}, {"lapsed", false}, {"held", true}} {
		ok, err := db.FinishLeased(ctx, "n1", t0, c.match, t0, res)
		if err != nil || ok != c.want {
			t.Errorf("FinishLeased(%s) = %v, %v; want %v", c.match, ok, err, c.want)
		}
		m, _ := db.Match(ctx, c.match)
		if (m.Result != nil) != c.want {
			t.Errorf("%s: result stored %v, want %v", c.match, m.Result != nil, c.want)
		}
	}

	// Handing leases back: some matches (a fenced node), then all of them (it leaves).
	if err := db.ReleaseMatches(ctx, "n2", []string{"moved", "lapsed"}); err != nil { // lapsed is n1's
		t.Fatal(err)
	}
	if _, err := db.Owner(ctx, "moved"); !errors.Is(err, ErrNotFound) {
		t.Errorf("moved keeps its lease after its release: %v", err)
	}
	if l, err := db.Owner(ctx, "lapsed"); err != nil || l.Node.ID != "n1" {
		t.Errorf("another node's release removed n1's lease: %+v, %v", l, err)
	}
	if _, err := db.Heartbeat(ctx, "n1", "n1:7070", t0, ttl); err != nil {
		t.Fatal(err)
	}
	if n, err := db.Leave(ctx, "n1"); err != nil || n != 1 {
		t.Errorf("Leave released %d leases, %v; want 1 (lapsed)", n, err)
	}
	if live, err := db.Live(ctx, t0.Add(-ttl), t0); err != nil || len(live) != 0 {
		t.Errorf("after leaving, live nodes: %v, %v; want none", live, err)
	}
}

// The writer's batch, steps and results together, is fenced as a whole: what the node holds
// is written in the one transaction, what it lost is left out and reported.
func TestLease_ABatchOfStepsAndResultsNeedsTheLease(t *testing.T) {
	eachBackend(t, testBatchNeedsTheLease)
}

func testBatchNeedsTheLease(t *testing.T, target string) {
	ctx := context.Background()
	db := leaseStore(t, target, "held", "lapsed")
	t0, ttl := time.Unix(1000, 0), 10*time.Second
	for match, at := range map[string]time.Duration{"held": 0, "lapsed": -time.Minute} {
		if won, err := db.Acquire(ctx, match, "n1", t0.Add(at), ttl); err != nil || !won {
			t.Fatal(match, won, err)
		}
	}
	res := &Result{Ranks: []int{1, 2}, Scores: []float64{1, 0}, Plies: 1}
	lost, err := db.WriteLeasedBatch(ctx, "n1", t0, Batch{
		Steps:   []MatchStep{{Match: "lapsed", Step: Step{Seq: 0, Notation: "b"}}, {Match: "held", Step: Step{Seq: 0, Notation: "a"}}},
		Results: []Finish{{Match: "held", Ended: t0, Result: res}, {Match: "lapsed", Ended: t0, Result: res}},
	})
	if err != nil || !slices.Equal(lost, []string{"lapsed"}) {
		t.Errorf("WriteLeasedBatch lost %v, %v; want [lapsed]", lost, err)
	}
	for match, want := range map[string]bool{"held": true, "lapsed": false} {
		steps, err := db.Steps(ctx, match)
		m, merr := db.Match(ctx, match)
		if err != nil || merr != nil || (len(steps) == 1) != want || (m.Result != nil) != want {
			t.Errorf("%s: %d steps (%v), result %v (%v); want stored %v", match, len(steps), err, m.Result, merr, want)
		}
	}
}

// An ended match needs no owner: a batch of results deletes their matches' leases, however
// many (more than one chunk of the delete, and a short chunk), and only theirs.
func TestLease_EndedMatchesLoseTheirLeases(t *testing.T) {
	eachBackend(t, testEndedMatchesLoseTheirLeases)
}

func testEndedMatchesLoseTheirLeases(t *testing.T, target string) {
	ctx := context.Background()
	ids := make([]string, unleaseChunk+4)
	for i := range ids {
		ids[i] = fmt.Sprint("m", i)
	}
	db := leaseStore(t, target, ids...)
	t0, ttl := time.Unix(1000, 0), time.Hour
	for _, id := range ids {
		if won, err := db.Acquire(ctx, id, "n1", t0, ttl); err != nil || !won {
			t.Fatal(id, won, err)
		}
	}
	ended := ids[:unleaseChunk+2]
	var b Batch
	for _, id := range ended {
		b.Results = append(b.Results, Finish{Match: id, Ended: t0, Result: &Result{Ranks: []int{1, 2}, Scores: []float64{1, 0}, Plies: 1}})
	}
	if err := db.WriteBatch(ctx, b); err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		_, err := db.Owner(ctx, id)
		if i < len(ended) && !errors.Is(err, ErrNotFound) {
			t.Errorf("%s ended and still has a lease (%v)", id, err)
		}
		if i >= len(ended) && err != nil {
			t.Errorf("%s is running and lost its lease: %v", id, err)
		}
	}
}

// Every node of a cluster reads the one cluster key the first drew.
func TestClusterKey_SameForEveryNode(t *testing.T) {
	eachBackend(t, func(t *testing.T, target string) {
		ctx := context.Background()
		db := leaseStore(t, target)
		a, err := db.ClusterKey(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b, err := db.ClusterKey(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != 32 || !bytes.Equal(a, b) {
			t.Errorf("keys %x and %x", a, b)
		}
	})
}
