package service

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// SeedGate decides whether a finished match may reveal its seed yet. The matches of a
// tournament's duplicate set share one seed, so the seed (or the replay, or the omniscient
// view) of a set's match that has ended would show every hidden card of the set's matches
// still running; the tournament withholds them until the whole set has ended.
type SeedGate interface {
	// Withheld reports whether match id's seed must stay secret for now.
	Withheld(id string) bool
}

// errSetRunning refuses a replay that would reveal a running duplicate set's seed.
func errSetRunning(id string) error {
	return status.Errorf(codes.FailedPrecondition,
		"match %s shares its seed with matches still being played (a tournament's duplicate set, or a strength test's deals); its replay and seed are revealed when they have all ended", id)
}

// SeedGates withholds a seed while any of its gates does: tournaments and strength tests
// each keep their own matches' seeds.
type SeedGates []SeedGate

// Withheld reports whether any gate withholds match id's seed.
func (g SeedGates) Withheld(id string) bool {
	for _, gate := range g {
		if gate != nil && gate.Withheld(id) {
			return true
		}
	}
	return false
}
