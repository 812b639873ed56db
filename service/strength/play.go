package strength

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/sprt"
)

// connectedEvery is how often a game waiting for a registered bot's stream looks again.
const connectedEvery = 250 * time.Millisecond

// playGame plays one game of a pair as an arena match: built-in bots in process, registered
// and hosted bots through the ladder. Its seed is sealed before the match exists, and stays
// sealed until the test has finished.
func (s *Service) playGame(ctx context.Context, t *test, g sprt.Game) ([]int, error) {
	names := make([]string, len(g.Seats))
	bots := make([]int64, len(g.Seats)) // the registered bots, which play on their own streams
	for seat, e := range g.Seats {
		names[seat] = shown(e.Bot)
		if _, ok := builtinName(e.Bot); ok {
			continue
		}
		if err := s.awaitConnected(ctx, t, e.Bot); err != nil {
			return nil, err
		}
		bots[seat], _ = s.cfg.Bots.BotID(e.Bot)
	}
	keys := service.NewMatchKeys(len(names))
	if err := s.db.addMatch(ctx, t.id, keys.ID); err != nil {
		return nil, fmt.Errorf("record match %s: %w", keys.ID, err)
	}
	s.seal(keys.ID)
	seed := g.Seed
	id, tokens, _, err := s.arena.Create(ctx, service.MatchSpec{
		Game: t.spec.GetGame(), Seats: len(names), Options: t.spec.GetOptions(), Seed: &seed,
		Clock: t.spec.GetClock(), Policy: t.spec.GetTimeoutPolicy(), Names: names, Bots: bots, Keys: keys,
	})
	if err != nil {
		return nil, err
	}
	side := 0
	if g.Side == sprt.Baseline {
		side = 1
	}
	s.mu.Lock()
	if t.playing[g.Deal] == nil {
		t.playing[g.Deal] = &[2]string{}
	}
	t.playing[g.Deal][side] = id
	s.mu.Unlock()

	seatCtx, stopSeats := context.WithCancel(ctx)
	var seats sync.WaitGroup
	defer seats.Wait()
	defer stopSeats()
	for seat, e := range g.Seats {
		if b, ok := builtinName(e.Bot); ok {
			p, err := s.cfg.NewBot(t.spec.GetGame(), b, e.Seed)
			if err != nil {
				s.arena.Abort(ctx, id, "a built-in bot of the strength test is missing")
				return nil, err
			}
			seats.Go(func() {
				if err := s.cfg.PlayIn(seatCtx, tokens[seat], p); err != nil && seatCtx.Err() == nil {
					s.log.Error("sprt: a built-in seat stopped", "sprt", t.id, "match", id, "seat", seat, "err", err)
				}
			})
			continue
		}
		// Only the tested seat holds a bot that is not built in: the candidate or the baseline.
		version := t.spec.GetCandidateVersion()
		if g.Side == sprt.Baseline {
			version = t.spec.GetBaselineVersion()
		}
		if err := s.cfg.Bots.SeatTournament(id, len(names), seat, e.Bot, tokens[seat], int(version)); err != nil {
			s.arena.Abort(ctx, id, "a bot of the strength test could not be seated")
			return nil, fmt.Errorf("seat %s: %w", e.Bot, err)
		}
	}
	sum, err := s.arena.AwaitEnd(ctx, id)
	if err != nil {
		if s.ctx.Err() == nil && ctx.Err() != nil {
			// Stopped, or decided while this deal was still playing: nobody counts it.
			s.arena.Abort(context.WithoutCancel(ctx), id, "the strength test ended before this game")
		}
		return nil, err
	}
	ranks := sum.GetResult().GetRanks()
	if len(ranks) != len(names) {
		return nil, fmt.Errorf("match %s ended without ranks (%s)", id, sum.GetResult().GetReason())
	}
	out := make([]int, len(ranks))
	for i, r := range ranks {
		out[i] = int(r)
	}
	return out, nil
}

// awaitConnected waits until registered bot name has an open ladder stream (a hosted bot
// always has): a game started without it would only measure its clock running out.
func (s *Service) awaitConnected(ctx context.Context, t *test, name string) error {
	if s.cfg.Bots == nil {
		return fmt.Errorf("no ladder to seat registered bot %q", name)
	}
	tick := time.NewTicker(connectedEvery)
	defer tick.Stop()
	for logged := false; !s.cfg.Bots.Connected(name); {
		if !s.cfg.Bots.Registered(name) {
			return fmt.Errorf("bot %q is no longer registered (revoked?)", name)
		}
		if !logged {
			s.log.Info("sprt: waiting for a bot to connect", "sprt", t.id, "bot", name)
			logged = true
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}
