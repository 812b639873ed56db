package service

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// PlayStream is the server side of a Play stream.
type PlayStream = grpc.BidiStreamingServer[orreryv1.PlayRequest, orreryv1.PlayResponse]

// LadderServer serves Play streams that open with a LadderJoin. The ladder plugs in here.
type LadderServer interface {
	ServeLadder(stream PlayStream, join *orreryv1.LadderJoin) error
}

// Play is one seat's stream. The first request joins with a seat token; the server then
// sends what the seat has missed, its current decision, and everything after, and applies its
// answers. Failures inside the match are ActionRejected messages; the stream goes on.
//
// The handler's goroutine only waits for the stream's end, so that it can return (and gRPC
// end the stream) even while a Recv or a send to a bot that does not read is blocked. It
// does nothing deeper, so that its stack, which lives as long as the stream, stays at its
// smallest: serve, on a goroutine of its own, joins; read, on another started once the
// seat has joined, reads and applies the bot's answers; a further goroutine, which runs
// only while the seat has something new (Seat.wakeLocked), sends the replies, the events
// and the decisions.
func (s *Server) Play(stream PlayStream) error {
	end := make(chan error, 2) // from serve or read, and from the sender
	go s.serve(stream, end)
	select {
	case err := <-end:
		if errors.Is(err, errStreamClosed) {
			err = nil // the bot closed its side, and was sent every reply
		}
		return err
	case <-s.ctx.Done():
		return errShuttingDown
	}
}

// serve joins a Play stream's seat, or serves a ladder or relayed stream, and gives the
// stream's end on end unless the seat joined: then the seat's reader and sender give it.
func (s *Server) serve(stream PlayStream, end chan<- error) {
	seat, err := s.joinStream(stream)
	if seat == nil {
		end <- err
		return
	}
	seat.stream(stream.Send, end)
	// The reader lasts as long as the stream, on a goroutine whose stack has not grown to
	// join (Attach, the Joined message), so that it stays at its smallest.
	go func() {
		defer seat.Detach()
		// When the bot closes its side, the sender gives the end, once it has sent every
		// reply.
		if err := seat.read(stream); !errors.Is(err, errStreamClosed) {
			end <- err
		}
	}()
}

// joinStream reads a Play stream's first request and joins its seat, sending Joined; it
// returns no seat, and how the stream ends, for a ladder or relayed stream (served to its
// end here) or a join that failed.
func (s *Server) joinStream(stream PlayStream) (*Seat, error) {
	first, err := stream.Recv()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, recvStatus(err)
	}
	if lj := first.GetLadder(); lj != nil {
		if s.cfg.Ladder == nil {
			return nil, status.Error(codes.FailedPrecondition, "this server runs no ladder")
		}
		return nil, s.cfg.Ladder.ServeLadder(stream, lj)
	}
	join := first.GetJoin()
	if join == nil {
		return nil, errNoJoin
	}
	if conn, err := s.seatElsewhere(stream.Context(), join.GetToken()); err != nil {
		return nil, err
	} else if conn != nil {
		return nil, s.relayPlay(stream, first, conn)
	}
	seat, err := s.Attach(join.GetToken(), join.EventsSeen)
	if err != nil {
		return nil, err
	}
	seat.SetReceive(join.GetReceive())
	if err := stream.Send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Joined{Joined: seat.Joined()}}); err != nil {
		seat.Detach()
		return nil, err
	}
	return seat, nil
}

// read applies each answer the bot sends at once (the next seat's decision then waits for
// no other goroutine), until the bot's side fails or closes (errStreamClosed).
func (st *Seat) read(stream PlayStream) error {
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			// The bot closed its side: the replies queued for it are still sent, and the
			// sender then ends the stream with errStreamClosed.
			st.closeSend()
			return errStreamClosed
		}
		if err != nil {
			return recvStatus(err)
		}
		if err := st.Answer(req); err != nil {
			return err // the bot does not read its replies: the stream ends, the seat stays
		}
	}
}

