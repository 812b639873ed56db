package main

import "testing"

// A search bot's matches take seconds each: the progress line says so per minute, not as
// "0.0 matches/s".
func TestMatchRate_SlowMatchesPerMinute(t *testing.T) {
	for rate, want := range map[float64]string{2.5: "2.5 matches/s", 1: "1.0 matches/s", 0.1: "6.0 matches/min", 0.02: "1.2 matches/min"} {
		if got := matchRate(rate); got != want {
			t.Errorf("matchRate(%v) = %q, want %q", rate, got, want)
		}
	}
}
