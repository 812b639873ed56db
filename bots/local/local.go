// Package local plays whole matches in process: each seat's bot answers the same Decision it
// would get over gRPC, without the network. Win-rate tests and search experiments use it.
package local

import (
	"context"
	"fmt"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/proto/wire"
)

// Play runs a match of game with one bot per seat and returns the final state and its log.
// A bot's rejected answer is an error: in-process bots have no clock to retry against.
func Play(game string, cfg engine.Config, seats []bots.Bot) (engine.State, []engine.Step, error) {
	return PlayContext(context.Background(), game, cfg, seats)
}

// PlayContext is Play that gives up, with the context's error, once ctx is done.
func PlayContext(ctx context.Context, game string, cfg engine.Config, seats []bots.Bot) (engine.State, []engine.Step, error) {
	if len(seats) != cfg.Seats {
		return nil, nil, fmt.Errorf("local: %d bots for %d seats", len(seats), cfg.Seats)
	}
	st, err := engine.New(game, cfg)
	if err != nil {
		return nil, nil, err
	}
	var (
		log   []engine.Step
		toAct []engine.Seat
		legal []engine.Action
	)
	for !st.Terminal() {
		if err := ctx.Err(); err != nil {
			return st, log, err
		}
		toAct = st.ToAct(toAct[:0])
		seat := toAct[0]
		legal = st.Legal(seat, legal[:0])
		d := wire.Decision(st, seat, legal, int64(len(log)))
		d.DecisionId = fmt.Sprint(len(log))
		a, _, err := wire.Answer(st, legal, seats[seat].Act(d))
		if err == nil {
			err = st.Apply(seat, a)
		}
		if err != nil {
			return st, log, fmt.Errorf("local: seat %d at ply %d: %w", seat, len(log), err)
		}
		log = append(log, engine.Step{Seat: seat, Action: a})
	}
	return st, log, nil
}
