// Package tournament runs tournaments on the server: round robin or Swiss schedules, with
// seat-rotated duplicate sets, between registered bots (seated through their open ladder
// stream) and the server's built-in bots. Schedules and progress are stored beside the
// arena's matches, so a restarted server carries on where it stopped. It also withholds the
// shared seed of a duplicate set until every match of the set has ended (service.SeedGate).
package tournament

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/store"
)

// Player answers the decisions of one seat; bots.Bot is one.
type Player interface {
	Act(d *orreryv1.Decision) *orreryv1.Answer
}

// Arena is what tournaments need of the arena: *service.Server.
type Arena interface {
	Create(ctx context.Context, spec service.MatchSpec) (id string, tokens []string, seedHash string, err error)
	AwaitEnd(ctx context.Context, id string) (*orreryv1.MatchSummary, error)
	GetMatch(ctx context.Context, req *orreryv1.GetMatchRequest) (*orreryv1.GetMatchResponse, error)
	// ScheduleTournament counts a tournament of matches against its caller's budget of
	// scheduled matches (limits.Schedule), refusing it past the budget: asked of a
	// CreateTournament without an admin key.
	ScheduleTournament(ctx context.Context, matches int) error
}

// Bots is the registered bots and their ladder streams: *ladder.Ladder.
type Bots interface {
	Registered(name string) bool
	Connected(name string) bool
	// BotID is a registered bot's identity, recorded with the seats it plays
	// (service.MatchSpec.Bots).
	BotID(name string) (int64, bool)
	// HostedVersion is the newest version of a hosted bot's module, 0 if it has none.
	HostedVersion(ctx context.Context, name string) (int, error)
	// SeatTournament seats a registered bot; version is the hosted module to play (0: the
	// newest, or none).
	SeatTournament(matchID string, seats, seat int, name, token string, version int) error
}

// Config holds the tournaments' dependencies.
type Config struct {
	DB     *store.DB // the arena's store (required)
	Logger *slog.Logger
	// Bots seats registered entrants; nil: only built-in bots may enter.
	Bots Bots
	// NewBot is the built-in bot name of game, seeded; an error if there is none.
	NewBot func(game, name string, seed uint64) (Player, error)
	// PlayIn plays the seat token names with p, in process, until the match ends or ctx is
	// done (ladder.PlayInProcess on the arena).
	PlayIn func(ctx context.Context, token string, p Player) error
	// AdminKey, if set, is required by CreateTournament and RecordTournament.
	AdminKey string
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// Cluster, if set, runs the tournaments through a job queue on the cluster's PostgreSQL
	// database (jobs.go); nil: this server drives its tournaments itself.
	Cluster *Cluster
}

// Service implements orreryv1.TournamentServiceServer and service.SeedGate.
type Service struct {
	orreryv1.UnimplementedTournamentServiceServer

	cfg   Config
	db    *db
	log   *slog.Logger
	arena Arena

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // schedulers, slot players, built-in seats

	sealMu sync.Mutex          // guards sealed alone: the arena asks under its match locks
	sealed map[string]struct{} // without a cluster: matches of duplicate sets still running (seals.go)

	mu   sync.Mutex // guards runs
	runs map[string]*run

	jobs *jobs // with Config.Cluster: the job queue; set by Start
}

var (
	_ orreryv1.TournamentServiceServer = (*Service)(nil)
	_ service.SeedGate                 = (*Service)(nil)
)

// New opens the tournaments' tables and loads the unfinished tournaments, and their sealed
// seeds, so that the arena built next withholds them from its first call. Start runs them.
func New(cfg Config) (*Service, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewBot == nil || cfg.PlayIn == nil {
		return nil, errors.New("tournament: NewBot and PlayIn are required")
	}
	d, err := openDB(cfg.DB)
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: cfg, db: d, log: cfg.Logger, sealed: make(map[string]struct{}), runs: make(map[string]*run)}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	ids, err := d.unfinishedRuns(s.ctx)
	if err != nil {
		return nil, fmt.Errorf("tournament: list unfinished: %w", err)
	}
	for _, id := range ids {
		// One unreadable tournament must not keep the server from starting: it stays stored,
		// unfinished, and is reported.
		r, err := d.loadRun(s.ctx, id)
		if err == nil {
			err = r.redraw()
		}
		if err != nil {
			// Its duplicate sets cannot be told apart: every seed of it stays withheld.
			ids, idErr := d.matchIDs(s.ctx, id)
			for _, m := range ids {
				s.sealed[m] = struct{}{}
			}
			s.log.Error("tournament: cannot resume; its seeds stay withheld", "tournament", id, "err", errors.Join(err, idErr, d.sealAll(s.ctx, id)))
			continue
		}
		if cfg.Cluster == nil {
			s.runs[id] = r // on a cluster, the job queue runs it and the database holds it
		}
		if !r.spec.GetDuplicate() {
			continue
		}
		// A tournament stored before its seals were (or by such a node) gets them now.
		if err := d.sealAll(s.ctx, id); err != nil {
			return nil, fmt.Errorf("tournament %s: seal its duplicate sets: %w", id, err)
		}
		for _, sl := range r.slots {
			if sl.matchID != "" && !r.setEnded(sl) {
				s.sealed[sl.matchID] = struct{}{}
			}
		}
	}
	return s, nil
}

