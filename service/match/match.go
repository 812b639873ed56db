package match

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/store"
)

// Match is one game in progress (or recently finished) and its seats.
type Match struct {
	env      *Env
	id       string
	game     string
	cfg      engine.Config
	seedHash string
	seedSalt string // secret until the match ends
	names    []string
	clock    Clock
	policy   orreryv1.TimeoutPolicy
	created  time.Time
	span     trace.Span // guarded by mu; nil unless Env.Tracer is set (spans.go)

	// gone: this node no longer owns the match (cut off from the database, or handing it
	// back at shutdown): it is paused for good and its streams end with ErrGone, so that its
	// bots rejoin through any node and reach its next owner. Atomic: the journal's goroutine
	// sets it without the match's lock (MarkGone).
	gone atomic.Bool

	mu    sync.Mutex // guards every field below, and the fields of its Seats that say so
	st    engine.State
	steps []logged
	ev    eventLog
	seats []seatState
	idPly int64 // the ply of the last decision id issued, and ids issued at it
	idSeq int64
	gen   int64 // numbers the seats' connections, so a newer join replaces an older one
	ended bool
	// recorded: the result is in the store. Until then nobody is told the match ended (no
	// MatchEnded, no seed, no all-seeing view, no FINISHED status).
	recorded bool
	// paused: the store cannot write; the match waits with its clocks stopped (Pause).
	paused   bool
	pausedAt time.Time
	result   engine.Result
	endedAt  time.Time
	changed  chan struct{} // closed and replaced on every change: a broadcast to streams
	timeouts *rand.Rand    // the timeout policy's choices, seeded from the match seed
	toAct    []engine.Seat
	actions  *wire.ActionCache // typed envelopes and notation, shared by matches of one configured game
	// nextAdvance is when a wall-clock game next advances: every decision's deadline.
	nextAdvance time.Time
	timer       *time.Timer // the match's clock (scheduleLocked)
	timerAt     time.Time   // when timer fires; zero when stopped
	// spectate is the public view last built, for its ply and end state: every spectator
	// shares it, so many spectators cost one build per change, not one each under the lock.
	spectate     *orreryv1.Spectate
	spectateOver bool
	// watchers counts the spectators; while there are any, every change publishes the
	// public view to pub once, and spectators read it from there without the lock.
	watchers int
	pub      atomic.Pointer[Public]
	// unjoined ends the match as aborted if no seat joins in time (limits.Config.Unjoined).
	unjoined *time.Timer
	// abandoned ends it as aborted once every connected seat has left and none has come
	// back in time (limits.Config.Abandoned); running only while no seat is connected.
	abandoned *time.Timer
	joined    bool
	// decided and latency are the game's series of metrics, looked up at the first decision:
	// looking up the label on every decision hashed it each time.
	decided prometheus.Counter
	latency prometheus.Observer
	// chain, while a seat the server plays answers (Seat.Play) or a stream's reader applies
	// an answer (AnswerHere), takes the first stream it wakes that the answering goroutine
	// sends next (chained.take), once that seat has nothing more to do.
	chain *chained
}

// logged is one applied step with its notation.
type logged struct {
	step     engine.Step
	notation string
	timedOut orreryv1.TimeoutPolicy
	lab      stepLab
}

type seatState struct {
	// rejects is the seat's budget of rejected answers (limits.Rejects), made at its first
	// rejection and kept across its streams, so that rejoining does not refill it.
	rejects   *limits.Rejects
	stream    int64 // generation of the connected stream; 0 when none
	bank      time.Duration
	pending   *pending
	delivered int64 // events delivered to this seat, for resuming
	// acked is how many events the seat has acknowledged: those it was sent up to the last
	// decision it answered. Stored with the result, it is where a final join of the match,
	// served from the store, resumes the seat's events when the join does not say.
	acked int64
	// answered is the wall-clock step this seat last answered in (answeredIn); it is not
	// asked again in that step, or a fast bot would be handed decision after decision.
	answered   bool
	answeredIn int64
	// late holds the seat's last few withdrawn decisions on the wall clock, so that an
	// answer arriving after its tick resolved still applies, to the next one.
	late [4]*pending
	// spare is the decision the seat last answered, reused for its next one: nothing else
	// holds it once answered (a withdrawn decision goes to late instead).
	spare    *pending
	timeouts int
	live     *Seat         // the seat connected, woken when a change gives it something new
	trip     time.Duration // the think time of its last answer applied, for its next decision
}

