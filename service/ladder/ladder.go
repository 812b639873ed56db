// Package ladder is Orrery's continuous ladder: registered bots with API keys, a matchmaker
// that seats bots of similar rating together (widening its window with the wait, and filling
// with house bots after a bounded wait), OpenSkill ratings per game updated transactionally
// after every match, and leaderboards. It also seats registered bots in the matches of
// server-run tournaments (SeatTournament), on the same stream.
//
// A bot connects once: an ArenaService.Play stream whose first message is LadderJoin, with its
// API key as "authorization: bearer <key>". The ladder then plays every match it seats the bot
// in over that stream, each message naming its match, until the bot leaves.
package ladder

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/store"
)

// Player answers the decisions of one seat: bots.Bot is one. The ladder takes its house
// players as values so that the service imports no bots.
// Act must keep no part of d once it returns: the arena builds the seat's next decision in
// its memory (match.Seat.Play).
type Player interface {
	Act(d *orreryv1.Decision) *orreryv1.Answer
}

// House is a bot the ladder plays itself: a built-in bot under a house identity, or a hosted
// bot (a registered bot's uploaded module), rated like anyone.
type House struct {
	Bot  string // the identity, "house-greedy"; one identity may play several games
	Game string
	New  func(seed uint64) Player
	// Play, if set, plays the seat itself instead of a Player from New: a hosted bot, which
	// needs the seat to have its limits applied (service/hosted.Library.PlaySeat).
	Play func(ctx context.Context, st *match.Seat, seat int, seed uint64) error
}

// Config holds the ladder's dependencies and tuning. The zero value of every tuning field
// takes the default in its comment.
type Config struct {
	DB     *store.DB // the arena's store: the ladder's tables live beside the matches (required)
	Logger *slog.Logger
	// Model rates the matches; zero: DefaultModel with Tau = 25/300, so ratings keep moving.
	Model Model
	// Games the ladder runs; nil: every registered game.
	Games []string
	// Seats is the seats of a ladder match by game; default 4, within the game's range.
	Seats map[string]int
	// Options are the game options of ladder matches, by game.
	Options map[string]map[string]string
	// Clock and Policy are the ladder matches' time control; nil: the arena's default.
	Clock  *orreryv1.Clock
	Policy orreryv1.TimeoutPolicy
	// House lists the house bots; HouseMatches is how many matches among house bots alone
	// are kept running, taking turns between games (0: none); HousePace is a pause before
	// each house move, so that house matches leave the machine room (0: none).
	House        []House
	HouseMatches int
	HousePace    time.Duration
	// Window and Widen: bots whose mu differ by at most Window + Widen·(seconds waited) may
	// share a match (defaults 3 and 0.5). After FillAfter (default 5s) house bots complete
	// a waiting bot's match.
	Window    float64
	Widen     float64
	FillAfter time.Duration
	// Tick is the matchmaking interval (default 250ms); RateEvery the interval of the sweep
	// that rates finished matches nobody reported (default 30s).
	Tick      time.Duration
	RateEvery time.Duration
	// MaxMatches caps LadderJoin.max_matches (default 8).
	MaxMatches int
	// A bot whose clock ran out in PauseAfter consecutive matches (default 3) is paused from
	// matchmaking for PauseFor (default 10 minutes).
	PauseAfter int
	PauseFor   time.Duration
	// AdminKey, if set, is required by RegisterBot and may act for any bot.
	AdminKey string
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// Cluster, if set, makes this ladder one node's share of a cluster's (cluster.go); nil:
	// the only ladder on its store.
	Cluster *Cluster
	// Hosted, if set, is the server's hosted bots: uploaded modules the ladder seats itself
	// as it seats house bots (hosted.go).
	Hosted Hosted
}

// Ladder implements service.LadderServer and orreryv1.LadderServiceServer.
type Ladder struct {
	orreryv1.UnimplementedLadderServiceServer

	cfg   Config
	db    *db
	log   *slog.Logger
	model Model
	games []string
	house map[string][]House // by game
	moved TournamentCalls    // the deprecated LadderService tournament calls; set before serving

	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup // matchmaker, rater, match watchers, house seats
	kick     chan struct{}  // wakes the matchmaker
	rateKick chan struct{}  // wakes the rater
	arena    Arena
	started  chan struct{} // closed by Start

	mu        sync.Mutex // guards every field below
	bots      map[int64]*bot
	byName    map[string]*bot
	byKey     map[string]*bot // hex SHA-256 of the key; revoked keys are not here
	conns     map[int64]*conn // the open ladder stream of each connected bot
	live      map[string]*liveMatch
	queue     *Queue
	rng       *mrand.Rand
	houseLive int                  // house-only matches running
	houseLast map[string]time.Time // when each game last started a house-only match

	cl clusterState // with Config.Cluster
}

