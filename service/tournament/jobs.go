package tournament

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"google.golang.org/protobuf/proto"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/store"
)

// Cluster runs the tournaments of a cluster's nodes through a job queue (river) on their
// shared PostgreSQL database, instead of each node driving its own:
//   - each match of a schedule is a job; a node's workers take jobs while it has room
//     (Workers), create the match on their node, seat its entrants and watch it end;
//   - a tournament keeps at most Parallel of its matches queued or running: each match that
//     ends queues the next ones of its schedule, and draws the next Swiss round once a round
//     has ended (advance, under a row lock of the tournament, so two nodes never draw twice);
//   - a job whose node dies is retried by river, and finds its match going on (another node
//     took it over through its lease) or finished; every node also records the matches that
//     have ended and advances the schedules every second, so nothing waits for river's rescue;
//   - a match's built-in entrants are played by the node that runs the match, so a match
//     taken over keeps them.
//
// The jobs are unique by tournament and match, so queuing one twice does nothing.
type Cluster struct {
	Pool *pgxpool.Pool // the cluster's database, for river
	Node string        // this node's id
	// Workers is how many tournament matches this node plays at once (default 8).
	Workers int
	// Watch is how long one attempt of a job watches its match before handing the job back
	// to the queue (default 1 minute); a dead node's job is retried some seconds after it.
	Watch time.Duration
	// Holds reports whether match id runs on this node now (service.Server.Holds).
	Holds func(id string) bool
}

// matchArgs is the job of one match of a tournament's schedule.
type matchArgs struct {
	Tournament string `json:"tournament"`
	Seq        int    `json:"seq"`
}

func (matchArgs) Kind() string { return "orrery_tournament_match" }

// InsertOpts makes a match's job unique: queued once, whatever state it is in.
func (matchArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// jobs is the river side of a cluster's tournaments.
type jobs struct {
	cl     Cluster
	client *river.Client[pgx.Tx]

	mu      sync.Mutex      // guards playing
	playing map[string]bool // built-in seats ("match/seat") played on this node now
}

// migrateLock serialises river's migrations among nodes starting together.
const migrateLock int64 = 0x6f72726572790002

// startJobs brings river's tables up to date (its own migrations) and starts its client.
func (s *Service) startJobs(ctx context.Context) error {
	cl := *s.cfg.Cluster
	if cl.Workers == 0 {
		cl.Workers = 8
	}
	if cl.Watch == 0 {
		cl.Watch = time.Minute
	}
	driver := riverpgxv5.New(cl.Pool)
	migrator, err := rivermigrate.New(driver, nil)
	if err != nil {
		return err
	}
	if err := migrateRiver(ctx, cl.Pool, migrator); err != nil {
		return fmt.Errorf("tournament: river's migrations: %w", err)
	}
	j := &jobs{cl: cl, playing: make(map[string]bool)}
	workers := river.NewWorkers()
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[matchArgs]) error {
		return s.work(ctx, job.Args)
	}))
	j.client, err = river.NewClient(driver, &river.Config{
		ID:      cl.Node + "-" + strconv.FormatInt(time.Now().UnixNano(), 36),
		Logger:  s.log,
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cl.Workers}},
		Workers: workers,
		// A job watches its match for Watch at most, then hands it back (snooze), so that
		// river may take a job still running for one whose node died soon after.
		JobTimeout:           cl.Watch + 10*time.Second,
		RescueStuckJobsAfter: cl.Watch + 15*time.Second,
		FetchPollInterval:    250 * time.Millisecond,
	})
	if err != nil {
		return err
	}
	s.jobs = j // before the first job runs
	if err := j.client.Start(s.ctx); err != nil {
		s.jobs = nil
		return err
	}
	s.wg.Add(1)
	go s.sweepLoop()
	return nil
}