// New puts a match in play at the position log holds (a new match's opening, NewLog, or one
// re-run from its stored log after a restart, Replay) and issues its first decisions.
func New(env *Env, spec Spec, log *Log) *Match {
	m := newMatch(env, spec, log)
	m.timeouts = log.timeoutRand
	if m.timeouts == nil {
		m.timeouts = timeoutRand(spec.Config.Seed)
	}
	for i := range m.seats {
		m.seats[i].bank = spec.Clock.Bank
		if bank, ok := log.banks[i]; ok {
			m.seats[i].bank = bank
		}
		m.seats[i].timeouts = log.timeouts[i]
	}
	env.Metrics.MatchesStarted.WithLabelValues(m.game).Inc()
	env.Metrics.MatchesRunning.Inc()
	now := env.Host.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if t, ok := m.st.(engine.Ticker); ok && m.clock.Wall {
		m.nextAdvance = now.Add(t.AdvanceAfter())
	} else {
		m.clock.Wall = false
	}
	if m.st.Terminal() { // a resumed log was complete but its result was not written
		m.endLocked(now, m.st.Result(), false)
		return m
	}
	m.unjoined = time.AfterFunc(env.Limits.Unjoined(), m.expireUnjoined)
	m.startSpanLocked(spec.Trace, len(m.steps) > 0)
	m.refreshLocked(now)
	return m
}

// Load is a finished match rebuilt from its stored log and result, for a spectator or a
// seat that rejoins after it left memory: it runs no clock, and is not the server's to keep.
func Load(env *Env, spec Spec, log *Log, ended time.Time, r engine.Result, acked []int64) *Match {
	m := newMatch(env, spec, log)
	m.ended, m.recorded, m.endedAt, m.result = true, true, ended, r
	// A seat that joins without saying what it has seen is sent the events from its last
	// acknowledged one: nothing of what was sent after it is known to have arrived.
	for i := range m.seats {
		if i < len(acked) && acked[i] >= 0 && acked[i] <= int64(len(m.ev.refs)) {
			m.seats[i].acked, m.seats[i].delivered = acked[i], acked[i]
		}
	}
	return m
}

func newMatch(env *Env, spec Spec, log *Log) *Match {
	return &Match{
		env: env, id: spec.ID, game: spec.Game, cfg: spec.Config, seedHash: spec.SeedHash, seedSalt: spec.SeedSalt,
		names: spec.Names, clock: spec.Clock, policy: spec.Policy, created: spec.Created, actions: spec.Actions,
		st: log.st, steps: log.steps, ev: eventLog{refs: log.events},
		seats: make([]seatState, spec.Config.Seats), changed: make(chan struct{}),
	}
}

// ID is the match's id.
func (m *Match) ID() string { return m.id }

// Seats is how many seats the match has.
func (m *Match) Seats() int { return len(m.seats) }

// overLocked reports whether the match has ended and its result is stored: only then may
// anyone be told it ended.
func (m *Match) overLocked() bool { return m.ended && m.recorded }

// Over reports whether the match has ended and its result is stored.
func (m *Match) Over() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.overLocked()
}

// Ended reports whether the match has ended, stored or not, or left this node.
func (m *Match) Ended() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ended
}

// Await is the match's summary once it is over, or else a channel closed at its next change.
func (m *Match) Await() (*orreryv1.MatchSummary, <-chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.overLocked() {
		return m.summaryLocked(), nil
	}
	return nil, m.changedLocked()
}

