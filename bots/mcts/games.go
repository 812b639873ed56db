package mcts

import (
	"fmt"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/icetraders"
	"github.com/orrery/orrery/engine/pantropia"
	"github.com/orrery/orrery/engine/planet"
	pantropiav1 "github.com/orrery/orrery/proto/orrery/pantropia/v1"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// Games lists the games the search plays, by name.
func Games() map[string]Game {
	return map[string]Game{
		icetraders.Name: icetradersGame(),
		"planet":        planetGame(),
		"fccatan":       fccatanGame(),
		"pantropia":     pantropiaGame(),
	}
}

// observation is d's game observation as a T, or an error.
func observation[T any](d *orreryv1.Decision) (T, error) {
	o, ok := wire.GameObservation(d.GetObservation()).(T)
	if !ok {
		return o, fmt.Errorf("mcts: decision carries no %T", o)
	}
	return o, nil
}

// notOffer leaves PanTropia's trade offers to the prior: sampled opponents accept what greedy
// players refuse, so the search overrated offers (measured: 0 wins in 12 games).
func notOffer(a engine.Action) bool { return a.Kind != pantropia.KindOffer }

// trade leaves PanTropia's trading to the prior: when greedy offers a trade, or answers one,
// the search does not question it. Its only other choice when greedy offers is to end the
// turn, and a reply turns on the chips alone, which greedy weighs; searched, they were three
// quarters of a game's search time and never overruled greedy (2,200 iterations, 307 such
// decisions in a game; BenchmarkDecisions_PanTropia).
func trade(a engine.Action) bool {
	return a.Kind == pantropia.KindOffer || a.Kind == pantropia.KindReply
}

func pantropiaDeterminizer(d *orreryv1.Decision) (Determinizer, error) {
	o, err := observation[*pantropiav1.Observation](d)
	if err != nil {
		return nil, err
	}
	return pantropia.NewDeterminizer(o, int(d.GetSeat()))
}

func planetDeterminizer(d *orreryv1.Decision) (Determinizer, error) {
	o, err := observation[*planetv1.Observation](d)
	if err != nil {
		return nil, err
	}
	return planet.NewDeterminizer(o, int(d.GetSeat()))
}

// MustNew is a search bot for game; it panics on a game the search does not play.
func MustNew(game string, cfg Config) *Bot {
	g, ok := Games()[game]
	if !ok {
		panic("mcts: no search for " + game)
	}
	return New(g, cfg)
}
