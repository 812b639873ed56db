// Package service is Orrery's gRPC arena: it runs matches in memory, persists their action
// logs, and speaks orrery.v1 to bots and spectators.
package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"net"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/datasets"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/seedcommit"
	"github.com/orrery/orrery/service/store"
)

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
	// Limits bounds what clients can make the server hold; zero fields take defaults.
	Limits limits.Config
	// Node, if set, makes this server one of several sharing Store: it runs only the
	// matches it holds the lease of, and takes over those of dead nodes (cluster.go).
	Node *Node
	// logStore, if set, is where the writer writes instead of Store (tests inject failures).
	logStore logStore
	// DataSets resolves data-set options that name a set into the bytes stored with the
	// match; nil: data sets are taken inline only.
	DataSets DataSets
	// HoldClocks keeps the matches New resumes paused, their clocks stopped, until
	// StartClocks: the time a restarting server takes before it serves (replaying logs,
	// starting the ladder, listening) is not charged to seats that could not yet answer.
	HoldClocks bool
}

// ReservedNames says which seat names belong to known bots (the ladder's).
type ReservedNames interface {
	Reserved(name string) bool
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
	writer  *writer
	log     *slog.Logger
	metrics *Metrics
	cfg     Config
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup // match clocks firing
	loops   sync.WaitGroup // the node's renew, claim and fence loops
	drops   sync.WaitGroup // matches being dropped after their lease lapsed (cluster.go)

	streamGen atomic.Int64 // numbers Play streams, so a newer join replaces an older one
	live      atomic.Int64 // matches running (not ended)
	renewed   atomic.Int64 // on a node: when its leases were last renewed (UnixNano)
	limits    *limits.Limits
	// actions holds the action caches of the configured games (name and options) used last;
	// bounded, because every distinct option set (a Planet inline data set, say) would
	// otherwise keep a cache of up to 65,536 actions for the server's life. A match keeps its
	// own cache, so one evicted here only stops being shared with later matches.
	actions *lru.Cache[[sha256.Size]byte, *wire.ActionCache]
	// legalBufs lends matches a buffer to list legal actions into: a match keeps only the
	// lists its seats owe (and their last answered one, to reuse), not a scratch buffer as
	// long as the longest list it ever made.
	legalBufs sync.Pool // *[]engine.Action
	// pendings holds the decisions of ended matches, with their legal lists, for the seats of
	// new ones: a seat's first decisions otherwise grew a list from nothing in every match.
	pendings sync.Pool // *pending
	// decisions holds the decision messages of seats whose streams (or lending Runs) ended,
	// view memory and all, for the seats of new matches (decisionLocked).
	decisions sync.Pool // *decisionMsg
	// senders are the sender goroutines waiting for a seat with something to send (sendFor).
	senders idleSenders
	peers   *peers // connections to the other nodes of a cluster; nil without one

	mu       sync.Mutex        // guards matches, byToken, closed, storeErr, fenced, creating, holding
	matches  map[string]*match // running, or ended with a seat still connected (release)
	byToken  map[[32]byte]seatRef
	closed   bool      // no match clock fires once set
	storeErr error     // the store's last write failed with this; nil when writes work
	started  time.Time // matches stored unfinished before this and not in memory did not resume
	// fenced: the node could not renew its leases in time and dropped these matches; nil
	// while it renews (cluster.go).
	fenced []string
	// creating: matches Create has leased and not yet put in memory, which a takeover pass
	// must not take for strays (cluster.go).
	creating map[string]bool
	// holding: Config.HoldClocks and StartClocks not yet called; matches resumed meanwhile
	// stay paused.
	holding bool
}