// bot is a registered bot in memory.
type bot struct {
	botRow
	ratings map[string]storedRating
}

// liveMatch is a running ladder match and who plays each seat.
type liveMatch struct {
	id        string
	game      string
	bots      []int64
	house     []*House // nil for a registered bot's seat
	tokens    []string
	runner    []*conn // the stream playing each bot seat now, nil if none
	houseOnly bool
	// A tournament's match (SeatTournament): not rated, and its timeouts do not count
	// towards a pause from matchmaking. Seats that no registered bot plays have bot id 0.
	tournament bool
	// seated: on a cluster, held only while this node's streams play seats of it.
	seated bool
}

var _ service.LadderServer = (*Ladder)(nil)

// Arena is what the ladder needs of the arena it plays on (*service.Server).
type Arena interface {
	// Create starts a match and returns its id, seat tokens and seed hash.
	Create(ctx context.Context, spec service.MatchSpec) (string, []string, string, error)
	// Attach connects to the seat a token names, here.
	Attach(token string, eventsSeen *int64) (*match.Seat, error)
	// AwaitEnd waits for a match's end and returns its summary.
	AwaitEnd(ctx context.Context, id string) (*orreryv1.MatchSummary, error)
	// Holds reports whether a match runs in this arena's memory now.
	Holds(id string) bool
	// Abort ends a running match as aborted.
	Abort(ctx context.Context, id, detail string)
	// Sync waits until everything applied so far is stored.
	Sync()
}

// Seats is what an in-process player needs of the arena: a seat by its token.
type Seats interface {
	Attach(token string, eventsSeen *int64) (*match.Seat, error)
}

// New opens the ladder's tables, registers the house identities and loads the bots. Start it
// with the arena once the arena exists.
func New(cfg Config) (*Ladder, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Model == (Model{}) {
		cfg.Model = DefaultModel()
		cfg.Model.Tau = 25.0 / 300
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	setDefault(&cfg.Window, 3)
	setDefault(&cfg.Widen, 0.5)
	setDefault(&cfg.FillAfter, 5*time.Second)
	setDefault(&cfg.Tick, 250*time.Millisecond)
	setDefault(&cfg.RateEvery, 30*time.Second)
	setDefault(&cfg.MaxMatches, 8)
	setDefault(&cfg.PauseAfter, 3)
	setDefault(&cfg.PauseFor, 10*time.Minute)
	d, err := openDB(cfg.DB)
	if err != nil {
		return nil, err
	}
	l := &Ladder{
		cfg: cfg, db: d, log: cfg.Logger, model: cfg.Model,
		house: make(map[string][]House), kick: make(chan struct{}, 1), rateKick: make(chan struct{}, 1),
		started: make(chan struct{}),
		bots:    make(map[int64]*bot), byName: make(map[string]*bot), byKey: make(map[string]*bot),
		conns: make(map[int64]*conn), live: make(map[string]*liveMatch), houseLast: make(map[string]time.Time),
	}
	var seed [16]byte
	rand.Read(seed[:])
	l.rng = mrand.New(mrand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])))
	l.ctx, l.cancel = context.WithCancel(context.Background())

	l.games = cfg.Games
	if l.games == nil {
		l.games = engine.Names()
	}
	tables := make(map[string]Table)
	for _, h := range cfg.House {
		l.house[h.Game] = append(l.house[h.Game], h)
	}
	for _, name := range l.games {
		g, err := engine.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("ladder: %w", err)
		}
		info := g.Info()
		seats := cfg.Seats[name]
		if seats == 0 {
			seats = 4
		}
		seats = min(max(seats, info.MinSeats), info.MaxSeats)
		tables[name] = Table{Seats: seats, MinSeats: info.MinSeats, House: len(l.house[name])}
	}
	l.queue = NewQueue(Params{Tables: tables, Window: cfg.Window, Widen: cfg.Widen, FillAfter: cfg.FillAfter})

	ctx := context.Background()
	rows, err := d.bots(ctx)
	if err != nil {
		return nil, fmt.Errorf("ladder: load bots: %w", err)
	}
	for _, r := range rows {
		l.addBotLocked(&bot{botRow: *r, ratings: make(map[string]storedRating)})
	}
	for _, h := range cfg.House {
		if _, ok := l.byName[h.Bot]; ok {
			continue
		}
		b := &bot{botRow: botRow{name: h.Bot, house: true, created: cfg.Now(),
			description: "a built-in bot the server plays"}, ratings: make(map[string]storedRating)}
		if err := d.insertHouseBot(ctx, &b.botRow); err != nil {
			return nil, fmt.Errorf("ladder: register house bot %s: %w", h.Bot, err)
		}
		l.addBotLocked(b)
	}
	ratings, err := d.ratings(ctx)
	if err != nil {
		return nil, fmt.Errorf("ladder: load ratings: %w", err)
	}
	for id, byGame := range ratings {
		if b := l.bots[id]; b != nil {
			b.ratings = byGame
		}
	}
	if cfg.Hosted != nil {
		if err := l.loadHosted(ctx); err != nil {
			return nil, fmt.Errorf("ladder: load hosted bots: %w", err)
		}
	}
	return l, nil
}

