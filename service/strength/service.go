// Package strength runs strength tests on the server: the sequential probability ratio test of
// service/sprt, its paired deals played as arena matches, between registered bots (seated
// through their open ladder stream), hosted bots (which the ladder plays) and built-in bots
// (played in process). Tests and their counted pairs are stored beside the arena's matches,
// so a restarted server carries on from the last counted pair. Every deal follows from the
// test's seed, so the service withholds the seeds (and replays) of a test's matches until the
// test has finished (service.SeedGate).
package strength

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/store"
)

// Player answers the decisions of one seat; bots.Bot is one.
type Player interface {
	Act(d *orreryv1.Decision) *orreryv1.Answer
}

// Arena is what tests need of the arena: *service.Server.
type Arena interface {
	Create(ctx context.Context, spec service.MatchSpec) (id string, tokens []string, seedHash string, err error)
	AwaitEnd(ctx context.Context, id string) (*orreryv1.MatchSummary, error)
	Abort(ctx context.Context, id, detail string)
}

// Bots is the registered bots and their ladder streams: *ladder.Ladder. A hosted bot is a
// registered bot the ladder plays itself, always connected.
type Bots interface {
	Registered(name string) bool
	Connected(name string) bool
	BotID(name string) (int64, bool)
	// HostedVersion is the newest version of a hosted bot's module, 0 if it has none.
	HostedVersion(ctx context.Context, name string) (int, error)
	// SeatTournament seats a registered bot, unrated; version is the hosted module to play.
	SeatTournament(matchID string, seats, seat int, name, token string, version int) error
}

// Config holds the tests' dependencies.
type Config struct {
	DB     *store.DB // the arena's store (required)
	Logger *slog.Logger
	// Bots seats registered and hosted bots; nil: only built-in bots may be tested.
	Bots Bots
	// NewBot is the built-in bot name of game, seeded; an error if there is none.
	NewBot func(game, name string, seed uint64) (Player, error)
	// PlayIn plays the seat token names with p, in process, until the match ends or ctx is
	// done (ladder.PlayInProcess on the arena).
	PlayIn func(ctx context.Context, token string, p Player) error
	// AdminKey, if set, is required by StartSPRT and StopSPRT.
	AdminKey string
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// Service implements orreryv1.SPRTServiceServer and service.SeedGate.
type Service struct {
	orreryv1.UnimplementedSPRTServiceServer

	cfg   Config
	db    *db
	log   *slog.Logger
	arena Arena

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // the tests' goroutines and their games' seats

	sealMu sync.Mutex          // guards sealed alone: the arena asks under its match locks
	sealed map[string]struct{} // matches of tests still running

	mu    sync.Mutex       // guards tests and every test's fields it names
	tests map[string]*test // the running tests
}

var (
	_ orreryv1.SPRTServiceServer = (*Service)(nil)
	_ service.SeedGate           = (*Service)(nil)
)

// New opens the tests' tables and loads the unfinished tests, sealing their matches' seeds
// so that the arena built next withholds them from its first call. Start runs them.
func New(cfg Config) (*Service, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewBot == nil || cfg.PlayIn == nil {
		return nil, errors.New("strength: NewBot and PlayIn are required")
	}
	d, err := openDB(cfg.DB)
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: cfg, db: d, log: cfg.Logger, sealed: map[string]struct{}{}, tests: map[string]*test{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	ids, err := d.unfinished(s.ctx)
	if err != nil {
		return nil, fmt.Errorf("strength: list unfinished tests: %w", err)
	}
	for _, id := range ids {
		matches, err := d.matchIDs(s.ctx, id)
		if err != nil {
			return nil, fmt.Errorf("strength: test %s: %w", id, err)
		}
		for _, m := range matches {
			s.sealed[m] = struct{}{}
		}
		t, err := d.load(s.ctx, id)
		if err != nil {
			// One unreadable test must not keep the server from starting: its seeds stay
			// withheld, and it is reported.
			s.log.Error("strength: cannot resume a test; its seeds stay withheld", "sprt", id, "err", err)
			continue
		}
		t.orphans = matches
		s.tests[id] = t
	}
	return s, nil
}

// Start runs the unfinished tests on arena.
func (s *Service) Start(arena Arena) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.arena = arena
	for _, t := range s.tests {
		s.log.Info("sprt resumed", "sprt", t.id, "pairs", len(t.pairs))
		s.launchLocked(t)
	}
	return nil
}

// Close stops the tests (they resume on the next start) and waits for them.
func (s *Service) Close() {
	s.cancel()
	s.wg.Wait()
}

// Withheld reports whether match id belongs to a test still running.
func (s *Service) Withheld(id string) bool {
	s.sealMu.Lock()
	defer s.sealMu.Unlock()
	_, ok := s.sealed[id]
	return ok
}

func (s *Service) seal(id string) {
	s.sealMu.Lock()
	s.sealed[id] = struct{}{}
	s.sealMu.Unlock()
}

func (s *Service) unseal(ids []string) {
	s.sealMu.Lock()
	for _, id := range ids {
		delete(s.sealed, id)
	}
	s.sealMu.Unlock()
}

func (s *Service) now() time.Time { return s.cfg.Now() }
