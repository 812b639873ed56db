// Package match runs one match and its seats: the clock and its timeouts, the decisions it
// issues, the views and events each seat and spectator is sent, the log, and the one way a
// match ends. It knows no server: what it needs from outside is a Host and a few plain
// values (Env), so the server, a replay and a test build matches the same way.
package match

import (
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/metrics"
	"github.com/orrery/orrery/service/store"
)

// Host is what a match needs of the server that runs it.
type Host interface {
	// Now is the server's clock.
	Now() time.Time
	// Enter lets a match's clock fire unless the server is closing; Leave follows each
	// Enter that returned true.
	Enter() bool
	Leave()
	// Step queues a logged step of match id for the store (only if Env.Durable).
	Step(id string, s store.Step)
	// Finish queues match id's result (only if Env.Durable); committed runs, on a goroutine
	// of its own, once it is stored.
	Finish(id string, ended time.Time, r *store.Result, committed func())
	// Ended is told once when a running match ends, by any path, or leaves this node.
	Ended(m *Match)
	// Released is told when an ended match's result is stored and no seat is connected: the
	// server may forget it.
	Released(m *Match)
	// SeedWithheld reports whether what only a finished match reveals (its seed, replay and
	// omniscient view) must stay secret for now (a duplicate set still running).
	SeedWithheld(id string) bool
}

// Env is what every match of a server shares: its host and plain values.
type Env struct {
	Host    Host
	Log     *slog.Logger
	Metrics *metrics.Metrics
	Limits  *limits.Limits
	Pools   *Pools
	// Durable: the host stores the log and the result (Host.Step, Host.Finish). Without, a
	// result counts as stored at once, and no step or result is built for a store.
	Durable bool
	// Done closes when the server shuts down: seats' loops end with ErrShuttingDown.
	Done <-chan struct{}
	// Tracer, if set, makes a span of each match and of each of its decisions (spans.go);
	// nil: tracing is off.
	Tracer trace.Tracer
}

// Clock is a match's time control.
type Clock struct {
	PerMove, Increment, Bank time.Duration
	// Wall advances a real-time game on the wall clock at its own pace (engine.Ticker).
	Wall bool
}

// Proto is the clock as the protocol states it.
func (c Clock) Proto() *orreryv1.Clock {
	return &orreryv1.Clock{PerMove: durationpb.New(c.PerMove), Increment: durationpb.New(c.Increment),
		TimeBank: durationpb.New(c.Bank), WallClock: c.Wall}
}

// Spec is what a match is: everything fixed when it was created.
type Spec struct {
	ID, Game string
	Config   engine.Config
	SeedHash string
	SeedSalt string // secret until the match ends
	Names    []string
	Clock    Clock
	Policy   orreryv1.TimeoutPolicy
	Created  time.Time
	// Actions are the typed envelopes and notation of the configured game, shared by its
	// matches (wire.ActionCache).
	Actions *wire.ActionCache
	// Trace is the span that created the match, the parent of its own (Env.Tracer); zero:
	// none (a match resumed from its log).
	Trace trace.SpanContext
}
