package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

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
	if c.node != nil {
		// A cluster's tournaments are jobs of a river queue on its PostgreSQL database.
		pool, err := pgxpool.New(context.Background(), c.dbPath)
		if err != nil {
			return fmt.Errorf("tournaments: %w", err)
		}
		a.pool = pool
		tcfg.Cluster = &tour.Cluster{Pool: pool, Node: c.node.ID, Holds: func(id string) bool { return a.srv.Holds(id) }}
		if c.ladder != nil {
			tcfg.Cluster.Watch = c.ladder.jobWatch
		}
	}
	t, err := tour.New(tcfg)
	if err != nil {
		return err
	}
	a.tournaments, cfg.Seeds = t, t
	return nil
}
