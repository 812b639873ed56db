package service

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/store"
)

// clock is a match's time control.
type clock struct {
	perMove, increment, bank time.Duration
	// wall advances a real-time game on the wall clock at its own pace (engine.Ticker).
	wall bool
}

// match is one game in progress (or recently finished) and its seats.
type match struct {
	srv      *Server
	id       string
	game     string
	cfg      engine.Config
	seedHash string
	seedSalt string // secret until the match ends
	names    []string
	clock    clock
	policy   orreryv1.TimeoutPolicy
	created  time.Time

	// gone: this node no longer owns the match (cut off from the database, or handing it
	// back at shutdown): it is paused for good and its streams end with Unavailable, so
	// that its bots rejoin through any node and reach its next owner (cluster.go). Atomic:
	// the writer sets it without the match's lock.
	gone atomic.Bool

	mu     sync.Mutex // guards every field below
	st     engine.State
	steps  []logged
	events []eventRef
	seats  []seatState
	idPly  int64 // the ply of the last decision id issued, and ids issued at it
	idSeq  int64
	ended  bool
	// recorded: the result is in the store. Until then nobody is told the match ended (no
	// MatchEnded, no seed, no all-seeing view, no FINISHED status).
	recorded bool
	// paused: the store cannot write; the match waits with its clocks stopped (pause).
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
	// watchers counts the Watch streams; while there are any, every change publishes the
	// public view to pub once, and spectators read it from there without the lock.
	watchers int
	pub      atomic.Pointer[public]
	// unjoined ends the match as aborted if no seat joins in time (limits.Config.Unjoined).
	unjoined *time.Timer
	joined   bool
	// shared is the run of events last built for every viewer alike (engine.PublicEvents):
	// the seats sent the same events after a change share one build of them.
	shared sharedEvents
	// built are the last public events built, by seq: each seat is sent the events since its
	// own last decision, so the runs of two seats overlap rather than coincide, and an event
	// already built for one is shared with the next rather than built again.
	built [builtEvents]*orreryv1.Event
	// gameEvents is a scratch list the engine's events are listed into (eventsLocked).
	gameEvents []proto.Message
	// decided and latency are the game's series of metrics, looked up at the first decision:
	// looking up the label on every decision hashed it each time.
	decided prometheus.Counter
	latency prometheus.Observer
}

// logged is one applied step with its notation.
type logged struct {
	step     engine.Step
	notation string
	timedOut orreryv1.TimeoutPolicy
}

// eventRef numbers the match's events: an engine event by its index, or a timeout.
type eventRef struct {
	engine   int // -1 for a service event
	timedOut int // the seat that timed out, for a service event
	policy   orreryv1.TimeoutPolicy
}

type seatState struct {
	tokenHash [32]byte
	stream    int64 // generation of the connected stream; 0 when none
	bank      time.Duration
	pending   *pending
	delivered int64 // events delivered to this seat, for resuming
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
	live     *Seat // the Play stream connected, woken when a change gives it something new
}

// pending is a decision a seat owes.
type pending struct {
	id       string
	issued   time.Time
	deadline time.Time
	bank     time.Duration
	legal    []engine.Action
	// shared: legal is a recurring list shared by every match of the game
	// (wire.ActionCache.SharedList), to be read and never written, not one of its own.
	shared   bool
	hash     uint64 // legal's (wire.ListHash)
	budgeted bool   // the game set a short deadline; the time bank is neither used nor charged
}

// overLocked reports whether the match has ended and its result is stored: only then may
// anyone be told it ended.
func (m *match) overLocked() bool { return m.ended && m.recorded }

// pause stops the match while the store cannot write, or until a restarted server serves
// (Config.HoldClocks): its clock stops and answers wait.
func (m *match) pause(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.paused || m.overLocked() {
		return
	}
	m.paused, m.pausedAt = true, now
	m.scheduleLocked()
	m.notifyLocked()
}

// unpause goes on after a pause: every owed decision is issued again with a new id and a
// fresh deadline (answers sent during the pause were refused as stale), and a wall-clock
// game's next step is put off by the pause's length.
func (m *match) unpause(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.paused || m.gone.Load() { // a dropped match stays paused for good (drop)
		return
	}
	m.paused = false
	if m.clock.wall {
		m.nextAdvance = m.nextAdvance.Add(now.Sub(m.pausedAt))
	}
	for i := range m.seats {
		m.seats[i].withdraw()
		m.seats[i].answered = false
	}
	m.refreshLocked(now)
	m.notifyLocked()
}