func setDefault[T comparable](v *T, d T) {
	var zero T
	if *v == zero {
		*v = d
	}
}

func (l *Ladder) addBotLocked(b *bot) {
	l.bots[b.id] = b
	l.byName[b.name] = b
	if b.keyHash != "" && !b.revoked {
		l.byKey[b.keyHash] = b
	}
}

func (l *Ladder) now() time.Time { return l.cfg.Now() }

// Register adds the LadderService to a gRPC server (service.GRPCOptions.Register).
func (l *Ladder) Register(s *grpc.Server) { orreryv1.RegisterLadderServiceServer(s, l) }

// Start runs the ladder on arena: it rates the finished ladder matches not yet rated (those a
// crash or restart left), watches the ladder matches the arena resumed, and starts the
// matchmaker and the house matches.
func (l *Ladder) Start(arena Arena) error {
	l.arena = arena
	close(l.started)
	if l.cfg.Cluster != nil {
		l.clusterStart()
		return nil
	}
	if err := l.ratePending(l.ctx); err != nil {
		return fmt.Errorf("ladder: rate pending matches: %w", err)
	}
	resumed, err := l.resumeMatches(l.ctx)
	if err != nil {
		return fmt.Errorf("ladder: resume unfinished matches: %w", err)
	}
	l.wg.Add(2)
	go l.loop(l.cfg.Tick, l.kick, l.matchmake) // forms matches, also whenever a bot joins or a match ends
	go l.loop(l.cfg.RateEvery, l.rateKick, l.rate)
	l.log.Info("ladder started", "games", l.games, "bots", len(l.bots), "resumed", resumed)
	return nil
}

// Close stops matchmaking, closes the ladder streams (Unavailable) and waits for the
// ladder's goroutines. Close it before the arena.
func (l *Ladder) Close() {
	l.cancel()
	l.mu.Lock()
	conns := make([]*conn, 0, len(l.conns))
	for _, c := range l.conns {
		conns = append(conns, c)
	}
	l.mu.Unlock()
	for _, c := range conns {
		c.stop(errClosing)
	}
	l.wg.Wait()
	l.clusterClose()
}

// isStarted reports whether Start has run.
func (l *Ladder) isStarted() bool {
	select {
	case <-l.started:
		return true
	default:
		return false
	}
}

func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// loop runs work every interval and whenever kick fires, until the ladder closes.
func (l *Ladder) loop(interval time.Duration, kick <-chan struct{}, work func()) {
	defer l.wg.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-l.ctx.Done():
			return
		case <-t.C:
		case <-kick:
		}
		work()
	}
}

// playHouse plays one seat with a house bot, in process.
func (l *Ladder) playHouse(lm *liveMatch, seat int, h *House) {
	defer l.wg.Done()
	var hash uint64
	for _, c := range lm.id {
		hash = hash*31 + uint64(c)
	}
	seed := hash + uint64(seat)*0x9e3779b97f4a7c15
	var err error
	if h.Play != nil {
		err = l.playHosted(lm.tokens[seat], seat, seed, h)
	} else {
		err = PlayInProcess(l.ctx, l.arena, lm.tokens[seat], h.New(seed), l.cfg.HousePace)
	}
	if err != nil && l.ctx.Err() == nil {
		l.log.Warn("ladder: house seat stopped", "match", lm.id, "bot", h.Bot, "err", err)
	}
}

// playHosted plays the seat that token names with a hosted house bot.
func (l *Ladder) playHosted(token string, seat int, seed uint64, h *House) error {
	st, err := l.arena.Attach(token, nil)
	if err != nil {
		return fmt.Errorf("take the seat: %w", err)
	}
	defer st.Detach()
	return h.Play(l.ctx, st, seat, seed)
}

