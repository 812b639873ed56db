package limits

import (
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A caller's creations count per minute; another caller, or the next minute, starts afresh.
func TestCreate_PerCallerPerMinute(t *testing.T) {
	l := New(Config{CreatesPerMinute: 2})
	t0 := time.Unix(1000, 0)
	steps := []struct {
		caller string
		at     time.Duration
		ok     bool
	}{
		{"a", 0, true}, {"a", time.Second, true}, {"a", 2 * time.Second, false},
		{"b", 2 * time.Second, true}, {"a", time.Minute, true},
	}
	for i, s := range steps {
		err := l.Create(s.caller, t0.Add(s.at))
		if (err == nil) != s.ok || (err != nil && status.Code(err) != codes.ResourceExhausted) {
			t.Errorf("step %d (%s at %v): %v, want ok %v", i, s.caller, s.at, err, s.ok)
		}
	}
}

// A released spectator frees its place, once however often it is released.
func TestWatch_ReleaseFreesThePlace(t *testing.T) {
	l := New(Config{SpectatorsPerMatch: 1})
	release, err := l.WatchBy("m", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.WatchBy("m", ""); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("second spectator: %v", err)
	}
	release()
	release()
	again, err := l.WatchBy("m", "")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again()
	if len(l.spectators) != 0 {
		t.Errorf("spectator counts left: %v", l.spectators)
	}
}

// One client could take all 64 spectator places of a match. Now a caller has at most its
// share of one match's places; other callers, and the caller on another match, still watch.
func TestWatchBy_SpectatorSlotsPerCaller(t *testing.T) {
	l := New(Config{SpectatorsPerMatch: 4, SpectatorsPerCaller: 2})
	var releases []func()
	watch := func(match, caller string) error {
		r, err := l.WatchBy(match, caller)
		if err == nil {
			releases = append(releases, r)
		}
		return err
	}
	for i, s := range []struct {
		match, caller string
		ok            bool
	}{
		{"m", "a", true}, {"m", "a", true}, {"m", "a", false}, // a's share of m
		{"n", "a", true},                   // another match
		{"m", "b", true}, {"m", "c", true}, // m full
		{"m", "d", false},
	} {
		if err := watch(s.match, s.caller); (err == nil) != s.ok || (err != nil && status.Code(err) != codes.ResourceExhausted) {
			t.Errorf("step %d (%s watches %s): %v, want ok %v", i, s.caller, s.match, err, s.ok)
		}
	}
	for _, r := range releases {
		r()
		r()
	}
	if len(l.spectators) != 0 || len(l.watching) != 0 {
		t.Errorf("counts left: %v %v", l.spectators, l.watching)
	}
}

// One client filled --max-matches for days. Now a caller's live matches are bounded; a match
// that ends gives its place back; in-process callers are not counted.
func TestOwn_LiveMatchesPerCaller(t *testing.T) {
	l := New(Config{LivePerCaller: 2})
	c1, err1 := l.Own("a")
	c2, err2 := l.Own("a")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	c1.Bind("m1")
	c2.Bind("m2")
	if _, err := l.Own("a"); status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "--max-matches-per-caller") {
		t.Errorf("a third live match: %v", err)
	}
	if _, err := l.Own("b"); err != nil {
		t.Errorf("another caller: %v", err)
	}
	l.Disown("m1")
	l.Disown("m1")
	c3, err := l.Own("a")
	if err != nil {
		t.Fatalf("after one ended: %v", err)
	}
	c3.Drop() // never made
	if _, err := l.Own("a"); err != nil {
		t.Errorf("after a claim was dropped: %v", err)
	}
	for range 100 {
		c, err := l.Own("")
		if err != nil {
			t.Fatalf("in process: %v", err)
		}
		c.Bind("x")
	}
}

// One anonymous CreateTournament scheduled 100,000 games. Now a caller's tournament matches
// count against an hourly budget (--open-tournaments); a negative budget allows none.
func TestSchedule_TournamentMatchesPerCallerPerHour(t *testing.T) {
	l := New(Config{TournamentMatches: 100})
	t0 := time.Unix(5000, 0)
	for i, s := range []struct {
		caller  string
		matches int
		at      time.Duration
		ok      bool
	}{
		{"a", 100_000, 0, false}, {"a", 60, 0, true}, {"a", 41, time.Minute, false}, {"a", 40, time.Minute, true},
		{"b", 100, time.Minute, true}, {"a", 1, 2 * time.Minute, false}, {"a", 100, time.Hour, true}, {"", 1 << 30, 0, true},
	} {
		err := l.Schedule(s.caller, s.matches, t0.Add(s.at))
		if (err == nil) != s.ok || (err != nil && !strings.Contains(err.Error(), "--open-tournaments")) {
			t.Errorf("step %d (%s schedules %d at %v): %v, want ok %v", i, s.caller, s.matches, s.at, err, s.ok)
		}
	}
	if err := New(Config{TournamentMatches: -1}).Schedule("a", 1, t0); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("no budget: %v", err)
	}
}