// notifyLocked tells everyone following the match that it changed: the Play streams that
// this change gives something to send, the spectators (publishLocked), and whoever waits on
// changed (the ladder's seats, AwaitEnd).
func (m *match) notifyLocked() {
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
// for: a Play stream's sender is woken directly (Seat.wakeLocked), so a match whose seats
// all play over streams made one for every change only to close it unread.
func (m *match) changedLocked() <-chan struct{} {
	if m.changed == nil {
		m.changed = make(chan struct{})
	}
	return m.changed
}

// refreshLocked issues, keeps or withdraws each seat's decision after a change. A decision
// keeps its id while its legal list is unchanged, so an answer in flight stays valid.
func (m *match) refreshLocked(now time.Time) {
	defer m.scheduleLocked()
	if m.ended {
		for i := range m.seats {
			m.srv.recycle(&m.seats[i])
		}
		return
	}
	m.toAct = m.st.ToAct(m.toAct[:0])
	var step int64
	if m.clock.wall {
		step = m.st.(engine.Ticker).Step()
	}
	var buf *[]engine.Action
	defer func() {
		if buf != nil {
			m.srv.legalBufs.Put(buf)
		}
	}()
	for i := range m.seats {
		s := &m.seats[i]
		if !slices.Contains(m.toAct, engine.Seat(i)) {
			s.withdraw()
			continue
		}
		if m.clock.wall && s.answered {
			if s.answeredIn == step {
				continue // its intents stand until the step resolves
			}
			s.answered = false
		}
		if buf == nil {
			buf, _ = m.srv.legalBufs.Get().(*[]engine.Action)
			if buf == nil {
				buf = new([]engine.Action)
			}
		}
		*buf = m.st.Legal(engine.Seat(i), (*buf)[:0])
		if s.pending != nil && slices.Equal(s.pending.legal, *buf) {
			continue
		}
		// The new decision reuses the one the seat last answered, legal list and all.
		p := s.spare
		if p == nil {
			p, _ = m.srv.pendings.Get().(*pending)
			if p == nil {
				p = new(pending)
			}
		}
		s.spare = nil
		own := p.legal[:0]
		if p.shared {
			own = nil
		}
		h := wire.ListHash(*buf)
		*p = pending{id: m.decisionID(), legal: m.actions.SharedList(*buf, h), hash: h}
		if p.legal != nil {
			p.shared = true
		} else {
			p.legal = append(own, *buf...)
		}
		if s.pending != nil { // the choice changed under the seat: its clock keeps running
			p.issued, p.deadline, p.bank = s.pending.issued, s.pending.deadline, s.pending.bank
			s.withdraw()
		} else if m.clock.wall {
			p.issued, p.bank, p.deadline = now, s.bank, m.nextAdvance
		} else {
			p.issued, p.bank = now, s.bank
			p.deadline = now.Add(m.clock.perMove + s.bank)
			if b, ok := m.st.(engine.Budgeter); ok {
				if d := b.Budget(engine.Seat(i)); d > 0 {
					p.deadline, p.budgeted = now.Add(d), true
				}
			}
		}
		s.pending = p
	}
}

// maxPooledLegal is the longest legal list an ended match's decision keeps for the next
// match: a seat holds its lists all match long, so the pool must not grow every seat's to
// the longest a game ever lists.
const maxPooledLegal = 256

// recycle takes an ended match's seat's decisions, current, answered and withdrawn, for the
// seats of later matches. Nothing reads them once the match has ended (answerLocked, expire
// and viewLocked stop at ended), and nothing outside the match's lock ever holds one.
func (s *Server) recycle(seat *seatState) {
	put := func(p *pending) {
		if p != nil && cap(p.legal) <= maxPooledLegal {
			own := p.legal[:0]
			if p.shared {
				own = nil
			}
			*p = pending{legal: own}
			s.pendings.Put(p)
		}
	}
	put(seat.pending)
	put(seat.spare)
	for i, p := range seat.late {
		put(p)
		seat.late[i] = nil
	}
	seat.pending, seat.spare = nil, nil
}

// decisionID names a new decision by the ply it is issued at and its number within that ply.
// The same state issues the same ids, so after a restart a resent answer to a decision of
// the log's last position still names that decision, and no other.
func (m *match) decisionID() string {
	ply := int64(len(m.steps))
	if ply != m.idPly {
		m.idPly, m.idSeq = ply, 0
	}
	m.idSeq++
	return "d" + strconv.FormatInt(ply, 10) + "." + strconv.FormatInt(m.idSeq, 10)
}

// withdraw drops the seat's decision, keeping it a while among the late ones.
func (s *seatState) withdraw() {
	if s.pending == nil {
		return
	}
	copy(s.late[1:], s.late[:len(s.late)-1])
	s.late[0], s.pending = s.pending, nil
}

// lateDecision is the withdrawn decision called id, or nil.
func (s *seatState) lateDecision(id string) *pending {
	for _, p := range s.late {
		if p != nil && p.id == id {
			return p
		}
	}
	return nil
}

// applyLocked plays a for seat, logs it, and updates clocks and decisions.
func (m *match) applyLocked(now time.Time, seat engine.Seat, a engine.Action, timedOut orreryv1.TimeoutPolicy) error {
	notation := m.actions.Notation(m.st, a)
	before := m.st.EventCount()
	var stepBefore int64
	if t, ok := m.st.(engine.Ticker); ok && m.clock.wall {
		stepBefore = t.Step()
	}
	if err := m.st.Apply(seat, a); err != nil {
		return err
	}
	// Answered: whatever the seat owes next is a new decision, built in this one's place.
	m.seats[seat].spare, m.seats[seat].pending = m.seats[seat].pending, nil
	if t, ok := m.st.(engine.Ticker); ok && m.clock.wall {
		m.seats[seat].answered, m.seats[seat].answeredIn = true, stepBefore
		if t.Step() != stepBefore { // everyone answered: the step resolved without the clock
			m.nextAdvance = now.Add(t.AdvanceAfter())
		}
	}
	m.recordLocked(now, engine.Step{Seat: seat, Action: a}, notation, timedOut, before)
	return nil
}

// recordLocked logs an applied step and its events, then moves the match on.
func (m *match) recordLocked(now time.Time, step engine.Step, notation string, timedOut orreryv1.TimeoutPolicy, eventsBefore int) {
	seq := int64(len(m.steps))
	if m.steps == nil {
		// A match is tens of steps at least: grown from one, its log was five allocations
		// before it held sixteen (as is the list of its events).
		m.steps = make([]logged, 0, 16)
		m.events = slices.Grow(m.events, 16)
	}
	m.steps = append(m.steps, logged{step: step, notation: notation, timedOut: timedOut})
	if m.srv.writer != nil {
		rec := store.Step{Seq: seq, Seat: int(step.Seat), Notation: notation, TimedOut: int32(timedOut)}
		if step.Seat >= 0 {
			rec.Bank = m.seats[step.Seat].bank // so that a restart gives the seat back its bank
		}
		m.srv.writer.step(m.id, rec)
	}
	for i := eventsBefore; i < m.st.EventCount(); i++ {
		m.events = append(m.events, eventRef{engine: i})
	}
	if m.decided == nil {
		m.decided = m.srv.metrics.Decisions.WithLabelValues(m.game)
	}
	m.decided.Inc()
	if m.st.Terminal() {
		m.finishLocked(now, m.st.Result())
	}
	m.refreshLocked(now)
	m.notifyLocked()
}

// finishLocked ends the match with r.
func (m *match) finishLocked(now time.Time, r engine.Result) {
	if m.ended {
		return
	}
	m.ended, m.result, m.endedAt = true, r, now
	m.srv.metrics.MatchesFinished.WithLabelValues(m.game, r.Reason.String()).Inc()
	m.srv.metrics.MatchesRunning.Dec()
	m.srv.live.Add(-1)
	if m.unjoined != nil {
		m.unjoined.Stop()
	}
	if m.srv.writer != nil {
		// The seats and spectators are told once the result is committed.
		res := storeResult(r, int64(len(m.steps)))
		// Each seat's timeouts and time bank, so that the summary reads the same once the
		// match has left memory.
		for i := range m.seats {
			res.Timeouts = append(res.Timeouts, m.seats[i].timeouts)
			res.Banks = append(res.Banks, m.seats[i].bank)
		}
		m.srv.writer.finish(m.id, now, res, func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			m.recorded = true
			m.notifyLocked()
			m.releaseIfIdleLocked()
		})
	} else {
		m.recorded = true
	}
	m.srv.log.Info("match ended", "match", m.id, "game", m.game, "reason", r.Reason.String(), "plies", len(m.steps))
}