// migrateRiver runs river's migrations, one node at a time: under an advisory lock held on a
// connection of its own (some of river's migrations cannot share one transaction).
func migrateRiver(ctx context.Context, pool *pgxpool.Pool, m *rivermigrate.Migrator[pgx.Tx]) error {
	c, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	if _, err := c.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrateLock); err != nil {
		return err
	}
	_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if _, uerr := c.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, migrateLock); uerr != nil {
		c.Conn().Close(context.Background()) // its session, and the lock, end with it
	}
	return err
}

// stopJobs stops taking jobs; the running ones are handed back for another node.
func (s *Service) stopJobs() {
	if s.jobs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.jobs.client.Stop(ctx); err != nil {
		s.log.Warn("tournament: stop the job queue", "err", err)
	}
}

// work plays one match of a schedule: it creates the match if nobody has, seats its
// entrants, and watches it until it ends or Watch has passed (then the job is handed back).
func (s *Service) work(ctx context.Context, a matchArgs) error {
	r, err := s.db.loadRun(ctx, a.Tournament)
	if err != nil {
		return fmt.Errorf("tournament %s: %w", a.Tournament, err)
	}
	if err := r.redraw(); err != nil {
		return fmt.Errorf("tournament %s: %w", a.Tournament, err)
	}
	if a.Seq < 0 || a.Seq >= len(r.slots) {
		return fmt.Errorf("tournament %s has no match %d", a.Tournament, a.Seq)
	}
	sl := r.slots[a.Seq]
	if !r.finished.IsZero() || sl.ended {
		return s.advance(ctx, a.Tournament)
	}
	switch {
	case sl.matchID == "":
		if s.walkover(r, sl) {
			return s.advance(ctx, a.Tournament)
		}
		if err := s.create(r, sl); err != nil {
			return err // river retries
		}
	default:
		// Recorded by an attempt whose node may have died before creating it.
		if _, err := s.arena.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: sl.matchID}); status.Code(err) == codes.NotFound {
			if err := s.create(r, sl); err != nil {
				return err
			}
		}
	}
	s.seat(r, sl)
	watch, cancel := context.WithTimeout(ctx, s.jobs.cl.Watch)
	defer cancel()
	sum, err := s.awaitEnd(watch, sl.matchID)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return river.JobSnooze(0) // this node is stopping: another takes the job at once
	case watch.Err() != nil:
		return river.JobSnooze(time.Second) // still running: watch it again
	default:
		return err
	}
	s.record(r, sl, sum)
	return s.advance(ctx, a.Tournament)
}

// createRecorded creates sl's match on a cluster: its id and seat tokens are recorded first
// (or were, by an attempt whose node died), then the match is created with them, so that no
// node dying in between leaves a match that nobody can play.
func (s *Service) createRecorded(r *run, sl *slot, spec service.MatchSpec) error {
	keys := &service.MatchKeys{ID: sl.matchID, Tokens: sl.tokens}
	if sl.matchID == "" || len(sl.tokens) != spec.Seats {
		keys = service.NewMatchKeys(spec.Seats)
		// A duplicate set's match is sealed with it, for every node, before it exists.
		if err := s.db.startSlot(s.ctx, r, sl, keys.ID, keys.Tokens); err != nil {
			return fmt.Errorf("record match %s: %w", keys.ID, err)
		}
	}
	spec.Keys = keys
	if _, _, _, err := s.arena.Create(s.ctx, spec); err != nil {
		return err
	}
	s.mu.Lock()
	sl.matchID, sl.tokens = keys.ID, keys.Tokens
	s.mu.Unlock()
	s.log.Info("tournament match started", "tournament", r.id, "seq", sl.seq, "match", keys.ID, "entrants", spec.Names)
	return nil
}

