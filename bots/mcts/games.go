package mcts

import (
	"fmt"

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
		icetraders.Name: {Name: icetraders.Name, Determinizer: icetradersDeterminizer, Depth: 40},
		"planet":        {Name: "planet", Determinizer: planetDeterminizer, Depth: 4},
		"pantropia":     {Name: "pantropia", Determinizer: pantropiaDeterminizer, Depth: 20},
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
