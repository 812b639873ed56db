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
	// closed: a stream of the seat was closed for spending the budget, and the next is let
	// in once the budget is whole again, not at its first token (a garbage seat rejoining as
	// soon as it may cost the server a join for every rejection).
	closed bool
}

// Rejects is a fresh budget for one stream.
func (l *Limits) Rejects() *Rejects {
	return &Rejects{rate: float64(l.cfg.RejectsPerSecond), burst: float64(l.cfg.RejectBurst), tokens: float64(l.cfg.RejectBurst)}
}

// Wait refuses a new stream of the seat while its budget is spent (*Spent), saying when it
// will have refilled: whole, after a stream of the seat was closed for it.
func (r *Rejects) Wait(now time.Time) error {
	tokens := r.tokens
	if !r.last.IsZero() {
		tokens = min(r.burst, tokens+now.Sub(r.last).Seconds()*r.rate)
	}
	need := 1.0
	if r.closed {
		need = r.burst
	}
	if tokens >= need {
		r.closed = false
		return nil
	}
	return &Spent{Wait: time.Duration((need - tokens) / r.rate * float64(time.Second))}
}

// Spent refuses a seat's new stream while its budget of rejected answers refills, for Wait.
type Spent struct{ Wait time.Duration }

func (e *Spent) Error() string { return e.GRPCStatus().Message() }

// GRPCStatus is the refusal's status: ResourceExhausted, saying when to rejoin.
func (e *Spent) GRPCStatus() *status.Status {
	return status.Newf(codes.ResourceExhausted, "rejected answers per stream: the seat's budget is spent (serve --max-rejects-per-second); rejoin in %v and answer from the legal list", e.Wait.Round(time.Millisecond))
}

// Reject spends one rejection at now; past the budget it is the status that closes the
// stream (the seat is kept).
func (r *Rejects) Reject(now time.Time) error {
	if !r.last.IsZero() {
		r.tokens = min(r.burst, r.tokens+now.Sub(r.last).Seconds()*r.rate)
	}
	r.last = now
	if r.tokens < 1 {
		r.closed = true
		return status.Errorf(codes.ResourceExhausted, "rejected answers per stream: more than %d a second, %d at once (serve --max-rejects-per-second); the stream is closed and the seat is kept: rejoin and answer from the legal list", int(r.rate), int(r.burst))
	}
	r.tokens--
	return nil
}