// record stores an ended match's ranks (an aborted or failed one has none).
func (s *Service) record(r *run, sl *slot, sum *orreryv1.MatchSummary) {
	var ranks []int
	if rs := sum.GetResult().GetRanks(); len(rs) == len(sl.entrants) {
		ranks = make([]int, len(rs))
		for i, rk := range rs {
			ranks[i] = int(rk)
		}
	}
	s.ended(r, sl, ranks, nil, sum.GetResult().GetReason())
}

// awaitEnd waits for match id to end: on the arena while it runs here, otherwise from the
// store, where its node writes its result.
func (s *Service) awaitEnd(ctx context.Context, id string) (*orreryv1.MatchSummary, error) {
	for {
		if s.jobs.cl.Holds(id) {
			sum, err := s.arena.AwaitEnd(ctx, id)
			if err == nil || ctx.Err() != nil {
				return sum, err
			}
		}
		got, err := s.arena.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
		if err == nil && got.GetMatch().GetResult() != nil && got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
			return got.GetMatch(), nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// advance moves a tournament on: it draws the next Swiss round once every match drawn has
// ended, finishes the tournament once the schedule has, and queues the jobs of the first
// Parallel matches not yet ended. Under a lock of the tournament's row, so that nodes
// advancing it together draw a round once; queuing a job twice does nothing.
func (s *Service) advance(ctx context.Context, id string) error {
	var queue []matchArgs
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var finished int64
	if err := tx.QueryRowContext(ctx, `SELECT finished_ns FROM tournament_runs WHERE id = ? FOR UPDATE`, id).Scan(&finished); err != nil {
		return err
	}
	if finished != 0 {
		return nil
	}
	r, err := s.db.loadRun(ctx, id)
	if err != nil {
		return err
	}
	if err := r.redraw(); err != nil {
		return err
	}
	if r.ended() == len(r.slots) {
		if r.swiss() && len(r.slots) < r.total {
			from := len(r.slots)
			r.drawSwissLocked()
			if len(r.slots) == from {
				return errors.New("no table could be drawn")
			}
			if err := insertSlots(ctx, tx, id, r.slots[from:]); err != nil {
				return err
			}
		} else {
			if _, err := tx.ExecContext(ctx, `UPDATE tournament_runs SET finished_ns = ? WHERE id = ?`, store.UnixNano(s.now()), id); err != nil {
				return err
			}
			s.log.Info("tournament finished", "tournament", id, "matches", len(r.slots))
		}
	}
	for _, sl := range r.slots {
		if len(queue) >= r.parallel {
			break
		}
		if !sl.ended {
			queue = append(queue, matchArgs{Tournament: id, Seq: sl.seq})
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if len(queue) == 0 {
		return nil
	}
	params := make([]river.InsertManyParams, len(queue))
	for i, a := range queue {
		params[i] = river.InsertManyParams{Args: a}
	}
	_, err = s.jobs.client.InsertMany(ctx, params)
	return err
}

// sweepLoop does every second what a dead node's jobs would have: it records the matches
// of running tournaments that have ended, advances their schedules, plays the built-in seats
// of their matches that run here. (The seals of duplicate sets need no sweep: every node
// reads them from the database, seals.go.)
func (s *Service) sweepLoop() {
	defer s.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		if err := s.sweep(s.ctx); err != nil && s.ctx.Err() == nil {
			s.log.Error("tournament: sweep", "err", err)
		}
	}
}

func (s *Service) sweep(ctx context.Context) error {
	ids, err := s.db.unfinishedRuns(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		r, err := s.db.loadRun(ctx, id)
		if err == nil {
			err = r.redraw()
		}
		if err != nil {
			s.log.Error("tournament: cannot load", "tournament", id, "err", err)
			continue
		}
		for _, sl := range r.slots {
			if sl.matchID == "" || sl.ended {
				continue
			}
			if s.jobs.cl.Holds(sl.matchID) {
				s.seatBuiltins(r, sl)
				continue
			}
			got, err := s.arena.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: sl.matchID})
			if err == nil && got.GetMatch().GetResult() != nil && got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
				s.record(r, sl, got.GetMatch())
			}
		}
		// Also queues what a node that died between a draw and its jobs left unqueued.
		if err := s.advance(ctx, id); err != nil && ctx.Err() == nil {
			s.log.Error("tournament: advance", "tournament", id, "err", err)
		}
	}
	return nil
}