// releaseIfIdleLocked lets the server drop an ended match from memory once its result is
// stored and no seat is connected: later calls are served from the store (locate.go).
func (m *match) releaseIfIdleLocked() {
	if !m.overLocked() {
		return
	}
	for i := range m.seats {
		if m.seats[i].stream != 0 {
			return // its stream releases it when it goes (disconnect)
		}
	}
	m.srv.release(m)
}

func storeResult(r engine.Result, plies int64) *store.Result {
	return &store.Result{Ranks: r.Ranks, Scores: r.Scores, Reason: int32(wire.EndReason(r.Reason)), Detail: r.Detail, Plies: plies}
}

// answer handles a seat's answer; it returns the accepted notation or a rejection.
func (m *match) answerLocked(seat engine.Seat, ans *orreryv1.Answer) (string, *orreryv1.ActionRejected) {
	now := m.srv.now()
	reject := func(code orreryv1.RejectCode, format string, args ...any) (string, *orreryv1.ActionRejected) {
		m.srv.metrics.Rejects.WithLabelValues(m.game, code.String()).Inc()
		return "", &orreryv1.ActionRejected{DecisionId: ans.GetDecisionId(), Code: code, Reason: fmt.Sprintf(format, args...)}
	}
	if m.ended {
		return reject(orreryv1.RejectCode_REJECT_CODE_NOT_YOUR_TURN, "seat %d owes no decision now", seat)
	}
	if m.paused {
		return reject(orreryv1.RejectCode_REJECT_CODE_STALE_DECISION, "the match is paused (the server cannot write to its database, or is still starting); a new decision follows when it goes on")
	}
	s := &m.seats[seat]
	p := s.pending
	if m.clock.wall && (p == nil || ans.GetDecisionId() != p.id) {
		// On the wall clock a late answer applies to the step now running, if it still can.
		if late := s.lateDecision(ans.GetDecisionId()); late != nil {
			return m.applyLate(now, seat, late, ans, reject)
		}
	}
	if p == nil {
		return reject(orreryv1.RejectCode_REJECT_CODE_NOT_YOUR_TURN, "seat %d owes no decision now", seat)
	}
	if ans.GetDecisionId() != p.id {
		return reject(orreryv1.RejectCode_REJECT_CODE_STALE_DECISION, "decision %q is not current; answer decision %q", ans.GetDecisionId(), p.id)
	}
	if now.After(p.deadline) {
		id := p.id // the timeout answers p, which the seat's next decision then reuses
		m.timeoutLocked(now, seat)
		return reject(orreryv1.RejectCode_REJECT_CODE_STALE_DECISION, "decision %q passed its deadline; the timeout policy acted", id)
	}
	a, code, err := wire.Answer(m.st, p.legal, ans)
	if err != nil {
		return reject(code, "%v", err)
	}
	// The bank is charged before the action applies, so that the seat's next decision (and the
	// logged step) already count with it.
	elapsed, bank := now.Sub(p.issued), s.bank
	if !p.budgeted {
		if over := elapsed - m.clock.perMove; over > 0 {
			s.bank = max(p.bank-over, 0)
		}
		s.bank += m.clock.increment
	}
	if err := m.applyLocked(now, seat, a, orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED); err != nil {
		s.bank = bank
		return reject(rejectCode(err), "%v", err)
	}
	if m.latency == nil {
		m.latency = m.srv.metrics.DecisionLatency.WithLabelValues(m.game)
	}
	m.latency.Observe(elapsed.Seconds())
	return m.steps[len(m.steps)-1].notation, nil
}

