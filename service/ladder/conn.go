package ladder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/match"
)

// The ends of a ladder stream, as the bot reads them.
var (
	errClosing   = status.Error(codes.Unavailable, "the ladder is shutting down; reconnect later")
	errReplaced  = status.Error(codes.Aborted, "a newer ladder stream of this bot replaced this one")
	errRevoked   = status.Error(codes.Unauthenticated, "this bot's API key was revoked")
	errNotLadder = status.Error(codes.Unavailable, "the ladder is not running yet; reconnect shortly")
	errLeft      = errors.New("the bot closed its stream")
)

// conn is one bot's open ladder stream.
type conn struct {
	l       *Ladder
	bot     *bot
	games   []string
	max     int
	receive *orreryv1.Receive // what the bot's decisions carry
	// tournamentsOnly: the stream plays tournament matches only, and is never queued.
	tournamentsOnly bool
	stream          service.PlayStream
	ctx             context.Context
	cancel          context.CancelCauseFunc
	wg              sync.WaitGroup // seat runners

	out chan *orreryv1.PlayResponse // to the stream; ServeLadder alone calls Send

	routeMu sync.Mutex // guards routes
	routes  map[string]*route

	// guarded by l.mu
	active int  // seats running or planned on this stream
	paused bool // no new matches; the stream ends when the last one does
}

// route carries a match's answers from the stream to its seat runner.
type route struct {
	answers chan *orreryv1.PlayRequest
	done    chan struct{}
}

// send queues resp for the stream: one goroutine sends, so the seats' messages are
// serialised, and a stream that has ended releases its senders at once.
func (c *conn) send(resp *orreryv1.PlayResponse) error {
	select {
	case c.out <- resp:
		return nil
	case <-c.ctx.Done():
		return context.Cause(c.ctx)
	}
}

func (c *conn) stop(cause error) { c.cancel(cause) }

func (c *conn) alive() bool { return c.ctx.Err() == nil }

// ServeLadder serves a Play stream that opened with a LadderJoin (service.LadderServer). The
// bot is named by the API key in the call's metadata. The stream carries every match the
// ladder seats it in, until the bot closes it, its key is revoked, it is paused, or a newer
// stream of the same bot replaces it.
// JoinedHeader is the response header a ladder stream gets once its LadderJoin is taken.
const JoinedHeader = "orrery-ladder-joined"

func (l *Ladder) ServeLadder(stream service.PlayStream, join *orreryv1.LadderJoin) error {
	ctx := stream.Context()
	b, err := l.authenticate(ctx)
	if err != nil {
		return err
	}
	if !l.isStarted() || l.ctx.Err() != nil {
		return errNotLadder
	}
	only := join.GetTournamentsOnly()
	games, err := l.validGames(join.GetGames())
	if err != nil && !only {
		return status.Errorf(codes.InvalidArgument, "ladder join: %v", err)
	}
	maxMatches := int(join.GetMaxMatches())
	if maxMatches == 0 {
		maxMatches = 1
	}
	if !only && (maxMatches < 0 || maxMatches > l.cfg.MaxMatches) {
		return status.Errorf(codes.InvalidArgument, "ladder join: max_matches %d out of range 1..%d", maxMatches, l.cfg.MaxMatches)
	}
	now := l.now()
	l.mu.Lock()
	if b.revoked {
		l.mu.Unlock()
		return errRevoked
	}
	resumed := false
	if !b.pausedUntil.IsZero() && !only { // the pause is from matchmaking, not from tournaments
		if now.Before(b.pausedUntil) {
			reason, until := b.pauseReason, b.pausedUntil
			l.mu.Unlock()
			return status.Errorf(codes.FailedPrecondition, "bot %s is paused from matchmaking until %s: %s (ResumeBot lifts the pause)",
				b.name, until.UTC().Format(time.RFC3339), reason)
		}
		b.pausedUntil, b.pauseReason, b.timeoutStreak = time.Time{}, "", 0
		resumed = true
	}
	c := &conn{l: l, bot: b, games: games, max: maxMatches, receive: join.GetReceive(), tournamentsOnly: only, stream: stream,
		routes: make(map[string]*route), out: make(chan *orreryv1.PlayResponse)}
	c.ctx, c.cancel = context.WithCancelCause(ctx)
	stopWithLadder := context.AfterFunc(l.ctx, func() { c.stop(errClosing) })
	defer stopWithLadder()
	var claimed []assignedSeat
	if l.cfg.Cluster != nil {
		// The bot's seats in running matches, wherever it played them before, come here.
		l.mu.Unlock()
		claimed, err = l.publishJoin(ctx, c)
		if err != nil {
			return status.Errorf(codes.Unavailable, "ladder join: %v; reconnect shortly", err)
		}
		l.mu.Lock()
	}
	old := l.conns[b.id]
	l.conns[b.id] = c
	// Matches the bot left running (its stream dropped) resume on this one.
	for _, lm := range l.live {
		for seat, id := range lm.bots {
			if id == b.id && lm.house[seat] == nil && lm.tokens != nil && (lm.runner[seat] == nil || lm.runner[seat] == old) {
				lm.runner[seat] = c
				c.active++
				c.startSeatLocked(lm, seat)
			}
		}
	}
	for _, a := range claimed {
		lm := l.seatedLocked(a)
		if r := lm.runner[a.seat]; r == nil || r == old {
			lm.runner[a.seat] = c
			c.active++
			c.startSeatLocked(lm, a.seat)
		}
	}
	l.requeueLocked(c)
	l.mu.Unlock()
	if resumed {
		if err := l.db.setPause(ctx, b.id, time.Time{}, "", 0); err != nil {
			l.log.Error("ladder: clear pause", "bot", b.name, "err", err)
		}
	}
	if old != nil {
		old.stop(errReplaced)
	}
	l.log.Info("ladder bot joined", "bot", b.name, "games", games, "max_matches", maxMatches, "tournaments_only", only)
	// The response headers say the join was taken, before any match: a client can say it is
	// on the ladder (rather than only once a match starts, minutes later). Sent before the
	// send loop starts, the stream's only other sender.
	if err := stream.SendHeader(metadata.Pairs(JoinedHeader, "1")); err != nil {
		l.log.Debug("ladder: send the joined header", "bot", b.name, "err", err)
	}
	wake(l.kick)

	go c.recv()
	c.sendLoop()
	// c is stopped, but a seat given it under l.mu (SeatTournament, matchmaking) between a
	// check of c.alive() and the cancel is counted in c.wg only once that holder lets go of
	// l.mu; after, no one gives c a seat. So wait for the lock before waiting for the seats.
	l.mu.Lock()
	//lint:ignore SA2001 the empty section is the barrier described above
	l.mu.Unlock()
	c.wg.Wait()
	l.mu.Lock()
	last := l.conns[b.id] == c
	if last {
		delete(l.conns, b.id)
		l.queue.Remove(b.id)
	}
	l.mu.Unlock()
	if last && l.cfg.Cluster != nil {
		l.publishLeave(l.ctx, b.id)
	}
	cause := context.Cause(c.ctx)
	l.log.Info("ladder bot left", "bot", b.name, "why", cause)
	switch {
	case errors.Is(cause, errLeft):
		return nil
	case ctx.Err() != nil:
		return status.FromContextError(ctx.Err()).Err()
	}
	return cause
}