type seatRef struct {
	m    *match
	seat engine.Seat
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
		store:    cfg.Store,
		log:      cfg.Logger,
		metrics:  cfg.Metrics,
		cfg:      cfg,
		matches:  make(map[string]*match),
		creating: make(map[string]bool),
		byToken:  make(map[[32]byte]seatRef),
		limits:   limits.New(cfg.Limits),
		holding:  cfg.HoldClocks,
	}
	s.actions, _ = lru.New[[sha256.Size]byte, *wire.ActionCache](maxActionCaches) // errs only for a size <= 0
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.started = s.now()
	if s.store != nil {
		logs := cfg.logStore
		switch {
		case logs != nil:
		case cfg.Node != nil:
			logs = leasedLog{s}
		default:
			logs = s.store
		}
		s.writer = newWriter(logs, s.log, s.storeHealth)
		if cfg.Node != nil {
			node := *cfg.Node
			if node.LeaseTTL == 0 {
				node.LeaseTTL = defaultLeaseTTL
			}
			s.cfg.Node = &node
			s.peers = newPeers(node.Creds)
			err := s.heartbeat(s.ctx) // registers the node and resumes what it owns or finds orphaned
			if err != nil {
				s.Close()
				return nil, fmt.Errorf("node %s: %w", cfg.Node.ID, err)
			}
			s.loops.Add(3)
			ttl := node.LeaseTTL
			go s.every(ttl/3, s.renewTick)
			go s.every(ttl/3, s.claimTick)
			go s.every(ttl/12, s.fenceTick)
		} else if err := s.resume(); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Close stops every match clock and writes what is queued. Streams still open end with
// Unavailable; their bots may rejoin a restarted server with the same tokens.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	ms := make([]*match, 0, len(s.matches))
	for _, m := range s.matches {
		ms = append(ms, m)
	}
	s.mu.Unlock()
	for _, m := range ms {
		m.stopClock()
	}
	if s.cfg.Node != nil {
		// A node hands its matches back: each stops here, and its seats rejoin elsewhere.
		for _, m := range s.running() {
			s.drop(m)
		}
	}
	s.cancel()
	s.loops.Wait()
	s.wg.Wait()
	if s.writer != nil {
		s.writer.close()
	}
	s.drops.Wait()
	if s.cfg.Node != nil && s.store != nil {
		s.leave() // after the writer: the next owner replays a complete log
	}
	if s.peers != nil {
		s.peers.close()
	}
}

// storeHealth pauses every match while the store cannot write (err), and resumes them when
// it can again (nil). No match starts meanwhile (Create).
func (s *Server) storeHealth(err error) {
	s.mu.Lock()
	s.storeErr = err
	ms := make([]*match, 0, len(s.matches))
	for _, m := range s.matches {
		ms = append(ms, m)
	}
	s.mu.Unlock()
	now := s.now()
	if err == nil && s.holding {
		return // StartClocks starts them
	}
	for _, m := range ms {
		if err != nil {
			m.pause(now)
		} else {
			m.unpause(now)
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
	ms := make([]*match, 0, len(s.matches))
	for _, m := range s.matches {
		ms = append(ms, m)
	}
	s.mu.Unlock()
	if err != nil {
		return
	}
	now := s.now()
	for _, m := range ms {
		m.unpause(now)
	}
}

// writable is nil when the store writes, or the Unavailable status CreateMatch returns.
func (s *Server) writable() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.storeErr != nil {
		return status.Error(codes.Unavailable, "the server cannot write to its database; no match starts and running matches are paused until it can")
	}
	if s.fenced != nil {
		return status.Error(codes.Unavailable, "this node cannot renew its leases (it is cut off from its database); no match starts here until it can: try another node")
	}
	return nil
}

// enter lets a match clock fire unless the server is closing; the caller then calls wg.Done.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	return true
}

// Sync waits until everything applied so far is in the store.
func (s *Server) Sync() {
	if s.writer != nil {
		s.writer.sync()
	}
}

func (s *Server) now() time.Time { return s.cfg.Now() }

// caller names who called, for per-caller limits: the peer's host. In-process callers (the
// ladder) have none and are not limited.
func caller(ctx context.Context) string {
	p, ok := peer.FromContext(ctx)
	if !ok || p.Addr == nil {
		return ""
	}
	if host, _, err := net.SplitHostPort(p.Addr.String()); err == nil {
		return host
	}
	return p.Addr.String()
}

func hashToken(token string) [32]byte { return sha256.Sum256([]byte(token)) }

// revealSeed is the one place a match's seed and salt are revealed: to its seats and
// spectators once it has ended (and its result is stored), and in its replay.
func revealSeed(ended bool, seed uint64, salt string) (uint64, string) {
	if !ended {
		return 0, ""
	}
	return seed, salt
}