// 200 garbage seats at 10k messages a second slowed an unrelated match to 0.10x. Now a
// stream's rejections have a budget: a burst, then the rate; past it the stream is closed.
func TestRejects_PerStreamRate(t *testing.T) {
	l := New(Config{RejectsPerSecond: 10, RejectBurst: 5})
	r := l.Rejects()
	t0 := time.Unix(0, 0)
	for i := range 5 {
		if err := r.Reject(t0); err != nil {
			t.Fatalf("rejection %d of the burst: %v", i, err)
		}
	}
	if err := r.Reject(t0); status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "seat is kept") {
		t.Errorf("past the burst: %v", err)
	}
	if err := r.Reject(t0.Add(100 * time.Millisecond)); err != nil {
		t.Errorf("a tenth of a second later, one more: %v", err)
	}
	if err := r.Reject(t0.Add(100 * time.Millisecond)); err == nil {
		t.Error("and only one")
	}
	if other := l.Rejects(); other.Reject(t0) != nil {
		t.Error("another stream has its own budget")
	}
}

// 128 queued replies of 15.7 MB each were ~2 GB per stream. Now the queue is bounded in bytes.
func TestStreamQueueBytes(t *testing.T) {
	l := New(Config{StreamQueueBytes: 1000})
	if err := l.StreamQueueBytes(999); err != nil {
		t.Error(err)
	}
	if err := l.StreamQueueBytes(1000); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("at the limit: %v", err)
	}
}

// The gRPC receive limit is set, not left to the library, and room is made for a larger data
// set.
func TestMessageBytes_FollowsTheDataSet(t *testing.T) {
	if got := (Config{}).WithDefaults().MessageBytes; got != DefaultMessageBytes {
		t.Errorf("default %d", got)
	}
	if got := (Config{DataSetBytes: 16 << 20}).WithDefaults().MessageBytes; got <= 16<<20 {
		t.Errorf("with a 16 MiB data set: %d", got)
	}
}

// A seat whose budget is spent is told when to rejoin, and may once it has refilled.
func TestRejects_WaitBeforeRejoining(t *testing.T) {
	r := New(Config{RejectsPerSecond: 2, RejectBurst: 1}).Rejects()
	t0 := time.Unix(0, 0)
	if r.Wait(t0) != nil || r.Reject(t0) != nil {
		t.Fatal("a fresh budget")
	}
	if err := r.Wait(t0); status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "rejoin in 500ms") {
		t.Errorf("spent: %v", err)
	}
	if err := r.Wait(t0.Add(500 * time.Millisecond)); err != nil {
		t.Errorf("refilled: %v", err)
	}
}

// The load benchmark's garbage seats rejoined as soon as one rejection was allowed again, so
// each cost the server a join for every rejection or two (a load ratio of 0.04). A seat whose
// stream was closed for its budget now rejoins once the budget is whole again.
func TestRejects_ClosedStreamRejoinsOnceTheBudgetIsWhole(t *testing.T) {
	r := New(Config{RejectsPerSecond: 2, RejectBurst: 4}).Rejects()
	t0 := time.Unix(0, 0)
	for i := range 4 {
		if err := r.Reject(t0); err != nil {
			t.Fatalf("rejection %d of the burst: %v", i, err)
		}
	}
	if r.Reject(t0) == nil {
		t.Fatal("past the burst, the stream is not closed")
	}
	var spent *Spent
	if err := r.Wait(t0.Add(500 * time.Millisecond)); !errors.As(err, &spent) || spent.Wait != 1500*time.Millisecond {
		t.Errorf("one token back: %v, want spent for 1.5s more", err)
	} else if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "rejoin in 1.5s") {
		t.Errorf("the refusal's status: %v", err)
	}
	if err := r.Wait(t0.Add(2 * time.Second)); err != nil {
		t.Errorf("whole again: %v", err)
	}
	if err := r.Reject(t0.Add(2 * time.Second)); err != nil {
		t.Errorf("the rejoined stream's first rejection: %v", err)
	}
	if err := r.Wait(t0.Add(2 * time.Second)); err != nil {
		t.Errorf("a seat not closed since rejoins with a token left: %v", err)
	}
}