// Start runs the unfinished tournaments on arena: the matches that were running when the
// server stopped get their seats back, and the schedules go on. On a cluster it brings the
// job queue's tables up to date and starts taking jobs.
func (s *Service) Start(arena Arena) error {
	s.arena = arena
	if s.cfg.Cluster != nil {
		return s.startJobs(s.ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.runs {
		s.log.Info("tournament resumed", "tournament", r.id, "ended", r.ended(), "of", r.total)
		s.wg.Add(1)
		go s.drive(r)
	}
	return nil
}

// Close stops the schedules (they resume on the next start) and waits for them.
func (s *Service) Close() {
	s.stopJobs()
	s.cancel()
	s.wg.Wait()
}

func (s *Service) now() time.Time { return s.cfg.Now() }

func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.BigEndian.Uint64(b[:])
}

// drive plays r's schedule, Parallel matches at a time, drawing Swiss rounds as the ones
// before them end, until every match has ended or the service closes.
func (s *Service) drive(r *run) {
	defer s.wg.Done()
	done := make(chan *slot)
	running := 0
	// Matches that were running when the server stopped come first.
	s.mu.Lock()
	var resume []*slot
	for _, sl := range r.slots {
		if sl.matchID != "" && !sl.ended {
			resume = append(resume, sl)
		}
	}
	s.mu.Unlock()
	for _, sl := range resume {
		running++
		s.wg.Add(1)
		go s.play(r, sl, done)
	}
	for {
		s.mu.Lock()
		var next []*slot
		for _, sl := range r.slots {
			if running+len(next) >= r.parallel {
				break
			}
			if !sl.started && !sl.ended {
				sl.started = true
				next = append(next, sl)
			}
		}
		r.running = running + len(next)
		allEnded := running == 0 && len(next) == 0 && r.ended() == len(r.slots)
		s.mu.Unlock()
		for _, sl := range next {
			running++
			s.wg.Add(1)
			go s.play(r, sl, done)
		}
		if allEnded {
			more, err := s.drawRound(r)
			if err != nil {
				if s.ctx.Err() == nil {
					s.log.Error("tournament: draw a round", "tournament", r.id, "err", err)
				}
				return
			}
			if more {
				continue
			}
			s.finish(r)
			return
		}
		select {
		case <-s.ctx.Done():
			return // the players stop with the service; the schedule resumes on the next start
		case <-done:
			running--
		}
	}
}

// drawRound draws and stores a Swiss tournament's next round; false when the schedule is
// complete.
func (s *Service) drawRound(r *run) (bool, error) {
	s.mu.Lock()
	if !r.swiss() || len(r.slots) >= r.total {
		s.mu.Unlock()
		return false, nil
	}
	from := len(r.slots)
	r.drawSwissLocked()
	added := slices.Clone(r.slots[from:])
	s.mu.Unlock()
	if len(added) == 0 {
		return false, errors.New("no table could be drawn")
	}
	if err := s.db.insertSlots(s.ctx, r.id, added); err != nil {
		return false, err
	}
	r.notify()
	return true, nil
}

func (s *Service) finish(r *run) {
	now := s.now()
	if err := s.db.finishRun(s.ctx, r.id, now); err != nil {
		s.log.Error("tournament: record the finish", "tournament", r.id, "err", err)
		return
	}
	s.mu.Lock()
	r.finished = now
	r.running = 0
	delete(s.runs, r.id)
	s.mu.Unlock()
	r.notify()
	s.log.Info("tournament finished", "tournament", r.id, "matches", len(r.slots))
}

// play plays one slot of r: it creates its match (or forfeits absent entrants), seats every
// entrant, waits for the end and stores the ranks.
func (s *Service) play(r *run, sl *slot, done chan<- *slot) {
	defer s.wg.Done()
	defer func() {
		select {
		case done <- sl:
		case <-s.ctx.Done():
		}
	}()
	for attempt := 0; sl.matchID == ""; attempt++ {
		if s.walkover(r, sl) {
			return
		}
		err := s.create(r, sl)
		if err == nil {
			break
		}
		if s.ctx.Err() != nil {
			return
		}
		// A stored tournament was valid when created: retry what fails now (the database),
		// more slowly each time.
		wait := min(time.Second<<min(attempt, 5), 30*time.Second)
		s.log.Error("tournament: cannot start a match; retrying", "tournament", r.id, "seq", sl.seq, "in", wait, "err", err)
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(wait):
		}
	}
	s.seat(r, sl)
	sum, err := s.arena.AwaitEnd(s.ctx, sl.matchID)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("tournament: lost a match", "tournament", r.id, "match", sl.matchID, "err", err)
		}
		return
	}
	// An aborted or failed match has no ranks: it ends the slot and counts in no standing.
	var ranks []int
	if rs := sum.GetResult().GetRanks(); len(rs) == len(sl.entrants) {
		ranks = make([]int, len(rs))
		for i, rk := range rs {
			ranks[i] = int(rk)
		}
	}
	s.ended(r, sl, ranks, nil, sum.GetResult().GetReason())
}