func randomToken() string {
	var b [32]byte
	rand.Read(b[:]) // crypto/rand never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// seatToken is a new seat token of match id: the match's id, a dot, and the secret. The id
// lets any node of a cluster find the match a join is for without searching (forward.go);
// only the whole token's hash, kept by the match, admits the seat.
func seatToken(id string) string { return id + "." + randomToken() }

// tokenMatch is the id of the match a seat token names (seatToken), or "" for a token from
// before that format (a secret alone, without a dot), which names none.
func tokenMatch(token string) string {
	id, _, named := strings.Cut(token, ".")
	if !named {
		return ""
	}
	return id
}

// ListGames is the catalog.
func (s *Server) ListGames(ctx context.Context, _ *orreryv1.ListGamesRequest) (*orreryv1.ListGamesResponse, error) {
	resp := &orreryv1.ListGamesResponse{}
	for _, name := range engine.Names() {
		g, _ := engine.Lookup(name)
		resp.Games = append(resp.Games, wire.GameInfo(g))
	}
	return resp, nil
}

// MatchSpec is a match to create, in engine terms.
type MatchSpec struct {
	Game    string
	Seats   int
	Options map[string]string
	Seed    *uint64
	Clock   *orreryv1.Clock
	Policy  orreryv1.TimeoutPolicy
	Names   []string
	// Bots is the registered or house bot (BotIdentities) that plays each seat, 0 for a seat
	// anyone with its token may play; only in-process callers that seat bots set it.
	Bots []int64
	// Keys, if set, are the match's id and seat tokens (NewMatchKeys), chosen by an
	// in-process caller that records them before the match exists: on a cluster, a node dying
	// between creating a match and recording it would leave a match nobody can play.
	Keys *MatchKeys
}

// MatchKeys are a match's id and its seats' tokens.
type MatchKeys struct {
	ID     string
	Tokens []string
}

// NewMatchKeys draws a new match's id and the tokens of its seats.
func NewMatchKeys(seats int) *MatchKeys {
	k := &MatchKeys{ID: store.MatchID(time.Now()), Tokens: make([]string, seats)}
	for i := range k.Tokens {
		k.Tokens[i] = seatToken(k.ID)
	}
	return k
}

// CreateMatch starts a match.
func (s *Server) CreateMatch(ctx context.Context, req *orreryv1.CreateMatchRequest) (*orreryv1.CreateMatchResponse, error) {
	if !s.relayedByNode(ctx) { // a node that relays a create has counted it against its caller
		if err := s.limits.Create(caller(ctx), s.now()); err != nil {
			return nil, err
		}
	}
	if s.cfg.Names != nil {
		for i, name := range req.GetSeatNames() {
			if s.cfg.Names.Reserved(strings.TrimSpace(name)) {
				return nil, status.Errorf(codes.PermissionDenied, "seat_names[%d] %q is a registered bot's name: only the ladder seats it", i, s.limits.Clip(name))
			}
		}
	}
	if conn, err := s.createElsewhere(ctx); err != nil {
		return nil, err
	} else if conn != nil {
		resp, err := orreryv1.NewArenaServiceClient(conn).CreateMatch(s.ForwardContext(ctx), req)
		return resp, relayStatus(err)
	}
	id, tokens, hash, err := s.Create(ctx, MatchSpec{
		Game: req.GetGame(), Seats: int(req.GetSeats()), Options: req.GetOptions(), Seed: req.Seed,
		Clock: req.GetClock(), Policy: req.GetTimeoutPolicy(), Names: req.GetSeatNames(),
	})
	if err != nil {
		return nil, err
	}
	resp := &orreryv1.CreateMatchResponse{MatchId: id, SeedHash: hash}
	for i, t := range tokens {
		resp.Seats = append(resp.Seats, &orreryv1.SeatToken{Seat: int32(i), Token: t})
	}
	return resp, nil
}

// Create starts a match and returns its id, seat tokens and seed hash. In-process callers
// (the ladder, the CLI) use it directly.
func (s *Server) Create(ctx context.Context, spec MatchSpec) (string, []string, string, error) {
	if spec.Game == "" {
		return "", nil, "", status.Error(codes.InvalidArgument, "game is required; ListGames lists them")
	}
	if err := s.writable(); err != nil {
		return "", nil, "", err
	}
	g, err := engine.Lookup(spec.Game)
	if err != nil {
		return "", nil, "", status.Error(codes.InvalidArgument, err.Error())
	}
	info := g.Info()
	if spec.Seats == 0 {
		return "", nil, "", status.Errorf(codes.InvalidArgument, "seats is required: %s takes %d to %d", info.Name, info.MinSeats, info.MaxSeats)
	}
	if len(spec.Names) > spec.Seats {
		return "", nil, "", status.Errorf(codes.InvalidArgument, "%d seat names for %d seats", len(spec.Names), spec.Seats)
	}
	if len(spec.Bots) > spec.Seats {
		return "", nil, "", status.Errorf(codes.InvalidArgument, "%d seat bots for %d seats", len(spec.Bots), spec.Seats)
	}
	if err := s.limits.SeatNames(spec.Names); err != nil {
		return "", nil, "", err
	}
	if err := s.limits.Options(info, spec.Options); err != nil {
		return "", nil, "", err
	}
	if err := s.limits.Live(int(s.live.Load())); err != nil {
		return "", nil, "", err
	}
	c, err := s.clockFrom(spec.Clock, info)
	if err != nil {
		return "", nil, "", err
	}
	policy := spec.Policy
	if policy == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
		// A real-time team that misses a tick keeps its intents (the game's default action);
		// a turn-based seat that misses a turn gets a seeded random legal action.
		policy = orreryv1.TimeoutPolicy_TIMEOUT_POLICY_RANDOM
		if info.RealTime {
			policy = orreryv1.TimeoutPolicy_TIMEOUT_POLICY_DEFAULT
		}
	}
	if _, ok := orreryv1.TimeoutPolicy_name[int32(policy)]; !ok {
		return "", nil, "", status.Errorf(codes.InvalidArgument, "unknown timeout policy %d", policy)
	}
	var seed uint64
	if spec.Seed != nil {
		seed = *spec.Seed
	} else {
		var b [8]byte
		rand.Read(b[:])
		seed = binary.BigEndian.Uint64(b[:])
	}
	// A named data set becomes its bytes here, so the match never reads a file again.
	resolved, err := s.cfg.DataSets.Resolve(info, spec.Options)
	if err != nil {
		return "", nil, "", toStatus(err)
	}
	opts := make(map[string]string, len(resolved)+1)
	for k, v := range resolved {
		opts[k] = v
	}
	if info.RealTime && (c.wall || opts["clock"] == "wall") {
		c.wall = true
		opts["clock"] = "wall" // the engine then resolves ticks only when the server advances it
	}
	cfg := engine.Config{Seats: spec.Seats, Seed: seed, Options: opts}
	st, err := engine.New(spec.Game, cfg)
	if err != nil {
		return "", nil, "", toStatus(err)
	}
	names := make([]string, spec.Seats)
	copy(names, spec.Names)
	keys := spec.Keys
	if keys == nil {
		keys = NewMatchKeys(spec.Seats)
	} else if len(keys.Tokens) != spec.Seats || keys.ID == "" {
		return "", nil, "", status.Errorf(codes.InvalidArgument, "match keys: %d tokens for %d seats", len(keys.Tokens), spec.Seats)
	}
	tokens := keys.Tokens
	hashes := make([]string, spec.Seats)
	for i := range tokens {
		h := hashToken(tokens[i])
		hashes[i] = hex.EncodeToString(h[:])
	}
	salt, commitment := seedcommit.New(seed)
	rec := &store.Match{
		ID: keys.ID, Game: spec.Game, Seats: spec.Seats, Options: opts, Seed: seed, SeedSalt: salt, SeedHash: commitment,
		Names: names, TokenHashes: hashes, Bots: seatBots(spec.Bots, spec.Seats), PerMove: c.perMove, Increment: c.increment, TimeBank: c.bank,
		TimeoutPolicy: int32(policy), Created: s.now(),
	}
	rec.WallClock = c.wall
	if s.store != nil {
		s.mu.Lock()
		s.creating[rec.ID] = true
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			delete(s.creating, rec.ID)
			s.mu.Unlock()
		}()
		if err := s.lease(ctx, rec.ID); err != nil {
			return "", nil, "", toStatus(err)
		}
		if err := s.store.CreateMatch(ctx, rec); err != nil {
			// A database that cannot take the match (a full disk): the client may retry later.
			s.log.Error("store: create match", "err", err)
			return "", nil, "", status.Error(codes.Unavailable, "the server cannot write to its database; try again later")
		}
	}
	m := s.start(rec, &replayed{st: st, events: openingEvents(st)}, c)
	s.log.Info("match created", "match", m.id, "game", m.game, "seats", spec.Seats)
	return m.id, tokens, rec.SeedHash, nil
}