// AddHouse seats h's bot from now on as the house bots are seated, replacing its entry for
// h.Game if it had one: a hosted bot given a new module.
func (l *Ladder) AddHouse(h House) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.byName[h.Bot]; !ok {
		return fmt.Errorf("ladder: no bot %q", h.Bot)
	}
	t, ok := l.queue.p.Tables[h.Game]
	if !ok {
		return fmt.Errorf("ladder: %s is not played on this ladder", h.Game)
	}
	hs := l.house[h.Game]
	if i := slices.IndexFunc(hs, func(o House) bool { return o.Bot == h.Bot }); i >= 0 {
		hs[i] = h
	} else {
		l.house[h.Game] = append(hs, h)
	}
	t.House = len(l.house[h.Game])
	l.queue.p.Tables[h.Game] = t
	return nil
}

// PlayInProcess plays the seat that token names with p, in process, until the match ends or
// ctx is done, waiting pace before each answer. A rejected answer is replaced by the first
// legal action, which is always accepted, rather than lose the turn. House bots and a
// tournament's built-in entrants play this way.
func PlayInProcess(ctx context.Context, arena Seats, token string, p Player, pace time.Duration) error {
	st, err := arena.Attach(token, nil)
	if err != nil {
		return fmt.Errorf("take the seat: %w", err)
	}
	defer st.Detach()
	id := st.MatchID()
	// Only the decision's id is kept once it is answered: the seat lends its messages back
	// (match.Seat.Play), and its next decision is built in the memory of this one.
	var current string
	err = st.Play(ctx, func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
		switch m := resp.GetMsg().(type) {
		case *orreryv1.PlayResponse_Decision:
			current = m.Decision.GetDecisionId()
			if pace > 0 {
				select {
				case <-ctx.Done():
				case <-time.After(pace):
				}
			}
			a := act(p, m.Decision)
			a.DecisionId, a.MatchId = current, id
			return a, nil
		case *orreryv1.PlayResponse_Rejected:
			rej := m.Rejected
			if current != "" && rej.GetDecisionId() == current && rej.GetCode() != orreryv1.RejectCode_REJECT_CODE_STALE_DECISION {
				a := &orreryv1.Answer{DecisionId: current, MatchId: id, Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}
				current = ""
				return a, nil
			}
		}
		return nil, nil
	})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// act asks p for an answer, turning a panic or no answer into the first legal action.
func act(p Player, d *orreryv1.Decision) (a *orreryv1.Answer) {
	defer func() {
		if recover() != nil || a == nil {
			a = &orreryv1.Answer{Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}
		}
	}()
	return p.Act(d)
}

// rate rates finished matches; the ladder runs it whenever a match ends, and every RateEvery
// for any it did not see end (matches resumed after a restart).
func (l *Ladder) rate() {
	if err := l.ratePending(l.ctx); err != nil && l.ctx.Err() == nil {
		l.log.Error("ladder: rating", "err", err)
	}
}

// ratePending rates the finished ladder matches not yet rated, in the order they were
// created and up to the first still running (db.pending), each in its own transaction with
// its rated_matches row; a match another node rated meanwhile is skipped. The arena's writes are flushed first,
// so the rated result is the stored one.
func (l *Ladder) ratePending(ctx context.Context) error {
	if l.arena != nil {
		l.arena.Sync()
	}
	pending, err := l.db.pending(ctx)
	if err != nil {
		return err
	}
	for _, p := range pending {
		out, err := l.db.rateMatch(ctx, l.model, p, l.now())
		if errors.Is(err, errRated) {
			continue
		}
		if err != nil {
			return fmt.Errorf("match %s: %w", p.id, err)
		}
		if out == nil {
			continue
		}
		l.mu.Lock()
		for i, id := range p.bots {
			if b := l.bots[id]; b != nil {
				b.ratings[p.game] = out[i]
			}
		}
		l.mu.Unlock()
		l.log.Debug("ladder match rated", "match", p.id, "game", p.game)
	}
	return nil
}

// validGames checks a LadderJoin's games; none means every ladder game.
func (l *Ladder) validGames(games []string) ([]string, error) {
	if len(games) == 0 {
		return l.games, nil
	}
	out := make([]string, 0, len(games))
	for _, g := range games {
		if !slices.Contains(l.games, g) {
			return nil, fmt.Errorf("the ladder runs no game %q (it runs %s)", g, strings.Join(l.games, ", "))
		}
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out, nil
}