// errStreamClosed says the bot closed its side of the stream.
var errStreamClosed = errors.New("stream closed by the client")

// Seat is one connected seat of a match, driven by Run. Play drives one; the ladder drives
// many over a single stream.
type Seat struct {
	srv  *Server
	m    *match
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
	out     *sender // a Play stream's sender; nil for Run
	// built is the decision a stream's sender took last; sent by the time it takes more, it
	// becomes spare, in which the seat's next decision is built, view and all: gRPC has
	// encoded a message once Send returns, and nothing else holds it. Run's send may keep
	// what it is given, unless it lends it back (Lend).
	built, spare *decisionMsg
	lend         bool
	// ack is the seat's acknowledgement block, reused while its messages are lent back (as
	// the decision's are): queued with the replies, handed to the sender with them by next,
	// and free again once the sender calls next again, everything sent.
	ack      *acceptedMsg
	ackState ackState
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

// Lend says that Run's send keeps nothing it is given, no part of it, once it returns: the
// seat's next decision is then built in the memory of its last, as a Play stream's is.
// Call it before Run.
func (st *Seat) Lend() { st.lend = true }

// Attach connects to the seat that token names, replacing any older connection of it.
// eventsSeen, if set, is how many events the bot has already seen.
func (s *Server) Attach(token string, eventsSeen *int64) (*Seat, error) {
	if token == "" {
		return nil, errEmptyToken
	}
	if eventsSeen != nil && *eventsSeen < 0 {
		return nil, status.Errorf(codes.InvalidArgument, "join: events_seen %d is negative", *eventsSeen)
	}
	h := hashToken(token)
	s.mu.Lock()
	ref, ok := s.byToken[h]
	s.mu.Unlock()
	if !ok {
		return s.attachStored(tokenMatch(token), h, eventsSeen)
	}
	return s.attach(ref.m, ref.seat, eventsSeen), nil
}

// attach connects a stream to seat of m, from eventsSeen or from what the seat was last sent.
func (s *Server) attach(m *match, seat engine.Seat, eventsSeen *int64) *Seat {
	st := &Seat{srv: s, m: m, seat: seat, gen: m.connect(seat)}
	m.mu.Lock()
	st.cursor = m.seats[seat].delivered
	if eventsSeen != nil {
		st.cursor = *eventsSeen
	}
	m.mu.Unlock()
	return st
}

// attachStored is Attach for a token of no match in memory. A seat of a stored match is
// always recognised: the seat of an ended match (released from memory, or ended before a
// restart) is told how it ended, with the events it missed; the seat of a failed match is
// told it failed. Only a token of no stored match is unknown.
func (s *Server) attachStored(matchID string, h [32]byte, eventsSeen *int64) (*Seat, error) {
	if s.store == nil {
		return nil, errBadToken
	}
	ctx := context.Background()
	hash := hex.EncodeToString(h[:])
	rec, err := s.store.MatchByToken(ctx, matchID, hash)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errBadToken
	}
	if err != nil {
		return nil, toStatus(err)
	}
	seat := engine.Seat(slices.Index(rec.TokenHashes, hash))
	l := s.locateStored(rec)
	switch {
	case l.m != nil: // it came into memory meanwhile (created or resumed a moment ago)
		return s.attach(l.m, seat, eventsSeen), nil
	case l.orphan || rec.Failed():
		return nil, matchFailed(rec.ID)
	case rec.Result == nil:
		return nil, status.Errorf(codes.Unavailable, "match %q is starting; try again", rec.ID)
	}
	m, err := s.load(ctx, rec)
	if err != nil {
		return nil, err
	}
	return s.attach(m, seat, eventsSeen), nil
}

// MatchID is the seat's match.
func (st *Seat) MatchID() string { return st.m.id }