func (s *Server) clockFrom(c *orreryv1.Clock, info engine.Info) (clock, error) {
	out := clock{perMove: s.cfg.Clock.PerMove, increment: s.cfg.Clock.Increment, bank: s.cfg.Clock.TimeBank}
	check := func(name string, d time.Duration, dst *time.Duration) error {
		if d < 0 || d > 24*time.Hour {
			return status.Errorf(codes.InvalidArgument, "clock.%s %v out of range 0..24h", name, d)
		}
		*dst = d
		return nil
	}
	if c.GetPerMove() != nil {
		if err := check("per_move", c.GetPerMove().AsDuration(), &out.perMove); err != nil {
			return out, err
		}
		if out.perMove == 0 {
			return out, status.Error(codes.InvalidArgument, "clock.per_move must be positive")
		}
	}
	if c.GetIncrement() != nil {
		if err := check("increment", c.GetIncrement().AsDuration(), &out.increment); err != nil {
			return out, err
		}
	}
	if c.GetTimeBank() != nil {
		if err := check("time_bank", c.GetTimeBank().AsDuration(), &out.bank); err != nil {
			return out, err
		}
	}
	if c.GetWallClock() {
		if !info.RealTime {
			return out, status.Errorf(codes.InvalidArgument, "clock.wall_clock is for real-time games; %s is turn-based", info.Name)
		}
		out.wall = true
	}
	return out, nil
}