// sendLoop sends what the seats queue until the stream ends.
func (c *conn) sendLoop() {
	for {
		select {
		case <-c.ctx.Done():
			return
		case resp := <-c.out:
			if err := c.stream.Send(resp); err != nil {
				c.stop(err)
				return
			}
		}
	}
}

// recv reads the bot's answers and hands each to the seat runner of the match it names.
func (c *conn) recv() {
	for {
		req, err := c.stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errLeft
			}
			c.stop(err)
			return
		}
		ans := req.GetAnswer()
		if ans == nil {
			c.reject("", "", orreryv1.RejectCode_REJECT_CODE_MALFORMED, "this ladder stream has joined; send answers naming their match_id")
			continue
		}
		id := ans.GetMatchId()
		if id == "" {
			c.reject("", ans.GetDecisionId(), orreryv1.RejectCode_REJECT_CODE_MALFORMED, "an answer on a ladder stream must name its match_id")
			continue
		}
		c.routeMu.Lock()
		r := c.routes[id]
		c.routeMu.Unlock()
		if r == nil {
			c.reject(id, ans.GetDecisionId(), orreryv1.RejectCode_REJECT_CODE_STALE_DECISION, fmt.Sprintf("this stream plays no match %q now", id))
			continue
		}
		select {
		case r.answers <- req:
		case <-r.done:
			c.reject(id, ans.GetDecisionId(), orreryv1.RejectCode_REJECT_CODE_STALE_DECISION, fmt.Sprintf("match %q has ended", id))
		case <-c.ctx.Done():
			return
		}
	}
}

func (c *conn) reject(match, decision string, code orreryv1.RejectCode, reason string) {
	if err := c.send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Rejected{Rejected: &orreryv1.ActionRejected{
		DecisionId: decision, Code: code, Reason: reason, MatchId: match,
	}}}); err != nil {
		c.stop(err)
	}
}

// startSeatLocked plays seat of lm on this stream. l.mu is held.
func (c *conn) startSeatLocked(lm *liveMatch, seat int) {
	c.wg.Add(1)
	go c.playSeat(lm, seat)
}