// Pause stops the match while the store cannot write, or until a restarted server serves:
// its clock stops and answers wait.
func (m *Match) Pause(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.paused || m.overLocked() {
		return
	}
	m.paused, m.pausedAt = true, now
	m.scheduleLocked()
	m.notifyLocked()
}

// Unpause goes on after a pause: every owed decision is issued again with a new id and a
// fresh deadline (answers sent during the pause were refused as stale), and a wall-clock
// game's next step is put off by the pause's length.
func (m *Match) Unpause(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.paused || m.gone.Load() { // a match handed off stays paused for good (HandOff)
		return
	}
	m.paused = false
	if m.clock.Wall {
		m.nextAdvance = m.nextAdvance.Add(now.Sub(m.pausedAt))
	}
	for i := range m.seats {
		m.seats[i].withdraw()
		m.seats[i].answered = false
	}
	m.refreshLocked(now)
	m.notifyLocked()
}

// notifyLocked tells everyone following the match that it changed: the seats that this
// change gives something to send, the spectators (publishLocked), and whoever waits on
// changed (Await).
func (m *Match) notifyLocked() {
	old := m.changed
	m.changed = nil // made again when someone waits for the next change (changedLocked)
	if m.watchers > 0 {
		m.publishLocked() // before old closes, so that a woken spectator finds the new view
	}
	if old != nil {
		close(old)
	}
	for i := range m.seats {
		if st := m.seats[i].live; st != nil {
			st.wakeLocked()
		}
	}
}

// changedLocked is a channel closed at the match's next change. It is made only when asked
// for: a seat's sender is woken directly (Seat.wakeLocked), so a match whose seats all play
// over streams made one for every change only to close it unread.
func (m *Match) changedLocked() <-chan struct{} {
	if m.changed == nil {
		m.changed = make(chan struct{})
	}
	return m.changed
}

// endLocked is the one way a match ends, whatever ends it: its rules, a forfeit on time, an
// abort, no seat joining, an internal failure, or a hand-off to another node (handOff: the
// match is not over, its end is the next owner's to record, and nothing is stored here).
// The seats and spectators are told once the result is stored.
func (m *Match) endLocked(now time.Time, r engine.Result, handOff bool) {
	if m.ended {
		return
	}
	m.ended = true
	m.env.Metrics.MatchesRunning.Dec()
	m.env.Host.Ended(m)
	if m.unjoined != nil {
		m.unjoined.Stop()
	}
	if m.abandoned != nil {
		m.abandoned.Stop()
	}
	if !handOff {
		m.result, m.endedAt = r, now
		m.env.Metrics.MatchesFinished.WithLabelValues(m.game, r.Reason.String()).Inc()
		if m.env.Durable {
			res := &store.Result{Ranks: r.Ranks, Scores: r.Scores, Reason: int32(wire.EndReason(r.Reason)), Detail: r.Detail, Plies: int64(len(m.steps))}
			// Each seat's timeouts and time bank, so that the summary reads the same once the
			// match has left memory.
			for i := range m.seats {
				res.Timeouts = append(res.Timeouts, m.seats[i].timeouts)
				res.Banks = append(res.Banks, m.seats[i].bank)
				res.Acked = append(res.Acked, m.seats[i].acked)
			}
			m.env.Host.Finish(m.id, now, res, m.stored)
		} else {
			m.recorded = true
		}
		m.env.Log.Info("match ended", "match", m.id, "game", m.game, "reason", r.Reason.String(), "plies", len(m.steps))
	}
	m.refreshLocked(now) // ends the decisions' spans (recycle)
	m.endSpanLocked(r.Reason, handOff)
	m.notifyLocked()
}

// stored runs once the match's result is in the store: now everyone may be told.
func (m *Match) stored() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recorded = true
	m.notifyLocked()
	m.releaseIfIdleLocked()
}