// applyLate applies a wall-clock answer to a withdrawn decision to the current state.
func (m *match) applyLate(now time.Time, seat engine.Seat, late *pending, ans *orreryv1.Answer,
	reject func(orreryv1.RejectCode, string, ...any) (string, *orreryv1.ActionRejected)) (string, *orreryv1.ActionRejected) {
	a, code, err := wire.Answer(m.st, late.legal, ans)
	if err != nil {
		return reject(code, "%v", err)
	}
	if err := m.applyLocked(now, seat, a, orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED); err != nil {
		return reject(orreryv1.RejectCode_REJECT_CODE_STALE_DECISION, "decision %q arrived after its step and no longer applies: %v", late.id, err)
	}
	return m.steps[len(m.steps)-1].notation, nil
}

// expire applies the timeout policy to every decision past its deadline.
func (m *match) expire(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.seats {
		if m.ended || m.paused {
			return
		}
		if p := m.seats[i].pending; p != nil && !now.Before(p.deadline) {
			m.timeoutLocked(now, engine.Seat(i))
		}
	}
}

// timeoutLocked acts for seat under the match's timeout policy.
func (m *match) timeoutLocked(now time.Time, seat engine.Seat) {
	s := &m.seats[seat]
	p := s.pending
	if !p.budgeted {
		s.bank = 0
	}
	s.timeouts++
	m.srv.metrics.Timeouts.WithLabelValues(m.game).Inc()
	policy := m.policy
	m.events = append(m.events, eventRef{engine: -1, timedOut: int(seat), policy: policy})
	if policy == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_FORFEIT {
		m.forfeitLocked(now, seat)
		return
	}
	a := p.legal[m.timeouts.IntN(len(p.legal))]
	if policy == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_DEFAULT {
		if d, ok := m.st.(engine.Defaulter); ok {
			if da, ok := d.DefaultAction(seat); ok {
				a = da
			}
		}
	}
	if err := m.applyLocked(now, seat, a, policy); err != nil {
		// A listed action must apply; if the game disagrees, end the match rather than loop.
		m.srv.log.Error("timeout action rejected", "match", m.id, "seat", seat, "err", err)
		m.finishLocked(now, engine.Result{Ranks: make([]int, len(m.seats)), Scores: make([]float64, len(m.seats)), Reason: engine.EndAborted, Detail: "internal error: timeout action rejected"})
		m.refreshLocked(now)
		m.notifyLocked()
	}
}