// walkover ends sl without a match when the tournament forfeits absent entrants and one of
// its registered entrants has no open stream: the absent share the last place, the present
// the first.
func (s *Service) walkover(r *run, sl *slot) bool {
	if r.spec.GetAbsent() != orreryv1.AbsentPolicy_ABSENT_POLICY_FORFEIT || s.cfg.Bots == nil {
		return false
	}
	var absent []int
	for seat, e := range sl.entrants {
		if en := r.entrants[e]; en.Builtin == "" && !s.cfg.Bots.Connected(en.Name) {
			absent = append(absent, seat)
		}
	}
	if len(absent) == 0 {
		return false
	}
	present := len(sl.entrants) - len(absent)
	ranks := make([]int, len(sl.entrants))
	for seat := range ranks {
		ranks[seat] = 1
		if slices.Contains(absent, seat) {
			ranks[seat] = present + 1
			if present == 0 {
				ranks[seat] = len(ranks)
			}
		}
	}
	s.ended(r, sl, ranks, absent, orreryv1.EndReason_END_REASON_FORFEIT)
	return true
}

// create starts sl's match and stores its id and seat tokens, so that a restarted server
// seats the entrants again.
func (s *Service) create(r *run, sl *slot) error {
	names := make([]string, len(sl.entrants))
	bots := make([]int64, len(sl.entrants)) // the registered bots, which play on their own streams
	for seat, e := range sl.entrants {
		names[seat] = r.entrants[e].Name
		if r.entrants[e].Builtin == "" && s.cfg.Bots != nil {
			bots[seat], _ = s.cfg.Bots.BotID(names[seat])
		}
	}
	seed := sl.seed
	spec := service.MatchSpec{
		Game: r.spec.GetGame(), Seats: len(names), Options: r.spec.GetOptions(), Seed: &seed,
		Clock: r.spec.GetClock(), Policy: r.spec.GetTimeoutPolicy(), Names: names, Bots: bots,
	}
	if s.jobs != nil {
		return s.createRecorded(r, sl, spec)
	}
	id, tokens, _, err := s.arena.Create(s.ctx, spec)
	if err != nil {
		return err
	}
	if r.spec.GetDuplicate() {
		// Before anything can end it: nobody sits in it yet, and its clock runs for seconds.
		s.seal(id)
	}
	if err := s.db.startSlot(s.ctx, r, sl, id, tokens); err != nil {
		return fmt.Errorf("record match %s: %w", id, err)
	}
	s.mu.Lock()
	sl.matchID, sl.tokens = id, tokens
	s.mu.Unlock()
	r.notify()
	s.log.Info("tournament match started", "tournament", r.id, "seq", sl.seq, "match", id, "entrants", names)
	return nil
}

