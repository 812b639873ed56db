package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tetratelabs/wazero"
	"google.golang.org/grpc"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	botladder "github.com/orrery/orrery/bots/ladder"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/hosted"
	"github.com/orrery/orrery/service/ladder"
	"github.com/orrery/orrery/service/store"
)

// ladderOptions turn on the ladder in an arena.
type ladderOptions struct {
	houseMatches int             // matches among house bots alone kept running
	housePace    time.Duration   // pause before each house move
	fillAfter    time.Duration   // wait before house bots complete a bot's match (0: default)
	clock        *orreryv1.Clock // ladder matches' time control (nil: the arena's default)
	// jobWatch is how long a cluster's tournament job watches its match before handing it
	// back (0: a minute; tests shorten it, and with it the retry of a dead node's job).
	jobWatch time.Duration
}

// newLadder makes the arena's ladder and hooks it into cfg, before the arena starts. The
// ladder keeps its tables in the arena's store; an arena without one gets an in-memory store.
func (a *arena) newLadder(c arenaConfig, cfg *service.Config) error {
	if a.db == nil {
		db, err := store.Open(":memory:")
		if err != nil {
			return err
		}
		a.db, cfg.Store = db, db
	}
	var cluster *ladder.Cluster
	if n := c.node; n != nil {
		// The arena exists by the time the ladder starts, and reaches each match's node.
		cluster = &ladder.Cluster{Node: n.ID, TTL: cmp.Or(n.LeaseTTL, 9*time.Second), Reach: arenaReach{a}}
	}
	rt, err := hosted.NewRuntime(context.Background(), hosted.Limits{}, compilationCache(c.logger))
	if err != nil {
		return err
	}
	lad, err := ladder.New(ladder.Config{
		DB: a.db, Logger: c.logger, AdminKey: c.adminKey,
		House: houseBots(), HouseMatches: c.ladder.houseMatches, HousePace: c.ladder.housePace,
		FillAfter: c.ladder.fillAfter, Clock: c.ladder.clock, Cluster: cluster,
		Hosted: hosted.NewLibrary(rt, a.db),
	})
	if err != nil {
		rt.Close(context.Background())
		return err
	}
	a.hosted = rt
	a.ladder, cfg.Ladder, cfg.Names, cfg.Bots, cfg.Callers = lad, lad, lad, lad, lad
	return nil
}

// compilationCache keeps hosted bots' machine code in the user's cache directory, so that a
// restarted server does not compile its modules again; in memory if there is none.
func compilationCache(logger *slog.Logger) wazero.CompilationCache {
	if dir, err := os.UserCacheDir(); err == nil {
		cache, err := wazero.NewCompilationCacheWithDir(filepath.Join(dir, "orrery", "wazero"))
		if err == nil {
			return cache
		}
		logger.Warn("hosted bots: no compilation cache on disk", "err", err)
	}
	return wazero.NewCompilationCache()
}

// houseSeats is how many seats a ladder match of a game has (the ladder's default).
func houseSeats(info engine.Info) int { return min(max(4, info.MinSeats), info.MaxSeats) }

// houseBots are the built-in bots as ladder identities: "house-<bot>" for each built-in bot
// of each game, numbered "house-<bot>-2" and so on where a game needs more of them to fill
// a match.
func houseBots() []ladder.House {
	var out []ladder.House
	for _, game := range engine.Names() {
		g, _ := engine.Lookup(game)
		names := builtin.Names(game)
		n := max(len(names), houseSeats(g.Info()))
		for i := range n {
			name := names[i%len(names)]
			id := "house-" + name
			if round := i / len(names); round > 0 {
				id = fmt.Sprintf("house-%s-%d", name, round+1)
			}
			out = append(out, ladder.House{Bot: id, Game: game, New: func(seed uint64) ladder.Player {
				b, err := builtin.New(game, name, seed)
				if err != nil {
					panic(err) // builtin.Names listed it
				}
				return b
			}})
		}
	}
	return out
}

// ladderBotOptions are the flags of orrery ladder.
type ladderBotOptions struct {
	server, key, bot, games string
	maxMatches, matches     int
	tournamentsOnly         bool
}