// forfeitLocked ends the match with seat last and everyone else sharing first.
func (m *match) forfeitLocked(now time.Time, seat engine.Seat) {
	r := engine.Result{Ranks: make([]int, len(m.seats)), Scores: make([]float64, len(m.seats)), Reason: engine.EndForfeit,
		Detail: fmt.Sprintf("seat %d forfeited on time", seat)}
	for i := range r.Ranks {
		r.Ranks[i] = 1
		r.Scores[i] = 1
	}
	r.Ranks[seat], r.Scores[seat] = len(m.seats), 0
	m.finishLocked(now, r)
	m.refreshLocked(now)
	m.notifyLocked()
}

// advance moves a real-time game on by one wall-clock step if it is due.
func (m *match) advance() {
	now := m.srv.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.st.(engine.Ticker)
	due := m.nextAdvance
	if m.ended || m.paused || !ok || now.Before(due) {
		return
	}
	m.srv.metrics.TickLateness.WithLabelValues(m.game).Observe(now.Sub(due).Seconds())
	before := m.st.EventCount()
	if err := t.Advance(); err != nil {
		m.srv.log.Error("advance", "match", m.id, "err", err)
		m.nextAdvance = now.Add(time.Second)
		return
	}
	// The next step is due one step after this one was: the pace holds even when a tick fires
	// late, unless the match fell a whole step behind.
	m.nextAdvance = due.Add(t.AdvanceAfter())
	if m.nextAdvance.Before(now) {
		m.nextAdvance = now.Add(t.AdvanceAfter())
	}
	for i := range m.seats {
		m.seats[i].withdraw() // a new step is a new decision for everyone
		m.seats[i].answered = false
	}
	m.recordLocked(now, engine.Step{Seat: engine.Spectator}, "", orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED, before)
}

// scheduleLocked points the match's clock at the next thing due: the earliest deadline of an
// owed decision, or for a wall-clock game the next advance. The clock is a timer, not a
// goroutine, so a change that moves no deadline wakes nothing.
func (m *match) scheduleLocked() {
	var next time.Time
	if !m.ended && !m.paused {
		if m.clock.wall {
			next = m.nextAdvance
		} else {
			for i := range m.seats {
				if p := m.seats[i].pending; p != nil && (next.IsZero() || p.deadline.Before(next)) {
					next = p.deadline
				}
			}
		}
	}
	if next.Equal(m.timerAt) {
		return
	}
	m.timerAt = next
	if next.IsZero() {
		if m.timer != nil {
			m.timer.Stop()
		}
		return
	}
	wait := max(next.Sub(m.srv.now()), 0)
	if m.timer == nil {
		m.timer = time.AfterFunc(wait, m.fire)
	} else {
		m.timer.Reset(wait)
	}
}

