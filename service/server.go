// Package service is Orrery's gRPC arena: the ArenaService and ViewService handlers and
// the registry of the matches this server runs. A match and its seats live in service/match,
// the log writer in service/journal, and a cluster's leases and relays in service/cluster
// (docs/architecture.md).
package service

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/caller"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/datasets"
	"github.com/orrery/orrery/service/journal"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/metrics"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/tracing"
)

// Metrics are the arena's Prometheus series (service/metrics).
type Metrics = metrics.Metrics

// NewMetrics creates the arena's series and registers them on reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) *Metrics { return metrics.New(reg) }

// Node makes a server one node of a cluster (service/cluster).
type Node = cluster.Node

// Seat is one connected seat of a match (service/match).
type Seat = match.Seat

// Config holds the server's dependencies and defaults.
type Config struct {
	Store   *store.DB // nil: nothing is persisted (tests, benchmarks)
	Logger  *slog.Logger
	Metrics *Metrics
	// Clock is the default time control for matches that do not set one.
	Clock struct{ PerMove, Increment, TimeBank time.Duration }
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Ladder serves Play streams that open with a LadderJoin; nil: no ladder.
	Ladder LadderServer
	// Seeds withholds the seeds of matches whose duplicate set is still running; nil: every
	// finished match reveals its seed.
	Seeds SeedGate
	// Names, if set, reserves the seat names of registered and house bots: CreateMatch
	// refuses them, and only in-process callers (the ladder) seat those bots.
	Names ReservedNames
	// Bots, if set, resolves a registered or house bot's name to its identity, for
	// ListMatches by bot (the ladder).
	Bots BotIdentities
	// Callers, if set, says which registered bot a call's key names (the ladder): a bot reads
	// the notes of its own seats (GetSeatNotes).
	Callers CallerBots
	// Limits bounds what clients can make the server hold; zero fields take defaults.
	Limits limits.Config
	// Gateway is the key the server shares with its own web gateway, which vouches with it
	// for each HTTP client (service/caller), so per-caller limits count those clients apart.
	// Zero: no gateway vouches.
	Gateway caller.Key
	// Node, if set, makes this server one of several sharing Store: it runs only the
	// matches it holds the lease of, and takes over those of dead nodes (service/cluster).
	Node *Node
	// Tracing, if set, is where the spans of creates, matches, decisions and store commits
	// go (service/tracing); nil: tracing is off.
	Tracing trace.TracerProvider
	// logStore, if set, is where the journal writes instead of Store (tests inject failures).
	logStore journal.Store
	// DataSets resolves data-set options that name a set into the bytes stored with the
	// match; nil: data sets are taken inline only.
	DataSets DataSets
	// HouseSeats plays the seats a CreateMatch names in its bots with built-in bots, a
	// person's opponents from the web page; nil: the server offers none.
	HouseSeats HouseSeats
	// HoldClocks keeps the matches New resumes paused, their clocks stopped, until
	// StartClocks: the time a restarting server takes before it serves (replaying logs,
	// starting the ladder, listening) is not charged to seats that could not yet answer.
	HoldClocks bool
}

// ReservedNames says which seat names belong to known bots (the ladder's).
type ReservedNames interface {
	Reserved(name string) bool
}

// HouseSeats plays built-in bots in seats of new matches (service/houseseats).
type HouseSeats interface {
	// Bots are the built-in bots of game that can take a seat, sorted.
	Bots(game string) []string
	// Seat has bot play the seat that token names, in process, until the match ends.
	Seat(game, bot, token string) error
}

// BotIdentities resolves a bot's name to the identity MatchSpec.Bots records.
type BotIdentities interface {
	BotID(name string) (int64, bool)
}

// DataSets turns the data-set options of a match into inline bytes (datasets.Resolver).
type DataSets interface {
	Resolve(info engine.Info, opts map[string]string) (map[string]string, error)
}

// Server implements orrery.v1.ArenaService.
type Server struct {
	orreryv1.UnimplementedArenaServiceServer

	store   *store.DB
	writer  *journal.Writer  // nil without a store
	cluster *cluster.Cluster // nil unless Config.Node
	env     match.Env        // what every match of this server shares; env.Host is the server (host)
	log     *slog.Logger
	metrics *Metrics
	cfg     Config
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup // match clocks firing

	live   atomic.Int64 // matches running (not ended)
	limits *limits.Limits
	// actions holds the action caches of the configured games (name and options) used last;
	// bounded, because every distinct option set (a Planet inline data set, say) would
	// otherwise keep a cache of up to 65,536 actions for the server's life. A match keeps its
	// own cache, so one evicted here only stops being shared with later matches.
	actions *lru.Cache[[sha256.Size]byte, *wire.ActionCache]

	reg *registry // the matches in memory

	mu       sync.Mutex // guards closed, storeErr, holding
	closed   bool       // no match clock fires once set
	storeErr error      // the store's last write failed with this; nil when writes work
	started  time.Time  // matches stored unfinished before this and not in memory did not resume
	// holding: Config.HoldClocks and StartClocks not yet called; matches resumed meanwhile
	// stay paused.
	holding bool
}

