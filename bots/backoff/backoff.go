// Package backoff spaces reconnects: the wait grows exponentially and is drawn at random
// below its cap ("full jitter"), so that bots dropped together by a server restart come
// back spread over the interval instead of all at once, and keep spreading on each retry.
// The Go SDK and the ladder client share it; the Python and JavaScript clients do the same.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Backoff is the wait before each retry of one client. The zero value is not ready; use New.
// A Backoff is not safe for concurrent use: each client has its own.
type Backoff struct {
	base, limit time.Duration
	attempt     int
	// float64 draws in [0, 1); the process's random source unless a test sets it.
	float64 func() float64
}

// New returns a Backoff whose cap starts at base and doubles each retry up to limit.
func New(base, limit time.Duration) *Backoff {
	return &Backoff{base: base, limit: limit, float64: rand.Float64}
}

// Cap is the longest the next wait may be: base·2^attempt, at most limit.
func (b *Backoff) Cap() time.Duration {
	c := b.base
	for range b.attempt {
		if c >= b.limit/2 {
			return b.limit
		}
		c *= 2
	}
	return min(c, b.limit)
}

// Next returns the wait before the next retry, uniform in [0, Cap()), and doubles the cap.
func (b *Backoff) Next() time.Duration {
	d := time.Duration(b.float64() * float64(b.Cap()))
	b.attempt++
	return d
}

// Reset starts again from base, after a connection made progress.
func (b *Backoff) Reset() { b.attempt = 0 }