// playSeat joins the seat, tells the bot (Joined), and relays the match until it ends or the
// stream does.
func (c *conn) playSeat(lm *liveMatch, seat int) {
	defer c.wg.Done()
	l := c.l
	ended := false
	for attempt := 0; c.alive(); attempt++ {
		if attempt > 0 && !l.rejoinWait(c, lm, attempt) {
			break
		}
		st, err := l.link(c, lm, seat)
		if err != nil {
			if l.cfg.Cluster != nil {
				continue // its node died, or the node taking it over has not resumed it yet
			}
			break // the match is gone from memory: it ended long ago
		}
		l.mu.Lock()
		owner := lm.runner[seat] == c
		l.mu.Unlock()
		if !owner { // a newer stream of the bot took the seat while this one attached
			st.Detach()
			break
		}
		r := &route{answers: make(chan *orreryv1.PlayRequest, 8), done: make(chan struct{})}
		c.routeMu.Lock()
		c.routes[lm.id] = r
		c.routeMu.Unlock()
		err = c.send(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Joined{Joined: st.Joined()}})
		if err == nil {
			err = st.Run(c.ctx, r.answers, c.send)
		}
		close(r.done)
		c.routeMu.Lock()
		delete(c.routes, lm.id)
		c.routeMu.Unlock()
		st.Detach()
		if err == nil {
			ended = true
			break
		}
		// Replaced by a racing attach here, or Aborted by the node a remote seat runs on: retry.
		if !errors.Is(err, match.ErrReplaced) && status.Code(err) != codes.Aborted && l.cfg.Cluster == nil {
			break
		}
	}
	l.seatDone(c, lm, seat, ended)
}

// rejoinWait waits before joining a seat again, longer each attempt up to a second; false
// if the stream ended, or on a cluster the match did meanwhile.
func (l *Ladder) rejoinWait(c *conn, lm *liveMatch, attempt int) bool {
	if l.cfg.Cluster == nil {
		return true // Aborted by a racing attach: at once
	}
	select {
	case <-c.ctx.Done():
		return false
	case <-time.After(min(time.Duration(attempt)*100*time.Millisecond, time.Second)):
	}
	return !l.matchOver(c.ctx, lm.id)
}

// seatDone frees a stream's room after one of its seats stops, counting the bot's timeouts if
// it played to the end.
func (l *Ladder) seatDone(c *conn, lm *liveMatch, seat int, ended bool) {
	timedOut := false
	if ended && !lm.tournament { // a tournament's timeouts are its own affair, not matchmaking's
		if sum, err := l.arena.AwaitEnd(l.ctx, lm.id); err == nil && seat < len(sum.GetSeatInfo()) {
			timedOut = sum.GetSeatInfo()[seat].GetTimeouts() > 0
		}
		l.noteTimeouts(c, lm.id, timedOut)
	}
	l.mu.Lock()
	if lm.runner[seat] == c {
		lm.runner[seat] = nil
	}
	if lm.seated && l.live[lm.id] == lm && !slices.ContainsFunc(lm.runner, func(r *conn) bool { return r != nil }) {
		delete(l.live, lm.id)
	}
	c.active--
	if c.alive() {
		l.requeueLocked(c)
		if c.paused && c.active == 0 {
			b := c.bot
			c.stop(status.Errorf(codes.FailedPrecondition, "bot %s is paused from matchmaking until %s: %s (ResumeBot lifts the pause)",
				b.name, b.pausedUntil.UTC().Format(time.RFC3339), b.pauseReason))
		}
	}
	l.mu.Unlock()
	wake(l.kick)
}

// noteTimeouts counts consecutive matches in which the bot's clock ran out while it was
// connected, and pauses it from matchmaking after PauseAfter of them.
func (l *Ladder) noteTimeouts(c *conn, match string, timedOut bool) {
	now := l.now()
	l.mu.Lock()
	b := c.bot
	before := b.timeoutStreak
	if !timedOut {
		b.timeoutStreak = 0
	} else {
		b.timeoutStreak++
	}
	pause := timedOut && b.timeoutStreak >= l.cfg.PauseAfter && b.pausedUntil.IsZero()
	if pause {
		b.pausedUntil = now.Add(l.cfg.PauseFor)
		b.pauseReason = fmt.Sprintf("its clock ran out in %d consecutive matches (the last %s); answer each decision before its deadline",
			b.timeoutStreak, match)
		c.paused = true
		l.queue.Remove(b.id)
	}
	until, reason, streak := b.pausedUntil, b.pauseReason, b.timeoutStreak
	l.mu.Unlock()
	if streak == before && !pause {
		return
	}
	if err := l.db.setPause(l.ctx, b.id, until, reason, streak); err != nil && l.ctx.Err() == nil {
		l.log.Error("ladder: record timeouts", "bot", b.name, "err", err)
	}
	if pause {
		l.log.Warn("ladder bot paused", "bot", b.name, "until", until, "reason", reason)
	}
}

// requeueLocked puts a stream's bot in the queue with the room it has left, keeping its place
// if it is already waiting. l.mu is held.
func (l *Ladder) requeueLocked(c *conn) {
	b := c.bot
	if !c.alive() || c.paused || c.tournamentsOnly || b.revoked || l.conns[b.id] != c {
		return
	}
	room := c.max - c.active
	if room <= 0 {
		l.queue.Remove(b.id)
		return
	}
	mus := make([]float64, len(c.games))
	for i, g := range c.games {
		mus[i] = l.ratingLocked(b.id, g).Mu
	}
	since := l.now()
	if s, ok := l.queue.Since(b.id); ok {
		since = s
	}
	l.queue.Put(b.id, c.games, mus, since, room)
}