// Detach marks the seat disconnected, unless a newer connection has replaced it.
func (st *Seat) Detach() { st.m.disconnect(st) }

// Joined is the confirmation a bot gets on joining.
func (st *Seat) Joined() *orreryv1.Joined {
	m := st.m
	return &orreryv1.Joined{
		MatchId: m.id, Seat: int32(st.seat), Game: m.game, Seats: int32(len(m.seats)), Options: m.cfg.Options,
		SeedHash: m.seedHash, Clock: clockProto(m.clock), TimeoutPolicy: m.policy,
	}
}

// Run sends the seat what it has missed, each decision it owes and the events as they come,
// and applies the answers that arrive on answers, until the match ends (nil), the answers
// channel closes (errStreamClosed), a send fails, or ctx ends.
func (st *Seat) Run(ctx context.Context, answers <-chan *orreryv1.PlayRequest, send func(*orreryv1.PlayResponse) error) error {
	st.live()
	for {
		msgs, final, err := st.next(false)
		if err != nil {
			return err
		}
		for _, r := range msgs {
			if err := send(r); err != nil {
				return err
			}
		}
		clear(msgs) // sent: the list is reused, and must not keep them alive
		if final {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-st.srv.ctx.Done():
			return errShuttingDown
		case <-st.wake:
		case req, ok := <-answers:
			if !ok {
				return errStreamClosed
			}
			if err := st.Answer(req); err != nil {
				return err
			}
		}
	}
}

// live makes Run's seat the one woken when the match gives it something new.
func (st *Seat) live() {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	st.wake = make(chan struct{}, 1)
	if m.seats[st.seat].stream == st.gen {
		m.seats[st.seat].live = st
	}
}

// stream starts sending the seat's messages with send, from a goroutine of its own while
// there is something to send. It gives the stream's end once on end, which must have room
// for it: nil when the match has ended and the seat was told, or why the stream must close.
func (st *Seat) stream(send func(*orreryv1.PlayResponse) error, end chan<- error) {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	st.out = &sender{send: send, end: end}
	if m.seats[st.seat].stream == st.gen {
		m.seats[st.seat].live = st
	}
	st.out.running = true
	st.srv.sendFor(st)
}

// closeSend says the bot closed its side of the stream: the replies queued are sent, then
// the stream ends.
func (st *Seat) closeSend() {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	st.out.closing = true
	st.wakeLocked()
}

// wakeLocked starts the seat's sender if the seat has something new and none runs, or
// wakes Run's loop.
func (st *Seat) wakeLocked() {
	o := st.out
	if o == nil {
		if st.wake != nil && st.hasNewsLocked() {
			select {
			case st.wake <- struct{}{}:
			default: // already woken
			}
		}
		return
	}
	if o.running || o.done || !st.hasNewsLocked() {
		return
	}
	o.running = true
	st.srv.sendFor(st)
}

// senderIdle is how long a sender goroutine waits for another seat to send for before it
// ends.
const senderIdle = time.Second

// sendFor runs st's flush on an idle sender goroutine, or on a new one if none is idle: a
// goroutine started for every wake-up grew its stack through gRPC's send path each time
// (7% of a decision's round trip), one kept a while has grown it already. Senders wait
// for nothing else, so a seat whose bot does not read holds up only its own.
func (s *Server) sendFor(st *Seat) {
	if w := s.senders.pop(); w != nil {
		w <- st
		return
	}
	go s.sender(st)
}

// sender flushes st, then each seat handed to it, until it has waited senderIdle for one
// or the server closes.
func (s *Server) sender(st *Seat) {
	next := make(chan *Seat, 1) // sendFor's hand-off: never waits
	idle := time.NewTimer(senderIdle)
	defer idle.Stop()
	for {
		st.flush()
		s.senders.push(next)
		idle.Reset(senderIdle)
		select {
		case st = <-next:
			continue
		case <-idle.C:
		case <-s.ctx.Done():
		}
		if s.senders.remove(next) {
			return
		}
		st = <-next // taken off the stack as it stopped waiting: a seat is on its way
	}
}

