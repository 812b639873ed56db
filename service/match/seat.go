package match

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Seat is one connected seat of a match, driven by Run or by a stream (Stream). A Play
// stream drives one; the ladder drives many over a single stream.
type Seat struct {
	m    *Match
	seat engine.Seat
	gen  int64
	recv *orreryv1.Receive // what the bot asked to receive; nil: everything

	// guarded by m.mu
	cursor int64                    // the events sent
	sent   string                   // the decision last sent
	outbox []*orreryv1.PlayResponse // replies to answers, not yet sent
	// sending is the list next last returned, reused by the next call: only the seat's one
	// sender (Run, or the stream's flush) calls next, and it clears the list once sent.
	sending []*orreryv1.PlayResponse
	out     *sender // a Play stream's sender, or Play's; nil for Run
	// built is the decision a stream's sender took last; sent by the time it takes more, it
	// becomes spare, in which the seat's next decision is built, view and all: gRPC has
	// encoded a message once Send returns, and nothing else holds it; Play's bot keeps
	// nothing either. Run's send may keep what it is given.
	built, spare *decisionMsg
	// ack is the seat's acknowledgement block, reused while its messages are lent back (as
	// the decision's are): queued with the replies, handed to the sender with them by next,
	// and free again once the sender calls next again, everything sent.
	ack      *acceptedMsg
	ackState ackState
	// outboxBytes is the size of the replies in outbox.
	outboxBytes int
	// wake tells Run the seat has something new (wakeLocked): a seat woken by its own
	// channel, not by the match's changed one, cost a channel made and closed per change.
	wake chan struct{}
}

// sender sends a Play stream's messages from a goroutine that runs only while the seat has
// something new: a waiting seat costs no goroutine of its own for sending, and a change
// wakes only the seats it gives something to send. Guarded by the match's mu.
type sender struct {
	send    func(*orreryv1.PlayResponse) error
	running bool         // a goroutine is sending
	closing bool         // the bot closed its side: send the replies, then end
	done    bool         // the stream has ended: start no more
	end     chan<- error // the stream's end, once: nil when the match ended
	local   *local       // the bot the server plays in the seat (Seat.Play); nil for a stream
}

// ackState is where a seat's own acknowledgement block is.
type ackState uint8

const (
	ackFree ackState = iota
	ackQueued
	ackHanded
)

// SetReceive sets what the seat's stream carries (nil: everything). Call it before Run.
func (st *Seat) SetReceive(r *orreryv1.Receive) { st.recv = r }

// Connect connects to seat, replacing any older connection of it, from eventsSeen (how many
// events the bot has seen) if set, or else from what the seat was last sent.
func (m *Match) Connect(seat engine.Seat, eventsSeen *int64) *Seat {
	st := &Seat{m: m, seat: seat, gen: m.connect(seat)}
	m.mu.Lock()
	st.cursor = m.seats[seat].delivered
	if eventsSeen != nil {
		st.cursor = *eventsSeen
	}
	m.mu.Unlock()
	return st
}

// RejectBudget refuses a join of seat while the seat's budget of rejected answers is spent
// (its last stream was closed for them), saying when to come back.
func (m *Match) RejectBudget(seat engine.Seat) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.seats[seat].rejects; r != nil {
		return r.Wait(m.env.Host.Now())
	}
	return nil
}

// connect makes a new stream generation the seat's connection, replacing any older one.
func (m *Match) connect(seat engine.Seat) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gen++
	gen := m.gen
	m.seats[seat].stream = gen
	if m.abandoned != nil {
		m.abandoned.Stop() // a seat is back
	}
	if !m.joined {
		m.joined = true
		if m.unjoined != nil {
			m.unjoined.Stop()
		}
	}
	m.notifyLocked() // an older stream wakes, sees the new generation and closes
	return gen
}

func (m *Match) disconnect(st *Seat) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := &m.seats[st.seat]
	if s.stream == st.gen {
		s.stream = 0
		m.releaseIfIdleLocked()
		if !m.ended && !m.connectedLocked() {
			if m.abandoned != nil {
				m.abandoned.Stop()
			}
			m.abandoned = time.AfterFunc(m.env.Limits.Abandoned(), m.expireAbandoned)
		}
	}
	if s.live == st {
		s.live = nil
	}
	if st.out != nil {
		st.out.done = true
	}
}

// MatchID is the seat's match.
func (st *Seat) MatchID() string { return st.m.id }

