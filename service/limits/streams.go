package limits

import (
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// StreamQueueBytes refuses one more reply queued for a stream whose waiting replies already
// hold their limit in bytes: a count alone let 128 large replies hold gigabytes. The stream
// is closed; the seat is kept.
func (l *Limits) StreamQueueBytes(queued int) error {
	if queued >= l.cfg.StreamQueueBytes {
		return status.Errorf(codes.ResourceExhausted, "queued outgoing bytes per stream: %d bytes of replies wait for a bot that does not read (serve --max-stream-queue-bytes); the seat is kept: rejoin and read the stream", queued)
	}
	return nil
}

// Rejects is one seat's budget of rejected answers, over its Play streams: a token bucket refilled at
// RejectsPerSecond up to RejectBurst. A bot that answers wrongly now and then never meets
// it; a stream of garbage does, and is closed before it costs the server more than the rate.
type Rejects struct {
	rate, burst float64
	tokens      float64
	last        time.Time
}

// Rejects is a fresh budget for one stream.
func (l *Limits) Rejects() *Rejects {
	return &Rejects{rate: float64(l.cfg.RejectsPerSecond), burst: float64(l.cfg.RejectBurst), tokens: float64(l.cfg.RejectBurst)}
}

// Wait refuses a new stream of the seat while its budget is spent, saying when one rejection
// will be allowed again.
func (r *Rejects) Wait(now time.Time) error {
	tokens := r.tokens
	if !r.last.IsZero() {
		tokens = min(r.burst, tokens+now.Sub(r.last).Seconds()*r.rate)
	}
	if tokens >= 1 {
		return nil
	}
	wait := time.Duration((1 - tokens) / r.rate * float64(time.Second))
	return status.Errorf(codes.ResourceExhausted, "rejected answers per stream: the seat's budget is spent (serve --max-rejects-per-second); rejoin in %v and answer from the legal list", wait.Round(time.Millisecond))
}

// Reject spends one rejection at now; past the budget it is the status that closes the
// stream (the seat is kept).
func (r *Rejects) Reject(now time.Time) error {
	if !r.last.IsZero() {
		r.tokens = min(r.burst, r.tokens+now.Sub(r.last).Seconds()*r.rate)
	}
	r.last = now
	if r.tokens < 1 {
		return status.Errorf(codes.ResourceExhausted, "rejected answers per stream: more than %d a second, %d at once (serve --max-rejects-per-second); the stream is closed and the seat is kept: rejoin and answer from the legal list", int(r.rate), int(r.burst))
	}
	r.tokens--
	return nil
}
