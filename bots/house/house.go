// Package house runs built-in bots as the seats of a real match over gRPC, for `orrery play`.
// (The house bots that keep a server busy play on its ladder: service/ladder.)
package house

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"google.golang.org/grpc"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/sdk"
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
	// Bots are seeded from the match seed and seat, so a seeded match replays exactly. An
	// unseeded match's seed is secret until the end: its salted hash seeds them instead.
	var hash uint64
	if m.Seed != nil {
		hash = *m.Seed
	} else {
		for _, c := range created.GetSeedHash() {
			hash = hash*31 + uint64(c)
		}
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