// idleSenders is a stack of the idle senders' hand-offs, the last to go idle on top: the
// senders a load keeps busy are reused, stacks grown, and the rest end after senderIdle.
// (Waiting together on one channel, they were woken in turn, so that none was ever idle
// for long enough to end: a server kept hundreds, each wake-up worked through a queue of
// them, and each collection scanned their stacks.)
type idleSenders struct {
	mu   sync.Mutex
	idle []chan *Seat
}

func (p *idleSenders) push(next chan *Seat) {
	p.mu.Lock()
	p.idle = append(p.idle, next)
	p.mu.Unlock()
}

// pop takes the sender that went idle last, or nil.
func (p *idleSenders) pop() chan *Seat {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.idle)
	if n == 0 {
		return nil
	}
	next := p.idle[n-1]
	p.idle[n-1] = nil
	p.idle = p.idle[:n-1]
	return next
}

// remove takes next off the stack, unless pop took it: then a seat is being handed to it.
func (p *idleSenders) remove(next chan *Seat) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	// The longest idle, which time out, are at the bottom.
	i := slices.Index(p.idle, next)
	if i < 0 {
		return false
	}
	p.idle = slices.Delete(p.idle, i, i+1)
	return true
}

// hasNewsLocked reports whether the seat's stream has anything to send (or to find out, as
// that it was replaced): a change that gives a seat nothing wakes nothing.
func (st *Seat) hasNewsLocked() bool {
	m := st.m
	s := &m.seats[st.seat]
	switch {
	case st.out != nil && st.out.closing, s.stream != st.gen, len(st.outbox) > 0, m.overLocked(), m.gone.Load():
		return true
	case s.pending != nil && s.pending.id != st.sent:
		return true
	}
	return !st.recv.GetQuiet() && !st.recv.GetOmitEvents() && int64(len(m.events)) > st.cursor
}

// flush sends what the seat has new, until it has nothing (the goroutine ends) or the stream
// ends.
func (st *Seat) flush() {
	o := st.out
	for {
		msgs, final, err := st.next(true)
		for _, r := range msgs {
			if err := o.send(r); err != nil {
				st.end(err)
				return
			}
		}
		clear(msgs) // sent: the list is reused, and must not keep them alive
		switch {
		case err != nil || final:
			st.end(err)
			return
		case len(msgs) == 0:
			return // next stopped the sender, under the lock
		}
	}
}

// end ends the stream's sending with err (nil: the match ended and the seat was told).
func (st *Seat) end(err error) {
	st.m.mu.Lock()
	st.out.done, st.out.running = true, false
	st.m.mu.Unlock()
	st.out.end <- err
}