// BotSeed is a seed for a bot the server plays in this seat itself (a hosted bot's random
// source): derived from the match seed and the seat, so the bot plays the same game again
// from the same seed, and one way (HMAC-SHA256), so what the bot draws from it tells it
// nothing of the match's own draws.
func (st *Seat) BotSeed() uint64 {
	mac := hmac.New(sha256.New, binary.LittleEndian.AppendUint64(nil, st.m.cfg.Seed))
	mac.Write([]byte("orrery match v1: bot seed"))
	mac.Write(binary.LittleEndian.AppendUint64(nil, uint64(st.seat)))
	return binary.LittleEndian.Uint64(mac.Sum(nil))
}

// Measured records the CPU time the server's own bot spent on decision id (a hosted bot's,
// measured on its thread), kept with the step its answer makes (the replay's cpu_time).
// Call it before answering; a decision no longer pending is left as it is.
func (st *Seat) Measured(id string, cpu time.Duration) {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if p := m.seats[st.seat].pending; p != nil && p.id == id {
		p.cpu = cpu
	}
}

// Detach marks the seat disconnected, unless a newer connection has replaced it.
func (st *Seat) Detach() { st.m.disconnect(st) }

// Joined is the confirmation a bot gets on joining.
func (st *Seat) Joined() *orreryv1.Joined {
	m := st.m
	return &orreryv1.Joined{
		MatchId: m.id, Seat: int32(st.seat), Game: m.game, Seats: int32(len(m.seats)), Options: m.cfg.Options,
		SeedHash: m.seedHash, Clock: m.clock.Proto(), TimeoutPolicy: m.policy,
	}
}

// Answer applies one request from the bot and queues the reply for the seat's stream. It
// refuses the request, applying nothing, when the stream already has its limit of replies
// waiting, in number or in bytes (limits.Config.StreamQueue, StreamQueueBytes): the bot
// sends and does not read. Past the stream's budget of rejected answers
// (limits.Config.RejectsPerSecond) it is an error too: the stream is closed, the seat kept.
func (st *Seat) Answer(req *orreryv1.PlayRequest) error { return st.answer(req, nil) }

// answer is Answer, with chain, if set, as the match's chain while the answer applies: it
// takes the first stream woken that its goroutine sends next (chained.take).
func (st *Seat) answer(req *orreryv1.PlayRequest, chain *chained) error {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if chain != nil {
		m.chain = chain
		defer func() { m.chain = nil }() // before the unlock: deferred calls run last first
	}
	if err := m.env.Limits.StreamQueue(len(st.outbox)); err != nil {
		return err
	}
	if err := m.env.Limits.StreamQueueBytes(st.outboxBytes); err != nil {
		return err
	}
	// A quiet seat is told by its next decision: it is sent no acceptance (queueing one only
	// to drop it, takeRepliesLocked, woke its sender for nothing on every decision). The
	// change has woken everyone already.
	var ack *acceptedMsg
	if !st.recv.GetQuiet() {
		ack = st.ackLocked()
	}
	resp := st.handleLocked(req, ack)
	if st.ack != nil && resp == &st.ack.resp {
		st.ackState = ackQueued
	}
	if resp == nil {
		return nil
	}
	if resp.GetRejected() != nil {
		ss := &m.seats[st.seat]
		if ss.rejects == nil {
			ss.rejects = m.env.Limits.Rejects()
		}
		if err := ss.rejects.Reject(m.env.Host.Now()); err != nil {
			return err
		}
		st.outboxBytes += proto.Size(resp) // an acceptance is small and server-made
	}
	st.outbox = append(st.outbox, resp)
	st.wakeLocked() // an accepted answer has woken everyone already, this seat too
	return nil
}

// ackLocked is an acknowledgement block to fill: the seat's own if its messages are lent
// back (a Play stream, or Seat.Play) and it is free, else a new one, which a send that keeps
// what it is given may keep.
func (st *Seat) ackLocked() *acceptedMsg {
	if st.out == nil || st.ackState != ackFree {
		return new(acceptedMsg)
	}
	if st.ack == nil {
		st.ack = new(acceptedMsg)
	}
	*st.ack = acceptedMsg{}
	return st.ack
}

// takeRepliesLocked takes the queued replies, the events each accepted action caused riding
// on its acknowledgement, so that the bot reads its result before anything after it.
func (st *Seat) takeRepliesLocked() []*orreryv1.PlayResponse {
	m := st.m
	out := append(st.sending[:0], st.outbox...)
	clear(st.outbox)
	st.outbox, st.outboxBytes = st.outbox[:0], 0
	if st.ackState == ackQueued {
		st.ackState = ackHanded
	}
	if st.recv.GetQuiet() {
		// The next decision says the answer was applied, and carries the events.
		kept := out[:0]
		for _, r := range out {
			if r.GetAccepted() == nil {
				kept = append(kept, r)
			}
		}
		return kept
	}
	for _, r := range out {
		if acc := r.GetAccepted(); acc != nil && !st.recv.GetOmitEvents() {
			acc.Events, st.cursor = m.deliverLocked(st.seat, st.cursor)
		}
	}
	return out
}

