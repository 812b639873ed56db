// Package house runs built-in bots as seats of real matches over gRPC: one match for
// `orrery play`, and an endless stream of them so a fresh server always has games to watch.
package house

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"google.golang.org/grpc"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/sdk"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Match is one match to play with built-in bots.
type Match struct {
	Game    string
	Bots    []string // built-in bot names, one per seat
	Seed    *uint64
	Options map[string]string
	Clock   *orreryv1.Clock
}

// Outcome is how a match ended.
type Outcome struct {
	MatchID string
	Ended   *orreryv1.MatchEnded
	Rejects int
}

// Play creates m on the server behind conn and plays every seat with its bot.
func Play(ctx context.Context, conn grpc.ClientConnInterface, m Match) (*Outcome, error) {
	client := orreryv1.NewArenaServiceClient(conn)
	created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{
		Game: m.Game, Seats: int32(len(m.Bots)), Seed: m.Seed, Options: m.Options, Clock: m.Clock, SeatNames: m.Bots,
	})
	if err != nil {
		return nil, err
	}
	// Bots are seeded from the match seed hash and seat, so a seeded match replays exactly.
	var hash uint64
	for _, c := range created.GetSeedHash() {
		hash = hash*31 + uint64(c)
	}
	players := make([]func() (*orreryv1.MatchEnded, error), len(m.Bots))
	out := &Outcome{MatchID: created.GetMatchId()}
	var mu sync.Mutex
	for i, name := range m.Bots {
		bot, err := builtin.New(m.Game, name, hash+uint64(i)*0x9e3779b97f4a7c15)
		if err != nil {
			return nil, err
		}
		token := created.GetSeats()[i].GetToken()
		players[i] = func() (*orreryv1.MatchEnded, error) {
			return sdk.Play(ctx, conn, token, bot, sdk.Options{OnRejected: func(*orreryv1.ActionRejected) {
				mu.Lock()
				out.Rejects++
				mu.Unlock()
			}})
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(players))
	ends := make([]*orreryv1.MatchEnded, len(players))
	for i := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ends[i], errs[i] = players[i]()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return out, fmt.Errorf("match %s: %w", out.MatchID, err)
	}
	out.Ended = ends[0]
	return out, nil
}

// Loop keeps `parallel` matches of built-in bots running on the server behind conn until ctx
// ends, cycling through games and seat counts and preferring each game's strongest bots.
func Loop(ctx context.Context, conn grpc.ClientConnInterface, parallel int, log *slog.Logger) {
	var wg sync.WaitGroup
	for w := 0; w < parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(w)))
			for ctx.Err() == nil {
				m := randomMatch(r)
				out, err := Play(ctx, conn, m)
				if err != nil {
					if ctx.Err() == nil {
						log.Warn("house match failed", "game", m.Game, "err", err)
						select {
						case <-ctx.Done():
						case <-time.After(time.Second):
						}
					}
					continue
				}
				log.Info("house match finished", "match", out.MatchID, "game", m.Game, "bots", m.Bots,
					"ranks", out.Ended.GetResult().GetRanks(), "reason", out.Ended.GetResult().GetReason().String())
			}
		}()
	}
	wg.Wait()
}

func randomMatch(r *rand.Rand) Match {
	names := engine.Names()
	game := names[r.IntN(len(names))]
	g, _ := engine.Lookup(game)
	info := g.Info()
	seats := info.MinSeats + r.IntN(info.MaxSeats-info.MinSeats+1)
	pool := builtin.Names(game)
	bots := make([]string, seats)
	for i := range bots {
		bots[i] = pool[r.IntN(len(pool))]
	}
	return Match{Game: game, Bots: bots}
}