func newLadderCmd() *cobra.Command {
	var o ladderBotOptions
	cmd := &cobra.Command{
		Use:   "ladder --key K",
		Short: "play a built-in bot on a server's ladder as a registered bot",
		Long: `Play a built-in bot on a server's ladder as a registered bot (what an external bot does, ` +
			`in Go): connect with the bot's API key, queue for games, and play the matches the ladder ` +
			`seats it in, reconnecting after a restart, until interrupted.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return ladderBot(cmd.Context(), cmd.OutOrStdout(), o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "127.0.0.1:7070", "the arena at `ADDR`; the nodes of a cluster as ADDR,ADDR,... (the next is tried when one fails)")
	f.StringVar(&o.key, "key", "", "the bot's API `KEY` from 'orrery bot register' (default: env ORRERY_API_KEY)")
	f.StringVar(&o.bot, "bot", "random", "built-in bot to play (see orrery games)")
	f.StringVar(&o.games, "games", "", "comma-separated games to queue for, `G,...` (default: every game the ladder runs)")
	f.IntVar(&o.maxMatches, "max-matches", 1, "matches to play at once")
	f.IntVar(&o.matches, "matches", 0, "leave after `N` matches (0: play until interrupted)")
	f.BoolVar(&o.tournamentsOnly, "tournaments-only", false, "play only the server's tournaments, not the ladder")
	return cmd
}

// ladderBot plays a built-in bot on a server's ladder as a registered bot.
func ladderBot(ctx context.Context, stdout io.Writer, o ladderBotOptions) error {
	var err error
	if o.key, err = keyFrom(o.key, "ORRERY_API_KEY"); err != nil {
		return err
	}
	if o.key == "" {
		return usagef("--key (or ORRERY_API_KEY) is required: register with 'orrery bot register NAME'")
	}
	var games []string
	if o.games != "" {
		games = strings.Split(o.games, ",")
	}
	conn, err := dialNodes(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	seed := uint64(time.Now().UnixNano())
	err = botladder.Run(ctx, conn, botladder.Options{
		APIKey: o.key, Games: games, MaxMatches: o.maxMatches, Matches: o.matches, TournamentsOnly: o.tournamentsOnly,
		NewBot: func(j *orreryv1.Joined) (bots.Bot, error) {
			seed++
			return builtin.New(j.GetGame(), o.bot, seed)
		},
		OnJoined: func(j *orreryv1.Joined) {
			fmt.Fprintf(stdout, "match %s: %s, seat %d of %d\n", j.GetMatchId(), j.GetGame(), j.GetSeat(), j.GetSeats())
		},
		OnEnded: func(e *orreryv1.MatchEnded) {
			r := e.GetResult()
			rank := 0
			if s := int(e.GetSeat()); s < len(r.GetRanks()) {
				rank = int(r.GetRanks()[s])
			}
			fmt.Fprintf(stdout, "match %s ended: rank %d of %d (%s)\n", e.GetMatchId(), rank, len(r.GetRanks()), endReason(r.GetReason()))
		},
		OnConnect: func(n int) {
			what := "on the ladder"
			if o.tournamentsOnly {
				what = "waiting for tournament matches"
			}
			if n == 0 {
				fmt.Fprintf(os.Stderr, "orrery ladder: connected to %s, %s\n", o.server, what)
			} else {
				fmt.Fprintf(os.Stderr, "orrery ladder: reconnected to %s (reconnection %d), %s; matches in play resume\n", o.server, n, what)
			}
		},
		OnRetry: func(err error, wait time.Duration) {
			fmt.Fprintf(os.Stderr, "orrery ladder: %v; reconnecting in %v\n", explain(err, o.server), wait.Round(time.Millisecond))
		},
	})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// arenaReach is the arena's cluster as the ladder reaches it (ladder.Reach): the ladder is
// made before the arena, which serves its streams, and used only once the arena runs.
type arenaReach struct{ a *arena }

func (r arenaReach) Owner(ctx context.Context, id string) (grpc.ClientConnInterface, bool, error) {
	return r.a.srv.Cluster().Owner(ctx, id)
}

func (r arenaReach) ForwardContext(ctx context.Context) context.Context {
	return r.a.srv.Cluster().ForwardContext(ctx)
}