// handleLocked answers one request after the join: the acknowledgement of an accepted
// answer, built in ack, or nil if ack is nil; or the rejection.
func (st *Seat) handleLocked(req *orreryv1.PlayRequest, ack *acceptedMsg) *orreryv1.PlayResponse {
	m := st.m
	ans := req.GetAnswer()
	if ans == nil || ans.GetMatchId() != "" && ans.GetMatchId() != m.id {
		return st.notAnswerLocked(req)
	}
	notation, rej := m.answerLocked(st.seat, ans)
	if rej != nil {
		rej.MatchId = m.id
		return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: rej}}
	}
	if ack == nil {
		return nil
	}
	b := ack
	b.acc.DecisionId, b.acc.Notation, b.acc.MatchId = ans.GetDecisionId(), notation, m.id
	b.arm.Accepted = &b.acc
	b.resp.Msg = &b.arm
	return &b.resp
}

// notAnswerLocked answers a request that is no answer of this seat's match: a resignation,
// or a malformed request. (Out of handleLocked, whose frame is on the stack while the game
// lists the legal actions: see Match.issueLocked.)
func (st *Seat) notAnswerLocked(req *orreryv1.PlayRequest) *orreryv1.PlayResponse {
	m := st.m
	if res := req.GetResign(); res != nil {
		return st.resignLocked(res)
	}
	ans := req.GetAnswer()
	if ans == nil {
		reason := "expected an answer; this stream has already joined"
		if req.GetMsg() == nil {
			reason = "empty request: set answer"
		}
		m.env.Metrics.Rejects.WithLabelValues(m.game, orreryv1.RejectCode_REJECT_CODE_MALFORMED.String()).Inc()
		return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: &orreryv1.ActionRejected{
			Code: orreryv1.RejectCode_REJECT_CODE_MALFORMED, Reason: reason, MatchId: m.id,
		}}}
	}
	return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: &orreryv1.ActionRejected{
		DecisionId: m.env.Limits.Clip(ans.GetDecisionId()), Code: orreryv1.RejectCode_REJECT_CODE_MALFORMED, MatchId: m.id,
		Reason: fmt.Sprintf("answer names match %q but this seat plays %q", m.env.Limits.Clip(ans.GetMatchId()), m.id),
	}}}
}

// resignLocked ends the match as the seat's forfeit; the end itself tells every stream.
func (st *Seat) resignLocked(res *orreryv1.Resign) *orreryv1.PlayResponse {
	m := st.m
	reject := func(code orreryv1.RejectCode, reason string) *orreryv1.PlayResponse {
		return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: &orreryv1.ActionRejected{Code: code, Reason: reason, MatchId: m.id}}}
	}
	switch {
	case res.GetMatchId() != "" && res.GetMatchId() != m.id:
		return reject(orreryv1.RejectCode_REJECT_CODE_MALFORMED, fmt.Sprintf("resign names match %q but this seat plays %q", res.GetMatchId(), m.id))
	case m.ended:
		return reject(orreryv1.RejectCode_REJECT_CODE_NOT_YOUR_TURN, "the match is over")
	case m.paused:
		return reject(orreryv1.RejectCode_REJECT_CODE_STALE_DECISION, "the match is paused; resign again when it goes on")
	}
	m.forfeitLocked(m.env.Host.Now(), st.seat, fmt.Sprintf("seat %d resigned", st.seat))
	return nil
}

// acceptedMsg is an acknowledgement and the message around it, allocated as one block: one
// is sent for nearly every decision.
type acceptedMsg struct {
	acc  orreryv1.ActionAccepted
	arm  orreryv1.PlayResponse_Accepted
	resp orreryv1.PlayResponse
}

// eventsMsg is a batch of events and the message around it, allocated as one block.
type eventsMsg struct {
	batch orreryv1.EventBatch
	arm   orreryv1.PlayResponse_Events
	resp  orreryv1.PlayResponse
}

func newEventsMsg(events []*orreryv1.Event, matchID string) *orreryv1.PlayResponse {
	b := new(eventsMsg)
	b.batch.Events, b.batch.MatchId = events, matchID
	b.arm.Events = &b.batch
	b.resp.Msg = &b.arm
	return &b.resp
}
