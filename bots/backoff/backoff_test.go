package backoff

import (
	"slices"
	"testing"
	"time"
)

func TestBackoff_CapDoublesToTheMaximumAndResets(t *testing.T) {
	b := New(50*time.Millisecond, time.Second)
	b.float64 = func() float64 { return 0.5 }
	want := []time.Duration{25, 50, 100, 200, 400, 500, 500}
	for i, w := range want {
		if got := b.Next(); got != w*time.Millisecond {
			t.Errorf("retry %d: wait %v, want %v", i, got, w*time.Millisecond)
		}
	}
	b.Reset()
	if got := b.Cap(); got != 50*time.Millisecond {
		t.Errorf("after Reset the cap is %v, want the base", got)
	}
}

func TestBackoff_CapDoesNotOverflow(t *testing.T) {
	b := New(time.Millisecond, time.Hour)
	for range 200 {
		b.Next()
	}
	if b.Cap() != time.Hour {
		t.Errorf("cap after 200 retries: %v", b.Cap())
	}
}

// TestBackoff_ClientsRestartingTogetherSpreadOut: many clients dropped at the same moment
// (a server restart) wait different times, spread over the whole interval below the cap,
// on the first retry and on later ones.
func TestBackoff_ClientsRestartingTogetherSpreadOut(t *testing.T) {
	const clients = 200
	base, limit := 100*time.Millisecond, 30*time.Second
	bs := make([]*Backoff, clients)
	for i := range bs {
		bs[i] = New(base, limit)
	}
	for retry := range 4 {
		ceiling := bs[0].Cap()
		waits := make([]time.Duration, clients)
		for i, b := range bs {
			waits[i] = b.Next()
			if waits[i] < 0 || waits[i] >= ceiling {
				t.Fatalf("retry %d: wait %v outside [0, %v)", retry, waits[i], ceiling)
			}
		}
		slices.Sort(waits)
		if distinct := len(slices.Compact(slices.Clone(waits))); distinct < clients*9/10 {
			t.Errorf("retry %d: only %d distinct waits of %d clients", retry, distinct, clients)
		}
		// Full jitter is uniform: each quarter of [0, cap) holds about a quarter of the
		// clients. With 200 draws, fewer than 20 in a quarter has odds below 1e-8.
		for q := range 4 {
			lo, hi := time.Duration(q)*ceiling/4, time.Duration(q+1)*ceiling/4
			n := 0
			for _, w := range waits {
				if w >= lo && w < hi {
					n++
				}
			}
			if n < 20 {
				t.Errorf("retry %d: %d of %d clients wait in [%v, %v)", retry, n, clients, lo, hi)
			}
		}
	}
}