// aborted is the result of a match ended before its rules ended it.
func (m *Match) aborted(detail string) engine.Result {
	return engine.Result{Ranks: make([]int, len(m.seats)), Scores: make([]float64, len(m.seats)), Reason: engine.EndAborted, Detail: detail}
}

// Abort ends a running match as aborted, with detail as its reason: a match nobody can play
// any more. A match that has ended is left as it is.
func (m *Match) Abort(detail string) {
	now := m.env.Host.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.endLocked(now, m.aborted(detail), false)
}

// MarkGone says at once, without the match's lock, that this node no longer owns the match:
// nothing more of it is stored or told. HandOff follows.
func (m *Match) MarkGone() { m.gone.Store(true) }

// HandOff stops a match this node no longer owns: it is paused for good (no answer applies,
// no clock fires) and its seats' streams end with ErrGone, to rejoin through its next owner.
func (m *Match) HandOff(now time.Time) {
	m.gone.Store(true)
	m.StopClock()
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.paused {
		m.paused, m.pausedAt = true, now
	}
	m.endLocked(now, engine.Result{}, true)
	m.scheduleLocked()
	m.notifyLocked()
}

// releaseIfIdleLocked lets the host forget an ended match once its result is stored and no
// seat is connected: later calls are served from the store.
func (m *Match) releaseIfIdleLocked() {
	if !m.overLocked() {
		return
	}
	for i := range m.seats {
		if m.seats[i].stream != 0 {
			return // its stream releases it when it goes (disconnect)
		}
	}
	m.env.Host.Released(m)
}

// ReleaseIfIdle is releaseIfIdleLocked for a match the server just put in memory: a resumed
// log that was complete may be stored as ended already.
func (m *Match) ReleaseIfIdle() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.releaseIfIdleLocked()
}

// Summary describes the match.
func (m *Match) Summary() *orreryv1.MatchSummary {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.summaryLocked()
}

func (m *Match) summaryLocked() *orreryv1.MatchSummary {
	s := &orreryv1.MatchSummary{
		MatchId:       m.id,
		Game:          m.game,
		Seats:         int32(len(m.seats)),
		Options:       m.cfg.Options,
		Status:        orreryv1.MatchStatus_MATCH_STATUS_RUNNING,
		SeedHash:      m.seedHash,
		Ply:           int64(len(m.steps)),
		Created:       timestamppb.New(m.created),
		Clock:         m.clock.Proto(),
		TimeoutPolicy: m.policy,
	}
	switch {
	case m.overLocked():
		s.Status = orreryv1.MatchStatus_MATCH_STATUS_FINISHED
		s.Ended = timestamppb.New(m.endedAt)
		s.Result = wire.Result(m.result)
	case m.paused:
		s.Status = orreryv1.MatchStatus_MATCH_STATUS_PAUSED
	}
	for i := range m.seats {
		s.SeatInfo = append(s.SeatInfo, &orreryv1.SeatInfo{
			Seat: int32(i), Name: m.names[i], Connected: m.seats[i].stream != 0,
			TimeBank: durationpb.New(m.seats[i].bank), Timeouts: int32(m.seats[i].timeouts),
		})
	}
	return s
}

// Replay is the ended match's replay; ErrRunning until it is over.
func (m *Match) Replay() (*orreryv1.GetReplayResponse, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.overLocked() {
		return nil, ErrRunning
	}
	l := &Log{st: m.st, steps: m.steps, events: m.ev.refs}
	return l.Replay(m.summaryLocked(), m.cfg.Seed, m.seedSalt), nil
}

// abandonedDetail is why a match whose seats all left ended.
func abandonedDetail(d time.Duration) string {
	return fmt.Sprintf("every connected seat left and none came back within %v", d)
}

// unjoinedDetail is why a match nobody joined ended.
func unjoinedDetail(d time.Duration) string { return fmt.Sprintf("no seat joined within %v", d) }
