package builtin

import (
	"context"
	"fmt"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/engine"
)

// Seat is one seat of a match played in process: a built-in bot by name and its own seed.
type Seat struct {
	Bot  string
	Seed uint64
}

// Play plays one match of game in process (bots/local), a built-in bot in each seat, and
// returns its result. cfg.Seats is the number of seats given.
func Play(ctx context.Context, game string, cfg engine.Config, seats []Seat) (engine.Result, error) {
	players := make([]bots.Bot, len(seats))
	for s, e := range seats {
		b, err := New(game, e.Bot, e.Seed)
		if err != nil {
			return engine.Result{}, err
		}
		players[s] = b
	}
	cfg.Seats = len(seats)
	st, _, err := local.PlayContext(ctx, game, cfg, players)
	if err != nil {
		return engine.Result{}, fmt.Errorf("%s: %w", game, err)
	}
	return st.Result(), nil
}