// fire runs when the match's clock is due: it advances a wall-clock game or applies the
// timeout policy to the decisions past their deadline.
func (m *match) fire() {
	if !m.srv.enter() {
		return // the server is closing
	}
	defer m.srv.wg.Done()
	m.mu.Lock()
	m.timerAt = time.Time{}
	m.mu.Unlock()
	if m.clock.wall {
		m.advance()
	} else {
		m.expire(m.srv.now())
	}
	m.mu.Lock()
	m.scheduleLocked()
	m.mu.Unlock()
}

// expireUnjoined ends a match that no seat joined in time, as aborted: nobody plays it, so
// it should not hold the server's resources (or play itself out on timeouts).
func (m *match) expireUnjoined() {
	if !m.srv.enter() {
		return
	}
	defer m.srv.wg.Done()
	now := m.srv.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.joined || m.ended {
		return
	}
	m.finishLocked(now, engine.Result{Ranks: make([]int, len(m.seats)), Scores: make([]float64, len(m.seats)), Reason: engine.EndAborted,
		Detail: fmt.Sprintf("no seat joined within %v", m.srv.limits.Unjoined())})
	m.refreshLocked(now)
	m.notifyLocked()
}

// stopClock stops the match's timers.
func (m *match) stopClock() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.timer != nil {
		m.timer.Stop()
	}
	if m.unjoined != nil {
		m.unjoined.Stop()
	}
}

// connect makes stream generation gen the seat's connection, replacing any older one.
func (m *match) connect(seat engine.Seat) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	gen := m.srv.streamGen.Add(1)
	m.seats[seat].stream = gen
	if !m.joined {
		m.joined = true
		if m.unjoined != nil {
			m.unjoined.Stop()
		}
	}
	m.notifyLocked() // an older stream wakes, sees the new generation and closes
	return gen
}

func (m *match) disconnect(st *Seat) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := &m.seats[st.seat]
	if s.stream == st.gen {
		s.stream = 0
		m.releaseIfIdleLocked()
	}
	if s.live == st {
		s.live = nil
	}
	if st.out != nil {
		st.out.done = true
	}
}

// view is what a stream sends next, copied under the lock and sent outside it.
type view struct {
	events   []*orreryv1.Event
	decision *decisionMsg
	ended    *orreryv1.MatchEnded
	replaced bool
	cursor   int64
}

// viewLocked collects what seat has not been sent: events from cursor, the current decision
// if it differs from sentDecision (built in *spare if there is one, which it then takes),
// and the end.
func (m *match) viewLocked(seat engine.Seat, gen int64, cursor int64, sentDecision string, recv *orreryv1.Receive, spare **decisionMsg) view {
	v := view{cursor: cursor}
	if m.seats[seat].stream != gen {
		v.replaced = true
		return v
	}
	if p := m.seats[seat].pending; p != nil && p.id != sentDecision {
		v.decision = m.decisionLocked(seat, p, recv, *spare)
		*spare = nil
	}
	if m.overLocked() {
		v.ended = m.endedLocked()
	}
	switch {
	case recv.GetOmitEvents():
		v.cursor = int64(len(m.events))
		m.seats[seat].delivered = v.cursor
	case !recv.GetQuiet() || v.decision != nil || v.ended != nil:
		// A quiet seat takes its events only with a decision or the end: one message per change.
		v.events, v.cursor = m.deliverLocked(seat, cursor)
	}
	return v
}

// deliverLocked is seat's events from cursor on, marked delivered, and the new cursor.
func (m *match) deliverLocked(seat engine.Seat, cursor int64) ([]*orreryv1.Event, int64) {
	evs := m.eventsLocked(seat, cursor)
	cursor += int64(len(evs))
	if seat != engine.Spectator {
		m.seats[seat].delivered = cursor
	}
	return evs, cursor
}

