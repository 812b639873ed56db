package main

import (
	"context"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/ladder"
	tour "github.com/orrery/orrery/service/tournament"
)

// newTournaments makes the arena's server-run tournaments and hooks their seed gate into
// cfg, before the arena starts: a restarted server withholds a running duplicate set's seed
// from its first call. They seat registered bots through the ladder.
func (a *arena) newTournaments(c arenaConfig, cfg *service.Config) error {
	tcfg := tour.Config{
		DB: a.db, Logger: c.logger, AdminKey: c.adminKey,
		NewBot: func(game, name string, seed uint64) (tour.Player, error) { return builtin.New(game, name, seed) },
		PlayIn: func(ctx context.Context, token string, p tour.Player) error {
			return ladder.PlayInProcess(ctx, a.srv, token, p, 0)
		},
	}
	if a.ladder != nil {
		tcfg.Bots = a.ladder
	}
	t, err := tour.New(tcfg)
	if err != nil {
		return err
	}
	a.tournaments, cfg.Seeds = t, t
	return nil
}