// next takes what the seat has new: the replies queued, then the events, its decision or
// the end; final says the end is among them. For a Play stream's sender (stream), nothing
// new stops the sender, under the lock, so that a change after it starts a new one.
func (st *Seat) next(stream bool) (msgs []*orreryv1.PlayResponse, final bool, err error) {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gone.Load() {
		return nil, false, errGone(m.id)
	}
	if m.seats[st.seat].stream != st.gen {
		return nil, false, errReplaced
	}
	msgs = st.takeRepliesLocked()
	if stream && st.out.closing {
		return msgs, true, errStreamClosed
	}
	reuse := stream || st.lend
	if reuse && st.built != nil {
		// The sender calls again only once it has sent everything it took.
		st.spare, st.built = st.built, nil
	}
	if st.ackState == ackHanded {
		st.ackState = ackFree // sent, likewise
	}
	v := m.viewLocked(st.seat, st.gen, st.cursor, st.sent, st.recv, &st.spare)
	st.cursor = v.cursor
	if len(v.events) > 0 && v.decision == nil {
		msgs = append(msgs, newEventsMsg(v.events, m.id))
	}
	if v.ended != nil {
		if reuse && st.spare != nil {
			// Sent, and the seat is sent nothing more: another seat's decisions are built in it.
			st.srv.decisions.Put(st.spare)
			st.spare = nil
		}
		v.ended.Seat = int32(st.seat)
		return append(msgs, &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Ended{Ended: v.ended}}), true, nil
	}
	if v.decision != nil {
		d := v.decision.arm.Decision
		d.Events = v.events
		msgs = append(msgs, &v.decision.resp)
		st.sent = d.GetDecisionId()
		if reuse {
			st.built = v.decision
		}
	}
	if reuse && len(msgs) == 0 && st.spare != nil {
		// Nothing new: the seat waits, maybe long (a bot thinking, its rivals' turns). Its
		// sent decision goes to the server's pool, for whichever seat decides next, rather
		// than wait here: a server of waiting seats holds no decisions it has sent, and the
		// pool gives back what stays unused for two collections.
		st.srv.decisions.Put(st.spare)
		st.spare = nil
	}
	if stream && len(msgs) == 0 {
		st.out.running = false
	}
	st.sending = msgs[:0]
	return msgs, false, nil
}

// Answer applies one request from the bot and queues the reply for the seat's stream. It
// refuses the request, applying nothing, when the stream already has its limit of replies
// waiting (limits.Config.StreamQueue): the bot sends and does not read.
func (st *Seat) Answer(req *orreryv1.PlayRequest) error {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := st.srv.limits.StreamQueue(len(st.outbox)); err != nil {
		return err
	}
	// A quiet seat is told by its next decision: it is sent no acceptance (queueing one only
	// to drop it, takeRepliesLocked, woke its sender for nothing on every decision). The
	// change has woken everyone already.
	var ack *acceptedMsg
	if !st.recv.GetQuiet() {
		ack = st.ackLocked()
	}
	resp := st.srv.handleLocked(m, st.seat, req, ack)
	if st.ack != nil && resp == &st.ack.resp {
		st.ackState = ackQueued
	}
	if resp == nil {
		return nil
	}
	st.outbox = append(st.outbox, resp)
	st.wakeLocked() // an accepted answer has woken everyone already, this seat too
	return nil
}

// ackLocked is an acknowledgement block to fill: the seat's own if its messages are lent
// back (Seat.Lend, or a Play stream) and it is free, else a new one, which a send that keeps
// what it is given may keep.
func (st *Seat) ackLocked() *acceptedMsg {
	if st.out == nil && !st.lend || st.ackState != ackFree {
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
	st.outbox = st.outbox[:0]
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
func (s *Server) handleLocked(m *match, seat engine.Seat, req *orreryv1.PlayRequest, ack *acceptedMsg) *orreryv1.PlayResponse {
	ans := req.GetAnswer()
	if ans == nil {
		reason := "expected an answer; this stream has already joined"
		if req.GetMsg() == nil {
			reason = "empty request: set answer"
		}
		s.metrics.Rejects.WithLabelValues(m.game, orreryv1.RejectCode_REJECT_CODE_MALFORMED.String()).Inc()
		return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: &orreryv1.ActionRejected{
			Code: orreryv1.RejectCode_REJECT_CODE_MALFORMED, Reason: reason, MatchId: m.id,
		}}}
	}
	if id := ans.GetMatchId(); id != "" && id != m.id {
		return &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: &orreryv1.ActionRejected{
			DecisionId: ans.GetDecisionId(), Code: orreryv1.RejectCode_REJECT_CODE_MALFORMED, MatchId: m.id,
			Reason: fmt.Sprintf("answer names match %q but this seat plays %q", id, m.id),
		}}}
	}
	notation, rej := m.answerLocked(seat, ans)
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