// decisionMsg is a decision and the message around it, allocated as one block: they were
// seven allocations for every decision.
type decisionMsg struct {
	parts    wire.DecisionParts
	deadline timestamppb.Timestamp
	bank     durationpb.Duration
	arm      orreryv1.PlayResponse_Decision
	resp     orreryv1.PlayResponse
}

// decisionLocked is seat's decision p as a message to send, built in b, a message nobody
// holds any more, or in a new one when b is nil.
func (m *match) decisionLocked(seat engine.Seat, p *pending, recv *orreryv1.Receive, b *decisionMsg) *decisionMsg {
	if b == nil {
		b, _ = m.srv.decisions.Get().(*decisionMsg)
	}
	if b == nil {
		b = new(decisionMsg)
	} else {
		b.parts.Reset() // the seat's view is built again in the last one's memory
		b.deadline, b.bank = timestamppb.Timestamp{}, durationpb.Duration{}
		b.arm, b.resp = orreryv1.PlayResponse_Decision{}, orreryv1.PlayResponse{}
	}
	b.parts.Hashed(p.hash)
	d := b.parts.Build(m.st, seat, p.legal, int64(len(m.steps)), m.actions, recv)
	d.DecisionId = p.id
	d.MatchId = m.id
	b.deadline.Seconds, b.deadline.Nanos = p.deadline.Unix(), int32(p.deadline.Nanosecond())
	d.Deadline = &b.deadline
	b.bank.Seconds, b.bank.Nanos = int64(p.bank/time.Second), int32(p.bank%time.Second)
	d.TimeBank = &b.bank
	b.arm.Decision = d
	b.resp.Msg = &b.arm
	return b
}

// public is what every spectator of a match is sent, published once per change while the
// match has spectators, and read by them without the match's lock: a spectator that falls
// behind skips to the newest. Nothing in it changes once published.
type public struct {
	ply    int64
	view   *orreryv1.Spectate
	events []*orreryv1.Event // the public events so far, events[i].Seq == i; shared, appended to only past their length
	ended  *orreryv1.MatchEnded
	gone   bool // the match left this node: spectators watch it through another
	// changed closes when a newer public is published.
	changed <-chan struct{}
}

// watch counts a spectator in (+1) or out (-1), and returns the public view to start from.
// The public events are kept only while someone watches.
func (m *match) watch(delta int) *public {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.watchers += delta
	switch {
	case m.watchers == 0:
		m.pub.Store(nil)
	case delta > 0 && (m.pub.Load() == nil || m.overLocked()):
		m.publishLocked() // over: what is revealed may have changed without a move (seedWithheld)
	}
	return m.pub.Load()
}

// publishLocked builds the public view once for every spectator: the view if the ply moved,
// the events since the last one, and the end.
func (m *match) publishLocked() {
	prev := m.pub.Load()
	p := &public{ply: int64(len(m.steps)), changed: m.changedLocked(), gone: m.gone.Load()}
	p.view = m.spectateLocked()
	if prev != nil {
		p.events = prev.events
	}
	if from := int64(len(p.events)); from < int64(len(m.events)) {
		p.events = append(p.events, m.eventsLocked(engine.Spectator, from)...)
	}
	if m.overLocked() {
		p.ended = m.endedLocked()
	}
	m.pub.Store(p)
}

// spectateLocked is the public view (the all-seeing one once the match is over). The
// message is shared by every spectator and must not be changed.
func (m *match) spectateLocked() *orreryv1.Spectate {
	// The all-seeing view once the match is over, unless its duplicate set still runs.
	all := m.overLocked() && !m.srv.seedWithheld(m.id)
	if c := m.spectate; c != nil && c.GetPly() == int64(len(m.steps)) && m.spectateOver == all {
		return c
	}
	v := &orreryv1.Spectate{Ply: int64(len(m.steps))}
	defer func() { m.spectate, m.spectateOver = v, all }()
	if o, ok := m.st.(engine.Omniscient); ok && all {
		v.Observation = wire.Observation(o.ObserveAll())
	} else {
		v.Observation = wire.Observation(m.st.Observe(engine.Spectator))
	}
	v.Text = m.st.Render(engine.Spectator)
	return v
}

func (m *match) endedLocked() *orreryv1.MatchEnded {
	e := &orreryv1.MatchEnded{Result: wire.Result(m.result), SeedHash: m.seedHash, MatchId: m.id}
	e.Seed, e.SeedSalt = revealSeed(m.overLocked(), m.cfg.Seed, m.seedSalt)
	return m.srv.reveal(e)
}