// seatBuiltins plays sl's built-in seats here (its match runs here) unless this node plays
// them already.
func (s *Service) seatBuiltins(r *run, sl *slot) {
	for seat, e := range sl.entrants {
		if r.entrants[e].Builtin != "" && seat < len(sl.tokens) {
			s.playBuiltin(r, sl, seat)
		}
	}
}

// playBuiltin plays a built-in entrant's seat in process, once per node.
func (s *Service) playBuiltin(r *run, sl *slot, seat int) {
	en := r.entrants[sl.entrants[seat]]
	key := sl.matchID + "/" + strconv.Itoa(seat)
	if s.jobs != nil {
		s.jobs.mu.Lock()
		if s.jobs.playing[key] {
			s.jobs.mu.Unlock()
			return
		}
		s.jobs.playing[key] = true
		s.jobs.mu.Unlock()
	}
	p := &reseeded{game: r.spec.GetGame(), name: en.Builtin, seed: sl.seed ^ (uint64(sl.entrants[seat]+1) * 0x9e3779b97f4a7c15), newBot: s.cfg.NewBot}
	token, match := sl.tokens[seat], sl.matchID
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if s.jobs != nil {
			defer func() {
				s.jobs.mu.Lock()
				delete(s.jobs.playing, key)
				s.jobs.mu.Unlock()
			}()
		}
		if err := s.cfg.PlayIn(s.ctx, token, p); err != nil && s.ctx.Err() == nil {
			s.log.Warn("tournament: built-in seat stopped", "tournament", r.id, "match", match, "bot", en.Name, "err", err)
		}
	}()
}

// reseeded plays a built-in bot whose dice for each decision follow the entrant's seed and
// the decision, not the decisions before it: a match resumed on another node, whose bots
// start afresh, plays on as it would have, so a tournament's results do not depend on where
// or whether its matches were interrupted. The decision is told by its seat and legal actions,
// not its id: a decision pending when a match stopped is issued again on resuming under the
// ply it resumed at.
type reseeded struct {
	game, name string
	seed       uint64
	newBot     func(game, name string, seed uint64) (Player, error)
}

func (p *reseeded) Act(d *orreryv1.Decision) *orreryv1.Answer {
	bot, err := p.newBot(p.game, p.name, mix(p.seed^decisionKey(d)))
	if err != nil {
		return nil // the first legal action
	}
	return bot.Act(d)
}

// decisionKey is a hash of what a decision offers: its seat and legal actions.
func decisionKey(d *orreryv1.Decision) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d", d.GetSeat(), len(d.GetLegal()))
	for _, n := range d.GetLegalNotation() {
		h.Write([]byte(n))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// watchCluster sends a running tournament of a cluster, read from the database each second,
// whenever it changes, until it finishes.
func (s *Service) watchCluster(ctx context.Context, id string, send func(*orreryv1.Tournament) error) error {
	var last *orreryv1.Tournament
	for {
		t, err := s.tournament(ctx, id, false)
		if err != nil {
			return err
		}
		if last == nil || !proto.Equal(t, last) {
			if err := send(t); err != nil {
				return err
			}
			last = t
		}
		if t.GetStatus() != orreryv1.TournamentStatus_TOURNAMENT_STATUS_RUNNING {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done():
			return errClosing
		case <-time.After(time.Second):
		}
	}
}

// running counts a loaded schedule's matches started and not ended.
func (r *run) runningFromSlots() int {
	return len(slices.DeleteFunc(slices.Clone(r.slots), func(sl *slot) bool { return sl.matchID == "" || sl.ended }))
}
