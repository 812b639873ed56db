package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/ladder"
	"github.com/orrery/orrery/service/strength"
	tour "github.com/orrery/orrery/service/tournament"
)

// newTournaments makes the arena's server-run tournaments and strength tests and hooks their
// seed gates into cfg, before the arena starts: a restarted server withholds a running
// duplicate set's or test's seeds from its first call. They seat registered bots through the
// ladder.
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
	if c.node != nil {
		// A strength test is driven by the server that started it, so a cluster, whose nodes
		// would each resume it, has none (docs/strength.md).
		return nil
	}
	st, err := strength.New(strength.Config{
		DB: a.db, Logger: c.logger, AdminKey: c.adminKey, Bots: a.ladder,
		NewBot: func(game, name string, seed uint64) (strength.Player, error) { return builtin.New(game, name, seed) },
		PlayIn: func(ctx context.Context, token string, p strength.Player) error {
			return ladder.PlayInProcess(ctx, a.srv, token, p, 0)
		},
	})
	if err != nil {
		return err
	}
	a.strength, cfg.Seeds = st, service.SeedGates{t, st}
	return nil
}