// sharedEvents are the events numbered from on, as every viewer reads them. They are sent
// to several seats and must not be changed.
type sharedEvents struct {
	from   int64
	events []*orreryv1.Event
}

// oneEvent is a list of one game event, allocated as one.
type oneEvent struct {
	parts [1]wire.EventParts
	list  [1]*orreryv1.Event
}

// builtEvents is how many of the last public events a match keeps built (match.built).
const builtEvents = 16

// eventsLocked is seat's view of the events numbered from cursor on.
func (m *match) eventsLocked(seat engine.Seat, cursor int64) []*orreryv1.Event {
	if cursor < 0 || cursor >= int64(len(m.events)) {
		return nil
	}
	refs := m.events[cursor:]
	if sh := m.shared; sh.from == cursor && len(sh.events) == len(refs) {
		return sh.events[:len(refs):len(refs)]
	}
	first := firstGameEvent(refs)
	public := first < 0 // the service's own events (timeouts) read alike for everyone
	if pe, ok := m.st.(engine.PublicEvents); ok && first >= 0 {
		public = pe.EventsPublic(first)
	}
	var out []*orreryv1.Event
	from := cursor // the first event to build; those before it were built for another viewer
	if public {
		for ; from < int64(len(m.events)); from++ {
			if e := m.built[from%builtEvents]; e == nil || e.GetSeq() != from {
				break
			}
		}
		if from > cursor {
			out = make([]*orreryv1.Event, 0, len(refs))
			for seq := cursor; seq < from; seq++ {
				out = append(out, m.built[seq%builtEvents])
			}
		}
		refs = m.events[from:]
		first = firstGameEvent(refs)
	}
	var game []proto.Message
	if first >= 0 {
		game = m.st.Events(seat, first, m.gameEvents[:0])
		defer func() { m.gameEvents = game[:0]; clear(game) }() // a scratch list: keep no event alive
	}
	var parts []wire.EventParts // the envelopes of every game event, in one block
	switch {
	case out == nil && len(refs) == 1 && len(game) == 1:
		// Most changes cause one event: its envelopes and the list are one block.
		one := new(oneEvent)
		out, parts = one.list[:0:1], one.parts[:]
	case out == nil:
		out, parts = make([]*orreryv1.Event, 0, len(refs)), make([]wire.EventParts, len(game))
	default:
		parts = make([]wire.EventParts, len(game))
	}
	gi := 0
	for i, r := range refs {
		seq := from + int64(i)
		var e *orreryv1.Event
		if r.engine >= 0 {
			if gi >= len(game) {
				break // the engine redacted nothing away: counts always match
			}
			e = parts[gi].Game(seq, game[gi])
			gi++
		} else {
			e = &orreryv1.Event{Seq: seq, Kind: &orreryv1.Event_TimedOut{TimedOut: &orreryv1.SeatTimedOut{Seat: int32(r.timedOut), Policy: r.policy}}}
		}
		out = append(out, e)
		if public {
			m.built[seq%builtEvents] = e
		}
	}
	if public {
		m.shared = sharedEvents{from: cursor, events: out}
	}
	return out
}

// firstGameEvent is the engine's number of the first game event among refs, or -1 if they
// are all the service's own.
func firstGameEvent(refs []eventRef) int {
	for _, r := range refs {
		if r.engine >= 0 {
			return r.engine
		}
	}
	return -1
}

// summaryLocked describes the match.
func (m *match) summaryLocked() *orreryv1.MatchSummary {
	s := &orreryv1.MatchSummary{
		MatchId:       m.id,
		Game:          m.game,
		Seats:         int32(len(m.seats)),
		Options:       m.cfg.Options,
		Status:        orreryv1.MatchStatus_MATCH_STATUS_RUNNING,
		SeedHash:      m.seedHash,
		Ply:           int64(len(m.steps)),
		Created:       timestamppb.New(m.created),
		Clock:         clockProto(m.clock),
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

func clockProto(c clock) *orreryv1.Clock {
	out := &orreryv1.Clock{PerMove: durationpb.New(c.perMove), Increment: durationpb.New(c.increment), TimeBank: durationpb.New(c.bank)}
	out.WallClock = c.wall
	return out
}