// Watch streams the public view of a match: a view after each change, the public events,
// and the end with the revealed seed.
func (s *Server) Watch(req *orreryv1.WatchRequest, stream grpc.ServerStreamingServer[orreryv1.WatchResponse]) error {
	ctx := stream.Context()
	at, err := s.locate(ctx, req.GetMatchId())
	if err != nil {
		return err
	}
	if conn, err := s.elsewhere(ctx, at); err != nil {
		return err
	} else if conn != nil {
		return s.relayWatch(req, stream, conn)
	}
	m, err := s.watchable(ctx, at)
	if err != nil {
		return err
	}
	if req.GetFromEvent() < 0 {
		return status.Errorf(codes.InvalidArgument, "from_event %d is negative", req.GetFromEvent())
	}
	release, err := s.limits.Watch(m.id)
	if err != nil {
		return err
	}
	defer release()
	// The views and events are built once per change for every spectator (publishLocked);
	// this stream only reads the newest, outside the match's lock, so a spectator that does
	// not read holds up nothing and, when it reads again, skips to the newest view.
	p := m.watch(+1)
	defer m.watch(-1)
	cursor, ply := req.GetFromEvent(), int64(-1)
	for {
		if p.gone {
			return errGone(m.id)
		}
		if p.ply != ply {
			if err := stream.Send(&orreryv1.WatchResponse{Msg: &orreryv1.WatchResponse_View{View: p.view}}); err != nil {
				return err
			}
			ply = p.ply
		}
		if cursor < int64(len(p.events)) {
			if err := stream.Send(&orreryv1.WatchResponse{Msg: &orreryv1.WatchResponse_Events{Events: &orreryv1.EventBatch{Events: p.events[cursor:]}}}); err != nil {
				return err
			}
			cursor = int64(len(p.events))
		}
		if p.ended != nil {
			return stream.Send(&orreryv1.WatchResponse{Msg: &orreryv1.WatchResponse_Ended{Ended: p.ended}})
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done():
			return errShuttingDown
		case <-p.changed:
		}
		p = m.pub.Load()
	}
}

// load rebuilds a finished match released from memory, for a spectator or a seat that
// rejoins; it is not kept. Only watchable and attachStored call it, with a stored match that
// has a result and did not fail.
func (s *Server) load(ctx context.Context, rec *store.Match) (*match, error) {
	id := rec.ID
	r, err := s.replay(ctx, rec)
	if err != nil {
		return nil, status.Errorf(codes.DataLoss, "replay of %s: %v", id, err)
	}
	m := &match{
		srv: s, id: rec.ID, game: rec.Game, seedHash: rec.SeedHash, seedSalt: rec.SeedSalt, names: rec.Names,
		cfg: engine.Config{Seats: rec.Seats, Seed: rec.Seed, Options: rec.Options},
		st:  r.st, steps: r.steps, events: r.events, seats: make([]seatState, rec.Seats), changed: make(chan struct{}),
		ended: true, recorded: true, endedAt: rec.Ended, created: rec.Created,
	}
	if rec.Result != nil && rec.Result.Reason != int32(orreryv1.EndReason_END_REASON_NORMAL) && rec.Result.Reason != int32(orreryv1.EndReason_END_REASON_CAP) {
		m.result = engine.Result{Ranks: rec.Result.Ranks, Scores: rec.Result.Scores, Reason: engineReason(rec.Result.Reason), Detail: rec.Result.Detail}
	} else {
		m.result = r.st.Result()
	}
	return m, nil
}

func engineReason(r int32) engine.EndReason {
	switch orreryv1.EndReason(r) {
	case orreryv1.EndReason_END_REASON_NORMAL:
		return engine.EndNormal
	case orreryv1.EndReason_END_REASON_CAP:
		return engine.EndCap
	case orreryv1.EndReason_END_REASON_FORFEIT:
		return engine.EndForfeit
	}
	return engine.EndAborted
}
