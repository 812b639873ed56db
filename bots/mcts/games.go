package mcts

import (
	"fmt"
	"math"

	icetradersbot "github.com/orrery/orrery/bots/icetraders"
	pantropiabot "github.com/orrery/orrery/bots/pantropia"
	planetbot "github.com/orrery/orrery/bots/planet"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/icetraders"
	"github.com/orrery/orrery/engine/pantropia"
	"github.com/orrery/orrery/engine/planet"
	icetradersv1 "github.com/orrery/orrery/proto/orrery/icetraders/v1"
	pantropiav1 "github.com/orrery/orrery/proto/orrery/pantropia/v1"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// Games lists the games the search plays, by name.
func Games() map[string]Game {
	return map[string]Game{
		icetraders.Name: {Name: icetraders.Name, Determinizer: icetradersDeterminizer, Depth: 2, Prior: icetradersbot.NewGreedy, Evaluate: icetradersEvaluate()},
		// Planet's hundreds of placements are widened to the best 16 by the evaluation one
		// placement ahead (and greedy's): 2,000 iterations over 300 placements left each
		// too few samples to ever beat greedy's choice by two standard errors.
		"planet":    {Name: "planet", Determinizer: planetDeterminizer, Depth: 4, Prior: planetbot.NewGreedy, Widen: 16, EvaluateAll: planet.EvaluateAll},
		"fccatan":   fccatanGame(),
		"pantropia": {Name: "pantropia", Determinizer: pantropiaDeterminizer, Depth: 20, Prior: pantropiabot.NewGreedy, Searchable: notOffer, LeftToPrior: trade, Playout: pantropia.Playout},
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

func icetradersDeterminizer(d *orreryv1.Decision) (Determinizer, error) {
	o, err := observation[*icetradersv1.Observation](d)
	if err != nil {
		return nil, err
	}
	return icetraders.NewDeterminizer(o, int(d.GetSeat()))
}

// icetradersEvaluate is the greedy bot's scoring of what the seat would see, squashed into
// [0, 1]; each call of Games makes one, with buffers of its own.
func icetradersEvaluate() func(st engine.State, seat engine.Seat) float64 {
	var e icetradersbot.StateEvaluator
	return func(st engine.State, seat engine.Seat) float64 {
		return 0.5 + 0.5*math.Tanh(e.Evaluate(st.(*icetraders.State), int(seat))/1000)
	}
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
