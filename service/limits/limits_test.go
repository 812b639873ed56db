package limits

import (
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
	release, err := l.Watch("m")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Watch("m"); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("second spectator: %v", err)
	}
	release()
	release()
	again, err := l.Watch("m")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again()
	if len(l.spectators) != 0 {
		t.Errorf("spectator counts left: %v", l.spectators)
	}
}