// start puts a match in memory, at the position r holds (a new match, or one re-run from its
// log after a restart), and issues its first decisions.
func (s *Server) start(rec *store.Match, r *replayed, c clock) *match {
	st := r.st
	m := &match{
		srv: s, id: rec.ID, game: rec.Game, seedHash: rec.SeedHash, seedSalt: rec.SeedSalt, names: rec.Names, clock: c,
		cfg:     engine.Config{Seats: rec.Seats, Seed: rec.Seed, Options: rec.Options},
		policy:  orreryv1.TimeoutPolicy(rec.TimeoutPolicy),
		created: rec.Created, st: st, seats: make([]seatState, rec.Seats),
		changed:  make(chan struct{}),
		timeouts: r.timeoutRand,
		actions:  s.actionCache(rec.Game, rec.Options),
		steps:    r.steps,
		events:   r.events,
	}
	if m.timeouts == nil {
		m.timeouts = timeoutRand(rec.Seed)
	}
	for i := range m.seats {
		m.seats[i].bank = c.bank
		if bank, ok := r.banks[i]; ok {
			m.seats[i].bank = bank
		}
		m.seats[i].timeouts = r.timeouts[i]
		if h, err := hex.DecodeString(rec.TokenHashes[i]); err == nil && len(h) == 32 {
			copy(m.seats[i].tokenHash[:], h)
		}
	}
	s.metrics.MatchesStarted.WithLabelValues(m.game).Inc()
	s.metrics.MatchesRunning.Inc()
	s.live.Add(1)
	m.mu.Lock()
	if t, ok := st.(engine.Ticker); ok && c.wall {
		m.nextAdvance = s.now().Add(t.AdvanceAfter())
	} else {
		m.clock.wall = false
	}
	if st.Terminal() { // a resumed log was complete but its result was not written
		m.finishLocked(s.now(), st.Result())
	} else {
		m.unjoined = time.AfterFunc(s.limits.Unjoined(), m.expireUnjoined)
	}
	m.refreshLocked(s.now())
	m.mu.Unlock()
	s.mu.Lock()
	s.matches[m.id] = m
	for i := range m.seats {
		s.byToken[m.seats[i].tokenHash] = seatRef{m: m, seat: engine.Seat(i)}
	}
	s.mu.Unlock()
	m.mu.Lock()
	m.releaseIfIdleLocked() // a resumed log that was complete may be stored as ended already
	m.mu.Unlock()
	return m
}

// maxActionCaches is how many configured games' action caches the server keeps for matches
// still to come: many more than the option sets a busy server plays at once.
const maxActionCaches = 64