var _ orreryv1.ArenaServiceServer = (*Server)(nil)

// New creates a server and resumes the store's unfinished matches by replaying their logs.
func New(cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Metrics == nil {
		cfg.Metrics = NewMetrics(nil)
	}
	if cfg.Clock.PerMove == 0 {
		cfg.Clock.PerMove = 5 * time.Second
	}
	if cfg.Clock.TimeBank == 0 {
		cfg.Clock.TimeBank = 30 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.DataSets == nil {
		cfg.DataSets = datasets.Resolver{}
	}
	s := &Server{
		store:   cfg.Store,
		log:     cfg.Logger,
		metrics: cfg.Metrics,
		cfg:     cfg,
		reg:     newRegistry(),
		limits:  limits.New(cfg.Limits),
		holding: cfg.HoldClocks,
	}
	s.actions, _ = lru.New[[sha256.Size]byte, *wire.ActionCache](maxActionCaches) // errs only for a size <= 0
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.env = match.Env{Host: host{s}, Log: s.log, Metrics: s.metrics, Limits: s.limits, Pools: new(match.Pools), Done: s.ctx.Done(),
		Tracer: tracing.Tracer(cfg.Tracing)}
	s.started = s.now()
	if s.store == nil {
		return s, nil
	}
	if cfg.Node != nil {
		key, err := s.store.ClusterKey(s.ctx)
		if err != nil {
			return nil, err
		}
		ck, err := caller.KeyFrom(key)
		if err != nil {
			return nil, err
		}
		s.cluster = cluster.New(cluster.Config{Node: *cfg.Node, Store: s.store, Log: s.log, Now: cfg.Now,
			Room: s.limits.Config().LiveMatches, Trust: caller.Trust{Gateway: cfg.Gateway, Cluster: ck}}, local{s})
	}
	logs := cfg.logStore
	switch {
	case logs != nil:
	case s.cluster != nil:
		logs = s.cluster.Journal()
	default:
		logs = s.store
	}
	s.writer = journal.New(logs, s.log, s.storeHealth)
	s.writer.Trace(s.env.Tracer)
	s.env.Durable = true
	if s.cluster != nil {
		// Registers the node and resumes what it owns or finds orphaned.
		if err := s.cluster.Join(s.ctx); err != nil {
			s.Close()
			return nil, fmt.Errorf("node %s: %w", cfg.Node.ID, err)
		}
	} else if err := s.resume(s.ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close stops every match clock and writes what is queued. Streams still open end with
// Unavailable; their bots may rejoin a restarted server with the same tokens.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	for _, m := range s.reg.all() {
		m.StopClock()
	}
	if s.cluster != nil {
		// A node hands its matches back: each stops here, and its seats rejoin elsewhere.
		for _, id := range (local{s}).Running() {
			s.drop(id)
		}
		s.cluster.Stop()
	}
	s.cancel()
	s.wg.Wait()
	if s.writer != nil {
		s.writer.Close()
	}
	if s.cluster != nil {
		s.cluster.Leave() // after the writer: the next owner replays a complete log
	}
}

// storeHealth pauses every match while the store cannot write (err), and resumes them when
// it can again (nil). No match starts meanwhile (Create).
func (s *Server) storeHealth(err error) {
	s.mu.Lock()
	s.storeErr = err
	hold := s.holding
	s.mu.Unlock()
	ms := s.reg.all()
	now := s.now()
	if err == nil && hold {
		return // StartClocks starts them
	}
	for _, m := range ms {
		if err != nil {
			m.Pause(now)
		} else {
			m.Unpause(now)
		}
	}
}

// StartClocks ends Config.HoldClocks' hold once the server serves: every match resumed
// meanwhile goes on, each owed decision issued again with a fresh deadline from now and the
// seat's bank as its log left it (unless the store cannot write: then they go on when it can).
func (s *Server) StartClocks() {
	s.mu.Lock()
	if !s.holding {
		s.mu.Unlock()
		return
	}
	s.holding = false
	err := s.storeErr
	s.mu.Unlock()
	if err != nil {
		return
	}
	now := s.now()
	for _, m := range s.reg.all() {
		m.Unpause(now)
	}
}

// writable is nil when the store writes, or the Unavailable status CreateMatch returns.
func (s *Server) writable() error {
	s.mu.Lock()
	err := s.storeErr
	s.mu.Unlock()
	if err != nil {
		return status.Error(codes.Unavailable, "the server cannot write to its database; no match starts and running matches are paused until it can")
	}
	if s.cluster != nil && s.cluster.Fenced() {
		return status.Error(codes.Unavailable, "this node cannot renew its leases (it is cut off from its database); no match starts here until it can: try another node")
	}
	return nil
}

// Sync waits until everything applied so far is in the store.
func (s *Server) Sync() {
	if s.writer != nil {
		s.writer.Sync()
	}
}

func (s *Server) now() time.Time { return s.cfg.Now() }

// Cluster is this node's part in its cluster, for the ladder's relays (ladder.Reach); nil
// unless Config.Node.
func (s *Server) Cluster() *cluster.Cluster { return s.cluster }
