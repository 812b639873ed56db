package match

import (
	"log/slog"
	"testing"
	"time"

	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/metrics"
	"github.com/orrery/orrery/service/store"
)

// testGame is the game the match tests play: turn-based, with hidden information.
const testGame = "icetraders"

// testHost is a host with no store (Env.Durable unset): a result counts as stored at once.
type testHost struct{}

func (testHost) Now() time.Time                                  { return time.Now() }
func (testHost) Enter() bool                                     { return true }
func (testHost) Leave()                                          {}
func (testHost) Step(string, store.Step)                         {}
func (testHost) Finish(string, time.Time, *store.Result, func()) {}
func (testHost) Ended(*Match)                                    {}
func (testHost) Released(*Match)                                 {}
func (testHost) SeedWithheld(string) bool                        { return false }

// newTestMatch starts a match of game on a host of its own, with a minute a move.
func newTestMatch(t testing.TB, game string, seats int, seed uint64) *Match {
	t.Helper()
	done := make(chan struct{})
	env := &Env{Host: testHost{}, Log: slog.New(slog.DiscardHandler), Metrics: metrics.New(nil),
		Limits: limits.New(limits.Config{}), Pools: new(Pools), Done: done}
	cfg := engine.Config{Seats: seats, Seed: seed}
	st, err := engine.New(game, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := New(env, Spec{ID: "m1", Game: game, Config: cfg, Names: make([]string, seats), Clock: Clock{PerMove: time.Minute},
		Policy: orreryv1.TimeoutPolicy_TIMEOUT_POLICY_RANDOM, Actions: new(wire.ActionCache)}, NewLog(st))
	t.Cleanup(func() { m.StopClock(); close(done) })
	return m
}