// actionCache is the action cache of a configured game: the same options, the same cache.
// The key is a digest, as options may hold a whole data set.
func (s *Server) actionCache(game string, options map[string]string) *wire.ActionCache {
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	h.Write([]byte(game))
	for _, k := range keys {
		fmt.Fprintf(h, "\x00%d:%s=%d:%s", len(k), k, len(options[k]), options[k])
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	if c, ok := s.actions.Get(key); ok {
		return c
	}
	c := new(wire.ActionCache)
	if prev, ok, _ := s.actions.PeekOrAdd(key, c); ok {
		return prev
	}
	return c
}

// release drops an ended match whose result is stored from memory (match.releaseIfIdleLocked):
// it is served from the store from then on, its seats' tokens found there (attachStored).
// Without a store every match stays, as nothing else could serve it.
func (s *Server) release(m *match) {
	if s.store == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.matches[m.id] != m {
		return // rebuilt from the store for one caller (load); never held here
	}
	delete(s.matches, m.id)
	for i := range m.seats {
		delete(s.byToken, m.seats[i].tokenHash)
	}
}

// resume restarts every unfinished match in the store by replaying its log (on a node of a
// cluster: those it claims).
func (s *Server) resume() error {
	ctx := context.Background()
	recs, err := s.claim(ctx)
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	if len(recs) > 1 {
		// Reading a match's log reads the whole of the store's step log (a node taking over
		// a dead one's matches finds it full): emptied once, not read once per match.
		if err := s.store.Compact(ctx); err != nil {
			s.log.Warn("resume: compact the step log", "err", err)
		}
	}
	for _, rec := range recs {
		r, err := s.replay(ctx, rec)
		if err != nil {
			// A match that cannot go on is marked failed, never left running nor served as
			// ended; its seats are told so when they rejoin (Attach).
			s.log.Error("resume: cannot replay match; marking it failed", "match", rec.ID, "err", err)
			res := &store.Result{Reason: store.ReasonFailed, Detail: failedDetail}
			if err := s.store.FinishMatch(ctx, rec.ID, s.now(), res); err != nil {
				return fmt.Errorf("resume: mark match %s failed: %w", rec.ID, err)
			}
			s.metrics.MatchesFinished.WithLabelValues(rec.Game, orreryv1.EndReason_END_REASON_FAILED.String()).Inc()
			continue
		}
		c := clock{perMove: rec.PerMove, increment: rec.Increment, bank: rec.TimeBank, wall: rec.WallClock}
		m := s.start(rec, r, c)
		s.mu.Lock()
		hold := s.holding
		s.mu.Unlock()
		if hold {
			m.pause(s.now())
		}
		s.log.Info("match resumed", "match", rec.ID, "game", rec.Game, "plies", len(r.steps))
	}
	return nil
}

// replayed is a stored match re-run from its log: its state, steps and numbered events.
type replayed struct {
	st     engine.State
	steps  []logged
	events []eventRef
	banks  map[int]time.Duration // each seat's time bank after its last logged step
	// timeouts counts each seat's timed-out steps, and timeoutRand is the timeout policy's
	// generator as it stood after them, so that a resumed match goes on choosing as it would
	// have without the restart.
	timeouts    map[int]int
	timeoutRand *mrand.Rand
}

// openingEvents numbers the events a game emits as it starts (Planet deals the objectives),
// before any step: seats and spectators are told them like any other.
func openingEvents(st engine.State) []eventRef {
	n := st.EventCount()
	if n == 0 {
		return nil
	}
	refs := make([]eventRef, n)
	for i := range refs {
		refs[i] = eventRef{engine: i}
	}
	return refs
}

// timeoutRand is the generator of a match's timeout policy, seeded from the match seed.
func timeoutRand(seed uint64) *mrand.Rand { return mrand.New(engine.NewRand(seed ^ 0x7173)) }

// replay rebuilds a stored match's state from its log.
func (s *Server) replay(ctx context.Context, rec *store.Match) (*replayed, error) {
	return replayRecord(ctx, s.store, rec)
}

// failedDetail is what the API says of a match that could not be resumed. The exact cause
// stays in the server's log, which quotes no action: a failing step's notation may be a
// seat's secret.
const failedDetail = "the server could not resume this match from its log (its game or data changed); it will not go on"

// replayError is a log that no longer replays. It names the step and the kind of fault, not
// the action, which may be hidden information.
type replayError struct {
	seq int64
	err error
}

func (e *replayError) Error() string {
	kind := "does not apply"
	switch {
	case errors.Is(e.err, engine.ErrBadNotation):
		kind = "does not parse"
	case errors.Is(e.err, engine.ErrNotYourTurn):
		kind = "is out of turn"
	case errors.Is(e.err, engine.ErrGameOver):
		kind = "comes after the end"
	}
	return fmt.Sprintf("logged step %d %s", e.seq, kind)
}

func (e *replayError) Unwrap() error { return e.err }

func replayRecord(ctx context.Context, db *store.DB, rec *store.Match) (*replayed, error) {
	st, err := engine.New(rec.Game, engine.Config{Seats: rec.Seats, Seed: rec.Seed, Options: rec.Options})
	if err != nil {
		return nil, fmt.Errorf("the match's game or options no longer start: %w", err)
	}
	stored, err := db.Steps(ctx, rec.ID)
	if err != nil {
		return nil, err
	}
	r := &replayed{st: st, steps: make([]logged, 0, len(stored)), events: openingEvents(st), banks: make(map[int]time.Duration),
		timeouts: make(map[int]int), timeoutRand: timeoutRand(rec.Seed)}
	for _, sp := range stored {
		step := engine.Step{Seat: engine.Seat(sp.Seat)}
		if !(sp.Seat == int(engine.Spectator) && sp.Notation == "") {
			if step.Action, err = st.ParseAction(sp.Notation); err != nil {
				return nil, &replayError{seq: sp.Seq, err: fmt.Errorf("%w: %w", engine.ErrBadNotation, err)}
			}
		}
		// Events are numbered as they were live: a timeout's event before its action's.
		if sp.TimedOut != 0 {
			r.events = append(r.events, eventRef{engine: -1, timedOut: sp.Seat, policy: orreryv1.TimeoutPolicy(sp.TimedOut)})
			r.timeouts[sp.Seat]++
			// The policy drew from the seat's legal list then (timeoutLocked), forfeits aside.
			if sp.TimedOut != int32(orreryv1.TimeoutPolicy_TIMEOUT_POLICY_FORFEIT) && sp.Seat >= 0 {
				if n := len(st.Legal(engine.Seat(sp.Seat), nil)); n > 0 {
					r.timeoutRand.IntN(n)
				}
			}
		}
		before := st.EventCount()
		if err := engine.ApplyStep(st, step); err != nil {
			return nil, &replayError{seq: sp.Seq, err: err}
		}
		for i := before; i < st.EventCount(); i++ {
			r.events = append(r.events, eventRef{engine: i})
		}
		r.steps = append(r.steps, logged{step: step, notation: sp.Notation, timedOut: orreryv1.TimeoutPolicy(sp.TimedOut)})
		if sp.Seat >= 0 {
			r.banks[sp.Seat] = sp.Bank
		}
	}
	return r, nil
}

// lookup finds a match in memory.
func (s *Server) lookup(id string) *match {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.matches[id]
}

// GetMatch describes one match.
func (s *Server) GetMatch(ctx context.Context, req *orreryv1.GetMatchRequest) (*orreryv1.GetMatchResponse, error) {
	at, err := s.locate(ctx, req.GetMatchId())
	if err != nil {
		return nil, err
	}
	if conn, err := s.elsewhere(ctx, at); err != nil {
		return nil, err
	} else if conn != nil {
		resp, err := orreryv1.NewArenaServiceClient(conn).GetMatch(s.ForwardContext(ctx), req)
		return resp, relayStatus(err)
	}
	return &orreryv1.GetMatchResponse{Match: at.summary()}, nil
}

// ListMatches lists matches newest first. With a store it lists everything stored; without,
// the matches in memory.
func (s *Server) ListMatches(ctx context.Context, req *orreryv1.ListMatchesRequest) (*orreryv1.ListMatchesResponse, error) {
	size := int(req.GetPageSize())
	if size < 0 || size > 500 {
		return nil, status.Errorf(codes.InvalidArgument, "page_size %d out of range 0..500", size)
	}
	if size == 0 {
		size = 50
	}
	if s.store == nil {
		if req.GetBot() != "" {
			return nil, s.noBot(req.GetBot())
		}
		return s.listMemory(req, size), nil
	}
	f := store.Filter{Game: req.GetGame(), SeatName: req.GetSeatName(), Before: req.GetPageToken(), Limit: size}
	if name := req.GetBot(); name != "" {
		id, err := s.botID(name)
		if err != nil {
			return nil, err
		}
		f.Bot = id
	}
	switch req.GetStatus() {
	case orreryv1.MatchStatus_MATCH_STATUS_RUNNING:
		f.Status = store.Running
	case orreryv1.MatchStatus_MATCH_STATUS_FINISHED:
		f.Status = store.Finished
	case orreryv1.MatchStatus_MATCH_STATUS_FAILED:
		f.Status = store.Failed
	}
	recs, next, err := s.store.List(ctx, f)
	if err != nil {
		return nil, toStatus(err)
	}
	return &orreryv1.ListMatchesResponse{NextPageToken: next, Matches: s.summaries(ctx, recs)}, nil
}

// summaries describes stored matches. A running match that another node of the cluster
// holds is described by its owner, as GetMatch relays it (the store has only its start),
// the owners asked a few at a time; one that cannot answer leaves the stored description.
func (s *Server) summaries(ctx context.Context, recs []*store.Match) []*orreryv1.MatchSummary {
	out := make([]*orreryv1.MatchSummary, len(recs))
	var asking sync.WaitGroup
	turns := make(chan struct{}, 16) // a page may list 500 matches held elsewhere
	for i, rec := range recs {
		at := s.locateStored(rec)
		out[i] = at.summary()
		if at.m != nil || rec.Result != nil || s.cfg.Node == nil {
			continue
		}
		turns <- struct{}{}
		asking.Go(func() {
			defer func() { <-turns }()
			conn, err := s.elsewhere(ctx, at)
			if err != nil || conn == nil {
				return
			}
			resp, err := orreryv1.NewArenaServiceClient(conn).GetMatch(s.ForwardContext(ctx), &orreryv1.GetMatchRequest{MatchId: rec.ID})
			if err == nil && resp.GetMatch() != nil {
				out[i] = resp.GetMatch()
			}
		})
	}
	asking.Wait()
	return out
}

// botID is the identity of the bot called name.
func (s *Server) botID(name string) (int64, error) {
	if s.cfg.Bots != nil {
		if id, ok := s.cfg.Bots.BotID(name); ok {
			return id, nil
		}
	}
	return 0, s.noBot(name)
}

func (s *Server) noBot(name string) error {
	return status.Errorf(codes.NotFound, "bot: no registered or house bot %q", s.limits.Clip(name))
}

// seatBots is MatchSpec.Bots for n seats, nil when no seat has a bot.
func seatBots(bots []int64, n int) []int64 {
	if !slices.ContainsFunc(bots, func(id int64) bool { return id != 0 }) {
		return nil
	}
	out := make([]int64, n)
	copy(out, bots)
	return out
}

func (s *Server) listMemory(req *orreryv1.ListMatchesRequest, size int) *orreryv1.ListMatchesResponse {
	s.mu.Lock()
	ms := make([]*match, 0, len(s.matches))
	for _, m := range s.matches {
		ms = append(ms, m)
	}
	s.mu.Unlock()
	resp := &orreryv1.ListMatchesResponse{}
	for _, m := range ms {
		m.mu.Lock()
		sum := m.summaryLocked()
		m.mu.Unlock()
		if req.GetGame() != "" && sum.Game != req.GetGame() {
			continue
		}
		if req.GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_UNSPECIFIED && sum.Status != req.GetStatus() {
			continue
		}
		resp.Matches = append(resp.Matches, sum)
	}
	sortSummaries(resp.Matches)
	if len(resp.Matches) > size {
		resp.Matches = resp.Matches[:size]
	}
	return resp
}

// GetReplay is a finished match's seed, log, events and result.
func (s *Server) GetReplay(ctx context.Context, req *orreryv1.GetReplayRequest) (*orreryv1.GetReplayResponse, error) {
	if s.seedWithheld(req.GetMatchId()) {
		return nil, errSetRunning(req.GetMatchId())
	}
	at, err := s.locate(ctx, req.GetMatchId())
	if err != nil {
		return nil, err
	}
	if at.orphan {
		return nil, matchFailed(req.GetMatchId())
	}
	if at.m == nil {
		return LoadReplay(ctx, s.store, req.GetMatchId())
	}
	m := at.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.overLocked() {
		return nil, errReplayRunning
	}
	return replayOf(m.summaryLocked(), m.cfg.Seed, m.seedSalt, &replayed{st: m.st, steps: m.steps, events: m.events}), nil
}

// LoadReplay reads a finished match's replay from the store, re-running its log.
func LoadReplay(ctx context.Context, db *store.DB, id string) (*orreryv1.GetReplayResponse, error) {
	rec, err := db.Match(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, matchNotFound(id)
	}
	if err != nil {
		return nil, toStatus(err)
	}
	if rec.Failed() {
		return nil, matchFailed(rec.ID)
	}
	if rec.Result == nil {
		return nil, errReplayRunning
	}
	r, err := replayRecord(ctx, db, rec)
	if err != nil {
		return nil, status.Errorf(codes.DataLoss, "replay of %s: %v", rec.ID, err)
	}
	return replayOf(summaryFromStore(rec), rec.Seed, rec.SeedSalt, r), nil
}

// replayOf is an ended match's replay.
func replayOf(sum *orreryv1.MatchSummary, seed uint64, salt string, r *replayed) *orreryv1.GetReplayResponse {
	out := &orreryv1.GetReplayResponse{Match: sum}
	out.Seed, out.SeedSalt = revealSeed(true, seed, salt)
	for _, l := range r.steps {
		step := &orreryv1.ReplayStep{Seat: int32(l.step.Seat), Notation: l.notation, TimedOut: l.timedOut}
		if !l.step.Action.IsZero() {
			step.Action = wire.Action(r.st.ActionProto(l.step.Action))
		}
		out.Steps = append(out.Steps, step)
	}
	events := &match{st: r.st, events: r.events}
	out.Events = events.eventsLocked(engine.Spectator, 0)
	out.FinalText = r.st.Render(engine.Spectator)
	return out
}

func summaryFromStore(rec *store.Match) *orreryv1.MatchSummary {
	sum := &orreryv1.MatchSummary{
		MatchId: rec.ID, Game: rec.Game, Seats: int32(rec.Seats), Options: rec.Options,
		Status: orreryv1.MatchStatus_MATCH_STATUS_RUNNING, SeedHash: rec.SeedHash,
		Created:       timestamppb.New(rec.Created),
		Clock:         clockProto(clock{perMove: rec.PerMove, increment: rec.Increment, bank: rec.TimeBank, wall: rec.WallClock}),
		TimeoutPolicy: orreryv1.TimeoutPolicy(rec.TimeoutPolicy),
	}
	for i, name := range rec.Names {
		info := &orreryv1.SeatInfo{Seat: int32(i), Name: name}
		if r := rec.Result; r != nil && i < len(r.Timeouts) && i < len(r.Banks) {
			info.Timeouts, info.TimeBank = int32(r.Timeouts[i]), durationpb.New(r.Banks[i])
		}
		sum.SeatInfo = append(sum.SeatInfo, info)
	}
	if rec.Failed() {
		sum.Status = orreryv1.MatchStatus_MATCH_STATUS_FAILED
		sum.Ended = timestamppb.New(rec.Ended)
		sum.Result = &orreryv1.Result{Reason: orreryv1.EndReason_END_REASON_FAILED, Detail: rec.Result.Detail}
		return sum
	}
	if r := rec.Result; r != nil {
		sum.Status = orreryv1.MatchStatus_MATCH_STATUS_FINISHED
		sum.Ended = timestamppb.New(rec.Ended)
		sum.Ply = r.Plies
		sum.Result = &orreryv1.Result{Scores: r.Scores, Reason: orreryv1.EndReason(r.Reason), Detail: r.Detail}
		for _, rank := range r.Ranks {
			sum.Result.Ranks = append(sum.Result.Ranks, int32(rank))
		}
	}
	return sum
}

func sortSummaries(ms []*orreryv1.MatchSummary) {
	sort.SliceStable(ms, func(i, j int) bool {
		return ms[i].GetCreated().AsTime().After(ms[j].GetCreated().AsTime())
	})
}