// seat sets every entrant of sl's match playing: built-in bots in process, registered bots
// on their ladder streams (now, or when they connect).
func (s *Service) seat(r *run, sl *slot) {
	for seat, e := range sl.entrants {
		en := r.entrants[e]
		token := sl.tokens[seat]
		if en.Builtin == "" {
			if s.cfg.Bots == nil {
				s.log.Error("tournament: no ladder to seat a registered bot", "tournament", r.id, "bot", en.Name)
				continue
			}
			if err := s.cfg.Bots.SeatTournament(sl.matchID, len(sl.entrants), seat, en.Name, token, en.Module); err != nil && s.ctx.Err() == nil {
				s.log.Error("tournament: cannot seat a bot; its clock runs", "tournament", r.id, "match", sl.matchID, "bot", en.Name, "err", err)
			}
			continue
		}
		// On a cluster, the node that runs the match plays its built-in seats (sweep).
		if s.jobs == nil || s.jobs.cl.Holds(sl.matchID) {
			s.playBuiltin(r, sl, seat)
		}
	}
}

// ended stores sl's ranks and opens its set's seed once the whole set has ended.
func (s *Service) ended(r *run, sl *slot, ranks []int, forfeited []int, reason orreryv1.EndReason) {
	if err := s.db.endSlot(s.ctx, r.id, sl.seq, ranks, forfeited, reason); err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("tournament: record a result", "tournament", r.id, "seq", sl.seq, "err", err)
		}
		return
	}
	s.mu.Lock()
	sl.ranks, sl.forfeited, sl.reason, sl.ended = ranks, forfeited, reason, true
	var open []string
	if r.spec.GetDuplicate() && r.setEnded(sl) {
		for _, o := range r.slots {
			if o.round == sl.round && o.set == sl.set && o.matchID != "" {
				open = append(open, o.matchID)
			}
		}
	}
	s.mu.Unlock()
	s.unseal(open)
	r.notify()
}

// entrantsFor resolves CreateTournament's entrant names: a registered bot's name, or a
// built-in bot's (forced by "builtin:"); built-in bots entered several times are numbered.
func (s *Service) entrantsFor(game string, names []string) ([]entrant, error) {
	out := make([]entrant, 0, len(names))
	count := map[string]int{}
	for _, n := range names {
		e := entrant{Name: n}
		forced := false
		if b, ok := strings.CutPrefix(n, "builtin:"); ok && b != "" {
			e.Builtin, forced = b, true
		}
		switch {
		case !forced && s.cfg.Bots != nil && s.cfg.Bots.Registered(n):
			if slices.ContainsFunc(out, func(o entrant) bool { return o.Builtin == "" && o.Name == n }) {
				return nil, fmt.Errorf("registered bot %q entered twice", n)
			}
			v, err := s.cfg.Bots.HostedVersion(s.ctx, n)
			if err != nil {
				return nil, fmt.Errorf("entrant %q's hosted module: %w", n, err)
			}
			e.Module = v
		default:
			if !forced {
				e.Builtin = n
			}
			if _, err := s.cfg.NewBot(game, e.Builtin, 0); err != nil {
				return nil, fmt.Errorf("entrant %q is neither a registered bot nor a built-in bot of %s (%v)", n, game, err)
			}
			count[e.Builtin]++
		}
		out = append(out, e)
	}
	seen := map[string]int{}
	for i := range out {
		b := out[i].Builtin
		if b == "" {
			continue
		}
		name := b
		if s.cfg.Bots != nil && s.cfg.Bots.Registered(b) {
			name = "builtin:" + b // never the registered bot's name
		}
		if count[b] > 1 {
			seen[b]++
			name = fmt.Sprintf("%s#%d", name, seen[b])
		}
		out[i].Name = name
	}
	return out, nil
}

// checkGame is the game of a request and its seats (0: one per entrant, within range).
func checkGame(game string, seats, entrants int, options map[string]string) (engine.Info, int, error) {
	g, err := engine.Lookup(game)
	if err != nil {
		return engine.Info{}, 0, err
	}
	info := g.Info()
	if seats == 0 {
		seats = min(entrants, info.MaxSeats)
	}
	if seats < info.MinSeats || seats > info.MaxSeats {
		return info, 0, fmt.Errorf("seats %d: %s takes %d to %d", seats, info.Name, info.MinSeats, info.MaxSeats)
	}
	if seats > entrants {
		return info, 0, fmt.Errorf("seats %d needs at least %d entrants, not %d (a built-in bot may enter several times)", seats, seats, entrants)
	}
	if _, err := engine.New(game, engine.Config{Seats: seats, Options: options}); err != nil {
		return info, 0, err
	}
	return info, seats, nil
}
